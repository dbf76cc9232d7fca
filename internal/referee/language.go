package referee

import (
	"fmt"
	"strings"

	"referee/internal/notation"
	"referee/internal/render"
)

// A player's language (the "language" command, issue 42), over all their
// games, stored like their time zone: the piece letters of that language
// are read in their moves (notation.ReadFor). The mails themselves are
// still written in English.

// LanguageChange sets a player's language.
type LanguageChange struct {
	Address string // addr.Mailbox of the player
	Code    string // a code of notation.Languages
}

// languageCodes lists the codes the command takes, with the languages'
// names in English: "en English, de German, ...".
func languageCodes() string {
	var s []string
	for _, l := range notation.Languages() {
		s = append(s, l.Code+" "+l.Name)
	}
	return strings.Join(s, ", ")
}

// lettersText says which letters a language reads: "K D T L S (king,
// queen, rook, bishop, knight)".
func lettersText(l notation.Language) string {
	return strings.Join(l.Letters[:], " ") + " (king, queen, rook, bishop, knight)"
}

// languageLine is the player's language as the answers show it:
// "German (de)", or "none".
func languageLine(code string) string {
	if l, ok := notation.LookupLanguage(code); ok && code != "" {
		return l.Name + " (" + l.Code + ")"
	}
	return "none"
}

// language sets the sender's language for all their games ("language
// de", "language Deutsch"), or shows it ("language").
func (r *Referee) language(c *call) Outcome {
	m, env := c.m, c.env
	const shared = "Whatever the language, the letters that English does not use for a piece are read as the one piece they mean in every language that writes them (S and C the knight, L, A, F and G the bishop, D and H the queen, T and W the rook, and the Russian letters), where the game has that piece."
	if len(c.args) == 0 {
		text := fmt.Sprintf("Your language: %s.", languageLine(env.Language))
		if l, ok := notation.LookupLanguage(env.Language); ok && env.Language != "" {
			text += fmt.Sprintf(" The referee reads the %s piece letters %s in your moves.", l.Name, lettersText(l))
		} else {
			text += " The referee reads your moves with the English piece letters K Q R B N; a letter that English and another language give two pieces (R, the French king; P, the Dutch knight) is English's."
		}
		text = wrap(text+" "+shared) + "\n\n" + wrap(fmt.Sprintf("To set yours, send \"language\" and its code or name, e.g. \"language de\" or \"language Deutsch\". The codes: %s.", languageCodes())) + "\n"
		return r.lobbyAnswer(m, env, "language", "Your language: "+languageLine(env.Language), text)
	}
	// The arguments come lower case; the original spelling is on the line.
	arg := strings.Join(c.args, " ")
	if f := strings.Fields(m.Action); len(f) >= 2 {
		arg = strings.Join(f[1:], " ")
	}
	l, ok := notation.LookupLanguage(arg)
	if !ok {
		return r.refuse(env, m, "language: unknown "+arg,
			fmt.Sprintf("%q is not a language whose piece letters the referee reads. It reads these, by code: %s.", arg, languageCodes()),
			"Send \"language\" and one of those codes (or the language's name), e.g. \"language de\".")
	}
	text := fmt.Sprintf("Your language is now %s (%s): in all your games the referee reads its piece letters, %s, in your moves, and each confirmation says how it read a letter, e.g. %q for the knight's move to f3. ",
		l.Name, l.Code, lettersText(l), l.Letters[4]+"f3")
	if l.Code != "en" {
		text += "A letter that English gives another piece is read as yours first, as English's where only that move is legal, and where both are legal the referee asks. "
	}
	text += shared + " The referee's mails still write moves with the English letters K Q R B N."
	out := r.lobbyAnswer(m, env, "language", "Your language: "+languageLine(l.Code), wrap(text)+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s set the language %s", m.From, l.Code)
	out.Lobby = &LobbyChange{Language: &LanguageChange{Address: m.From, Code: l.Code}}
	return out
}

// LanguageHintChange records that a player was told how to set the
// languages Codes (the hint, once).
type LanguageHintChange struct {
	Address string
	Codes   []string
}

// A hint, not a guess (issue 42): a player who set no language and wrote
// a move in letters no English piece uses, of one or two languages ("Sf3":
// German or Polish; "Fb5": French), is told once, in English and in each
// of those languages, how to have their letters read. The move itself was
// read as the confirmation says; nothing is set for them.

// maxHintLanguages bounds the languages a hint names: "Dd1" fits six, and
// says nothing about which one is the player's.
const maxHintLanguages = 2

// languageHint is the section that tells a player how to set the
// languages codes, or false when there is nothing to tell: a language set
// or told before, no letter of another language, or too many languages.
func languageHint(p Player, env Env, codes []string) (render.Section, bool) {
	if p.Language != "" || env.Language != "" || env.LanguageHinted || len(codes) == 0 || len(codes) > maxHintLanguages {
		return render.Section{}, false
	}
	var names, sends []string
	for _, c := range codes {
		l, _ := notation.LookupLanguage(c)
		names = append(names, l.Name)
		sends = append(sends, fmt.Sprintf("\"language %s\" (%s)", l.Code, l.Name))
	}
	body := wrap(fmt.Sprintf("Your move was written with the piece letters of %s, and read so. To have the letters of your language read in all your games, and a letter that English gives another piece (such as R, the king in French, or P, the knight in Dutch) read as yours, reply %s. This note is not sent again.",
		strings.Join(names, " or "), strings.Join(sends, " or ")))
	for _, c := range codes {
		if t := hintIn(c); t != "" {
			body += "\n\n" + wrap(t)
		}
	}
	return render.Section{Title: "Your language", Body: body}, true
}

// hintIn says in the language code how to have its letters read.
func hintIn(code string) string {
	switch code {
	case "de":
		return "Damit der Schiedsrichter in allen Ihren Partien die deutschen Figurenbuchstaben (K D T L S) liest, antworten Sie mit \"language de\"."
	case "fr":
		return "Pour que l'arbitre lise les lettres françaises des pièces (R D T F C) dans toutes vos parties, répondez \"language fr\"."
	case "es":
		return "Para que el árbitro lea las letras españolas de las piezas (R D T A C) en todas sus partidas, responda \"language es\"."
	case "it":
		return "Perché l'arbitro legga le lettere italiane dei pezzi (R D T A C) in tutte le sue partite, risponda \"language it\"."
	case "pt":
		return "Para que o árbitro leia as letras portuguesas das peças (R D T B C) em todas as suas partidas, responda \"language pt\"."
	case "nl":
		return "Antwoord \"language nl\" om de scheidsrechter in al uw partijen de Nederlandse stukletters (K D T L P) te laten lezen."
	case "pl":
		return "Aby sędzia odczytywał polskie litery figur (K H W G S) we wszystkich Twoich partiach, odpowiedz \"language pl\"."
	case "ru":
		return "Чтобы судья читал русские обозначения фигур (Кр Ф Л С К) во всех ваших партиях, ответьте \"language ru\"."
	}
	return ""
}

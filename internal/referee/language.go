package referee

import (
	"fmt"
	"strings"

	"referee/internal/notation"
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

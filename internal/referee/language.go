package referee

import (
	"fmt"
	"strings"

	"referee/internal/lang"
	"referee/internal/notation"
)

// A player's language (the "language" command, issue 42), over all their
// games, stored like their time zone: the referee's mails to them are
// written in it (the texts its catalog has: internal/lang), their record
// in a mail has its piece letters (notation.WriteIn), and those letters
// are read in their moves (notation.ReadFor). The command's own answers
// are in the language it sets, or shows.

// LanguageChange sets a player's language.
type LanguageChange struct {
	Address string // addr.Mailbox of the player
	Code    string // a code of notation.Languages, as a lang.Tag ("de-x-fig" with figurines)
}

// lettersText says which letters a language reads, with the pieces' names
// in p's language: "K D T L S (king, queen, rook, bishop, knight)".
func lettersText(p *lang.Printer, l notation.Language) string {
	return strings.Join(l.Letters[:], " ") + " (" + strings.Join([]string{p.Sprintf("king"), p.Sprintf("queen"),
		p.Sprintf("rook"), p.Sprintf("bishop"), p.Sprintf("knight")}, ", ") + ")"
}

// languageName is l's name for a reader of p: English's name for it in
// English ("German"); otherwise its own name, lower case where the
// language writes its name so in a sentence ("français", "русский").
func languageName(p *lang.Printer, l notation.Language) string {
	if p.Code() == lang.English {
		return l.Name
	}
	switch l.Code {
	case "fr", "es", "it", "pt", "pl", "ru":
		return strings.ToLower(l.Native)
	}
	return l.Native
}

// languageLine is the player's language as the answers show it:
// "German (de)", or "none"; tag is their setting (lang.Tag).
func languageLine(p *lang.Printer, tag string) string {
	if l, ok := languageOf(tag); ok {
		return languageName(p, l) + " (" + l.Code + ")"
	}
	return p.Sprintf("none")
}

// languageOf is the language a player's setting tag names (lang.Tag),
// false when they set none.
func languageOf(tag string) (notation.Language, bool) {
	code, _ := lang.SplitTag(tag)
	if code == "" {
		return notation.Language{}, false
	}
	return notation.LookupLanguage(code)
}

// latin reports whether the language writes its piece letters in the
// Latin alphabet (the mails write a Russian reader's moves in figurines).
func latin(l notation.Language) bool {
	for _, x := range l.Letters {
		for _, c := range x {
			if c > 'Z' {
				return false
			}
		}
	}
	return true
}

// language sets the sender's language for all their games ("language
// de", "language Deutsch"), or shows it ("language"). The answer is in
// the language set, or shown.
func (r *Referee) language(c *call) Outcome {
	m, env := c.m, c.env
	shared := func(p *lang.Printer) string {
		return p.Sprintf("Whatever the language, the letters that English does not use for a piece are read as the one piece they " +
			"mean in every language that writes them (S and C the knight, L, A, F and G the bishop, D and H the queen, T and W the " +
			"rook, and the Russian letters), where the game has that piece.")
	}
	if len(c.args) == 0 {
		p := r.senderPrinter(env)
		text := p.Sprintf("Your language: %s.", languageLine(p, env.Language))
		if l, ok := languageOf(env.Language); ok {
			text += " " + p.Sprintf("The referee reads the %s piece letters %s in your moves.", languageName(p, l), lettersText(p, l))
		} else {
			text += " " + p.Sprintf("The referee reads your moves with the English piece letters K Q R B N; a letter that English and another "+
				"language give two pieces (R, the French king; P, the Dutch knight) is English's.")
		}
		text = wrap(text+" "+shared(p)) + "\n\n" + wrap(p.Sprintf("To set yours, send \"language\" and its code or name, "+
			"e.g. \"language de\" or \"language Deutsch\". The codes: %s.", codesText{}.In(p))) + "\n"
		return r.lobbyAnswerIn(p, m, env, "language", p.Sprintf("Your language: %s", languageLine(p, env.Language)), text)
	}
	// The arguments come lower case; the original spelling is on the line.
	arg := strings.Join(c.args, " ")
	if f := strings.Fields(m.Action); len(f) >= 2 {
		arg = strings.Join(f[1:], " ")
	}
	l, ok := notation.LookupLanguage(arg)
	if !ok {
		return r.refuseIn(env, m, "language: unknown "+arg,
			lang.M("%q is not a language whose piece letters the referee reads. It reads these, by code: %s.", arg, codesText{}),
			lang.M("Send \"language\" and one of those codes (or the language's name), e.g. \"language de\"."))
	}
	// The answer is in the language just set.
	p := r.printer(l.Code)
	text := p.Sprintf("Your language is now %s (%s): the referee writes its mails to you in it, and in all your games reads its "+
		"piece letters, %s, in your moves; each confirmation says how it read a letter, e.g. %q for the knight's move to f3.",
		languageName(p, l), l.Code, lettersText(p, l), l.Letters[4]+"f3")
	if l.Code != lang.English {
		text += " " + p.Sprintf("A letter that English gives another piece is read as yours first, as English's where only that move "+
			"is legal, and where both are legal the referee asks.")
	}
	text += " " + shared(p)
	_, fig := lang.SplitTag(env.Language)
	if l.Code != lang.English || fig {
		if latin(l) && !fig {
			text += " " + p.Sprintf("The referee's mails to you write the moves with these letters too; a game's record (\"record\", PGN) keeps the English ones.")
		} else {
			text += " " + p.Sprintf("The referee's mails to you write the moves with figurines (%s); a game's record (\"record\", PGN) keeps the English letters.",
				"♔ ♕ ♖ ♗ ♘")
		}
	}
	out := r.lobbyAnswerIn(p, m, env, "language", p.Sprintf("Your language: %s", languageLine(p, l.Code)), wrap(text)+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s set the language %s", m.From, l.Code)
	out.Lobby = &LobbyChange{Language: &LanguageChange{Address: m.From, Code: lang.Tag(l.Code, fig)}}
	return out
}

// figurinesCommand sets whether the referee writes the sender's moves
// with figurines (♘f3) instead of their language's letters, over all
// their games ("figurines on", "figurines off"), or shows it
// ("figurines"): the figurines on request of issue 42. It is kept in
// their language tag (lang.Tag), beside the language, so every mail to
// them writes their moves so. A language whose letters are not Latin
// (Russian) has figurines either way.
func (r *Referee) figurinesCommand(c *call) Outcome {
	m, env := c.m, c.env
	code, on := lang.SplitTag(env.Language)
	p := r.senderPrinter(env)
	l, set := languageOf(env.Language)
	always := set && !latin(l)
	if len(c.args) == 0 {
		var text string
		switch {
		case always:
			text = p.Sprintf("The referee writes your moves with figurines (%s), as it does for %s, whose letters are not Latin.",
				"♔ ♕ ♖ ♗ ♘", languageName(p, l))
		case on:
			text = p.Sprintf("The referee writes your moves with figurines (%s). Send \"figurines off\" for letters again.", "♔ ♕ ♖ ♗ ♘")
		default:
			text = p.Sprintf("The referee writes your moves with letters (%s). Send \"figurines on\" for figurines (%s) instead.",
				letterList(l, set), "♔ ♕ ♖ ♗ ♘")
		}
		return r.lobbyAnswerIn(p, m, env, "figurines", p.Sprintf("Figurines"), wrap(text)+"\n")
	}
	var want bool
	switch c.args[0] {
	case "on", "yes":
		want = true
	case "off", "no":
	default:
		return r.refuseIn(env, m, "figurines: "+strings.Join(c.args, " "),
			lang.M("%q says neither on nor off.", "figurines "+strings.Join(c.args, " ")),
			lang.M("Send \"figurines on\" to have your moves written with figurines (%s), \"figurines off\" for letters.", "♔ ♕ ♖ ♗ ♘"))
	}
	tag := lang.Tag(code, want)
	q := r.printer(tag)
	var text string
	switch {
	case always:
		text = q.Sprintf("The referee writes your moves with figurines (%s) either way, as it does for %s, whose letters are not Latin.",
			"♔ ♕ ♖ ♗ ♘", languageName(q, l))
	case want:
		text = q.Sprintf("From now on the referee writes your moves with figurines, in all your games: %s for the knight's move to f3. "+
			"You may write them in your moves too, as well as letters; a figurine is read as the piece it shows. "+
			"A game's record (\"record\", PGN) keeps the English letters. \"figurines off\" brings back the letters.", "♘f3")
	default:
		text = q.Sprintf("From now on the referee writes your moves with letters again (%s), in all your games.", letterList(l, set))
	}
	out := r.lobbyAnswerIn(q, m, env, "figurines", q.Sprintf("Figurines"), wrap(text)+"\n")
	if tag == env.Language {
		return out
	}
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s set figurines %v", m.From, want)
	out.Lobby = &LobbyChange{Language: &LanguageChange{Address: m.From, Code: tag}}
	return out
}

// letterList is the piece letters a player reads: their language's, or
// English's when they set none ("K D T L S").
func letterList(l notation.Language, set bool) string {
	if !set {
		l, _ = notation.LookupLanguage(lang.English)
	}
	return strings.Join(l.Letters[:], " ")
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

package referee

import (
	"fmt"
	"slices"
	"strings"

	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/render"
)

// languageHint is the section that tells a player how to set the
// languages codes, or false when there is nothing to tell: a language set
// or told before, no language seen, or too many languages. fromMail says
// where the languages were seen: in the move's piece letters (false), or
// in the mail itself (its quote header, its Content-Language: mailWhy).
func (r *Referee) languageHint(p Player, env Env, codes []string, mailWhy string) (render.Section, bool) {
	if languageSet(p.Language) || languageSet(env.Language) || env.LanguageHinted || len(codes) == 0 || len(codes) > maxHintLanguages {
		return render.Section{}, false
	}
	var names, sends []string
	for _, c := range codes {
		l, _ := notation.LookupLanguage(c)
		names = append(names, l.Name)
		sends = append(sends, fmt.Sprintf("\"language %s\" (%s)", l.Code, l.Name))
	}
	// The English paragraph is written in English for everyone: the
	// player may not read the language the referee saw.
	var body string
	if mailWhy == "" {
		body = wrap(fmt.Sprintf("Your move was written with the piece letters of %s, and read so. To have the referee write to you in your language, and read its letters in all your games (a letter that English gives another piece, such as R, the king in French, or P, the knight in Dutch, read as yours), reply %s. This note is not sent again.",
			strings.Join(names, " or "), strings.Join(sends, " or ")))
	} else {
		body = wrap(fmt.Sprintf("Your mail is written in %s (%s). To have the referee write to you in that language, and read its piece letters in all your games, reply %s. This note is not sent again.",
			strings.Join(names, " or "), mailWhy, strings.Join(sends, " or ")))
	}
	for _, c := range codes {
		l, _ := notation.LookupLanguage(c)
		body += "\n\n" + wrap(r.printer(c).Sprintf("To have the referee write to you in this language and read your piece letters, %s, in all your games, reply \"language %s\".",
			strings.Join(l.Letters[:], " "), l.Code))
	}
	return render.Section{Title: "Your language", Body: body}, true
}

// mailLanguages are the referee's languages other than English that the
// mail m shows: the language of the quote header above the mail it
// answers, and its Content-Language; with where they were seen, in
// words, for the hint.
func mailLanguages(m *reader.Mail) (codes []string, why string) {
	var whys []string
	for _, seen := range []struct{ code, where string }{
		{reader.QuoteLanguage(m.Text), "the header above the mail you quoted"},
		{m.ContentLanguage, "the language your mail declares, its Content-Language"},
	} {
		l, ok := notation.LookupLanguage(seen.code)
		if seen.code == "" || !ok || l.Code == "en" {
			continue
		}
		whys = append(whys, seen.where)
		if !slices.Contains(codes, l.Code) {
			codes = append(codes, l.Code)
		}
	}
	return codes, strings.Join(whys, " and ")
}

// languageSet reports whether a player's setting tag (lang.Tag) names a
// language: one who only asked for figurines set none, and may be hinted.
func languageSet(tag string) bool {
	code, _ := lang.SplitTag(tag)
	return code != ""
}

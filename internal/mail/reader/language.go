package reader

import (
	"strings"
)

// The languages a mail shows (issue 42: a player who has set no language
// and writes in another is told once how to set it, "a hint, not a
// guess"): the Content-Language its client declared, and the language of
// the quote header the client wrote above the mail it answers. The
// reader reports them; the referee decides what to make of them.

// contentLanguage is the primary language subtag of a Content-Language
// field (RFC 3282: "de-DE", "fr, en"), lower case: its first tag's
// language, or "" when the field is missing or not a language tag.
func contentLanguage(field string) string {
	tag, _, _ := strings.Cut(field, ",")
	tag, _, _ = strings.Cut(strings.TrimSpace(tag), "-")
	tag = strings.ToLower(strings.TrimSpace(tag))
	if len(tag) < 2 || len(tag) > 3 {
		return ""
	}
	for _, r := range tag {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	return tag
}

// verbLanguages names the language of an attribution verb that only one
// language writes (attributionVerbs has more: "napsal" is Czech, "пише"
// Ukrainian, and those are not the referee's languages).
var verbLanguages = []struct{ verb, code string }{
	{"wrote", "en"}, {"writes", "en"}, {"schrieb", "de"}, {"écrit", "fr"}, {"escribió", "es"},
	{"scritto", "it"}, {"scrisse", "it"}, {"escreveu", "pt"}, {"schreef", "nl"}, {"geschreven", "nl"},
	{"napisał", "pl"}, {"pisze", "pl"}, {"написал", "ru"}, {"пишет", "ru"},
}

// labelLanguages names the language of a quoted header field's name that
// only one of the referee's languages writes ("De :" is French, Spanish
// and Portuguese; "Objet :" French alone).
var labelLanguages = map[string]string{
	"from": "en", "sent": "en", "subject": "en",
	"von": "de", "gesendet": "de", "betreff": "de",
	"envoyé": "fr", "envoyé le": "fr", "objet": "fr", "date d'envoi": "fr",
	"asunto": "es", "enviado el": "es",
	"inviato": "it", "inviato il": "it", "oggetto": "it",
	"assunto":   "pt",
	"verzonden": "nl", "onderwerp": "nl", "aan": "nl", "van": "nl",
	"wysłano": "pl", "temat": "pl",
	"отправлено": "ru", "от": "ru", // "Кому:", "Тема:" are Ukrainian too
}

// ruleLanguages names the language of the words in a rule above a quoted
// mail ("-----Ursprüngliche Nachricht-----"), lower case.
var ruleLanguages = []struct{ words, code string }{
	{"original message", "en"}, {"ursprüngliche nachricht", "de"}, {"message d'origine", "fr"},
	{"mensaje original", "es"}, {"messaggio originale", "it"}, {"mensagem original", "pt"},
	{"oorspronkelijk bericht", "nl"}, {"oryginalna wiadomość", "pl"}, {"исходное сообщение", "ru"},
}

// QuoteLanguage is the language of the first quote header in text (an
// attribution line, "Am … schrieb Bob:", or a quoted header block,
// "Von:/Gesendet:/Betreff:"), as a code ("de"; "en" for English), or ""
// when text has none or its words are shared by several languages.
func QuoteLanguage(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		trim := strings.TrimSpace(strings.TrimLeft(line, "> "))
		if trim == "" {
			continue
		}
		if namedRuleRE.MatchString(trim) {
			low := strings.ToLower(trim)
			for _, r := range ruleLanguages {
				if strings.Contains(low, r.words) {
					return r.code
				}
			}
			return ""
		}
		attribution := ""
		if isAttribution(trim) {
			attribution = trim
		} else if j := wrappedAttribution(lines, i); j >= 0 {
			attribution = strings.Join(lines[i:j+1], " ")
		}
		if attribution != "" {
			low := strings.ToLower(attribution)
			for _, v := range verbLanguages {
				if strings.Contains(low, v.verb) {
					return v.code
				}
			}
			return ""
		}
		if inlineHeader(trim) {
			return labelLanguages[label(trim)]
		}
		if label(trim) != "" && headerBlock(lines, i) {
			votes := map[string]int{}
			for j := i; j < len(lines) && j <= i+8; j++ {
				if c, ok := labelLanguages[label(strings.TrimSpace(lines[j]))]; ok {
					votes[c]++
				}
			}
			best, n, tie := "", 0, false
			for c, k := range votes {
				switch {
				case k > n:
					best, n, tie = c, k, false
				case k == n:
					tie = true
				}
			}
			if tie {
				return ""
			}
			return best
		}
	}
	return ""
}

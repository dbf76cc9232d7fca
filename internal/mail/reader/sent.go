package reader

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Sent is what the referee itself wrote in the mails a reply answers (the
// mail its In-Reply-To names, and the referee's earlier mails of the
// thread): the referee knows what it sent, so a line of it in a reply,
// quoted or not, in whatever language the client wrote its quote header,
// is never the player's. The zero value and nil know no lines.
type Sent struct {
	lines map[string]bool // each line of the mails, normalised (sentKey)
	flat  string          // every line, normalised, joined by one space: a rewrapped line is a piece of it
}

// Lines of a reply shorter than these are never taken for the referee's:
// a short line ("ok", "Thanks!") may be the player's own and the same as a
// line of the referee's mail by chance.
const (
	minSentLine  = 8  // runes, for a line equal to one of the referee's
	minSentPiece = 20 // runes, for a piece of the referee's text (a line the client rewrapped)
)

// NewSent returns the lines of the referee's mails, each given as its
// text part and its HTML part (either may be ""): texts holds pairs, text
// then HTML. The HTML is read as the reader reads an HTML reply, so that a
// reply that quotes the HTML part shows the same lines.
func NewSent(texts ...string) *Sent {
	s := &Sent{lines: map[string]bool{}}
	var flat []string
	for i, t := range texts {
		if i%2 == 1 && t != "" {
			t = linearHTMLText(t, DefaultLimits().MaxTextBytes)
		}
		for _, l := range strings.Split(normaliseChars(t), "\n") {
			if k := sentKey(l); k != "" {
				s.lines[k] = true
				flat = append(flat, k)
			}
		}
	}
	s.flat = strings.Join(flat, " ")
	return s
}

// sentKey normalises a line for comparing: quote marks and spaces at its
// start taken off, white space collapsed, lower case.
func sentKey(l string) string {
	l = strings.TrimLeft(strings.TrimSpace(l), "> |")
	return strings.ToLower(strings.Join(strings.Fields(l), " "))
}

// has reports whether line (of a reply) is a line of the referee's mails,
// or a piece of one that the client rewrapped. A conditional line ("if …")
// is never taken for the referee's: the referee's mail shows a player's
// own lines back to them, and a player sends them again.
func (s *Sent) has(line string) bool {
	if s == nil || len(s.lines) == 0 || len(line) > maxMarkerLine*4 {
		return false
	}
	k := sentKey(line)
	n := utf8.RuneCountInString(k)
	if n < minSentLine || strings.HasPrefix(k, "if ") {
		return false
	}
	return s.lines[k] || n >= minSentPiece && strings.Contains(s.flat, k)
}

// sentHeaderTop returns where the quote that the referee's line lines[i]
// belongs to begins: the lines directly above it (blank lines between
// them aside) are the client's quote header, in whatever language: the
// nearest one unless it ends a sentence, and above it those that look like
// a header's (a field, an attribution, an address, a date, a rule), four
// lines at most ("Le dim. 22 nov. 2026 à 10:02, Referee <…> a écrit :",
// "发件人: …", a header in a language no list holds).
func sentHeaderTop(lines []string, i int) int {
	top, n := i, 0
	for k := i - 1; k >= 0 && n < 4; k-- {
		l := strings.TrimSpace(lines[k])
		switch {
		case l == "":
			continue
		case headerLike(l), n == 0 && !strings.ContainsAny(lastRune(l), ".!?…"):
			top, n = k, n+1
			continue
		}
		break
	}
	return headerTop(lines, top)
}

// anyLabelRE: a header field in any language, "Name: value" with a short
// name ("Autor: …", "Aeg: …").
var anyLabelRE = regexp.MustCompile(`^\**\p{L}[\p{L}\p{M} .'-]{0,24}\**\s?[:：]\s*\S`)

// headerLike reports whether l may be a line of a quote header: a header
// field, an attribution or a piece of one, a rule, a line with an address
// or a date.
func headerLike(l string) bool {
	return l == quoteMark || label(l) != "" || anyLabelRE.MatchString(l) || strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：") ||
		hasAttributionVerb(l) || startsHeader(l) || ruleRE.MatchString(l) || strings.ContainsAny(l, "<>")
}

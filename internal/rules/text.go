package rules

import (
	"strings"

	"referee/internal/lang"
)

// Issue 42: the rules' reasons are written in each reader's language. A
// reason is a lang.Text (a catalog message, keyed by its English); the
// string methods (WhyIllegal, ...) write it in English, as before, for
// logs, tests and callers that want English.

// PositionExplainText is a PositionExplain whose reason is a text for the
// reader's language; nil where WhyIllegal is "".
type PositionExplainText interface {
	PositionExplain
	WhyIllegalText(from, to Square) lang.Text
}

// CastleExplainText is a CastleExplain whose reason is a text for the
// reader's language; nil where WhyNoCastle is "".
type CastleExplainText interface {
	CastleExplain
	WhyNoCastleText(san string) lang.Text
}

// ActionExplainText is an ActionExplain whose reason is a text for the
// reader's language; nil where WhyNot is "".
type ActionExplainText interface {
	ActionExplain
	WhyNotText(m Move) lang.Text
}

// English writes t in English, "" for nil, without the catalog (a nil
// printer): right for the reasons, which have no plural forms; a plural
// message would be written as its key.
func English(t lang.Text) string {
	if t == nil {
		return ""
	}
	return t.In(nil)
}

// TitleText is the variant's title in the reader's language: orthodox
// chess's is translated, the other variants' names are their own.
func TitleText(v Variant) lang.Text {
	if t := v.Title(); t != "Chess" {
		return lang.Raw(t)
	}
	return lang.M("Chess")
}

// AndList is the texts as a list in the reader's language: "a", "a and
// b", "a, b and c".
func AndList(items ...lang.Text) lang.Text { return list{items: items, or: false} }

// OrList is the texts as a list of choices in the reader's language: "a",
// "a or b", "a, b or c".
func OrList(items ...lang.Text) lang.Text { return list{items: items, or: true} }

// OrEach is the texts with "or" between each two: "a or b or c".
func OrEach(items ...lang.Text) lang.Text { return list{items: items, or: true, each: true} }

// Texts are the strings as texts written the same in every language.
func Texts(items []string) []lang.Text {
	out := make([]lang.Text, len(items))
	for i, s := range items {
		out[i] = lang.Raw(s)
	}
	return out
}

type list struct {
	items    []lang.Text
	or, each bool
}

// In joins the items with ", " and the language's "and" (or "or") before
// the last one; with each, the conjunction between every two.
func (l list) In(p *lang.Printer) string {
	join := func(a, b string) string {
		if l.or {
			return a + p.Sprintf(" or ") + b
		}
		return a + p.Sprintf(" and ") + b
	}
	var parts []string
	for _, t := range l.items {
		parts = append(parts, t.In(p))
	}
	switch n := len(parts); {
	case n == 0:
		return ""
	case n == 1:
		return parts[0]
	case l.each:
		s := parts[0]
		for _, x := range parts[1:] {
			s = join(s, x)
		}
		return s
	default:
		return join(strings.Join(parts[:n-1], ", "), parts[n-1])
	}
}

// aPiece is a piece's name after English's article "a" ("a knight"):
// the article is a message of its own, so that a language without one
// writes the name alone and its sentence places it.
func aPiece(name string) lang.Text { return lang.M("a %s", PieceWord(name)) }

// anyPiece is aPiece with "an" before a vowel ("an archbishop", "an
// amazon": a variant file's pieces).
func anyPiece(name string) lang.Text {
	if name != "" && strings.ContainsRune("aeio", rune(name[0])) {
		return lang.M("an %s", PieceWord(name))
	}
	return aPiece(name)
}

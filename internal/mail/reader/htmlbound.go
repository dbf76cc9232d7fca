package reader

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The HTML-to-text converter builds the whole document tree, and a tree
// parser's work on hostile shapes (thousands of nested or misnested
// elements) grows faster than the input. Before the tree parser sees an
// HTML part, one linear pass of the tokenizer measures it; a part over
// these limits is converted by that linear pass alone (text kept, layout
// lost), so the work one mail can cause is linear in its size, and its
// size is capped by Limits (4 x MaxTextBytes of HTML).
const (
	maxHTMLDepth = 100    // elements open at once; real mail nests about 30 deep
	maxHTMLTags  = 10_000 // start and end tags; a long real newsletter has about 3,000
)

// voidElements never have an end tag, so they do not nest.
var voidElements = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Param: true, atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// htmlOverLimits says why the tree parser must not be given s ("" when it
// may), after one pass of the tokenizer over it.
func htmlOverLimits(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	depth, maxDepth, tags := 0, 0, 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			tags++
			name, _ := z.TagName()
			if !voidElements[atom.Lookup(name)] {
				depth++
				maxDepth = max(maxDepth, depth)
			}
		case html.EndTagToken:
			tags++
			depth = max(depth-1, 0)
		case html.SelfClosingTagToken:
			tags++
		}
		switch {
		case maxDepth > maxHTMLDepth:
			return fmt.Sprintf("its elements are nested more than %d deep", maxHTMLDepth)
		case tags > maxHTMLTags:
			return fmt.Sprintf("it has more than %d tags", maxHTMLTags)
		}
	}
}

// blockElements end a line of text where they open or close.
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Br: true,
	atom.Dd: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true,
	atom.Li: true, atom.Main: true, atom.Nav: true, atom.Ol: true, atom.P: true, atom.Pre: true,
	atom.Section: true, atom.Table: true, atom.Tr: true, atom.Ul: true,
}

// skippedElements hold no words of the sender's.
var skippedElements = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Title: true, atom.Template: true,
}

// linearHTMLText converts s to text in one pass of the tokenizer, without
// a tree: the text of every element but head, script, style, title and
// template, entities decoded, white space collapsed outside <pre>, a line
// break at each block element. At most limit bytes are written.
func linearHTMLText(s string, limit int) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip, pre := 0, 0 // open skipped elements, open <pre>s
	space := false    // a space is due before the next word
	newline := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		space = false
	}
	for b.Len() < limit {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case skippedElements[a] && tt == html.StartTagToken:
				skip++
			case skippedElements[a] && tt == html.EndTagToken:
				skip = max(skip-1, 0)
			case a == atom.Pre && tt == html.StartTagToken:
				pre++
			case a == atom.Pre && tt == html.EndTagToken:
				pre = max(pre-1, 0)
			}
			if blockElements[a] {
				newline()
			} else if a == atom.Td || a == atom.Th {
				space = true
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			text := string(z.Text())
			if pre > 0 {
				b.WriteString(text)
				continue
			}
			for i, w := range strings.Fields(strings.ReplaceAll(text, "\u00a0", " ")) {
				if (i > 0 || space || startsWithSpace(text)) && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
					b.WriteByte(' ')
				}
				b.WriteString(w)
				space = false
			}
			if endsWithSpace(text) {
				space = true
			}
		}
	}
	return b.String()
}

func startsWithSpace(s string) bool { return s != "" && strings.ContainsRune(" \t\r\n\f", rune(s[0])) }
func endsWithSpace(s string) bool {
	return s != "" && strings.ContainsRune(" \t\r\n\f", rune(s[len(s)-1]))
}

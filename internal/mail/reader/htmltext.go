package reader

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

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
// break at each block element, and the lines inside a <blockquote> marked
// "> " (the quote marker Clean drops, as a plain-text reply quotes). At
// most limit bytes are written, so the work is linear in len(s).
func linearHTMLText(s string, limit int) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip, pre, quote := 0, 0, 0 // open skipped elements, <pre>s, <blockquote>s
	space := false              // a space is due before the next word
	lineStart := true
	newline := func() {
		if !lineStart {
			b.WriteByte('\n')
			lineStart = true
		}
		space = false
	}
	// write writes text that holds no line break.
	write := func(text string) {
		if text == "" {
			return
		}
		if lineStart {
			if quote > 0 {
				b.WriteString(strings.Repeat(">", min(quote, 8)) + " ")
			}
			lineStart = false
		} else if space {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(text)
	}
	for b.Len() < limit {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			open, close := tt == html.StartTagToken, tt == html.EndTagToken
			if blockElements[a] {
				newline()
			} else if a == atom.Td || a == atom.Th {
				space = true
			}
			if tt != html.EndTagToken && skip == 0 && (a == atom.Hr || hasAttr && quoteContainer(z)) {
				// A client's quote begins here: mark it for Clean.
				b.WriteString(quoteMark + "\n")
				lineStart, space = true, false
			}
			switch {
			case skippedElements[a] && open:
				skip++
			case skippedElements[a] && close:
				skip = max(skip-1, 0)
			case a == atom.Pre && open:
				pre++
			case a == atom.Pre && close:
				pre = max(pre-1, 0)
			case a == atom.Blockquote && open:
				quote++
			case a == atom.Blockquote && close:
				quote = max(quote-1, 0)
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			text := string(z.Text())
			if pre > 0 {
				for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
					if i > 0 {
						lineStart = false // an empty line of the <pre> still ends
						newline()
					}
					write(line)
				}
				continue
			}
			if startsWithSpace(text) {
				space = true
			}
			for _, w := range strings.Fields(strings.ReplaceAll(text, "\u00a0", " ")) {
				write(w)
				space = true
			}
			space = endsWithSpace(text)
		}
	}
	return b.String()
}

// quoteContainer reports whether the tag the tokenizer is on opens a
// client's quote: Gmail's gmail_quote, Yahoo's yahoo_quoted,
// Thunderbird's moz-cite-prefix, Outlook's divRplyFwdMsg (Outlook on the
// web and the new Outlook), appendonsend and OutlookMessageHeader, Apple
// Mail's and others' blockquote type=cite is marked with ">" instead.
func quoteContainer(z *html.Tokenizer) bool {
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "class", "id":
			val := strings.ToLower(string(v))
			for _, c := range []string{"gmail_quote", "yahoo_quoted", "moz-cite-prefix", "divrplyfwdmsg", "appendonsend", "outlookmessageheader", "zmail_extra", "mail-quote"} {
				if strings.Contains(val, c) {
					return true
				}
			}
		}
		if !more {
			return false
		}
	}
}

func startsWithSpace(s string) bool { return s != "" && strings.ContainsRune(" \t\r\n\f", rune(s[0])) }
func endsWithSpace(s string) bool {
	return s != "" && strings.ContainsRune(" \t\r\n\f", rune(s[len(s)-1]))
}

package reader

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// hostileShapes are HTML bodies built to make an HTML-to-text step slow
// (issue 28: 141 KB of nested <div>s took 3 s of CPU). Each returns about
// n bytes of HTML.
var hostileShapes = []struct {
	name string
	html func(n int) string
}{
	{"nested divs", func(n int) string { return nest("<div>", "</div>", "e4", n) }},
	{"nested divs unclosed", func(n int) string { return "e4" + strings.Repeat("<div>x", n/6) }},
	{"nested spans", func(n int) string { return nest("<span>", "</span>", "e4", n) }},
	{"nested blockquotes", func(n int) string { return nest("<blockquote>", "</blockquote>", "e4", n) }},
	{"nested lists", func(n int) string { return nest("<ul><li>", "</li></ul>", "e4", n) }},
	{"nested tables", func(n int) string { return nest("<table><tr><td>", "</td></tr></table>", "e4", n) }},
	{"nested tables unclosed", func(n int) string { return "e4" + strings.Repeat("<table><tr><td>x", n/16) }},
	{"many tables", func(n int) string {
		return "e4" + strings.Repeat("<table><tr><td>a</td><td>b</td></tr></table>", n/44)
	}},
	{"misnested formatting", func(n int) string { return "e4" + strings.Repeat("<b><i><u>x</b></i>", n/18) }},
	{"unclosed formatting", func(n int) string { return "e4" + strings.Repeat("<b><i><a>x", n/10) }},
	{"long attribute", func(n int) string {
		return `<div title="` + strings.Repeat("a", n) + `">e4</div>`
	}},
	{"many attributes", func(n int) string { return "<div " + strings.Repeat(`a="b" `, n/6) + ">e4</div>" }},
	{"many entities", func(n int) string { return "e4<br>" + strings.Repeat("&amp;&#x263a;&nbsp;", n/19) }},
	{"huge single line", func(n int) string { return "e4<br>" + strings.Repeat("word ", n/5) }},
	{"many links", func(n int) string { return "e4" + strings.Repeat(`<a href="http://x.test/">x</a>`, n/30) }},
	{"nested pre", func(n int) string { return nest("<pre>", "</pre>", "e4", n) }},
	{"nested select", func(n int) string { return "e4" + strings.Repeat("<select><option>", n/16) }},
}

// nest wraps inner in as many open/close pairs as fit in n bytes.
func nest(open, close, inner string, n int) string {
	k := n / (len(open) + len(close))
	return strings.Repeat(open, k) + inner + strings.Repeat(close, k)
}

// htmlMail is an HTML-only mail carrying body.
func htmlMail(body string) []byte {
	enc := base64.StdEncoding.EncodeToString([]byte(body))
	var b strings.Builder
	b.WriteString("From: Mallory <mallory@evil.test>\r\nTo: referee+1.aaaaaaaaaa.1@example.test\r\n" +
		"Subject: x\r\nMessage-ID: <h@evil.test>\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return []byte(b.String())
}

// BenchmarkHostileHTML reads HTML-only mails of each hostile shape at two
// sizes; the metric ns/KB (per KB of HTML) stays flat from one size to the
// other when the work is linear. The largest size is the most the reader
// keeps of an HTML part (4 x MaxTextBytes).
func BenchmarkHostileHTML(b *testing.B) {
	for _, kb := range []int{32, 256} {
		for _, s := range hostileShapes {
			body := s.html(kb << 10)
			raw := htmlMail(body)
			b.Run(fmt.Sprintf("%s/%dKB", s.name, kb), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					if _, err := Read(raw, "referee@example.test", Limits{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(body)>>10), "ns/KB")
			})
		}
	}
}

// TestHostileHTMLRead: a move above each hostile shape of the benchmark,
// at nearly the most the reader keeps of an HTML part, is read.
func TestHostileHTMLRead(t *testing.T) {
	for _, s := range hostileShapes {
		m, err := Read(htmlMail("<p>e4</p>"+s.html(250<<10)), "referee@example.test", Limits{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if m.Action != "e4" {
			t.Errorf("%s: Action = %.40q, want \"e4\"", s.name, m.Action)
		}
	}
}

// TestLinearHTMLTextBounded: the converter writes at most about its limit,
// whatever the input makes of each line (issue 28: the work one mail can
// cause must be bounded): 100,000 nested blockquotes mark each line with at
// most 8 ">".
func TestLinearHTMLTextBounded(t *testing.T) {
	in := strings.Repeat("<blockquote>x<br>", 100_000)
	got := linearHTMLText(in, 1000)
	if len(got) > 1000+20 {
		t.Errorf("wrote %d bytes with a limit of 1000", len(got))
	}
	if line := strings.Split(got, "\n")[20]; line != ">>>>>>>> x" {
		t.Errorf("line 20 = %q, want \">>>>>>>> x\"", line)
	}
}

// TestLinearHTMLText: the linear converter keeps the words, decodes
// entities, breaks lines at blocks, drops style and script.
func TestLinearHTMLText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<div>Nf3</div><div>hi  there</div>", "Nf3\nhi there"},
		{"<style>p{}</style><p>e4 &amp; d4</p><script>x()</script>", "e4 & d4"},
		{"<b>Bx</b>c6", "Bxc6"},
		{"<table><tr><td>a</td><td>b</td></tr></table>", "a b"},
		{"<pre>a  b\nc</pre>", "a  b\nc"},
		{"<div>e4</div><blockquote>Game #60<br>move 1</blockquote>after", "e4\n> Game #60\n> move 1\nafter"},
		{"<blockquote><blockquote>deep</blockquote></blockquote>", ">> deep"},
		{"one<br>two", "one\ntwo"},
		// A client's quote is marked where its container or rule opens,
		// never inside a skipped element (a <template> of a pasted
		// document) nor at an end tag (a stray </hr>).
		{"<div>Nf3</div><template><hr><div class=\"gmail_quote\">x</div></template><div>see you</div>", "Nf3\nsee you"},
		{"<div>Nf3</div></hr><div>see you</div>", "Nf3\nsee you"},
		{"<div>Nf3</div><hr><div>On Sunday Referee wrote</div>", "Nf3\n" + quoteMark + "\nOn Sunday Referee wrote"},
	} {
		if got := strings.TrimSpace(linearHTMLText(tc.in, 1000)); got != tc.want {
			t.Errorf("linearHTMLText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

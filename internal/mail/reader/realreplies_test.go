package reader

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/encoding/htmlindex"
)

// The corpus of real replies (issue 36) is made from the public test data
// of reply-parser projects: each reply as its client wrote it, with a move
// put on a line of its own above the sender's own words. It is kept beside
// the repository, not in it (its README and SOURCES.md say where each file
// comes from, under which licence), in REFEREE_REPLY_CORPUS or in
// shared/reply-corpus next to the repository.
var (
	realReport = flag.String("realreport", "", "write what TestRealReplies read from each real reply (JSON) to this file")
)

// realEntry is one reply of the corpus's manifest.json.
type realEntry struct {
	Name     string `json:"name"`
	Repo     string `json:"repo"`
	Path     string `json:"path"`
	Client   string `json:"client"`
	Language string `json:"language"`
	Move     string `json:"move"`
	OwnFrom  int    `json:"own_from"` // 1-based line of the original where the sender's words begin (the move is inserted above it)
	OwnTo    int    `json:"own_to"`   // 1-based line of the original where they end (exclusive)
	HTML     bool   `json:"html"`     // an HTML reply (Message names its words)
	Message  string `json:"message"`
	// ExtraOwn are words of the sender's elsewhere in the reply (an
	// answer written between quoted lines): relaying them is no leak.
	ExtraOwn []string `json:"extra_own"`
}

// realDir finds the corpus, or "".
func realDir() string {
	for _, d := range []string{os.Getenv("REFEREE_REPLY_CORPUS"), "../../../../shared/reply-corpus", "../../../../../shared/reply-corpus"} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "manifest.json")); err == nil {
			return d
		}
	}
	return ""
}

// realShape is how one reply is sent: one MIME shape of those the issue
// lists.
type realShape struct {
	name string
	html bool // the shape carries the reply as HTML only
	make func(e realEntry, body string, own [2]int) (string, bool)
}

const realHeader = "From: Player <player@example.org>\r\nTo: referee+17.k3fux2ab7q.23@example.test\r\n" +
	"Subject: Re: [chess #17] Move 12: your turn\r\nMessage-ID: <real@example.org>\r\nMIME-Version: 1.0\r\n"

func qp(s string) string {
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	_, _ = w.Write([]byte(strings.ReplaceAll(s, "\n", "\r\n")))
	_ = w.Close()
	return b.String()
}

func b64(s []byte) string {
	enc := base64.StdEncoding.EncodeToString(s)
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	return b.String() + enc + "\r\n"
}

// legacyCharset is the charset a client of the language would use
// before UTF-8.
func legacyCharset(lang string) string {
	switch lang {
	case "ru":
		return "koi8-r"
	case "uk":
		return "windows-1251"
	case "pl", "cs", "hu":
		return "iso-8859-2"
	case "zh":
		return "gb18030"
	case "ja":
		return "shift_jis"
	}
	return "windows-1252"
}

// flowed writes text as format=flowed (RFC 3676): long lines broken at
// spaces with a trailing space, quote marks kept on every piece, lines
// that begin with a space, "From " or ">" in the unquoted text stuffed.
func flowed(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		prefix, body := l[:depth], strings.TrimPrefix(l[depth:], " ")
		if depth > 0 {
			prefix += " "
		}
		if depth == 0 && (strings.HasPrefix(body, " ") || strings.HasPrefix(body, "From ")) {
			body = " " + body
		}
		body = strings.TrimRight(body, " ")
		for len(body) > 72 {
			cut := strings.LastIndexByte(body[:72], ' ')
			if cut <= 0 {
				break
			}
			out = append(out, prefix+body[:cut+1])
			body = body[cut+1:]
		}
		out = append(out, prefix+body)
	}
	return strings.Join(out, "\n")
}

// toHTML writes text as a client's HTML: lines as <div>s, runs of quoted
// lines in <blockquote>s, and, from line own[1] on (what follows the
// sender's words), the quote in the container the client puts it in.
func toHTML(client, text string, own [2]int) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	b.WriteString("<html><head><style>p{margin:0}</style></head><body><div dir=\"ltr\">")
	depth := 0
	for i, l := range lines {
		if i == own[1] {
			switch {
			case strings.Contains(client, "Gmail"):
				b.WriteString(`<div class="gmail_quote">`)
			case strings.Contains(client, "Outlook") || strings.Contains(client, "Hotmail") || strings.Contains(client, "MSN"):
				b.WriteString(`<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">`)
			case strings.Contains(client, "Yahoo"):
				b.WriteString(`<div class="yahoo_quoted">`)
			case strings.Contains(client, "Thunderbird"):
				b.WriteString(`<div class="moz-cite-prefix">`)
			default:
				b.WriteString(`<div>`)
			}
		}
		d := 0
		t := l
		for strings.HasPrefix(t, ">") {
			d++
			t = strings.TrimPrefix(strings.TrimPrefix(t, ">"), " ")
		}
		d = min(d, 8) // as deep as clients nest: a line of 100 ">" is a quote, not 100 quotes
		for depth < d {
			b.WriteString(`<blockquote type="cite" style="margin:0 0 0 .8ex;border-left:1px #ccc solid">`)
			depth++
		}
		for depth > d {
			b.WriteString("</blockquote>")
			depth--
		}
		if strings.TrimSpace(t) == "" {
			b.WriteString("<div><br></div>\n")
			continue
		}
		b.WriteString("<div>" + strings.ReplaceAll(html.EscapeString(t), "  ", " &nbsp;") + "</div>\n")
	}
	b.WriteString(strings.Repeat("</blockquote>", depth))
	if own[1] < len(lines) {
		b.WriteString("</div>")
	}
	b.WriteString("</div></body></html>\n")
	return b.String()
}

var realShapes = []realShape{
	{name: "plain-qp", make: func(e realEntry, body string, _ [2]int) (string, bool) {
		if e.HTML {
			return "", false
		}
		return realHeader + "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(body), true
	}},
	{name: "plain-base64", make: func(e realEntry, body string, _ [2]int) (string, bool) {
		if e.HTML {
			return "", false
		}
		return realHeader + "Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(strings.ReplaceAll(body, "\n", "\r\n"))), true
	}},
	{name: "legacy-charset", make: func(e realEntry, body string, _ [2]int) (string, bool) {
		cs := legacyCharset(e.Language)
		enc, err := htmlindex.Get(cs)
		if err != nil {
			return "", false
		}
		b, err := enc.NewEncoder().String(body)
		if err != nil {
			return "", false // a character the charset does not have: not a mail such a client writes
		}
		ct := "text/plain"
		if e.HTML {
			ct = "text/html"
		}
		return realHeader + "Content-Type: " + ct + "; charset=" + cs + "\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + strings.ReplaceAll(b, "\n", "\r\n"), true
	}},
	{name: "flowed", make: func(e realEntry, body string, _ [2]int) (string, bool) {
		if e.HTML {
			return "", false
		}
		return realHeader + "Content-Type: text/plain; charset=utf-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + strings.ReplaceAll(flowed(body), "\n", "\r\n"), true
	}},
	{name: "html-only", html: true, make: func(e realEntry, body string, own [2]int) (string, bool) {
		h := body
		if !e.HTML {
			h = toHTML(e.Client, body, own)
		}
		return realHeader + "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(h), true
	}},
	{name: "html-base64", html: true, make: func(e realEntry, body string, own [2]int) (string, bool) {
		if !e.HTML {
			return "", false
		}
		return realHeader + "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64([]byte(body)), true
	}},
	{name: "multipart", make: func(e realEntry, body string, own [2]int) (string, bool) {
		if e.HTML {
			return "", false
		}
		return realHeader + "Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\n" +
			"Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(body) + "\r\n--b1\r\n" +
			"Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(toHTML(e.Client, body, own)) + "\r\n--b1--\r\n", true
	}},
}

// realResult is what was read from one reply in one shape.
type realResult struct {
	Name, Shape, Client, Language string
	Action                        string
	Leaked                        []string `json:",omitempty"` // relayed lines that are not the sender's words
	Missing                       []string `json:",omitempty"` // the sender's words that were not relayed
	Garbled                       bool     `json:",omitempty"` // U+FFFD in what was relayed
}

// ownLines are the sender's words as the relay would show them: trimmed,
// blank lines left out.
func ownLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(normaliseChars(l)), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestRealReplies reads every reply of the corpus of real replies through
// Read, the daemon's reading, in every MIME shape the issue lists, and
// checks that the move is read and that the message relayed is the
// sender's own words and nothing else, line by line. A leak (a relayed line
// that the sender did not write) fails the test; words of the sender's
// that were not relayed are counted (the reader relays less where it
// cannot tell) but do not fail it.
func TestRealReplies(t *testing.T) {
	dir := realDir()
	if dir == "" {
		t.Skip("no corpus of real replies: set REFEREE_REPLY_CORPUS or put it in shared/reply-corpus")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []realEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatalf("reading %s/manifest.json: %v", dir, err)
	}
	before := map[string]string{} // the action main's reader read, by realKey
	if b, err := os.ReadFile(filepath.Join(dir, "actions-before.json")); err == nil {
		if err := json.Unmarshal(b, &before); err != nil {
			t.Fatalf("reading %s/actions-before.json: %v", dir, err)
		}
	}
	var results []realResult
	for _, e := range entries {
		ext := ".txt"
		if e.HTML {
			ext = ".html"
		}
		b, err := os.ReadFile(filepath.Join(dir, "fixtures", e.Name+ext))
		if err != nil {
			t.Fatal(err)
		}
		body := strings.ReplaceAll(string(b), "\r\n", "\n")
		for _, v := range realVariants(e, body) {
			for _, sh := range realShapes {
				mail, ok := sh.make(e, v.body, v.own)
				if !ok || len(mail) > int(DefaultLimits().MaxBytes) {
					continue // no such mail, or one the referee refuses as too big (talon's 700 KB line of ">" as HTML)
				}
				key := "real/" + e.Name + "/" + v.name + "/" + sh.name
				t.Run(e.Name+"/"+v.name+"/"+sh.name, func(t *testing.T) {
					m, err := Read([]byte(mail), base, DefaultLimits())
					if err != nil {
						t.Fatalf("Read: %v", err)
					}
					// Never refused what was read before: where main's reader
					// read the move, this one does.
					if old, ok := before[key]; ok && old == e.Move && m.Action != e.Move {
						t.Errorf("action %q, and main's reader read the move %q", m.Action, e.Move)
					}
					if !v.checked {
						return // the quote above the move has no marks: no telling where the player's words begin
					}
					r := realResult{Name: e.Name, Shape: v.name + "/" + sh.name, Client: e.Client, Language: e.Language, Action: m.Action}
					r.Leaked, r.Missing = lineDiff(ownLines(m.Message), v.want, ownLines(strings.Join(e.ExtraOwn, "\n")))
					r.Garbled = strings.ContainsRune(m.Message, '\uFFFD') || strings.ContainsRune(m.Action, '\uFFFD')
					results = append(results, r)
					if m.Action != e.Move {
						t.Errorf("action %q, want %q", m.Action, e.Move)
					}
					if len(r.Leaked) > 0 {
						t.Errorf("relayed what the sender did not write: %q\nwhole message: %q", r.Leaked, m.Message)
					}
					if r.Garbled {
						t.Errorf("mojibake: %q", m.Message)
					}
				})
			}
		}
	}
	summarise(t, entries, results)
}

// realVariant is a reply of the corpus as its client wrote it (top), or
// bottom-posted: the quote first, with ">" marks or without, the move and
// the sender's words below it.
type realVariant struct {
	name    string
	body    string
	own     [2]int   // as realEntry's, for the HTML shapes' quote container; own[1] -1 for none
	want    []string // the sender's words
	checked bool     // whether action and message are checked (else only that what was read is still read)
}

func realVariants(e realEntry, body string) []realVariant {
	if e.HTML {
		return []realVariant{{name: "top", body: body, own: [2]int{0, -1}, want: ownLines(e.Message), checked: true}}
	}
	lines := strings.Split(body, "\n")
	own := lines[:e.OwnTo] // the move and the sender's words (and what stood above them)
	want := ownLines(strings.Join(lines[e.OwnFrom:e.OwnTo], "\n"))
	var quoted []string
	for _, l := range lines[e.OwnTo:] {
		quoted = append(quoted, "> "+l)
	}
	return []realVariant{
		{name: "top", body: body, own: [2]int{e.OwnFrom, e.OwnTo}, want: want, checked: true},
		{name: "bottom", body: strings.Join(quoted, "\n") + "\n\n" + strings.Join(own, "\n"), own: [2]int{0, -1}, want: want, checked: true},
		{name: "bottom-unmarked", body: strings.Join(lines[e.OwnTo:], "\n") + "\n\n" + strings.Join(own, "\n"), own: [2]int{0, -1}, want: want},
	}
}

// lineDiff returns the lines of got that are neither in want nor in also,
// and the lines of want that are not in got (as multisets). A line cut
// with " [...]" (the end of a message over 2,000 characters) is the line it
// begins.
func lineDiff(got, want, also []string) (extra, missing []string) {
	left := slices.Clone(want)
	for _, g := range got {
		if i := slices.Index(left, g); i >= 0 {
			left = slices.Delete(left, i, i+1)
			continue
		}
		if cut, ok := strings.CutSuffix(g, " [...]"); ok {
			if i := slices.IndexFunc(left, func(l string) bool { return strings.HasPrefix(l, cut) }); i >= 0 {
				left = slices.Delete(left, i, len(left)) // the rest was cut
				continue
			}
		}
		if slices.Contains(also, g) {
			continue
		}
		extra = append(extra, g)
	}
	return extra, left
}

// summarise logs the corpus's size per client and language and what was
// relayed that should not have been, and writes the results to
// -realreport.
func summarise(t *testing.T, entries []realEntry, results []realResult) {
	t.Helper()
	count := func(key func(realEntry) string) string {
		n := map[string]int{}
		for _, e := range entries {
			n[key(e)]++
		}
		var keys []string
		for k := range n {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return n[keys[i]] > n[keys[j]] || n[keys[i]] == n[keys[j]] && keys[i] < keys[j] })
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %d, ", k, n[k])
		}
		return strings.TrimSuffix(b.String(), ", ")
	}
	leaks, misses, wrongAction, readings := 0, 0, 0, len(results)
	byEntry := map[string]bool{}
	for _, r := range results {
		if len(r.Leaked) > 0 {
			leaks++
			byEntry[r.Name] = true
		}
		if len(r.Missing) > 0 {
			misses++
		}
		if r.Action == "" || !slices.ContainsFunc(entries, func(e realEntry) bool { return e.Name == r.Name && e.Move == r.Action }) {
			wrongAction++
		}
	}
	t.Logf("real replies: %d, top- and bottom-posted, read in %d MIME shapes (%d readings checked)", len(entries), len(realShapes), readings)
	t.Logf("per client: %s", count(func(e realEntry) string { return e.Client }))
	t.Logf("per language: %s", count(func(e realEntry) string { return e.Language }))
	t.Logf("readings with a wrong action: %d; with a leak: %d (%d replies); with words of the sender's not relayed: %d", wrongAction, leaks, len(byEntry), misses)
	if *realReport != "" {
		b, _ := json.MarshalIndent(results, "", " ")
		if err := os.WriteFile(*realReport, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

package reader

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected readings of the corpus (review them by hand!)")

const base = "referee@example.test"

// reading is what the corpus pins down for each mail.
type reading struct {
	Error       bool   `json:"error"`
	From        string `json:"from"`
	Token       string `json:"token"`
	TokenSource string `json:"token_source"`
	Variant     string `json:"variant"`
	Automatic   string `json:"automatic"`
	Action      string `json:"action"`
	Message     string `json:"message"`
	Warnings    int    `json:"warnings"`
}

func read(raw []byte) reading {
	m, err := Read(raw, base, DefaultLimits())
	if err != nil {
		return reading{Error: true}
	}
	r := reading{From: m.From, TokenSource: m.TokenSource, Variant: m.Variant, Automatic: m.Automatic,
		Action: m.Action, Message: m.Message, Warnings: len(m.Warnings)}
	if m.Token != nil {
		r.Token = m.Token.String()
	}
	return r
}

// TestCorpus reads mails as real clients write them (Gmail, Outlook, Apple
// Mail, Thunderbird, K-9, mutt, top-posters, HTML-only, other charsets,
// forwards, hostile ones) and checks each reading against its .want.json.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil || len(files) < 15 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := read(raw)
			wantFile := strings.TrimSuffix(f, ".eml") + ".want.json"
			if *update {
				b, _ := json.MarshalIndent(got, "", "  ")
				if err := os.WriteFile(wantFile, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run go test -update and review the file)", err)
			}
			var want reading
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if got != want {
				g, _ := json.MarshalIndent(got, "", "  ")
				t.Errorf("reading differs\n got %s\nwant %s", g, b)
			}
		})
	}
}

func TestGiantMailRefused(t *testing.T) {
	// Over the size cap: refused with a message that says what to do.
	raw := []byte("From: a@b.example\r\nSubject: x\r\n\r\ne4\r\n" + strings.Repeat("A", 3<<20))
	_, err := Read(raw, base, DefaultLimits())
	if err == nil || !strings.Contains(err.Error(), "plain-text") {
		t.Fatalf("err = %v, want a refusal that says to send plain text", err)
	}
}

func TestHugeLineCut(t *testing.T) {
	// A 1 MB line is cut to MaxLineBytes, and the move on the first line is kept.
	raw := []byte("From: a@b.example\r\nSubject: x\r\nContent-Type: text/plain\r\n\r\ne4\r\n" + strings.Repeat("x", 1<<20) + "\r\n")
	lim := DefaultLimits()
	m, err := Read(raw, base, lim)
	if err != nil {
		t.Fatal(err)
	}
	if m.Action != "e4" || len(m.Message) > maxMessage+10 || len(m.Warnings) == 0 {
		t.Errorf("action %q, message %d bytes, warnings %v", m.Action, len(m.Message), m.Warnings)
	}
	for _, l := range strings.Split(m.Text, "\n") {
		if len(l) > lim.MaxLineBytes {
			t.Errorf("a line of %d bytes survived", len(l))
		}
	}
}

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, action, message string
	}{
		{"plain", "e4", "e4", ""},
		{"message after", "e4\nhello\n\n\nbye", "e4", "hello\n\nbye"},
		{"leading blank lines", "\n\n  Nf3  \n", "Nf3", ""},
		{"quoted lines dropped", "> old\ne4\n> more", "e4", ""},
		{"gmail attribution", "d4\nOn Sun, 22 Nov 2026 at 10:02, Referee <r@x.test> wrote:\n> x", "d4", ""},
		{"wrapped attribution", "d4\nOn Sun, 22 Nov 2026 at 10:02, Referee <r@x.test>\nwrote:\nGame #1", "d4", ""},
		{"german", "d4\nAm 22.11.26 um 13:50 schrieb Referee:\nx", "d4", ""},
		{"french", "d4\nLe 22/11/2026 à 19:00, Referee a écrit :\nx", "d4", ""},
		{"spanish", "d4\nEl dom, 22 nov 2026 a las 10:00, Referee escribió:\nx", "d4", ""},
		{"russian", "d4\n22.11.2026, 10:00, Referee пишет написал:\nx", "d4", ""},
		{"outlook original", "d4\n-----Original Message-----\nFrom: x", "d4", ""},
		{"outlook header block", "d4\n\nFrom: Referee <r@x.test>\nSent: Sunday\nTo: me\nSubject: x\n\nGame", "d4", ""},
		{"underscore separator", "d4\n________________________________\nFrom: x", "d4", ""},
		{"signature", "d4\nthanks\n-- \nAlice\nphone", "d4", "thanks"},
		{"mobile footer", "d4\nSent from my iPhone", "d4", ""},
		{"german footer", "d4\nVon meinem iPhone gesendet", "d4", ""},
		{"quoted board without marks", "exd5\n\nGame #17 - Orthodox chess - move 13\n\n    +---+---+---+", "exd5", ""},
		{"board frame", "exd5\n    +---+---+---+---+", "exd5", ""},
		{"forward marker", "---------- Forwarded message ---------\nFrom: Bob\n\nQh5", "", ""},
		{"html bold", "*e4*", "e4", ""},
		{"quotes around", "\"Nf3\"", "Nf3", ""},
		{"wizard asterisk kept", "Nb3*", "Nb3*", ""},
		{"only quotes", "> e4\n> e5", "", ""},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, m := Clean(tt.in)
			if a != tt.action || m != tt.message {
				t.Errorf("Clean(%q) = %q, %q; want %q, %q", tt.in, a, m, tt.action, tt.message)
			}
		})
	}
}

func TestParseToken(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want Token
	}{
		{"17.k3fux2ab7q.23", true, Token{17, "k3fux2ab7q", 23}},
		{"17.K3FUX2AB7Q.0", true, Token{17, "k3fux2ab7q", 0}},
		{"17.k3f9x2ab7.23", false, Token{}},  // 9-character secret
		{"17.k3f9x2ab71.23", false, Token{}}, // '1' is not base32
		{"0.k3fux2ab7q.1", false, Token{}},   // no game 0
		{"17.k3fux2ab7q", false, Token{}},    // no ply
		{"x17.k3fux2ab7q.1", false, Token{}}, // junk
		{"17.k3fux2ab7q.-1", false, Token{}}, // negative ply
	}
	for _, tt := range tests {
		got, ok := ParseToken(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseToken(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && got.String() != strings.ToLower(tt.in) {
			t.Errorf("String() = %q, want %q", got.String(), strings.ToLower(tt.in))
		}
	}
}

func TestAuthVerdict(t *testing.T) {
	mk := func(hdr string) *Mail {
		raw := "From: Alice <alice@gmail.example>\r\n" + hdr + "Subject: x\r\n\r\ne4\r\n"
		m, err := Read([]byte(raw), base, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name, hdr string
		ok        bool
	}{
		{"dkim pass", "Authentication-Results: mx.example.test; dkim=pass header.d=gmail.example; spf=fail smtp.mailfrom=x@y.example\r\n", true},
		{"spf pass", "Authentication-Results: mx.example.test; spf=pass smtp.mailfrom=alice@gmail.example\r\n", true},
		{"dkim for another domain", "Authentication-Results: mx.example.test; dkim=pass header.d=evil.example\r\n", false},
		{"untrusted server", "Authentication-Results: evil.example; dkim=pass header.d=gmail.example\r\n", false},
		{"fail", "Authentication-Results: mx.example.test; dkim=fail header.d=gmail.example; spf=softfail smtp.mailfrom=alice@gmail.example\r\n", false},
		{"none", "", false},
	}
	for _, tt := range tests {
		ok, why := AuthVerdict(mk(tt.hdr), "mx.example.test")
		if ok != tt.ok || why == "" {
			t.Errorf("%s: ok = %v (%s), want %v", tt.name, ok, why, tt.ok)
		}
	}
}

func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.eml")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	lim := Limits{MaxBytes: 1 << 20, MaxParts: 16, MaxLineBytes: 1024, MaxTextBytes: 4096}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Read(raw, base, lim)
		if err != nil {
			return
		}
		if len(m.Text) > lim.MaxTextBytes {
			t.Fatalf("text of %d bytes over the cap %d", len(m.Text), lim.MaxTextBytes)
		}
		if len(m.Message) > maxMessage+8 {
			t.Fatalf("message of %d bytes", len(m.Message))
		}
	})
}

func FuzzClean(f *testing.F) {
	f.Add("e4\nhello\n> quoted\n-- \nsig")
	f.Add("On x wrote:\n")
	f.Fuzz(func(t *testing.T, s string) {
		a, m := Clean(s)
		if strings.Contains(a, "\n") {
			t.Fatalf("action %q spans lines", a)
		}
		if len(m) > maxMessage+8 {
			t.Fatalf("message of %d bytes", len(m))
		}
	})
}

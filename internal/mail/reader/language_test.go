package reader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuoteLanguage: the language of each quote header of
// TestQuoteHeaders, above a quote of the referee's mail, is its client's
// where the header's words are of one of the referee's languages alone,
// and none where they are shared or of another language (a Ukrainian
// "Кому:" is no Russian, a Czech "napsal" no Polish): a hint is never a
// guess.
func TestQuoteLanguage(t *testing.T) {
	ours := map[string]bool{"en": true, "de": true, "fr": true, "es": true, "it": true, "pt": true, "nl": true, "pl": true, "ru": true}
	// Headers without a word of one language: a date, a name and an
	// address only; a rule and a lone "From:" line.
	none := map[string]bool{"ru gmail": true, "en old gmail": true, "en old gmail wrapped": true, "en discourse": true}
	for _, rule := range []string{"four dashes", "equals signs", "em dashes", "en dashes", "box-drawing lines", "spaced underscores"} {
		none["en rule of "+rule] = true
	}
	for _, tt := range quoteHeaders {
		code, _, _ := strings.Cut(tt.name, " ")
		want := ""
		if ours[code] && !none[tt.name] {
			want = code
		}
		in := "Nf3\nThanks for the game.\n\n" + tt.header + "\n" + quoteBody
		if got := QuoteLanguage(in); got != want {
			t.Errorf("%s: QuoteLanguage = %q, want %q", tt.name, got, want)
		}
	}
	if got := QuoteLanguage("Nf3\nno quote at all\n"); got != "" {
		t.Errorf("a mail without a quote: %q", got)
	}
}

func TestContentLanguage(t *testing.T) {
	for _, tt := range []struct{ field, want string }{
		{"de-DE", "de"}, {"fr", "fr"}, {" pt-BR, en", "pt"}, {"EN-gb", "en"}, {"", ""}, {"x-klingon", ""}, {"d3", ""}, {"de_DE", ""},
	} {
		if got := contentLanguage(tt.field); got != tt.want {
			t.Errorf("contentLanguage(%q) = %q, want %q", tt.field, got, tt.want)
		}
	}
}

// TestMailLanguages: the languages of the corpus's mails, as Read and
// QuoteLanguage report them:
// Thunderbird's German reply (Content-Language: de-DE, "Am … schrieb
// Referee:"), a German Outlook's ("Von:", "Gesendet:"), and English ones.
func TestMailLanguages(t *testing.T) {
	for _, tt := range []struct{ file, content, quote string }{
		{"thunderbird", "de", "de"},
		{"outlook_german", "de", "de"},
		{"outlook_desktop", "en", "en"},
		{"gmail_web", "", "en"},
		{"apple_mail", "", "en"},
	} {
		raw, err := os.ReadFile(filepath.Join("testdata", "corpus", tt.file+".eml"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(raw, "referee@example.test", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if q := QuoteLanguage(m.Text); m.ContentLanguage != tt.content || q != tt.quote {
			t.Errorf("%s: Content-Language %q, quote header %q; want %q, %q", tt.file, m.ContentLanguage, q, tt.content, tt.quote)
		}
	}
}

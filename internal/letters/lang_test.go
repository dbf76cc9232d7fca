package letters

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"referee/internal/lang"
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
)

// TestDataKeepsTheReadersLanguage (issue 42): a board mail in German is
// queued with its language (data version 2) and written from the data in
// German, to the same bytes; one in English stays version 1, which an
// older referee reads as before; a German mail decoded without the
// catalogs is refused, never written half in English.
func TestDataKeepsTheReadersLanguage(t *testing.T) {
	cat := lang.MustLoad()
	w := Writer{From: "referee@example.test", Pictures: new(render.Painter)}
	v := rules.Chess()
	for _, code := range []string{"en", "de"} {
		m := referee.Mail{Kind: "board", To: "bob@example.org", Subject: "[chess #3] Zug 1", MessageID: "<m@example.test>",
			Date: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
			Board: &render.Mail{GameID: 3, Variant: v, Pos: v.Start(), Status: "Partie #3", Commands: []string{"board"},
				Example: "Sc3", Lang: cat.Printer(code)}}
		want, err := w.Write(m)
		if err != nil {
			t.Fatal(err)
		}
		data, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if v1 := bytes.HasPrefix(data, []byte(`{"v":1,`)); v1 != (code == "en") {
			t.Errorf("%s: data %s", code, data)
		}
		back, err := DecodeIn(data, cat)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.Write(back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Raw, want.Raw) {
			t.Errorf("%s: written from its data, the mail differs", code)
		}
		if code == "de" {
			if !strings.Contains(back.Board.Text(), "Züge: noch keine.") {
				t.Errorf("the German mail from its data:\n%s", back.Board.Text())
			}
			if _, err := Decode(data); err == nil {
				t.Error("a German mail decoded without the catalogs")
			}
		}
	}
}

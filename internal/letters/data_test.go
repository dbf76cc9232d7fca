package letters

import (
	"bytes"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
)

// TestDataWritesTheSameBytes: the outbox records each mail as data in the
// decision's transaction and writes it when it sends it, again after a
// crash: the mail written from the data must be the mail the decision
// made, byte for byte, and writing it twice must give the same bytes. For
// every variant, from a position a few moves in (the position travels as
// its string, RULES.md §2).
func TestDataWritesTheSameBytes(t *testing.T) {
	w := Writer{From: "referee@example.test", Pictures: new(render.Painter)}
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			pos := v.Start()
			var played []render.Played
			var last []rules.Square
			for range 3 {
				legal := pos.Legal()
				if len(legal) == 0 {
					break
				}
				m := legal[len(legal)/2]
				next, err := pos.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				played = append(played, render.Played{SAN: "x", Side: pos.Turn(), Number: pos.MoveNumber()})
				last = []rules.Square{m.From, m.To}
				pos = next
			}
			m := referee.Mail{Kind: "board", To: "bob@example.org", ToName: "Bob", Subject: "[" + v.Name() + " #3] Move 2",
				ReplyTo: "referee+3.abcdefghij.2@example.test", MessageID: "<3.abcdefghij.2.0123456789@example.test>",
				InReplyTo: "<x@example.org>", References: []string{"<t@example.test>", "<x@example.org>"},
				Date: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), LastMove: last,
				Board: &render.Mail{GameID: 3, Variant: v, Pos: pos, Viewer: pos.Turn(), Status: "Your move", Headline: "White played x.",
					LastMove: "x", MoveList: played, Relay: "Good luck", RelayFrom: "Alice", Prompt: "Reply with your move",
					Commands: []string{"moves", "board"}, Example: "e4", Sections: []render.Section{{Title: "Rules", Body: "short"}},
					Footer: "Referee for game #3."}}
			want, err := w.Write(m)
			if err != nil {
				t.Fatal(err)
			}
			data, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				back, err := Decode(data)
				if err != nil {
					t.Fatal(err)
				}
				got, err := w.Write(back)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Raw, want.Raw) {
					t.Fatalf("written from its data (time %d), the mail differs from the decision's (%d and %d bytes)", i+1, len(got.Raw), len(want.Raw))
				}
			}
		})
	}
	// A plain-text mail (a refusal) too.
	m := referee.Mail{Kind: "refusal", To: "x@example.org", Subject: "Re: hi", MessageID: "<r@example.test>",
		Date: time.Date(2026, 11, 23, 10, 0, 0, 0, time.FixedZone("", 3600)), Text: "Not understood.\n"}
	want, _ := w.Write(m)
	data, _ := Encode(m)
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Write(back); !bytes.Equal(got.Raw, want.Raw) {
		t.Errorf("the refusal written from its data:\n%s\nwant:\n%s", got.Raw, want.Raw)
	}
}

func TestDecodeRefusesOtherVersionsAndVariants(t *testing.T) {
	for _, tt := range []struct{ name, data string }{
		{"newer", `{"v":3,"to":"a@x"}`},
		{"unknown variant", `{"v":1,"to":"a@x","board":{"variant":"nosuch"}}`},
		{"no recipient", `{"v":1}`},
		{"junk", `not json`},
	} {
		if _, err := Decode([]byte(tt.data)); err == nil {
			t.Errorf("%s: decoded", tt.name)
		}
	}
}

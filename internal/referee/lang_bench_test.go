package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// BenchmarkMoveMailsIn decides a move 30 plies into the Opera game and
// writes both players' board mails, the mover reading each language (the
// opponent English): what a reader's language costs a move (the record
// in their letters, the catalog's texts).
func BenchmarkMoveMailsIn(b *testing.B) {
	opera := strings.Fields("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 " +
		"Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7")
	key, err := dice.NewKey()
	if err != nil {
		b.Fatal(err)
	}
	r := New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key})
	g := &Game{ID: 5, Variant: rules.Chess(), Status: StatusActive, Start: rules.Chess().Start().String(),
		Players: [2]Player{{Address: "alice@example.test", Secret: "aaaaaaaaaa"}, {Address: "bob@example.test", Secret: "bbbbbbbbbb"}}}
	for i, mv := range opera {
		m := &reader.Mail{From: g.Players[i%2].Address, MessageID: "<m@x>", Action: mv,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[i%2].Secret, Ply: g.Ply()}}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
		if out.Verdict != Applied {
			b.Fatalf("%s: %s", mv, out.Detail)
		}
		g = out.Game
	}
	for _, code := range []string{"en", "de", "ru"} {
		b.Run(code, func(b *testing.B) {
			h := g.clone()
			h.Players[rules.White].Language = code
			m := &reader.Mail{From: h.Players[rules.White].Address, MessageID: "<m@x>", Action: "Qb8+",
				Token: &reader.Token{GameID: h.ID, Secret: h.Players[rules.White].Secret, Ply: h.Ply()}}
			for b.Loop() {
				out := r.Handle(Inbound{Mail: m}, h, Env{Now: time.Unix(0, 0), Language: code})
				if out.Verdict != Applied || len(out.Mails) != 2 {
					b.Fatalf("%s %s", out.Verdict, out.Detail)
				}
				for _, mail := range out.Mails {
					_ = textOf(b, mail)
				}
			}
		})
	}
}

package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"referee/internal/lang"
	"referee/internal/letters"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// TestLanguageIsStoredPerPlayer: "language de" sent in one game is the
// player's setting for all their games (issue 42): in another game their
// "Sf3" is played as Nf3, and the confirmation says how it was read; the
// opponent, who set no language, keeps English's letters.
func TestLanguageIsStoredPerPlayer(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g1, err := a.NewGame(ctx, "chess", "carol@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := a.NewGame(ctx, "chess", "carol@example.org", "dan@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Process(ctx, moveMail(a, g1, rules.White, clk.now.Format(time.RFC1123Z), "language Deutsch"), 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("language: %+v %v", p, err)
	}
	var stored string
	if err := a.Store().View(ctx, func(tx *store.Tx) error {
		var err error
		stored, err = tx.Language("Carol@Example.org")
		return err
	}); err != nil || stored != "de" {
		t.Fatalf("the stored language: %q, %v; want de", stored, err)
	}
	g2, err = a.Game(ctx, g2.ID)
	if err != nil || g2.Players[rules.White].Language != "de" || g2.Players[rules.Black].Language != "" {
		t.Fatalf("game #%d's players' languages: %q, %q, %v; want Carol's de and Dan's none", g2.ID,
			g2.Players[rules.White].Language, g2.Players[rules.Black].Language, err)
	}
	clk.now = clk.now.Add(time.Minute)
	p, err = a.Process(ctx, moveMail(a, g2, rules.White, clk.now.Format(time.RFC1123Z), "Sf3"), 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("Sf3: %+v %v", p, err)
	}
	if g2, err = a.Game(ctx, g2.ID); err != nil || len(g2.Actions) != 1 || g2.Actions[0].SAN != "Nf3" {
		t.Fatalf("game #%d after Sf3: %+v %v", g2.ID, g2.Actions, err)
	}
	out, err := a.Store().Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	confirmed := false
	for _, o := range out {
		if o.To != "carol@example.org" || o.GameID == nil || *o.GameID != g2.ID {
			continue
		}
		m, err := letters.DecodeIn(o.Data, lang.MustLoad())
		if err != nil {
			t.Fatal(err)
		}
		// Issue 42: Carol reads German, and her letters.
		if m.Board != nil && strings.Contains(m.Board.Headline, `Ihre Zeile "Sf3" wurde als Sf3 gelesen (S steht auf Deutsch für Springer).`) {
			confirmed = true
		}
	}
	if !confirmed {
		t.Errorf("no confirmation to Carol says how Sf3 was read")
	}
	// Dan set no language: his "Pc6" is the pawn's... c6, as in English.
	clk.now = clk.now.Add(time.Minute)
	p, err = a.Process(ctx, moveMail(a, g2, rules.Black, clk.now.Format(time.RFC1123Z), "Pc6"), 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("Pc6: %+v %v", p, err)
	}
	if g2, err = a.Game(ctx, g2.ID); err != nil || g2.Actions[1].SAN != "c6" {
		t.Fatalf("game #%d after Pc6: %+v %v", g2.ID, g2.Actions, err)
	}
}

// TestLanguageHintIsToldOnce: a player who set no language and writes
// "Sf3" is told once how to set one; it is stored, and their next move in
// those letters, in any game, brings no second note.
func TestLanguageHintIsToldOnce(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "chess", "carol@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	hints := func() int {
		t.Helper()
		out, err := a.Store().Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range out {
			m, err := letters.Decode(o.Data)
			if err != nil {
				t.Fatal(err)
			}
			if m.Board == nil {
				continue
			}
			for _, s := range m.Board.Sections {
				if s.Title == "Your language" {
					n++
				}
			}
		}
		return n
	}
	for i, line := range []string{"Sf3", "e5", "Sc3"} {
		c := rules.Color(i % 2)
		clk.now = clk.now.Add(time.Minute)
		p, err := a.Process(ctx, moveMail(a, g, c, clk.now.Format(time.RFC1123Z), line), 0, 0)
		if err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v %v", line, p, err)
		}
		if g, err = a.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := hints(); n != 1 {
		t.Errorf("%d notes on the language; want one, with the first move", n)
	}
	var told string
	if err := a.Store().View(ctx, func(tx *store.Tx) error {
		var err error
		told, err = tx.LanguageHint("carol@example.org")
		return err
	}); err != nil || told != "de pl" {
		t.Errorf("the hint stored: %q, %v; want \"de pl\"", told, err)
	}
}

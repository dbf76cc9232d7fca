package app

import (
	"context"
	"strings"
	"testing"

	"referee/internal/game"
	"referee/internal/referee"
	"referee/internal/rules"
)

// TestExportReplays: `referee export` of a chess game (no Variant tag) and
// of a variant game (Variant, SetUp, FEN) reads back through `referee
// replay` to the game's own position, with the per-move dates and the
// Termination comment in the way.
func TestExportReplays(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		variant string
		moves   []string
	}{
		{"chess", []string{"e4", "e5", "Nf3", "Nc6", "Bb5"}},
		{"toto40", []string{"d5d6", "f7e6", "d6e6"}}, // White captures the king
	} {
		t.Run(tt.variant, func(t *testing.T) {
			a := openTest(t)
			g, err := a.NewGame(ctx, tt.variant, "alice@example.org", "bob@example.org", nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range tt.moves {
				g, _ = a.Game(ctx, g.ID)
				p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 10:00:00 +0000", m), 0, 0)
				if err != nil || p.Verdict != referee.Applied {
					t.Fatalf("%s: %+v, %v", m, p, err)
				}
			}
			g, _ = a.Game(ctx, g.ID)
			rec, err := a.Export(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rec.WriteTo(&b)
			back, err := game.ParseRecord(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ReplayRecord(back, nil)
			if err != nil {
				t.Fatalf("the export does not replay: %v\n%s", err, b.String())
			}
			if want := g.Actions[len(g.Actions)-1].Position; rep.Final.String() != want {
				t.Errorf("replayed to %s, the game stands at %s", rep.Final, want)
			}
			if (back.Tag("Variant") == "") != (tt.variant == "chess") {
				t.Errorf("[Variant %q] in the export of %s", back.Tag("Variant"), tt.variant)
			}
			if len(back.Dates) != len(tt.moves) || back.Dates[0] != "2026.11.23" {
				t.Errorf("dates %q", back.Dates)
			}
		})
	}
}

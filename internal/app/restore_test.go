package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/rules"
)

// TestReplyAfterARestore: the organiser restores a backup taken after e4;
// Black then answers the mail he got after e4 e5 Nf3, which the restored
// referee never sent. The refusal says the referee does not have that
// position (restored from a backup) and shows the board it has.
func TestReplyAfterARestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	opts := Options{Catalog: testCatalog(), DB: filepath.Join(dir, "r.db"), Address: "referee@example.test",
		Now: func() time.Time { now = now.Add(time.Minute); return now }}
	a, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	play := func(a *App, c rules.Color, move string) {
		t.Helper()
		g, _ := a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, c, "Mon, 23 Nov 2026 10:00:00 +0000", move), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", move, p, err)
		}
	}
	play(a, rules.White, "e4")
	backup := filepath.Join(dir, "backup.db")
	if err := a.Store().Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	play(a, rules.Black, "e5")
	play(a, rules.White, "Nf3")
	late, _ := a.Game(ctx, g.ID) // Black's mail after Nf3 carries this game's count
	reply := moveMail(a, late, rules.Black, "Mon, 23 Nov 2026 11:00:00 +0000", "Nc6")
	a.Close()

	opts.DB = backup
	b, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	p, err := b.Process(ctx, reply, 0, 0)
	if err != nil || p.Verdict != referee.Rejected {
		t.Fatalf("the reply after the restore: %+v, %v", p, err)
	}
	_, m := lastTo(t, b, "bob@example.org")
	says(t, "the refusal", m, "restored from a backup", "does not have the position you answered",
		"after 3 actions", "ends after 1 action.")
	if strings.Contains(m.Text, "-2") {
		t.Errorf("the refusal counts backwards:\n%s", m.Text)
	}
	if after, _ := b.Game(ctx, g.ID); after.Ply() != 1 {
		t.Errorf("the restored game is at ply %d, want 1", after.Ply())
	}
}

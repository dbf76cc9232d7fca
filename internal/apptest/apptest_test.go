package apptest_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/apptest"
	"referee/internal/mail/reader"
	"referee/internal/referee"
)

// TestCreatedGamesPlayByMail: a game made by CreateGames reads back as a
// new chess game of the two players with the promised secrets, and its
// players' mails with those secrets play the line of Moves.
func TestCreatedGamesPlayByMail(t *testing.T) {
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	created := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	ids, err := apptest.CreateGames(ctx, a.Store(), created, 3, "alice@example.test", "bob@example.test")
	if err != nil || len(ids) != 3 {
		t.Fatalf("CreateGames = %v, %v; want 3 games", ids, err)
	}
	for i, id := range ids {
		g, err := a.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Variant.Name() != "chess" || g.Status != referee.StatusActive || g.Ply() != 0 || !g.Created.Equal(created) ||
			g.Players[0].Address != "alice@example.test" || g.Players[1].Address != "bob@example.test" ||
			g.Players[0].Secret != apptest.Secret(i, 0) || g.Players[1].Secret != apptest.Secret(i, 1) {
			t.Fatalf("game %d reads back as %s %s ply %d created %v, %s (%s) v %s (%s)", id, g.Variant.Name(), g.Status, g.Ply(), g.Created,
				g.Players[0].Address, g.Players[0].Secret, g.Players[1].Address, g.Players[1].Secret)
		}
	}
	if apptest.Secret(0, 0) == apptest.Secret(0, 1) || apptest.Secret(0, 0) == apptest.Secret(1, 0) {
		t.Errorf("secrets repeat: %s %s %s", apptest.Secret(0, 0), apptest.Secret(0, 1), apptest.Secret(1, 0))
	}
	moves := apptest.Moves(6)
	for k, mv := range moves {
		from := []string{"alice@example.test", "bob@example.test"}[k%2]
		tok := reader.Token{GameID: ids[1], Secret: apptest.Secret(1, k%2), Ply: k}
		raw := fmt.Appendf(nil, "From: %s\r\nTo: referee+%s@example.test\r\nSubject: Re: move\r\nMessage-ID: <t%d@example.test>\r\n\r\n%s\r\n", from, tok, k, mv)
		if res, err := a.Process(ctx, raw, 0, 0); err != nil || res.Verdict != referee.Applied {
			t.Fatalf("move %d %s: %v %v %s", k+1, mv, err, res.Verdict, res.Detail)
		}
	}
	if g, _ := a.Game(ctx, ids[1]); g.Ply() != len(moves) {
		t.Errorf("the game has %d moves, want %d", g.Ply(), len(moves))
	}
}

// TestNotInTheBinary: the shipped binary does not depend on this package
// (nor on package testing): only tests import it.
func TestNotInTheBinary(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the binary's packages")
	}
	out, err := exec.Command(gobin, "list", "-deps", "referee/cmd/referee").Output()
	if err != nil {
		t.Fatalf("go list -deps referee/cmd/referee: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "referee/internal/apptest" || p == "testing" {
			t.Errorf("the binary referee/cmd/referee depends on %s: import it from _test.go files only", p)
		}
	}
}

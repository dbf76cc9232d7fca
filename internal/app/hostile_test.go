package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/referee"
	"referee/internal/rules"
)

// TestMessageIDCollisionIsListedNotDropped: a new mail that reuses the
// Message-ID of an earlier one with other content is neither dropped
// silently nor applied (issue 28): it is recorded, listed under the game
// by show and counted by status. The same mail fetched twice is still a
// plain duplicate.
func TestMessageIDCollisionIsListedNotDropped(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	withID := func(body string) []byte {
		return append([]byte("Message-ID: <same@example.org>\r\n"),
			moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:00:00 +0000", body)...)
	}
	if p, err := a.Process(ctx, withID("e4"), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("e4: %+v, %v", p, err)
	}
	if p, err := a.Process(ctx, withID("e4"), 0, 0); err != nil || !p.Duplicate {
		t.Errorf("e4 again: %+v, %v; want a duplicate", p, err)
	}
	p, err := a.Process(ctx, withID("d4"), 0, 0)
	if err != nil || p.Duplicate || p.Verdict != referee.Ignored || !strings.Contains(p.Detail, "Message-ID collision") {
		t.Fatalf("d4 under e4's Message-ID: %+v, %v; want ignored as a Message-ID collision, not a duplicate", p, err)
	}
	if g, _ := a.Game(ctx, g.ID); g.Ply() != 1 {
		t.Errorf("game at ply %d after the collision, want 1", g.Ply())
	}
	show, err := a.Show(ctx, g.ID)
	if err != nil || !strings.Contains(show, "Unanswered mail (1)") || !strings.Contains(show, "<same@example.org>") {
		t.Errorf("show does not list the collision:\n%s", show)
	}
	st, err := a.st.Status(ctx)
	if err != nil || st.Collisions != 1 || len(st.RecentCollisions) != 1 {
		t.Errorf("status: %d collisions (%v), want 1 listed", st.Collisions, err)
	}
	// The collision fetched again is a duplicate of itself, not a second one.
	if p, err := a.Process(ctx, withID("d4"), 0, 0); err != nil || !p.Duplicate {
		t.Errorf("the collision again: %+v, %v; want a duplicate", p, err)
	}
}

// TestUnparsableFromIsNotPlayed: a From that is not one valid address is
// not guessed (issue 28: "alice@example.test <mallory@evil.test>" was read
// as alice and, with her leaked reply address, played as her move).
func TestUnparsableFromIsNotPlayed(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Appendf(nil, "From: alice@example.org <mallory@evil.test>\r\nTo: %s\r\nSubject: Re: move\r\n\r\ne4\r\n",
		a.Referee().ReplyAddress(g, rules.White))
	p, err := a.Process(ctx, raw, 0, 0)
	if err != nil || p.Verdict != referee.Ignored || p.Mails != 0 || !strings.Contains(p.Detail, "From header") {
		t.Fatalf("forged From: %+v, %v; want ignored, no mail, a detail naming the From header", p, err)
	}
	if g, _ := a.Game(ctx, g.ID); g.Ply() != 0 {
		t.Errorf("game at ply %d after the forged From, want 0", g.Ply())
	}
}

package app

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/mail/dkimcheck/dkimtest"
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

// TestRequireAuthDKIM: with --require-auth dkim the referee verifies the
// mail's DKIM signature itself, against DNS (served on loopback here),
// instead of trusting a header (issue 28): a move signed by the player's
// domain is played, the same move altered on its way is refused, and a
// move signed by another domain is refused.
func TestRequireAuthDKIM(t *testing.T) {
	ctx := context.Background()
	zone := map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=reject"}}
	good := dkimtest.NewSigner(t, "example.org", zone)
	evil := dkimtest.NewSigner(t, "evil.test", zone)
	srv := dkimtest.Start(t, zone)
	for _, mode := range []string{referee.AuthDKIM, referee.AuthEither} {
		t.Run(mode, func(t *testing.T) {
			a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test",
				RequireAuth: true, AuthMode: mode, TrustedAuthServ: "mx.example.test", DNS: srv.Addr})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
			if err != nil {
				t.Fatal(err)
			}
			move := func(c rules.Color, id, body string) string {
				return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <%s@example.org>\r\n\r\n%s\r\n",
					g.Players[c].Address, a.Referee().ReplyAddress(g, c), id, body)
			}
			if p, err := a.Process(ctx, good.Sign(t, move(rules.White, "w1", "e4")), 0, 0); err != nil || p.Verdict != referee.Applied {
				t.Fatalf("e4 signed by example.org: %+v, %v; want applied", p, err)
			}
			tampered := bytes.Replace(good.Sign(t, move(rules.Black, "b1", "e5")), []byte("\r\ne5\r\n"), []byte("\r\nresign\r\n"), 1)
			if p, err := a.Process(ctx, tampered, 0, 0); err != nil || p.Verdict == referee.Applied || !strings.Contains(p.Detail, "authentication failed") {
				t.Errorf("a signed move altered on its way: %+v, %v; want refused for authentication", p, err)
			}
			if p, err := a.Process(ctx, evil.Sign(t, move(rules.Black, "b2", "e5")), 0, 0); err != nil || p.Verdict == referee.Applied || !strings.Contains(p.Detail, "not aligned") {
				t.Errorf("a move signed by evil.test: %+v, %v; want refused, not aligned", p, err)
			}
			if g, _ := a.Game(ctx, g.ID); g.Ply() != 1 {
				t.Errorf("game at ply %d, want 1 (only e4)", g.Ply())
			}
		})
	}
}

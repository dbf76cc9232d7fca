package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"referee/internal/referee"
)

// Issue 38: the organiser's commands take no address at an IP-literal-like
// or dotless domain (alice@1.2.3.4, alice@localhost): "referee new",
// "watch", an event's --players, its --entry list and a substitute. Each
// is refused with the reason; example.test, the embedded server's
// domain, stays valid.
func TestOrganiserCommandsRefuseHostAddresses(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "chess", "alice@example.test", "bob@example.test", nil)
	if err != nil {
		t.Fatalf("example.test addresses: %v", err)
	}
	newRR(t, a, "club", "ann@example.org", "ben@example.org", "cat@example.org")
	for _, bad := range []struct{ address, says string }{
		{"eve@1.2.3.4", "written like an IP address"},
		{"eve@localhost", "has no dot"},
	} {
		for _, tc := range []struct {
			what string
			run  func() error
		}{
			{"new --white", func() error { _, err := a.NewGame(ctx, "chess", bad.address, "bob@example.org", nil); return err }},
			{"new --black", func() error { _, err := a.NewGame(ctx, "chess", "bob@example.org", bad.address, nil); return err }},
			{"watch", func() error { return a.Watch(ctx, g.ID, bad.address, false) }},
			{"event create --players", func() error {
				_, err := a.CreateEvent(ctx, EventSpec{Name: "x", Variant: "chess", Format: "rr",
					Players: []string{"ann@example.org", "ben@example.org", bad.address}})
				return err
			}},
			{"event create --entry FILE", func() error {
				_, err := ReadPlayerList("ann@example.org\n"+bad.address+"\n", "list.txt")
				return err
			}},
			{"event replace", func() error { _, err := a.ReplaceInEvent(ctx, "club", "cat@example.org", bad.address); return err }},
		} {
			err := tc.run()
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), bad.says) {
				t.Errorf("%s %s: %v; want it refused as input, saying %q", tc.what, bad.address, err, bad.says)
			}
		}
	}
}

// Issue 38: after "event replace E OLD NEW" the seat is NEW's. OLD's
// mails about the event are a stranger's ("withdraw E confirm" from OLD
// used to abort NEW's games), "event withdraw E OLD" is refused naming
// NEW, and "event withdraw E NEW", once refused as "does not play", acts
// on NEW's games, as NEW's own "withdraw E confirm" by mail does.
func TestReplacedPlayerHoldsNoSeat(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	active := func(name string, seat int) int {
		t.Helper()
		e, err := a.Event(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, g := range gamesOf(e, seat) {
			if g.Status == referee.StatusActive {
				n++
			}
		}
		return n
	}
	for _, name := range []string{"sub", "sub2"} {
		newRR(t, a, name, "ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org")
		if n, err := a.ReplaceInEvent(ctx, name, "cat@example.org", "zoe@example.org"); err != nil || n != 3 {
			t.Fatalf("%s: replace: %d games, %v; want 3", name, n, err)
		}
	}
	n := 0
	for _, line := range []string{"withdraw sub", "withdraw sub confirm", "standings sub"} {
		if p := send(t, a, &n, "cat@example.org", "", line); p.Verdict != referee.Rejected {
			t.Errorf("%q from the replaced cat: %+v; want it refused as a stranger's", line, p)
		}
		_, m := lastTo(t, a, "cat@example.org")
		says(t, "the answer to cat's "+line, m, "there is no event \"sub\" that you play in or may join")
	}
	if got := active("sub", 3); got != 3 {
		t.Fatalf("after cat's mails, zoe has %d games in play, want 3", got)
	}
	_, err := a.WithdrawFromEvent(ctx, "sub", "cat@example.org")
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "zoe@example.org took over their seat") {
		t.Errorf("event withdraw sub cat: %v; want it refused, naming zoe", err)
	}
	if got := active("sub", 3); got != 3 {
		t.Fatalf("after withdrawing cat, zoe has %d games in play, want 3", got)
	}
	if _, err := a.WithdrawFromEvent(ctx, "sub", "zoe@example.org"); err != nil {
		t.Errorf("event withdraw sub zoe: %v", err)
	}
	if got := active("sub", 3); got != 0 {
		t.Errorf("after withdrawing zoe, %d of her games are in play, want none", got)
	}
	if p := send(t, a, &n, "zoe@example.org", "", "withdraw sub2 confirm"); p.Verdict != referee.Applied {
		t.Errorf("zoe withdraws from sub2 by mail: %+v", p)
	}
	if got := active("sub2", 3); got != 0 {
		t.Errorf("after zoe's withdrawal by mail, %d of her games are in play, want none", got)
	}
	told := false
	for _, o := range outboxTo(t, a, "ann@example.org") {
		told = told || strings.Contains(string(o.Raw), "zoe@example.org withdrew from sub2")
	}
	if !told {
		t.Errorf("ann was not told that zoe withdrew from sub2")
	}
	// A player of the event, present or past, is no substitute.
	if _, err := a.ReplaceInEvent(ctx, "sub2", "dan@example.org", "cat@example.org"); !errors.Is(err, ErrInput) {
		t.Errorf("cat, replaced in sub2, takes over dan's seat there: %v", err)
	}
}

package app

import (
	"context"
	"errors"
	"fmt"
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

// joinByMail sends "join NAME" from from and, when the referee asks the
// address to prove itself (an address never seen here, issue 38), replies
// to that request as the address's owner would. It returns what became of
// the last mail.
func joinByMail(t *testing.T, a *App, n *int, from, name string) Processed {
	t.Helper()
	p := send(t, a, n, from, "", "join "+name)
	if p.Verdict != referee.Answered {
		return p
	}
	o, m := lastTo(t, a, from)
	if o.Kind != string(referee.KindProof) {
		return p
	}
	return send(t, a, n, from, replyAddress(t, o), "join "+name, "In-Reply-To: "+m.MessageID+"\r\n")
}

// Issue 38: under --entry open, 16 forged joins filled a 16-player round
// robin, started its 120 games and had the referee mail 46 outside
// addresses about 300 times in seconds. A join from an address never seen
// here now counts only once the address replies to the referee's request
// for proof, and those requests are answers to strangers, under their
// hourly cap across all senders (30 by default). So 40 forged joins
// start nothing, enter no one, and make at most 30 mails, each to the
// forged sender alone; one real newcomer who replies does join.
func TestOpenEntryFloodStartsNothing(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "open16", Variant: "chess", Format: "rr", Open: 16, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range 40 {
		p := send(t, a, &n, fmt.Sprintf("victim%d@example.net", i), "", "join open16")
		if p.Verdict == referee.Applied {
			t.Fatalf("forged join %d was applied: %+v", i, p)
		}
	}
	e, err := a.Event(ctx, "open16")
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != referee.EventOpen || len(e.Players) != 0 || len(e.Games) != 0 {
		t.Fatalf("after 40 forged joins: %s, %d players, %d games; want open, none, none", e.Status, len(e.Players), len(e.Games))
	}
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	to := map[string]int{}
	for _, o := range out {
		if o.Kind != string(referee.KindProof) {
			t.Errorf("a forged join made a %q mail to %s", o.Kind, o.To)
		}
		to[o.To]++
	}
	if len(out) > DefaultMaxStrangerAnswers {
		t.Errorf("40 forged joins queued %d mails, over the cap of %d answers to strangers an hour", len(out), DefaultMaxStrangerAnswers)
	}
	for who, k := range to {
		if k != 1 || !strings.HasPrefix(who, "victim") {
			t.Errorf("%d mails to %s; want at most one, to a forged sender", k, who)
		}
	}
	// A newcomer's own reply proves the address: then the join counts.
	// (A new referee: this one spent the hour's answers to strangers.)
	a2, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a2.CreateEvent(ctx, EventSpec{Name: "open16", Variant: "chess", Format: "rr", Open: 16, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	if p := send(t, a2, &n, "newcomer@example.net", "", "join open16"); p.Verdict != referee.Answered {
		t.Fatalf("a newcomer's join: %+v; want an answer asking for proof", p)
	}
	o, m := lastTo(t, a2, "newcomer@example.net")
	says(t, "the request for proof", m, "received a request to enter open16", `reply to it with "join open16" on the first line`,
		"If you did not ask for this, ignore this mail: nothing happens, and you are not entered.")
	// Someone else replying with the newcomer's proof is not the newcomer.
	if p := send(t, a2, &n, "mallory@example.net", replyAddress(t, o), "join open16"); p.Verdict == referee.Applied {
		t.Errorf("another address used the newcomer's proof: %+v", p)
	}
	if p := send(t, a2, &n, "newcomer@example.net", replyAddress(t, o), "join open16", "In-Reply-To: "+m.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("the newcomer's reply: %+v", p)
	}
	// The Message-ID alone proves it too (a provider that drops plus-addresses).
	if p := send(t, a2, &n, "other@example.net", "", "join open16"); p.Verdict != referee.Answered {
		t.Fatalf("another newcomer's join: %+v", p)
	}
	_, m = lastTo(t, a2, "other@example.net")
	if p := send(t, a2, &n, "other@example.net", "", "join open16", "In-Reply-To: "+m.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("a reply carrying the proof in In-Reply-To only: %+v", p)
	}
	e, _ = a2.Event(ctx, "open16")
	if len(e.Players) != 2 {
		t.Errorf("%d players after two proved joins, want 2", len(e.Players))
	}
	// A player entered once is seen: a later join needs no proof.
	if _, err := a2.CreateEvent(ctx, EventSpec{Name: "next", Variant: "chess", Format: "rr", Open: 4, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	if p := send(t, a2, &n, "newcomer@example.net", "", "join next"); p.Verdict != referee.Applied {
		t.Errorf("a seen player's join: %+v; want it applied at once", p)
	}
}

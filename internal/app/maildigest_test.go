package app

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/rules"
)

// TestDigestPlayerGetsOneMailADayAndActsFromIt: Carol plays Black in 10
// games and takes "mail digest 18:00" (Berlin). Her ten opponents move
// during the day: she gets no mail for it; at 18:00 in Berlin one digest
// lists the 10 games, each with its board and reply address. She plays in
// 3 games by writing to 3 of those addresses: the moves are applied in
// those games (and no confirmation mail comes). The next day's digest
// lists the other 7 where it is still her move, and the 3 as waiting for
// the opponents. A reminder still comes at once.
func TestDigestPlayerGetsOneMailADayAndActsFromIt(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	var games []*referee.Game
	for i := range 10 {
		g, err := a.NewTimedGame(ctx, "chess", fmt.Sprintf("w%d@example.org", i), "carol@example.org", nil, "10d")
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	n := 0
	for _, body := range []string{"timezone Europe/Berlin", "mail digest 18:00"} {
		if p := send(t, a, &n, "carol@example.org", "", body); p.Verdict != referee.Applied {
			t.Fatalf("%q: %s %s", body, p.Verdict, p.Detail)
		}
	}
	toCarol := func() []string {
		t.Helper()
		out, err := a.Store().Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, o := range out {
			if o.To == "carol@example.org" && o.Kind != "opening" && o.Kind != "lobby" {
				kinds = append(kinds, o.Kind)
			}
		}
		return kinds
	}
	for i, g := range games {
		clk.now = clk.now.Add(time.Minute)
		msg := ""
		if i == 0 {
			msg = "\r\nYour move, Carol!"
		}
		if p, err := a.Process(ctx, moveMail(a, g, rules.White, clk.now.Format(time.RFC1123Z), "e4"+msg), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("game #%d e4: %+v %v", g.ID, p, err)
		}
	}
	if k := toCarol(); len(k) != 0 {
		t.Fatalf("Carol got %v during the day; want nothing before her digest", k)
	}
	clk.now = time.Date(2026, 12, 1, 16, 59, 0, 0, time.UTC) // 17:59 in Berlin
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if k := toCarol(); len(k) != 0 {
		t.Fatalf("Carol got %v before 18:00 in Berlin", k)
	}
	clk.now = time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC)
	for range 2 { // a second tick sends nothing more
		if _, err := a.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		clk.now = clk.now.Add(time.Minute)
	}
	if k := toCarol(); len(k) != 1 || k[0] != "digest" {
		t.Fatalf("Carol got %v at 18:00; want one digest", k)
	}
	_, digest := lastTo(t, a, "carol@example.org")
	text := digest.Text
	if !strings.Contains(text, "it is your move in 10 games") || strings.Count(text, "=== Game #") != 10 ||
		!strings.Contains(text, `writes: "Your move, Carol!"`) || !strings.Contains(text, "w0@example.org played e4.\n") {
		t.Fatalf("the digest:\n%s", text)
	}
	addrs := regexp.MustCompile(`(?m)^  (referee\+\S+@example\.test)$`).FindAllStringSubmatch(text, -1)
	if len(addrs) != 10 {
		t.Fatalf("%d reply addresses in the digest; want 10:\n%s", len(addrs), text)
	}
	for i := range 3 {
		clk.now = clk.now.Add(time.Minute)
		raw := fmt.Appendf(nil, "From: carol@example.org\r\nTo: %s\r\nSubject: Re: digest\r\nMessage-ID: <c%d@example.org>\r\nDate: %s\r\n\r\ne5\r\n",
			addrs[i][1], i, clk.now.Format(time.RFC1123Z))
		if p, err := a.Process(ctx, raw, 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("Carol's e5 to %s: %+v %v", addrs[i][1], p, err)
		}
	}
	played := 0
	for _, g := range games {
		g, err := a.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Ply() == 2 {
			played++
		}
	}
	if played != 3 {
		t.Errorf("Carol's move was applied in %d games; want 3", played)
	}
	if k := toCarol(); len(k) != 1 {
		t.Errorf("Carol got %v after playing; want still the one digest (no confirmations)", k)
	}
	clk.now = time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC) // the next day, 18:00 in Berlin
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if k := toCarol(); len(k) != 2 {
		t.Fatalf("Carol got %v after two days; want two digests", k)
	}
	_, digest = lastTo(t, a, "carol@example.org")
	if !strings.Contains(digest.Text, "it is your move in 7 games") || strings.Count(digest.Text, "their move (your last move was e5)") != 3 {
		t.Errorf("the second digest:\n%s", digest.Text)
	}
	// A clock about to run out: the reminder comes at once.
	clk.now = games[9].Created.Add(10*referee.Day - 12*time.Hour)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if k := toCarol(); !strings.Contains(strings.Join(k, " "), "reminder") {
		t.Errorf("Carol got %v; want a reminder at once", k)
	}
}

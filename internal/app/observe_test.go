package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/rules"
)

// mailsTo counts the queued mails to addr.
func mailsTo(t *testing.T, a *App, addr string) int {
	t.Helper()
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range out {
		if o.To == addr {
			n++
		}
	}
	return n
}

// TestObserveThroughTheStore: under --observers open a stranger's
// "observe 1" is stored and answered with the board (no reply address);
// with a delay of one move the next board reaches the spectator a move
// late; "unobserve 1" ends it. A private game refuses both the mail and
// the organiser's "referee watch".
func TestObserveThroughTheStore(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen})
	g, err := a.NewGameWith(ctx, "chess", "carol@example.org", "bob@example.org", nil, "", GameOptions{WatchDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	const eve = "eve@example.net"
	if p := send(t, a, &n, eve, "", "observe 1"); p.Verdict != referee.Applied {
		t.Fatalf("observe: %+v", p)
	}
	if g, _ = a.Game(ctx, g.ID); len(g.Watchers) != 1 || g.Watchers[0] != eve {
		t.Fatalf("watchers after observe: %q", g.Watchers)
	}
	o, first := lastTo(t, a, eve)
	says(t, "the first spectator mail", first, "You now observe game #1")
	if strings.Contains(string(o.Raw), "\r\nReply-To:") {
		t.Errorf("a spectator mail carries a Reply-To")
	}
	before := mailsTo(t, a, eve)
	for i, mv := range []string{"e4", "e5"} {
		g, _ = a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 12:00:00 +0000", mv), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
		if got, want := mailsTo(t, a, eve), before+i; got != want {
			t.Errorf("after %s eve has %d mails, want %d (the game is shown one move late)", mv, got, want)
		}
	}
	_, late := lastTo(t, a, eve)
	says(t, "the delayed spectator mail", late, "White played e4. This game is shown 1 move late.")
	if p := send(t, a, &n, eve, "", "unobserve 1"); p.Verdict != referee.Applied {
		t.Fatalf("unobserve: %+v", p)
	}
	if g, _ = a.Game(ctx, g.ID); len(g.Watchers) != 0 {
		t.Errorf("watchers after unobserve: %q", g.Watchers)
	}

	priv, err := a.NewGameWith(ctx, "chess", "dan@example.org", "fay@example.org", nil, "", GameOptions{Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := send(t, a, &n, eve, "", "observe 2"); p.Verdict != referee.Rejected {
		t.Errorf("observing a private game: %+v", p)
	}
	if err := a.Watch(ctx, priv.ID, eve, false); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "private") {
		t.Errorf("referee watch on a private game: %v", err)
	}
	if _, err := a.NewGameWith(ctx, "chess", "dan@example.org", "fay@example.org", nil, "", GameOptions{WatchDelay: 8}); !errors.Is(err, ErrInput) {
		t.Errorf("a delay of 8 moves: %v", err)
	}
	if err := a.SetWatchDelay(ctx, g.ID, 3); err != nil {
		t.Fatal(err)
	}
	if g, _ = a.Game(ctx, g.ID); g.State.WatchDelay != 3 {
		t.Errorf("watch-delay 3: the game's delay is %d", g.State.WatchDelay)
	}
}

// TestObserveKnownPolicy: under the default policy only an address that
// played here may observe by mail.
func TestObserveKnownPolicy(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a.NewGameWith(ctx, "chess", "carol@example.org", "bob@example.org", nil, "", GameOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.NewGameWith(ctx, "chess", "dan@example.org", "fay@example.org", nil, "", GameOptions{}); err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := send(t, a, &n, "eve@example.net", "", "observe 1"); p.Verdict != referee.Rejected {
		t.Errorf("a stranger observes under known: %+v", p)
	}
	if p := send(t, a, &n, "dan@example.org", "", "observe 1"); p.Verdict != referee.Applied {
		t.Errorf("a player of another game observes under known: %+v", p)
	}
}

// TestPrivateChallengeStartsAPrivateGame: "private" in a challenge is kept
// with the challenge in the store and makes the game it starts private.
func TestPrivateChallengeStartsAPrivateGame(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "challenge chess bob@example.org private"); p.Verdict != referee.Applied {
		t.Fatalf("challenge: %+v", p)
	}
	inv, _ := lastTo(t, a, "bob@example.org")
	clk.now = clk.now.Add(time.Hour)
	p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
	if p.GameID == 0 {
		t.Fatalf("accept: %+v", p)
	}
	g, err := a.Game(ctx, p.GameID)
	if err != nil || !g.State.Private {
		t.Fatalf("the game of a private challenge: private %v, %v", g != nil && g.State.Private, err)
	}
}

// TestObserveCapCountsTheStore: the count of games an address observes
// comes from the store: with MaxObserved 1, a second game is refused until
// the first is unobserved.
func TestObserveCapCountsTheStore(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen, MaxObserved: 1})
	for range 2 {
		if _, err := a.NewGameWith(ctx, "chess", "carol@example.org", "bob@example.org", nil, "", GameOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, tt := range []struct {
		line string
		want referee.Verdict
	}{{"observe 1", referee.Applied}, {"observe 2", referee.Rejected}, {"unobserve 1", referee.Applied}, {"observe 2", referee.Applied}} {
		if p := send(t, a, &n, "eve@example.net", "", tt.line); p.Verdict != tt.want {
			t.Errorf("%s: %+v, want %s", tt.line, p, tt.want)
		}
	}
}

// TestObserveInTheSpectatorsLanguage: a spectator who sent "language de"
// gets the boards of the game they observe in German (the app loads the
// spectators' languages with the game), also when the game is shown a
// move late.
func TestObserveInTheSpectatorsLanguage(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen})
	g, err := a.NewGameWith(ctx, "chess", "carol@example.org", "bob@example.org", nil, "", GameOptions{WatchDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	const eve = "eve@example.net"
	for _, line := range []string{"language de", "observe 1"} {
		if p := send(t, a, &n, eve, "", line); p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v", line, p)
		}
	}
	if g, _ = a.Game(ctx, g.ID); g.WatcherLanguages[eve] != "de" {
		t.Fatalf("the game's spectators' languages: %v", g.WatcherLanguages)
	}
	for i, mv := range []string{"e4", "e5"} {
		g, _ = a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 12:00:00 +0000", mv), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
	}
	_, late := lastTo(t, a, eve)
	says(t, "the delayed spectator mail", late, "Weiß zog e4. Diese Partie wird um 1 Zug verzögert gezeigt.")
	says(t, "the delayed spectator mail", late, "Sie verfolgen die Partie #1")
}

package referee

import (
	"slices"
	"strings"
	"testing"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// observeMail is a mail from from to the referee's plain address.
func observeMail(from, line string) *reader.Mail {
	return &reader.Mail{From: from, MessageID: "<obs-" + strings.ReplaceAll(line, " ", "-") + "@x>", Action: line, Subject: line}
}

// TestObserveCommand: "observe GAME" makes the sender a spectator of a
// running game when the organiser's policy allows it (issue 31), and is
// refused, changing nothing, for a private game, a game that does not
// exist or is over (with one and the same answer), for the game's own
// players, and for a spectator already watching.
func TestObserveCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{Observers: ObserversKnown})
	const eve = "eve@example.net"
	running := func() *Game { return carolsGame(t, 17, "dave@example.org", true) }
	private := running()
	private.State.Private = true
	over := running()
	over.Status, over.Result, over.ResultReason = StatusFinished, "1-0", "Black resigned"
	watched := running()
	watched.Watchers = []string{eve}
	notFound := "game #17 is not a running game that can be observed"
	tests := []struct {
		name       string
		from       string
		line       string
		may        bool
		named      *Game
		applied    bool
		say        string // in the answer
		comment    string
		wantNeeded int64
	}{
		{"allowed", eve, "observe 17", true, running(), true, "You now observe game #17.", "a spectator mail with the board", 17},
		{"alias and hash", eve, "Watch #17", true, running(), true, "You now observe game #17.", "", 17},
		{"policy", eve, "observe 17", false, running(), false, "lets only known players observe games by mail (--observers known)", "known: eve never played", 17},
		{"no such game", eve, "observe 17", true, nil, false, notFound, "", 17},
		{"private", eve, "observe 17", true, private, false, notFound, "the same answer as no game: nothing is confirmed", 17},
		{"over", eve, "observe 17", true, over, false, notFound, "", 17},
		{"player", "dave@example.org", "observe 17", true, running(), false, "you play in game #17", "", 17},
		{"twice", eve, "observe 17", true, watched, false, "you observe game #17 already", "", 17},
		{"no id", eve, "observe", true, nil, false, "it names no game", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := observeMail(tt.from, tt.line)
			if n := r.Needs(m, nil); !n.Lobby || n.Named != tt.wantNeeded {
				t.Errorf("the app is asked to load %+v, want the lobby and game %d", n, tt.wantNeeded)
			}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: &Lobby{MayObserve: tt.may, Named: tt.named, Active: map[string]int{}}})
			if len(out.Mails) != 1 || out.Mails[0].To != tt.from {
				t.Fatalf("%s: mails %q, want one answer to the sender", out.Detail, mailsTo(out))
			}
			if got := textOf(t, out.Mails[0]); !strings.Contains(norm(got), tt.say) {
				t.Errorf("the answer does not say %q:\n%s", tt.say, got)
			}
			if !tt.applied {
				if out.Verdict != Rejected || out.Lobby != nil {
					t.Errorf("refused (%s): verdict %s, lobby change %+v; want rejected and no change", tt.comment, out.Verdict, out.Lobby)
				}
				return
			}
			if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Watch == nil || *out.Lobby.Watch != (WatchChange{GameID: 17, Address: eve}) {
				t.Fatalf("verdict %s, change %+v; want eve to watch game #17", out.Verdict, out.Lobby)
			}
			sm := out.Mails[0]
			if sm.Kind != "spectator" || sm.ReplyTo != "" || sm.Board == nil || !sm.Board.Spectator {
				t.Errorf("the answer is a %q mail with Reply-To %q; want a spectator board mail with no reply address", sm.Kind, sm.ReplyTo)
			}
			for _, p := range running().Players {
				if strings.Contains(textOf(t, sm), p.Address) || strings.Contains(sm.Subject, p.Address) {
					t.Errorf("the spectator mail shows the player's address %s:\n%s", p.Address, textOf(t, sm))
				}
			}
		})
	}
}

// TestObserveCap: an address observes at most MaxObserved running games
// (default 20), so a forged sender cannot subscribe someone to them all.
func TestObserveCap(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	for _, tt := range []struct {
		observing int
		want      Verdict
	}{{19, Applied}, {20, Rejected}} {
		out := r.Handle(Inbound{Mail: observeMail("eve@example.net", "observe 17")}, nil,
			Env{Now: lobbyNow, Lobby: &Lobby{MayObserve: true, Observing: tt.observing, Named: carolsGame(t, 17, "dave@example.org", true), Active: map[string]int{}}})
		if out.Verdict != tt.want {
			t.Errorf("observing %d games: %s (%s), want %s", tt.observing, out.Verdict, out.Detail, tt.want)
		}
	}
}

// TestObserversPolicyNone: under --observers none the refusal says that no
// one may observe by mail.
func TestObserversPolicyNone(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{Observers: ObserversNone})
	out := r.Handle(Inbound{Mail: observeMail("eve@example.net", "observe 17")}, nil,
		Env{Now: lobbyNow, Lobby: &Lobby{Named: carolsGame(t, 17, "dave@example.org", true), Active: map[string]int{}}})
	if out.Verdict != Rejected || !strings.Contains(norm(textOf(t, out.Mails[0])), "lets no one observe games by mail (--observers none)") {
		t.Errorf("%s: %s", out.Verdict, textOf(t, out.Mails[0]))
	}
}

// TestUnobserve: "unobserve GAME" removes the sender's own subscription
// (under the address it was stored with) and is refused when there is none.
func TestUnobserve(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 17, "dave@example.org", true)
	g.Watchers = []string{"eve@example.net"}
	out := r.Handle(Inbound{Mail: observeMail("Eve@Example.net", "unobserve 17")}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Named: g, Active: map[string]int{}}})
	if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Watch == nil || *out.Lobby.Watch != (WatchChange{GameID: 17, Address: "eve@example.net", Stop: true}) {
		t.Fatalf("%s %s: change %+v", out.Verdict, out.Detail, out.Lobby)
	}
	out = r.Handle(Inbound{Mail: observeMail("mallory@example.net", "unobserve 17")}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Named: g, Active: map[string]int{}}})
	if out.Verdict != Rejected || out.Lobby != nil || !strings.Contains(textOf(t, out.Mails[0]), "You do not observe game #17") {
		t.Errorf("a stranger's unobserve: %s %+v", out.Verdict, out.Lobby)
	}
}

// play sends line as c's action in g and returns the outcome, with the new
// game's last action dated as the app dates it when it stores it.
func play(t *testing.T, r *Referee, g *Game, c rules.Color, line string) (Outcome, *Game) {
	t.Helper()
	m := &reader.Mail{From: g.Players[c].Address, MessageID: "<" + line + "@x>", Action: line,
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
	if out.Verdict != Applied {
		t.Fatalf("%s %q: %s %s", c, line, out.Verdict, out.Detail)
	}
	ng := out.Game
	stored := ng.clone()
	for i := range stored.Actions {
		if stored.Actions[i].Time.IsZero() {
			stored.Actions[i].Time = lobbyNow
		}
	}
	return out, stored
}

func spectatorMailsIn(out Outcome) []Mail {
	var s []Mail
	for _, m := range out.Mails {
		if m.Kind == "spectator" {
			s = append(s, m)
		}
	}
	return s
}

// TestSpectatorDelay: with a delay of 2 moves a spectator never sees a
// position newer than two actions before the current one (ICCF's delay,
// issue 31): no mail for the first two moves, then each move's mail shows
// the position two actions back; a draw offer tells them nothing; when the
// game ends everything is shown.
func TestSpectatorDelay(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 17, "dave@example.org", true)
	g.State.WatchDelay = 2
	g.Watchers = []string{"eve@example.net"}
	moves := []string{"e4", "e5", "Nf3", "Nc6"}
	for i, mv := range moves {
		var out Outcome
		out, g = play(t, r, g, rules.Color(i%2), mv)
		sm := spectatorMailsIn(out)
		if i < 2 {
			if len(sm) != 0 {
				t.Errorf("after %s (move %d of a game shown 2 moves late): %d spectator mails, want none", mv, i+1, len(sm))
			}
			continue
		}
		if len(sm) != 1 {
			t.Fatalf("after %s: %d spectator mails, want 1", mv, len(sm))
		}
		b := sm[0].Board
		if got, want := b.Pos.String(), g.Actions[i-2].Position; got != want {
			t.Errorf("after %s the spectator sees %s, want the position after %s: %s", mv, got, moves[i-2], want)
		}
		if len(b.MoveList) != i-1 || strings.Contains(textOf(t, sm[0]), " "+mv) {
			t.Errorf("after %s the spectator's move list has %d moves (want %d) or names %s:\n%s", mv, len(b.MoveList), i-1, mv, textOf(t, sm[0]))
		}
	}
	out, g := play(t, r, g, rules.White, "draw")
	if sm := spectatorMailsIn(out); len(sm) != 0 {
		t.Errorf("a draw offer in a delayed game sent %d spectator mails, want none", len(sm))
	}
	out, g = play(t, r, g, rules.Black, "resign")
	out, _ = play(t, r, g, rules.Black, "confirm")
	sm := spectatorMailsIn(out)
	if len(sm) != 1 || sm[0].Board.Pos.String() != g.Actions[3].Position || len(sm[0].Board.MoveList) != 4 {
		t.Fatalf("the end of the game: %d spectator mails; want one with the final position", len(sm))
	}
}

// TestSpectatorNoDelay: without a delay every action reaches spectators at
// once, as before.
func TestSpectatorNoDelay(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 17, "dave@example.org", true)
	g.Watchers = []string{"eve@example.net"}
	out, g := play(t, r, g, rules.White, "e4")
	if sm := spectatorMailsIn(out); len(sm) != 1 || sm[0].Board.Pos.String() != g.Actions[0].Position {
		t.Fatalf("%d spectator mails after e4, want one with the position after it", len(sm))
	}
}

// TestObserversCommand: a player's "observers" lists the game's spectators
// and its delay; a private game says so.
func TestObserversCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 17, "dave@example.org", true)
	g.Watchers = []string{"eve@example.net", "fred@example.com"}
	g.State.WatchDelay = 3
	m := &reader.Mail{From: "dave@example.org", MessageID: "<o@x>", Action: "observers",
		Token: &reader.Token{GameID: 17, Secret: g.Players[1].Secret}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
	text := textOf(t, out.Mails[0])
	for _, want := range []string{"2 spectators observe this game", "eve@example.net", "fred@example.com", "3 moves late"} {
		if out.Verdict != Answered || !strings.Contains(text, want) {
			t.Errorf("%s: the answer does not say %q:\n%s", out.Verdict, want, text)
		}
	}
	g.Watchers, g.State.Private = nil, true
	out = r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
	if text := textOf(t, out.Mails[0]); !strings.Contains(text, "This game is private") {
		t.Errorf("a private game's observers:\n%s", text)
	}
}

// TestPrivateChallenge: the word "private" in a challenge asks for a game
// no one may observe, and a rematch keeps it.
func TestPrivateChallenge(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 4, NewSecret: "pppppppp22", NewSeed: testSeed}
	out := r.Handle(Inbound{Mail: observeMail("carol@example.org", "challenge chess bob@example.org private")}, nil, Env{Now: lobbyNow, Lobby: lb})
	if out.Lobby == nil || out.Lobby.NewChallenge == nil || !out.Lobby.NewChallenge.Private {
		t.Fatalf("%s %s: %+v", out.Verdict, out.Detail, out.Lobby)
	}
	out = r.Handle(Inbound{Mail: observeMail("carol@example.org", "challenge chess bob@example.org")}, nil, Env{Now: lobbyNow, Lobby: lb})
	if out.Lobby == nil || out.Lobby.NewChallenge == nil || out.Lobby.NewChallenge.Private {
		t.Fatalf("a challenge without the word is private: %+v", out.Lobby)
	}
}

// TestSpectatorView: what spectators and web pages may see of a game
// holds no secret and no running seed, and is cut to the delay.
func TestSpectatorView(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 17, "dave@example.org", true)
	g.Seed[0] = 7
	g.State.WatchDelay = 1
	g.Watchers = []string{"eve@example.net"}
	_, g = play(t, r, g, rules.White, "e4")
	_, g = play(t, r, g, rules.Black, "e5")
	v := g.SpectatorView()
	if v.Ply() != 1 || v.Players[0].Secret != "" || v.Players[1].Secret != "" || v.Seed[0] != 0 || v.Watchers != nil {
		t.Errorf("view: %d actions, secrets %q %q, seed %x, watchers %q", v.Ply(), v.Players[0].Secret, v.Players[1].Secret, v.Seed[:1], v.Watchers)
	}
	if g.Ply() != 2 || g.Players[0].Secret == "" || g.Seed[0] != 7 {
		t.Error("SpectatorView changed the game")
	}
	if got := []string{MaskAddress("alice@example.org"), MaskAddress("al@x.org"), PublicName(Player{Name: "Alice", Address: "a@b.c"}), PublicName(Player{Name: "x@y.z", Address: "bob@b.c"})}; !slices.Equal(got,
		[]string{"al…@example.org", "a…@x.org", "Alice", "bo…@b.c"}) {
		t.Errorf("public names: %q", got)
	}
}

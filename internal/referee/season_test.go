package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rating"
	"referee/internal/rules"
)

// A club's season by mail (issue 37): the mails of a timed event game
// say the time control, name the event, round and board, and point the
// players to the standings; its spectators are told the command that
// stops them.

// seasonGame is game #4 of the round robin "autumn", round 2, board 1,
// at 10 moves in 50 days with the clock stopped at weekends; alice
// (White) is in Berlin, bob in UTC. White's turn began on Friday 4
// December 2026 at 12:00 UTC.
func seasonGame(t *testing.T) (*Referee, *Game) {
	t.Helper()
	r, g := newGame(t, rules.Chess())
	g.ID = 4
	g.Players[rules.White].Zone = "Europe/Berlin"
	g.Event = &GameEvent{Name: "autumn", Format: FormatRR, Round: 2, Board: 1, Leg: 1}
	c, err := ParseTimeControl("10/50d off sat,sun")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	g.State.Clock = c
	return r, g
}

// TestOpeningMailStatesTheControlAndTheEvent: the opening mail names the
// event, round and board (subject and first lines) and says the time
// control in words, with the days off, and how time is counted.
func TestOpeningMailStatesTheControlAndTheEvent(t *testing.T) {
	r, g := seasonGame(t)
	_, _, mails, err := r.Start(g, g.State.Clock.TurnStart)
	if err != nil {
		t.Fatal(err)
	}
	text := textOf(t, mails[0])
	for _, want := range []string{"10 moves in 50 days", "the clock stops on Saturdays and Sundays", "in the event autumn, round 2, board 1"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("the opening mail does not say %q", want)
		}
	}
	if want := "[chess #4] autumn, round 2, board 1 - "; !strings.HasPrefix(mails[0].Subject, want) {
		t.Errorf("subject %q; want it to start %q", mails[0].Subject, want)
	}
	mailGolden(t, "opening-event-timed", mails...)
}

// TestTimeLeftCountsTheSameForBothSides: with the clock stopped at
// weekends, the side to move shows the clock time it has left, as its
// opponent does, not the calendar time to its deadline. White's turn
// began on Friday at 12:00 UTC (13:00 in Berlin); on Monday at 12:00 UTC
// it has used 11 hours of Friday and 13 of Monday in Berlin: 49 days 0
// hours are left, against Black's untouched 50 days. (Counted to the
// deadline, two weekend days made it 51d 0h.)
func TestTimeLeftCountsTheSameForBothSides(t *testing.T) {
	r, g := seasonGame(t)
	monday := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	out := actAt(t, r, g, rules.White, "board", monday)
	if out.Verdict != Answered {
		t.Fatalf("board: %v %s", out.Verdict, out.Detail)
	}
	status := out.Mails[0].Board.Status
	if want := "time left: White 49d 0h for 10 moves, Black 50d 0h for 10 moves"; !strings.Contains(status, want) {
		t.Errorf("status line %q; want it to say %q", status, want)
	}
	mailGolden(t, "board-days-off", out.Mails...)
}

// TestSpectatorsOfAnEventAreToldUnobserveEvent: a spectator who follows
// the game through its event is told "unobserve autumn" (a game of an
// observed event cannot be dropped alone: "unobserve 4" is refused), and
// one who observes the game alone "unobserve 4".
func TestSpectatorsOfAnEventAreToldUnobserveEvent(t *testing.T) {
	r, g := seasonGame(t)
	g.Watchers = []string{"eve@example.net", "fred@example.net"}
	g.Event.Watchers = []string{"eve@example.net"}
	out := actAt(t, r, g, rules.White, "e4", time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC))
	spect := spectatorMailsIn(out)
	if len(spect) != 2 {
		t.Fatalf("%d spectator mails, want 2", len(spect))
	}
	for _, tt := range []struct{ to, want, not string }{
		{"eve@example.net", `send "unobserve autumn"`, `"unobserve 4"`},
		{"fred@example.net", `send "unobserve 4"`, `"unobserve autumn"`},
	} {
		for _, m := range spect {
			if m.To != tt.to {
				continue
			}
			text := strings.Join(strings.Fields(textOf(t, m)), " ")
			if !strings.Contains(text, tt.want) || strings.Contains(text, tt.not) {
				t.Errorf("the spectator mail to %s does not say %s (or says %s):\n%s", tt.to, tt.want, tt.not, text)
			}
		}
	}
	mailGolden(t, "spectator-event", spect...)
}

// TestInGameHelpKeepsItsColumns: the in-game help's rows keep to two
// columns and 72 characters; a command longer than the first column
// ("if MOVE ANSWER ...") stands on its own line; the event commands are
// listed among those that work in a reply to a game mail.
func TestInGameHelpKeepsItsColumns(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "help")
	text := textOf(t, out.Mails[0])
	for _, l := range strings.Split(text, "\n") {
		if len(l) > 72 {
			t.Errorf("a line of %d characters: %q", len(l), l)
		}
	}
	for _, want := range []string{"  if MOVE ANSWER ...\n               conditional moves", `"events"`, `"join EVENT"`, `"standings EVENT"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the help does not say %q", want)
		}
	}
	mailGolden(t, "help-in-game", out.Mails...)
}

// TestVacationCancelNamesTheBookings: "vacation cancel" with two
// vacations booked and none running cancels nothing, and names each
// booking with the command that cancels it; with one, it cancels it.
func TestVacationCancelNamesTheBookings(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	one := Booking{ID: 3, Start: lobbyNow.Add(10 * Day).Truncate(Day), Days: 5}
	two := Booking{ID: 8, Start: lobbyNow.Add(40 * Day).Truncate(Day), Days: 2}
	send := func(bookings ...Booking) Outcome {
		m := observeMail("carol@example.org", "vacation cancel")
		return r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Bookings: bookings, Lobby: &Lobby{Allowed: true, Active: map[string]int{}}})
	}
	out := send(one, two)
	if out.Verdict != Answered || out.Lobby != nil {
		t.Fatalf("two bookings: %s %s, change %+v; want an answer that changes nothing", out.Verdict, out.Detail, out.Lobby)
	}
	mailGolden(t, "vacation-cancel-which", out.Mails...)
	out = send(one)
	if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Cancel == nil || out.Lobby.Cancel.ID != 3 {
		t.Fatalf("one booking: %s %s; want booking 3 cancelled", out.Verdict, out.Detail)
	}
}

// TestLowerCaseRankMoveIsReadAndSaid: "r5a6" (the rook on the fifth rank
// to a6, in lower case) is played, and the mover's mail says how the
// line was read.
func TestLowerCaseRankMoveIsReadAndSaid(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Start = "4k3/R7/8/R7/8/8/8/4K3 w - - 0 1"
	out := act(t, r, g, rules.White, "r5a6")
	if out.Verdict != Applied || g.Actions[0].SAN != "R5a6" {
		t.Fatalf("r5a6: %s %s", out.Verdict, out.Detail)
	}
	if text := textOf(t, out.Mails[0]); !strings.Contains(text, `Your line "r5a6" was read as R5a6.`) {
		t.Errorf("the mover's mail does not say how the line was read:\n%s", text)
	}
	mailGolden(t, "move-read-as", out.Mails[0])
}

// TestEventsSaysWhoMayJoin: "events" lists apart the open events the
// sender may join and those whose entry rule leaves them out (a new
// club's "--entry known" event, before the organiser added them), saying
// who may join those.
func TestEventsSaysWhoMayJoin(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	open := Event{Name: "winter", Variant: "chess", Format: FormatRR, TimeControl: "3d", Status: EventOpen, Places: 6, Entry: "open", Rated: true}
	known := Event{Name: "autumn", Variant: "toto40", Format: FormatRR, TimeControl: "10/50d off sat,sun", Status: EventOpen, Places: 4, Entry: "known"}
	m := observeMail("newcomer@example.org", "events")
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{},
		Events: []Event{known, open}, MayJoin: map[string]bool{"winter": true, "autumn": false}}})
	if out.Verdict != Answered {
		t.Fatalf("events: %s %s", out.Verdict, out.Detail)
	}
	text := norm(out.Mails[0].Text)
	for _, want := range []string{"Events you may join (send \"join NAME\" to enter one): winter",
		"Events taking entries from others: autumn", "Only players who have played here or whom the organiser added may join it"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer does not say %q:\n%s", want, out.Mails[0].Text)
		}
	}
	mailGolden(t, "events-who-may-join", out.Mails...)
}

// TestRematchInvitationSaysRatedAndLocalExpiry: the rematch invitation
// says whether the game is rated, and gives the expiry in the invited
// player's time zone; the challenger's confirmation gives it in theirs.
func TestRematchInvitationSaysRatedAndLocalExpiry(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 9, "dave@example.org", true)
	g.Status, g.Result, g.ResultReason, g.Rated = StatusFinished, "1-0", "Black resigned", true
	m := &reader.Mail{From: "carol@example.org", MessageID: "<rm@x>", Action: "rematch",
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[0].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow, Zone: "America/New_York",
		Lobby: &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 12, NewSecret: "rrrrrrrrr2", OpponentZone: "Europe/Berlin"}})
	if out.Verdict != Applied || len(out.Mails) != 2 {
		t.Fatalf("rematch: %s %s", out.Verdict, out.Detail)
	}
	inv, sent := norm(out.Mails[0].Text), norm(out.Mails[1].Text)
	for _, want := range []string{"The game is rated: its result counts for both players' ratings.", "The invitation expires on Mon 30 Nov 2026 11:00 CET."} {
		if !strings.Contains(inv, want) {
			t.Errorf("the invitation does not say %q:\n%s", want, out.Mails[0].Text)
		}
	}
	if want := "The invitation expires on Mon 30 Nov 2026 05:00 EST."; !strings.Contains(sent, want) {
		t.Errorf("the challenger's confirmation does not say %q:\n%s", want, out.Mails[1].Text)
	}
	mailGolden(t, "rematch-invitation", out.Mails...)
}

// TestRatingAnswersKeepTo72Columns: "rating" and "top" answers wrap their
// paragraphs, and say after how many games a rating is established (an
// empty "top" most of all).
func TestRatingAnswersKeepTo72Columns(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	newcomer := rating.Standing{Address: "carol@example.org", Variant: "chess", Rating: rating.Rating{R: 1540, RD: 240, Sigma: 0.06}, Games: 3, Wins: 2, Losses: 1}
	var mails []Mail
	for _, line := range []string{"rating", "top chess"} {
		m := observeMail("carol@example.org", line)
		out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{},
			Ratings: []rating.Standing{newcomer}, Top: []rating.Standing{newcomer}}})
		if out.Verdict != Answered {
			t.Fatalf("%s: %s %s", line, out.Verdict, out.Detail)
		}
		text := out.Mails[0].Text
		for _, l := range strings.Split(text, "\n") {
			if len(l) > 72 {
				t.Errorf("%s: a line of %d characters: %q", line, len(l), l)
			}
		}
		if !strings.Contains(norm(text), "after about 10 rated games against established players") {
			t.Errorf("%s: the answer does not say when a rating is established:\n%s", line, text)
		}
		mails = append(mails, out.Mails...)
	}
	mailGolden(t, "rating-top", mails...)
}

// TestEarlyResignationMailSaysUnrated: a rated game resigned before both
// players moved ends casual, and its game-over mails say why.
func TestEarlyResignationMailSaysUnrated(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Rated = true
	act(t, r, g, rules.White, "e4")
	act(t, r, g, rules.Black, "resign")
	out := act(t, r, g, rules.Black, "confirm")
	if out.Verdict != Applied || g.Status != StatusFinished || g.Rated {
		t.Fatalf("confirm: %s %s; status %s, rated %v", out.Verdict, out.Detail, g.Status, g.Rated)
	}
	mailGolden(t, "resign-before-both-moved", out.Mails[0])
}

// TestObserveRefusalsNameThePolicyAndTheCommand: a refused "observe"
// names the policy that refuses it (--observers none, known, or open
// with the address removed) and the organiser's command that lets the
// sender in: "referee player add", or "referee watch GAME" for a game.
func TestObserveRefusalsNameThePolicyAndTheCommand(t *testing.T) {
	var mails []Mail
	for _, tt := range []struct {
		policy, line, want string
	}{
		{ObserversKnown, "observe 17", `"referee watch 17 ADDRESS"`},
		{ObserversKnown, "observe autumn", `"referee player add ADDRESS"`},
		{ObserversNone, "observe 17", "(--observers none)"},
		{ObserversOpen, "observe 17", "removed your address"},
	} {
		r := lobbyReferee(t, LobbyConfig{Observers: tt.policy})
		lb := &Lobby{Active: map[string]int{}}
		if tt.line == "observe autumn" {
			lb.Event = &Event{Name: "autumn", Variant: "chess", Format: FormatRR, Status: EventRunning}
		}
		out := r.Handle(Inbound{Mail: observeMail("eve@example.net", tt.line)}, nil, Env{Now: lobbyNow, Lobby: lb})
		if out.Verdict != Rejected || !strings.Contains(norm(out.Mails[0].Text), tt.want) {
			t.Errorf("%s, %q: %s; want a refusal saying %s:\n%s", tt.policy, tt.line, out.Verdict, tt.want, out.Mails[0].Text)
		}
		mails = append(mails, out.Mails...)
	}
	mailGolden(t, "observe-refusals", mails...)
}

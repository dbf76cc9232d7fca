package referee

import (
	"testing"
)

// cup is a running team match of two teams of two boards: Lions (dan on
// board 1, their captain, and erin on board 2) against Tigers (fay on
// board 1, their captain, and gil on board 2). Each board plays two
// games, colours swapped; no move is made yet unless plies are given
// (by game: #21 dan-fay, #22 fay-dan, #23 gil-erin, #24 erin-gil).
func cup(plies ...int) *Event {
	const gil = "gil@example.org"
	e := &Event{Name: "cup", Variant: "chess", Format: FormatTeam, TimeControl: "3d", Status: EventRunning, Rated: true,
		Players: []EventPlayer{
			{Seat: 1, Address: dan, Team: "Lions", Board: 1}, {Seat: 2, Address: erin, Team: "Lions", Board: 2},
			{Seat: 3, Address: fay, Team: "Tigers", Board: 1}, {Seat: 4, Address: gil, Team: "Tigers", Board: 2}},
		Games: []EventGame{
			{GameID: 21, Round: 1, Division: 1, Board: 1, Leg: 1, White: 1, Black: 3, Status: StatusActive},
			{GameID: 22, Round: 1, Division: 1, Board: 1, Leg: 2, White: 3, Black: 1, Status: StatusActive},
			{GameID: 23, Round: 1, Division: 1, Board: 2, Leg: 1, White: 4, Black: 2, Status: StatusActive},
			{GameID: 24, Round: 1, Division: 1, Board: 2, Leg: 2, White: 2, Black: 4, Status: StatusActive}}}
	for i, p := range plies {
		e.Games[i].Ply = p
	}
	return e
}

// TestCaptainReplace: "replace EVENT OLD NEW" from a team's captain (its
// first-named player) hands the board of OLD, a player of their team who
// has made no move yet, to NEW, an address new to the event. Refused,
// changing nothing: anyone but a captain, a player of the other team or
// of none, a NEW who plays or played in the event or is no address, a
// player who has moved (White from ply 1, Black from ply 2), an event not
// running, one not played by teams, a mail without both addresses.
func TestCaptainReplace(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	const zoe = "zoe@example.org"
	replace := func(seat int) *LobbyChange {
		return &LobbyChange{Replace: &ReplaceChange{Event: "cup", Seat: seat, New: zoe}}
	}
	usage := `Send "replace cup OLD NEW": OLD the address of a player of your team who has not started, NEW the address that takes their board.`
	substituted := cup()
	substituted.Players[1].ReplacedBy = zoe
	open := cup()
	open.Status = EventOpen
	tests := []eventCase{
		{name: "before the first move", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(), verdict: Applied,
			detail: "event cup: captain dan@example.org replaces erin@example.org with zoe@example.org", subject: "You replaced erin@example.org",
			change: replace(2), says: []string{"zoe@example.org takes board 2 of team Lions from erin@example.org; both are told, and the " +
				"opponents too, each game with its board."}},
		{name: "the other team's captain", from: fay, line: "replace cup gil@example.org zoe@example.org", event: cup(), verdict: Applied,
			detail: "event cup: captain fay@example.org replaces gil@example.org with zoe@example.org", change: replace(4),
			says: []string{"zoe@example.org takes board 2 of team Tigers from gil@example.org"}},
		{name: "Black before their first move", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(0, 0, 1, 0),
			verdict: Applied, detail: "event cup: captain dan@example.org replaces erin@example.org with zoe@example.org", change: replace(2)},
		{name: "Black after their first move", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(0, 0, 2, 0),
			verdict: Rejected, detail: "replace cup: erin@example.org has started",
			says: []string{"erin@example.org has started playing (game #23): a board is handed on only before its first move.",
				`Ask the organiser ("referee event replace") if they must leave.`}},
		{name: "White after their first move", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(0, 0, 0, 1),
			verdict: Rejected, detail: "replace cup: erin@example.org has started", says: []string{"(game #24)"}},
		{name: "the other board's moves do not count", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(5, 6, 0, 0),
			verdict: Applied, detail: "event cup: captain dan@example.org replaces erin@example.org with zoe@example.org", change: replace(2)},
		{name: "not the captain", from: erin, line: "replace cup erin@example.org zoe@example.org", event: cup(), verdict: Rejected,
			detail: "replace cup: erin@example.org is no captain",
			says:   []string{"Only a team's captain (the first player named for it) may replace a player of cup by mail.", "Ask your captain."}},
		{name: "a stranger to an open team event", from: "hal@example.org", line: "replace cup erin@example.org zoe@example.org", event: open,
			verdict: Rejected, detail: "replace cup: hal@example.org is no captain"},
		{name: "a stranger to a running one", from: "hal@example.org", line: "replace cup erin@example.org zoe@example.org", event: cup(),
			verdict: Rejected, detail: "event: replace cup: no such event for hal@example.org"},
		{name: "a player of the other team", from: dan, line: "replace cup gil@example.org zoe@example.org", event: cup(), verdict: Rejected,
			detail: "replace cup: gil@example.org not in the team", says: []string{"gil@example.org plays for no board of your team.", usage}},
		{name: "a player of no team", from: dan, line: "replace cup hal@example.org zoe@example.org", event: cup(), verdict: Rejected,
			detail: "replace cup: hal@example.org not in the team"},
		{name: "a newcomer who plays in it", from: dan, line: "replace cup erin@example.org fay@example.org", event: cup(), verdict: Rejected,
			detail: "replace cup: fay@example.org not new",
			says:   []string{"fay@example.org cannot take the board: give the address of someone new to cup.", usage}},
		{name: "a newcomer who took a seat already", from: dan, line: "replace cup dan@example.org zoe@example.org", event: substituted,
			verdict: Rejected, detail: "replace cup: zoe@example.org not new"},
		{name: "a newcomer who is no address", from: dan, line: "replace cup erin@example.org zoe", event: cup(), verdict: Rejected,
			detail: "replace cup: zoe is no player's address", says: []string{`"zoe" cannot take the board:`, usage}},
		// Issue 38's rule for challenges holds for substitutes too.
		{name: "a newcomer at an IP address", from: dan, line: "replace cup erin@example.org zoe@1.2.3.4", event: cup(), verdict: Rejected,
			detail: "replace cup: zoe@1.2.3.4 is no player's address", says: []string{"it is written like an IP address"}},
		{name: "a newcomer at a host", from: dan, line: "replace cup erin@example.org zoe@localhost", event: cup(), verdict: Rejected,
			detail: "replace cup: zoe@localhost is no player's address", says: []string{"has no dot"}},
		{name: "the referee as the newcomer", from: dan, line: "replace cup erin@example.org referee+x@example.test", event: cup(), verdict: Rejected,
			detail: "replace cup: the referee's address", says: []string{"The referee does not play: it cannot take the board.", usage}},
		{name: "one address", from: dan, line: "replace cup erin@example.org", event: cup(), verdict: Rejected,
			detail: "replace: two addresses needed", says: []string{`"replace" needs the player who leaves and the one who comes.`, usage}},
		{name: "not running", from: dan, line: "replace cup erin@example.org zoe@example.org", event: open, verdict: Rejected,
			detail: "replace cup: open", says: []string{"cup is open.", "Nothing to replace."}},
		{name: "not a team event", line: "replace autumn dan@example.org zoe@example.org", event: autumn(EventRunning, carol, dan, erin),
			verdict: Rejected, detail: "replace: not a team event",
			says: []string{"autumn is a round robin: only a team's captain replaces a player by mail.", `Ask the organiser ("referee event replace").`}},
		{name: "no such event", line: "replace cup erin@example.org zoe@example.org", verdict: Rejected,
			detail: "event: replace cup: no such event for carol@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestNotice: notice, the organiser's decision on a team request reaches the
// player as a short notice: the subject given, the text wrapped, then the
// referee's footer.
func TestNotice(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	m := r.notice(carol, "[cup] Your request is approved",
		"The organiser approved your request: you play for team Tigers in cup, on the board the organiser gives you when the event starts.", lobbyNow)
	want := "The organiser approved your request: you play for team Tigers in cup, on\nthe board the organiser gives you when the event starts.\n" +
		"\n-- \nThe referee at referee@example.test. Send \"help\" to it for how to play.\n"
	if m.Kind != KindNotice || m.To != carol || m.Subject != "[cup] Your request is approved" || !m.Date.Equal(lobbyNow) || m.Text != want {
		t.Errorf("notice %s to %s, %q at %v:\n%s\nwant a notice to %s:\n%s", m.Kind, m.To, m.Subject, m.Date, m.Text, carol, want)
	}
}

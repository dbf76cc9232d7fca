package referee

import (
	"reflect"
	"strings"
	"testing"

	"referee/internal/event"
	"referee/internal/rules"
)

// TestEventEndMails: the final crosstable goes to every player, then to
// the substitute of their seat, then to each observer of the event who is
// not one of them, each mailbox once; the subject and the first line name
// the winners, and the ties on points are explained after the
// crosstable, in the text and in the HTML.
func TestEventEndMails(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	// Each player beat one other: all on 1 point, 1 win, equal
	// Sonneborn-Berger, equal among themselves: they share first place.
	e := rrEvent(FormatRR, 3, numbered(fin(1, 2, "1-0", "checkmate"), fin(2, 3, "1-0", "checkmate"), fin(3, 1, "1-0", "checkmate"))...)
	e.Status, e.Variant, e.Chain = EventFinished, "chess", event.DefaultChain()
	e.Players[1].ReplacedBy = "zoe@example.test"
	const winners = "a@example.test, zoe@example.test and c@example.test share first place in club."
	mails := r.EventEndMails(e, []string{"eve@example.test", "B+club@example.test", "Eve@example.test"}, nil, lobbyNow)
	want := []struct{ to, intro string }{
		{"a@example.test", "The last game of club has ended."},
		{"b@example.test", "The last game of club has ended."},
		{"zoe@example.test", "The last game of club has ended."},
		{"c@example.test", "The last game of club has ended."},
		{"eve@example.test", "The last game of club, which you observe, has ended."},
	}
	if got := mailsTo(Outcome{Mails: mails}); strings.Join(got, " ") != "a@example.test b@example.test zoe@example.test c@example.test eve@example.test" {
		t.Fatalf("mails to %v, want to a, b, zoe, c, eve", got)
	}
	notes := e.tieNotes()
	if len(notes) != 2 {
		t.Fatalf("tie notes %q, want two: a with zoe, zoe with c", notes)
	}
	for i, w := range want {
		m := mails[i]
		if m.Kind != KindEventEnd || m.Subject != "[club] Final crosstable: "+winners {
			t.Errorf("mail to %s: %s, %q", m.To, m.Kind, m.Subject)
		}
		if !strings.HasPrefix(norm(m.Text), norm(w.intro+" "+winners)) {
			t.Errorf("mail to %s does not begin %q:\n%s", m.To, w.intro+" "+winners, m.Text)
		}
		if !strings.Contains(m.Text, "\n\n"+e.StandingsText()+"\nHow the ties on points were broken:\n") {
			t.Errorf("mail to %s: no crosstable, then the ties:\n%s", m.To, m.Text)
		}
		for _, n := range notes {
			if !strings.Contains(norm(m.Text), norm(n)) || !strings.Contains(m.HTML, "<li>"+escapeHTML(n)+"</li>") {
				t.Errorf("mail to %s does not explain %q:\n%s\n%s", m.To, n, m.Text, m.HTML)
			}
		}
	}
}

// TestCrosstableRows: the crosstable names a seat's substitute after
// its player ("Ben / zoe@example.test") and marks a withdrawn player; the
// games of a player whose games were annulled, and aborted games, are
// marked "-" and count for no one; a running game is blank.
func TestCrosstableRows(t *testing.T) {
	e := rrEvent(FormatRR, 4, fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), fin(4, 1, "0-1", "resigned"),
		EventGame{White: 2, Black: 3, Status: StatusAborted}, running(2, 4), fin(3, 4, "1-0", "resigned"))
	e.Players[1].Name, e.Players[1].ReplacedBy = "Ben", "zoe@example.test"
	e.Players[2].Withdrawn = WithdrawnLost
	e.Players[3].Withdrawn = WithdrawnAnnulled
	tab := e.Table()
	wantRows := []event.Entrant{{Name: "a@example.test"}, {Name: "Ben / zoe@example.test"}, {Name: "c@example.test", Withdrawn: true},
		{Name: "d@example.test", Withdrawn: true}}
	if !reflect.DeepEqual(tab.Players, wantRows) {
		t.Errorf("rows %+v, want %+v", tab.Players, wantRows)
	}
	wantCells := [][]string{
		{"", "1", "=", "-"},
		{"0", "", "-", ""},
		{"=", "-", "", "-"},
		{"-", "", "-", ""},
	}
	if !reflect.DeepEqual(tab.Cells, wantCells) {
		t.Errorf("cells %q, want %q", tab.Cells, wantCells)
	}
}

// TestWinnerText: who won an event, in the words of its end mail: one
// winner, several sharing first place (listed as a sentence lists them),
// a team whose players won together, or no one yet.
func TestWinnerText(t *testing.T) {
	e := rrEvent(FormatRR, 4)
	e.Players[3].ReplacedBy = "zoe@example.test"
	teams := rrEvent(FormatTeam, 4)
	for i, team := range []string{"A", "A", "B", "B"} {
		teams.Players[i].Team = team
	}
	tests := []struct {
		e       *Event
		winners []int
		want    string
	}{
		{e, nil, ""},
		{e, []int{2}, "The winner of club is b@example.test."},
		{e, []int{4}, "The winner of club is zoe@example.test."},
		{e, []int{1, 3}, "a@example.test and c@example.test share first place in club."},
		{e, []int{1, 2, 4}, "a@example.test, b@example.test and zoe@example.test share first place in club."},
		{teams, []int{1, 2}, "The winner of club is team A: a@example.test, b@example.test."},
		{teams, []int{3}, "The winner of club is team B: c@example.test."},
		{teams, []int{2, 3}, "b@example.test and c@example.test share first place in club."},
	}
	for _, tt := range tests {
		if got := tt.e.winnerText(tt.winners); got != tt.want {
			t.Errorf("%s winners %v: %q, want %q", tt.e.Format, tt.winners, got, tt.want)
		}
	}
}

// TestEventAsksItsFormat: what the core's callers ask of an event is its
// format's answer: a knockout's match note after a game and its lots, a
// game's PGN Round tag.
func TestEventAsksItsFormat(t *testing.T) {
	decided := tiedMatch(DeciderMatch, "1-0", "1/2-1/2")
	if got, want := decided.MatchNote(2), "Round 1, match 1 of cup: a@x.test 1.5, b@x.test 0.5. a@x.test wins the match (on points) and with it cup."; got != want {
		t.Errorf("MatchNote = %q, want %q", got, want)
	}
	if got := rrEvent(FormatRR, 3, numbered(fin(1, 2, "1-0", ""))...).MatchNote(1); got != "" {
		t.Errorf("a round robin's MatchNote = %q, want none", got)
	}
	for _, tt := range []struct {
		e    *Event
		want bool
	}{
		{tiedMatch(DeciderLot, "1-0", "0-1"), true},
		{tiedMatch(DeciderBlack, "1-0", "0-1"), true},
		{tiedMatch(DeciderMatch, "1-0", "0-1"), false},
		{rrEvent(FormatRR, 3), false},
	} {
		if got := tt.e.DrawsLots(); got != tt.want {
			t.Errorf("%s, decider %q: DrawsLots = %v, want %v", tt.e.Format, tt.e.Decider, got, tt.want)
		}
	}
	for _, tt := range []struct {
		ge   GameEvent
		want string
	}{
		{GameEvent{Format: FormatRR, Round: 4, Board: 2}, "4"},
		{GameEvent{Format: FormatKO, Round: 2, Board: 1, Leg: 3}, "2.3"},
		{GameEvent{Format: FormatLeague, Season: 2, Round: 3}, "2.3"},
		{GameEvent{Format: FormatTeam, Round: 1, Division: 2}, "1.2"},
		{GameEvent{Format: FormatLadder, Round: 7, Leg: 1}, "7"},
	} {
		if got := tt.ge.round(); got != tt.want {
			t.Errorf("%s round %d: PGN Round %q, want %q", tt.ge.Format, tt.ge.Round, got, tt.want)
		}
	}
}

// TestEventEndMailWithoutTies: where no two players tie on points the
// end mail explains no tie, and names the one winner.
func TestEventEndMailWithoutTies(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := rrEvent(FormatRR, 3, numbered(fin(1, 2, "1-0", "checkmate"), fin(2, 3, "1-0", "checkmate"), fin(1, 3, "1-0", "checkmate"))...)
	e.Status, e.Variant = EventFinished, "chess"
	for _, m := range r.EventEndMails(e, nil, nil, lobbyNow) {
		if m.Subject != "[club] Final crosstable: The winner of club is a@example.test." ||
			strings.Contains(m.Text, "How the ties") || strings.Contains(m.HTML, "How the ties") {
			t.Errorf("mail to %s, %q:\n%s", m.To, m.Subject, m.Text)
		}
	}
}

// TestEventStartMail: each player's first mail of a started event lists
// their games, each with its place, colour, opponent (a substitute if
// the seat has one) and the player's own reply address; a round robin of
// an odd number says each player sits out one pairing.
func TestEventStartMail(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	for _, n := range []int{3, 4} {
		e := rrEvent(FormatRR, n)
		e.Variant, e.TimeControl, e.Rated = "chess", "3d", true
		e.Players[2].ReplacedBy = "zoe@example.test"
		e.Games = []EventGame{{GameID: 11, Round: 1, Board: 2, White: 1, Black: 2}, {GameID: 12, Round: 2, Board: 1, White: 3, Black: 1}}
		g11 := &Game{ID: 11, Players: [2]Player{{Address: "a@example.test", Secret: "aaaaaaaaaa"}, {Address: "b@example.test", Secret: "bbbbbbbbbb"}}}
		g12 := &Game{ID: 12, Players: [2]Player{{Address: "zoe@example.test", Secret: "zzzzzzzzzz"}, {Address: "a@example.test", Secret: "cccccccccc"}}}
		m := r.EventStartMail(e, 1, []*Game{g11, g12}, lobbyNow)
		games := "Round 1, board 2: game #11, you play White against b@example.test\n    reply to: " + r.ReplyAddress(g11, rules.White) + "\n" +
			"Round 2, board 1: game #12, you play Black against zoe@example.test\n    reply to: " + r.ReplyAddress(g12, rules.Black) + "\n"
		if m.Kind != KindEventStart || m.To != "a@example.test" || m.Subject != "[club] The event has started: your games" || !strings.Contains(m.Text, games) {
			t.Errorf("%d players: %s to %s, %q:\n%s\nwant the games\n%s", n, m.Kind, m.To, m.Subject, m.Text, games)
		}
		odd := strings.Contains(norm(m.Text), "With an odd number of players, each player sits out one pairing of the table.")
		if odd != (n%2 == 1) || strings.Contains(m.Text, "\n\n\n") {
			t.Errorf("%d players: the odd-number note %v, want %v:\n%s", n, odd, n%2 == 1, m.Text)
		}
	}
}

// TestKnockoutRoundMail: a knockout's later round is announced as that
// round, its match's games listed with their place.
func TestKnockoutRoundMail(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := tiedMatch(DeciderMatch, "1-0", "0-1")
	e.Games = append(e.Games, EventGame{GameID: 7, Round: 2, Board: 1, Leg: 1, White: 2, Black: 1, Status: StatusActive})
	g := &Game{ID: 7, Players: [2]Player{{Address: "b@x.test", Secret: "bbbbbbbbbb"}, {Address: "a@x.test", Secret: "aaaaaaaaaa"}}}
	m := r.EventStartMail(e, 1, []*Game{g}, lobbyNow)
	if m.Subject != "[cup] Round 2: your games" || !strings.HasPrefix(m.Text, "cup: your match in round 2.\n\n") ||
		!strings.Contains(m.Text, "Round 2, match 1, game 1: game #7, you play Black against b@x.test\n") {
		t.Errorf("%q:\n%s", m.Subject, m.Text)
	}
}

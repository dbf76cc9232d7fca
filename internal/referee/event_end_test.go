package referee

import (
	"strings"
	"testing"

	"referee/internal/event"
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
	mails := r.EventEndMails(e, []string{"eve@example.test", "B+club@example.test", "Eve@example.test"}, lobbyNow)
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

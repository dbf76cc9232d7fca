package referee

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"referee/internal/event"
	"referee/internal/rating"
)

// The players' event commands by mail (event_lobby.go, event_team.go,
// event_ladder.go), driven through Handle as a mail to the referee's
// plain address: each refusal with the reason recorded and what the
// answer says (the reason and what to send instead), changing nothing;
// each success with exactly the change the app stores.

const (
	carol = "carol@example.org"
	dan   = "dan@example.org"
	erin  = "erin@example.org"
	fay   = "fay@example.org"
)

// autumn is a round robin of chess at 3 days a move, rated, taking 4
// players by mail from anyone, with players seated in the order given.
func autumn(status EventStatus, players ...string) *Event {
	e := &Event{Name: "autumn", Variant: "chess", Format: FormatRR, TimeControl: "3d", Places: 4, Entry: "open",
		Status: status, Rated: true}
	for i, p := range players {
		e.Players = append(e.Players, EventPlayer{Seat: i + 1, Address: p, Joined: lobbyNow.Add(-Day)})
	}
	return e
}

// eventCase is one mail about an event and what must come of it.
type eventCase struct {
	name  string
	from  string // carol when ""
	lang  string // the sender's language; "" for English
	line  string
	event *Event
	// lobby changes the sender's lobby view (by default: may challenge,
	// seen here, allowed to join Event).
	lobby   func(lb *Lobby)
	verdict Verdict
	detail  string // the recorded reason, exactly
	subject string // the answer's subject, when set
	says    []string
	change  *LobbyChange // exactly what is to be stored; nil for nothing
	mails   int          // the answers; 1 when 0
}

// run sends tt's mail and checks the outcome: the verdict and reason, the
// change (none for a refusal or a question), the answer to the sender
// alone (a refusal's kind for a refusal) and its sentences.
func (tt eventCase) run(t *testing.T, r *Referee) Outcome {
	t.Helper()
	from := tt.from
	if from == "" {
		from = carol
	}
	lb := &Lobby{Allowed: true, Active: map[string]int{}, Seen: true, Event: tt.event, EventAllowed: true}
	if tt.lobby != nil {
		tt.lobby(lb)
	}
	out := r.Handle(Inbound{Mail: observeMail(from, tt.line)}, nil, Env{Now: lobbyNow, Lobby: lb, Language: tt.lang})
	if out.Verdict != tt.verdict || out.Detail != tt.detail {
		t.Fatalf("%s, recorded as %q; want %s, %q", out.Verdict, out.Detail, tt.verdict, tt.detail)
	}
	if !reflect.DeepEqual(out.Lobby, tt.change) {
		t.Errorf("change %s, want %s", changeText(out.Lobby), changeText(tt.change))
	}
	if out.Game != nil {
		t.Errorf("a game changed: #%d", out.Game.ID)
	}
	want := max(tt.mails, 1)
	if len(out.Mails) != want {
		t.Fatalf("mails to %v, want %d", mailsTo(out), want)
	}
	m := out.Mails[0]
	if m.To != from {
		t.Errorf("the answer went to %s, not to the sender %s", m.To, from)
	}
	if (tt.verdict == Rejected) != (m.Kind == KindRefusal) {
		t.Errorf("the answer is a %s mail for a %s mail", m.Kind, tt.verdict)
	}
	if tt.subject != "" && m.Subject != tt.subject {
		t.Errorf("subject %q, want %q", m.Subject, tt.subject)
	}
	for _, s := range tt.says {
		if !strings.Contains(norm(m.Text), norm(s)) {
			t.Errorf("the answer does not say %q:\n%s", s, m.Text)
		}
	}
	return out
}

// changeText shows a change with what its pointers hold.
func changeText(c *LobbyChange) string {
	if c == nil {
		return "none"
	}
	var parts []string
	v := reflect.ValueOf(*c)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		parts = append(parts, fmt.Sprintf("%s: %+v", v.Type().Field(i).Name, f.Interface()))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TestJoinEvent: "join NAME" enters the sender in an event taking
// entries, saying how many places are left and when it starts; it is
// refused, entering no one, for an event the sender may not see (with
// the answer for an event that does not exist), one that no longer takes
// entries, one whose entry rule or rating limits leave the sender out,
// and a team event's unknown team. A player already in an open event is
// told so; one in a started event too (it used to be told that there was
// no such event for them).
func TestJoinEvent(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	const describe = "Chess, round robin, 3 days per move, rated"
	known := func() *Event { e := autumn(EventOpen, dan); e.Entry = "known"; return e }
	limited := func() *Event {
		e := autumn(EventOpen, dan)
		e.Limits = RatingLimits{MinRating: 1600}
		return e
	}
	starts := func() *Event { e := autumn(EventOpen, dan); e.Starts = lobbyNow.Add(7 * Day); return e }
	fixed := func(status EventStatus) *Event { e := autumn(status, dan, erin, fay); e.Places = 0; return e }
	league := func() *Event {
		e := autumn(EventRunning, dan, erin, fay)
		e.Format, e.Places = FormatLeague, 0
		return e
	}
	cup := func(status EventStatus) *Event {
		e := &Event{Name: "cup", Variant: "chess", Format: FormatTeam, TimeControl: "3d", Status: status, Rated: true, Entry: "open",
			Players: []EventPlayer{{Seat: 1, Address: dan, Team: "Lions", Board: 1}, {Seat: 2, Address: erin, Team: "Tigers", Board: 1}}}
		return e
	}
	joined := func(name, who, team string) *LobbyChange {
		return &LobbyChange{Event: &EventChange{Name: name, Join: who, Team: team}}
	}
	tests := []eventCase{
		{name: "no name", line: "join", verdict: Rejected, detail: "event: join without a name",
			says: []string{`Your mail said "join" without the event's name.`, `Write "join NAME", e.g. "join autumn".`,
				`Send "events" to the referee for the events you may join.`}},
		{name: "no such event", line: "join winter", verdict: Rejected, detail: "event: join winter: no such event for carol@example.org",
			says: []string{`Your mail said "join winter", but there is no event "winter" that you play in or may join.`,
				`Send "events" to the referee for the events you may join.`}},
		{name: "two places left", line: "join autumn", event: autumn(EventOpen, dan), verdict: Applied,
			detail: "event autumn: carol@example.org joined", subject: "You joined autumn", change: joined("autumn", carol, ""),
			says: []string{"You have joined autumn (" + describe + "). 2 places are still to fill. It starts when it is full. " +
				`Until then, "leave autumn" takes you out again.`}},
		{name: "the first to join", line: "join autumn", event: autumn(EventOpen), verdict: Applied,
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, ""),
			says: []string{"3 places are still to fill."}},
		{name: "one place left", line: "join autumn", event: autumn(EventOpen, dan, erin), verdict: Applied,
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, ""),
			says: []string{"1 place is still to fill. It starts when it is full."}},
		{name: "the last place", line: "join autumn", event: autumn(EventOpen, dan, erin, fay), verdict: Applied,
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, ""),
			says: []string{"You took the last place: the event starts now. One mail lists your games, then each game's opening mail follows."}},
		{name: "a start date", line: "join autumn", event: starts(), verdict: Applied,
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, ""),
			says: []string{"It starts when it is full, or on Mon 30 Nov 2026 10:00 UTC."}},
		{name: "the mailbox joins, not the plus-address", from: "Carol+Chess@Example.org", line: "join autumn", event: autumn(EventOpen, dan),
			verdict: Applied, detail: "event autumn: Carol+Chess@Example.org joined", change: joined("autumn", carol, "")},
		{name: "a running league takes newcomers for its next season", line: "join autumn", event: league(), verdict: Applied,
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, ""),
			says: []string{"It is under way: you enter the lowest division when its next season starts, and a mail lists your games then. " +
				`"standings autumn" shows where it stands.`}},
		{name: "already entered", line: "join autumn", event: autumn(EventOpen, dan, carol), verdict: Answered,
			detail: `lobby: carol@example.org sent "join"`, subject: "You are in autumn",
			says: []string{"You are already entered in autumn (" + describe + "). It starts when it is full."}},
		{name: "already playing in it", line: "join autumn", event: autumn(EventRunning, dan, carol, erin, fay), verdict: Rejected,
			detail: "event: join autumn: carol@example.org plays in it, running",
			says:   []string{"You already play in autumn, which is running.", `Send "standings autumn" for where it stands.`}},
		{name: "started", line: "join autumn", event: autumn(EventRunning, dan, erin, fay, "gil@example.org"), verdict: Rejected,
			detail: "event: join autumn: running", says: []string{"You cannot join autumn any more: it is running.", `Send "events"`}},
		{name: "closed by the organiser", line: "join autumn", event: autumn(EventClosed, dan), verdict: Rejected,
			detail: "event: join autumn: closed", says: []string{"You cannot join autumn any more: it is closed."}},
		// An event with a fixed list of players never took entries by
		// mail: a stranger learns nothing of it.
		{name: "a fixed list, running", line: "join autumn", event: fixed(EventRunning), verdict: Rejected,
			detail: "event: join autumn: no such event for carol@example.org", says: []string{`there is no event "autumn" that you play in or may join`}},
		{name: "a fixed list, open", line: "join autumn", event: fixed(EventOpen), verdict: Rejected,
			detail: "event: join autumn: no such event for carol@example.org"},
		{name: "entry by the organiser's list", line: "join autumn", event: known(), lobby: func(lb *Lobby) { lb.EventAllowed = false },
			verdict: Rejected, detail: "event: join autumn: carol@example.org may not join",
			says: []string{"You cannot join autumn: its organiser takes entries only from players who have played here or whom the organiser added.",
				`Ask the organiser to add you, or send "events" for the events you may join.`}},
		{name: "entry by a list", line: "join autumn", event: func() *Event { e := known(); e.Entry = "list"; return e }(),
			lobby: func(lb *Lobby) { lb.EventAllowed = false }, verdict: Rejected, detail: "event: join autumn: carol@example.org may not join",
			says: []string{"its organiser takes entries only from the players on its list."}},
		{name: "under the rating limit", line: "join autumn", event: limited(), verdict: Rejected,
			lobby: func(lb *Lobby) {
				lb.Ratings = []rating.Standing{{Variant: "chess", Rating: rating.Rating{R: 1550, RD: 50, Sigma: 0.06}}}
			},
			detail: "event: join autumn: carol@example.org outside its rating limits",
			says: []string{"You cannot join autumn: your Chess rating is 1550, and event autumn asks for at least 1600.",
				`Its organiser takes entries by mail only from players with rating at least 1600 in its game. "rating" shows your ratings`}},
		{name: "within the rating limit", line: "join autumn", event: limited(), verdict: Applied,
			lobby: func(lb *Lobby) {
				lb.Ratings = []rating.Standing{{Variant: "chess", Rating: rating.Rating{R: 1650, RD: 50, Sigma: 0.06}}}
			},
			detail: "event autumn: carol@example.org joined", change: joined("autumn", carol, "")},
		{name: "a team", line: "join cup tigers", event: cup(EventOpen), verdict: Applied,
			detail: "event cup: carol@example.org asks to play for Tigers", subject: "Your request to join team Tigers",
			change: joined("cup", carol, "Tigers"),
			says: []string{"Your request to play for team Tigers in cup (Chess, team match, 3 days per move, rated) waits for the organiser's " +
				"approval: a mail tells you when they decide. Its games start when the organiser starts the event."}},
		{name: "a team of two words", line: "join cup Old Lions", event: func() *Event {
			e := cup(EventOpen)
			e.Players[0].Team = "Old Lions"
			return e
		}(), verdict: Applied, detail: "event cup: carol@example.org asks to play for Old Lions", change: joined("cup", carol, "Old Lions")},
		{name: "no team named", line: "join cup", event: cup(EventOpen), verdict: Rejected, detail: `event: join cup: no team ""`,
			says: []string{"cup is played by teams (Lions, Tigers): say which one you want to play for.", `Send "join cup TEAM", e.g. "join cup Lions".`}},
		{name: "an unknown team", line: "join cup Bears", event: cup(EventOpen), verdict: Rejected, detail: `event: join cup: no team "bears"`,
			says: []string{"cup is played by teams (Lions, Tigers)"}},
		{name: "a running team event", line: "join cup Lions", event: cup(EventRunning), verdict: Rejected,
			detail: "event: join cup: no such event for carol@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestLeaveEvent: "leave NAME" takes a player out of an open event (the
// seat's address as entered, whatever the spelling of the mail's From); a
// started or ended event is left by "withdraw", and an event the sender
// is not in is one they may not see.
func TestLeaveEvent(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	tests := []eventCase{
		{name: "open", line: "leave autumn", event: autumn(EventOpen, dan, carol), verdict: Applied,
			detail: "event autumn: carol@example.org left", subject: "You left autumn",
			change: &LobbyChange{Event: &EventChange{Name: "autumn", Leave: carol}},
			says:   []string{`You have left autumn. "join autumn" enters you again while it takes entries.`}},
		{name: "from another spelling", from: "Carol+x@example.org", line: "leave autumn", event: autumn(EventOpen, carol, dan), verdict: Applied,
			detail: "event autumn: Carol+x@example.org left", change: &LobbyChange{Event: &EventChange{Name: "autumn", Leave: carol}}},
		{name: "not in it", line: "leave autumn", event: autumn(EventOpen, dan), verdict: Rejected,
			detail: "event: leave autumn: no such event for carol@example.org",
			says:   []string{`Your mail said "leave autumn", but there is no event "autumn" that you play in or may join.`}},
		{name: "no such event", line: "leave autumn", verdict: Rejected, detail: "event: leave autumn: no such event for carol@example.org"},
		{name: "no name", line: "leave", verdict: Rejected, detail: "event: leave without a name",
			says: []string{`Write "leave NAME", e.g. "leave autumn".`}},
		{name: "started", line: "leave autumn", event: autumn(EventRunning, dan, carol, erin, fay), verdict: Rejected,
			detail: "event: leave autumn: already running",
			says:   []string{"You cannot leave autumn: it has started.", `To stop playing in an event under way, send "withdraw autumn".`}},
		{name: "ended", line: "leave autumn", event: autumn(EventFinished, dan, carol, erin, fay), verdict: Rejected,
			detail: "event: leave autumn: already finished", says: []string{"You cannot leave autumn: it has ended."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestStandingsCommand: "standings NAME" answers a player of the event,
// or a sender who may still join it, with the format's standings as
// text and as HTML; anyone else learns nothing of the event.
func TestStandingsCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	running := autumn(EventRunning, dan, carol, erin)
	running.Games = []EventGame{
		{GameID: 11, Round: 1, Board: 1, White: 1, Black: 2, Status: StatusFinished, Result: "0-1"},
		{GameID: 12, Round: 2, Board: 1, White: 2, Black: 3, Status: StatusActive},
	}
	tests := []eventCase{
		{name: "a player", line: "standings autumn", event: running, verdict: Answered, detail: `lobby: carol@example.org sent "standings"`,
			subject: "Standings of autumn", says: []string{running.StandingsText()}},
		{name: "by its other word", line: "crosstable autumn", event: running, verdict: Answered,
			detail: `lobby: carol@example.org sent "standings"`, says: []string{"autumn: Chess, round robin, 3 days per move, rated; running"}},
		{name: "a stranger to a running event", from: "gil@example.org", line: "standings autumn", event: running, verdict: Rejected,
			detail: "event: standings autumn: no such event for gil@example.org"},
		{name: "a sender who may join", from: "gil@example.org", line: "standings autumn", event: autumn(EventOpen, dan), verdict: Answered,
			detail: `lobby: gil@example.org sent "standings"`, says: []string{"autumn: Chess, round robin, 3 days per move, rated; 3 places left of 4"}},
		{name: "a sender the entry rule leaves out", from: "gil@example.org", line: "standings autumn", event: autumn(EventOpen, dan),
			lobby: func(lb *Lobby) { lb.EventAllowed = false }, verdict: Rejected, detail: "event: standings autumn: no such event for gil@example.org"},
		{name: "no such event", line: "standings winter", verdict: Rejected, detail: "event: standings winter: no such event for carol@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.run(t, r)
			if out.Verdict == Answered && out.Mails[0].HTML != tt.event.StandingsHTML() {
				t.Errorf("the HTML part is not the standings':\n%s", out.Mails[0].HTML)
			}
		})
	}
}

// TestWithdrawCommand: "withdraw NAME" from a player of a running event
// asks for confirmation, saying the rule that would apply (ICCF's: at
// least half the games completed, the unfinished ones are lost; fewer,
// all are annulled); "withdraw NAME confirm" withdraws the seat's
// current player and lists what becomes of each of their games. An event
// not started is left; one over, or a withdrawal made already, leaves
// nothing to withdraw from. A player whose seat a substitute took holds
// none.
func TestWithdrawCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	// carol is seat 1 of four; dan 2, erin 3, fay 4.
	event := func(games ...EventGame) *Event {
		e := autumn(EventRunning, carol, dan, erin, fay)
		for i := range games {
			games[i].GameID = int64(11 + i)
		}
		e.Games = games
		return e
	}
	lost := event(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4), fin(2, 3, "1-0", "resigned"))
	annulled := event(fin(1, 2, "1-0", "checkmate"), running(3, 1), running(1, 4), EventGame{White: 2, Black: 3, Status: StatusActive})
	replaced := event(fin(1, 2, "1-0", "checkmate"), running(3, 1), running(1, 4))
	replaced.Players[0].ReplacedBy = "zoe@example.org"
	withdrawn := event(running(1, 2))
	withdrawn.Players[0].Withdrawn = WithdrawnLost
	half := autumn(EventRunning, carol, dan, erin)
	half.Format = FormatDRR
	half.Games = numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "0-1", "resigned"), running(2, 1), running(1, 3))
	// A knockout match is lost whatever its games; a league's rule counts
	// the season's games only (carol: 2 of 2 in season 1, 0 of 2 in 2).
	ko := &Event{Name: "cup", Variant: "chess", Format: FormatKO, Status: EventRunning,
		Players: []EventPlayer{{Seat: 1, Address: carol}, {Seat: 2, Address: dan}},
		Games: numbered(EventGame{Round: 1, Board: 1, Leg: 1, White: 1, Black: 2, Status: StatusActive},
			EventGame{Round: 1, Board: 1, Leg: 2, White: 2, Black: 1, Status: StatusActive})}
	league := autumn(EventRunning, carol, dan, erin)
	league.Format = FormatLeague
	league.Games = numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "0-1", "resigned"), fin(2, 3, "1-0", "checkmate"),
		running(2, 1), running(1, 3), running(3, 2))
	for i := range league.Games {
		league.Games[i].Season, league.Games[i].Division = 1+i/3, 1
	}
	withdraw := func(who string) *LobbyChange {
		return &LobbyChange{Event: &EventChange{Name: "autumn", Withdraw: who}}
	}
	const (
		tell       = "Your opponents are told, each in one mail."
		annulRule  = "You have completed 1 of your 3 games, fewer than half: all your games are annulled and removed from the scores."
		annulGames = "Your games:\n" +
			"  game #11 against dan@example.org, you played White:\n    finished 1-0, now annulled: it counts for no one\n" +
			"  game #12 against erin@example.org, you played Black:\n    annulled: it ends now and counts for no one\n" +
			"  game #13 against fay@example.org, you played White:\n    annulled: it ends now and counts for no one\n"
	)
	tests := []eventCase{
		{name: "asked: the unfinished games would be lost", line: "withdraw autumn", event: lost, verdict: Answered,
			detail: `lobby: carol@example.org sent "withdraw"`, subject: "Withdraw from autumn?",
			says: []string{"You have completed 2 of your 3 games, at least half: your unfinished games would be lost, and your results so far stay.",
				`To withdraw, send "withdraw autumn confirm". Anything else keeps you in the event.`}},
		{name: "asked: all games would be annulled", line: "withdraw autumn", event: annulled, verdict: Answered,
			detail: `lobby: carol@example.org sent "withdraw"`,
			says:   []string{"You have completed 1 of your 3 games, fewer than half: all your games would be annulled and removed from the scores."}},
		{name: "another word is no confirmation", line: "withdraw autumn now", event: lost, verdict: Answered,
			detail: `lobby: carol@example.org sent "withdraw"`, subject: "Withdraw from autumn?"},
		{name: "confirmed: the unfinished game is lost", line: "withdraw autumn confirm", event: lost, verdict: Applied,
			detail: "event autumn: carol@example.org withdrew", subject: "You withdrew from autumn", change: withdraw(carol),
			says: []string{"You have completed 2 of your 3 games, at least half: your unfinished games are lost, and your results so far stay.\n\n" +
				"Your games:\n  game #13 against fay@example.org, you played White:\n    lost by forfeit\n\n" + tell}},
		{name: "confirmed: every game annulled", line: "withdraw autumn confirm", event: annulled, verdict: Applied,
			detail: "event autumn: carol@example.org withdrew", change: withdraw(carol),
			says: []string{annulRule + "\n\n" + annulGames + "\n" + tell}},
		{name: "exactly half completed: the unfinished games are lost", line: "withdraw autumn", event: half, verdict: Answered,
			detail: `lobby: carol@example.org sent "withdraw"`,
			says:   []string{"You have completed 2 of your 4 games, at least half: your unfinished games would be lost"}},
		{name: "asked in a knockout", line: "withdraw cup", event: ko, verdict: Answered, detail: `lobby: carol@example.org sent "withdraw"`,
			says: []string{"If you withdraw now, this rule applies: In a knockout a player who withdraws loses the match: its unfinished games are lost.",
				`To withdraw, send "withdraw cup confirm".`}},
		{name: "confirmed in a knockout", line: "withdraw cup confirm", event: ko, verdict: Applied,
			detail: "event cup: carol@example.org withdrew", change: &LobbyChange{Event: &EventChange{Name: "cup", Withdraw: carol}},
			says: []string{"In a knockout a player who withdraws loses the match: its unfinished games are lost.\n\nYour games:\n" +
				"  game #1 against dan@example.org, you played White:\n    lost by forfeit\n" +
				"  game #2 against dan@example.org, you played Black:\n    lost by forfeit\n\n" + tell}},
		{name: "asked in a league", line: "withdraw autumn", event: league, verdict: Answered, detail: `lobby: carol@example.org sent "withdraw"`,
			says: []string{"If you withdraw now, this rule applies: You had completed 0 of 2 games, fewer than half: under ICCF's rule all of " +
				"them are annulled, the finished ones too, and count for no one. The games of earlier seasons stand."}},
		{name: "confirmed in a league: the earlier season's games stand", line: "withdraw autumn confirm", event: league, verdict: Applied,
			detail: "event autumn: carol@example.org withdrew", change: withdraw(carol),
			says: []string{"Your games:\n" +
				"  game #4 against dan@example.org, you played Black:\n    annulled: it ends now and counts for no one\n" +
				"  game #5 against erin@example.org, you played White:\n    annulled: it ends now and counts for no one\n\n" + tell}},
		{name: "the substitute withdraws the seat", from: "zoe@example.org", line: "withdraw autumn confirm", event: replaced, verdict: Applied,
			detail: "event autumn: zoe@example.org withdrew", change: withdraw("zoe@example.org"),
			says: []string{"game #12 against erin@example.org, you played Black"}},
		{name: "the replaced player holds no seat", line: "withdraw autumn confirm", event: replaced, verdict: Rejected,
			detail: "event: withdraw autumn: no such event for carol@example.org"},
		{name: "not in it", from: "gil@example.org", line: "withdraw autumn confirm", event: lost, verdict: Rejected,
			detail: "event: withdraw autumn: no such event for gil@example.org",
			says:   []string{`Your mail said "withdraw autumn", but there is no event "autumn" that you play in or may join.`}},
		{name: "no such event", line: "withdraw winter", verdict: Rejected, detail: "event: withdraw winter: no such event for carol@example.org"},
		{name: "not started", line: "withdraw autumn", event: autumn(EventOpen, carol, dan), verdict: Rejected,
			detail: "event: withdraw autumn: not started",
			says:   []string{"autumn has not started yet: there is nothing to withdraw from.", `Send "leave autumn" to leave it before it starts.`}},
		{name: "over", line: "withdraw autumn confirm", event: autumn(EventFinished, carol, dan, erin, fay), verdict: Rejected,
			detail: "event: withdraw autumn: finished",
			says:   []string{"autumn is over: there is nothing to withdraw from.", `Send "standings autumn" for its crosstable.`}},
		{name: "withdrawn already", line: "withdraw autumn confirm", event: withdrawn, verdict: Rejected,
			detail: "event: withdraw autumn: already withdrawn",
			says:   []string{"You have already withdrawn from autumn.", `Send "standings autumn" for its crosstable.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestEventSummary: the one line on an event ("events", the CLI, the web
// pages): its game, format, time and rating, then the places left and
// the rating limits of an open event, or the state of one under way.
func TestEventSummary(t *testing.T) {
	const head = "autumn: Chess, round robin, 3 days per move, rated"
	limited := autumn(EventOpen, dan, erin, fay)
	limited.Limits = RatingLimits{MinRating: 1400, MaxRating: 1800}
	dated := autumn(EventOpen)
	dated.Starts = lobbyNow.Add(7 * Day)
	casual := autumn(EventFinished)
	casual.Rated, casual.TimeControl = false, ""
	fixed := autumn(EventOpen, dan)
	fixed.Places = 0
	tests := []struct {
		name string
		e    *Event
		want string
	}{
		{"places left", autumn(EventOpen, dan), head + "; 3 places left of 4"},
		{"one place left, and the limits", limited, head + "; 1 place left of 4; entry by mail: rating 1400 to 1800"},
		{"a start date", dated, head + "; 4 places left of 4; starts Mon 30 Nov 2026 10:00 UTC"},
		{"a fixed list", fixed, head},
		{"running", autumn(EventRunning, dan), head + "; running"},
		{"casual, untimed, over", casual, "autumn: Chess, round robin, no time limit, casual; finished"},
	}
	for _, tt := range tests {
		if got := tt.e.Summary(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestTieBreakText: a tie-break chain in words, as the standings' legend
// and the web pages say it; an empty chain leaves tied players sharing
// their rank.
func TestTieBreakText(t *testing.T) {
	tests := []struct {
		chain []event.TieBreak
		want  string
	}{
		{event.DefaultChain(), "the number of wins, then Sonneborn-Berger, then the direct encounter"},
		{[]event.TieBreak{event.Direct, event.Wins}, "the direct encounter, then the number of wins"},
		{[]event.TieBreak{event.SonnebornBerger}, "Sonneborn-Berger"},
		{nil, "nothing (tied players share the rank)"},
	}
	for _, tt := range tests {
		if got := TieBreakText(tt.chain); got != tt.want {
			t.Errorf("TieBreakText(%v) = %q, want %q", tt.chain, got, tt.want)
		}
	}
}

// TestEventsListsYourEvents: "events" lists the sender's own events
// apart, whatever their state, with the command for their crosstable;
// an event neither theirs nor taking entries is not listed; with no open
// event to join, the answer says so first.
func TestEventsListsYourEvents(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	mine := *autumn(EventRunning, dan, carol, erin, fay)
	over := *autumn(EventFinished, dan, erin, fay, "gil@example.org")
	over.Name = "summer"
	out := r.Handle(Inbound{Mail: observeMail(carol, "events")}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{},
		Events: []Event{over, mine}, MayJoin: map[string]bool{"autumn": true, "summer": true}}})
	if out.Verdict != Answered || len(out.Mails) != 1 {
		t.Fatalf("events: %s %s, %d mails", out.Verdict, out.Detail, len(out.Mails))
	}
	want := "No event you may join is taking entries now.\n\nYour events (send \"standings NAME\" for the crosstable):\n\n" +
		"  autumn: Chess, round robin, 3 days per move, rated; running\n"
	if text := out.Mails[0].Text; !strings.HasPrefix(text, want) || strings.Contains(text, "summer") {
		t.Errorf("the answer:\n%s\nwant it to begin\n%s\nand not to name summer", text, want)
	}
}

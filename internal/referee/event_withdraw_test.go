package referee

import (
	"strings"
	"testing"

	"referee/internal/game"
	"referee/internal/rules"
)

// numbered gives games their IDs, 1 up, in order.
func numbered(games ...EventGame) []EventGame {
	for i := range games {
		games[i].GameID = int64(i + 1)
	}
	return games
}

// withdrawalMail is what one mail of a withdrawal must be: its recipient
// and subject, the sentences of its first paragraph, and its list of
// games exactly (each game's line and fate as laid out).
type withdrawalMail struct {
	to, subject string
	says        []string
	games       string
}

const withdrawalFooter = "\n-- \nThe referee at referee@example.test. Send \"help\" to it for how to play.\n"

// TestWithdrawalMails (issue 37): a withdrawal's mails go to each
// opponent whose games with the player change (one mail each, listing
// those games and their fate) and to the player unless they withdrew by
// mail (their answer told them). Under the round robin's rule with half
// the games completed only the running games change (lost by the player,
// won by the opponent) and results stand; with fewer, every game is
// annulled, finished ones too; an aborted game changes no more. A
// knockout's withdrawal loses the match.
func TestWithdrawalMails(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	const (
		lostRule  = "had completed 2 of 3 games, at least half: under ICCF's rule the unfinished ones are lost, and the results so far stay."
		annulRule = "had completed 1 of 4 games, fewer than half: under ICCF's rule all of them are annulled, the finished ones too, and count for no one."
		crosstab  = `The crosstable marks an annulled game "-" and the player "(w)"; send "standings club" to the referee for it.`
		told      = "Your opponents are told, each in one mail."
	)
	// Seat 1 (a) completed 2 of 3: game 3 with d runs; 4 and 5 are others'.
	half := rrEvent(FormatRR, 4, numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4),
		fin(2, 3, "1-0", "resigned"), running(2, 4))...)
	// Seat 1 (a) completed 1 of 4 of a double round robin of three: game 2
	// was aborted, 3 and 4 with c run.
	few := rrEvent(FormatDRR, 3, numbered(fin(1, 2, "1-0", "checkmate"), EventGame{White: 2, Black: 1, Status: StatusAborted},
		running(1, 3), running(3, 1), fin(2, 3, "0-1", "resigned"))...)
	subbed := rrEvent(FormatRR, 4, numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4))...)
	subbed.Players[0].ReplacedBy = "zoe@example.test"
	subbed.Players[3].ReplacedBy = "yan@example.test"
	ko := tiedMatch(DeciderMatch, "1-0", "")
	ko.Games[1].Status = StatusActive
	tests := []struct {
		name  string
		e     *Event
		w     Withdrawal
		mails []withdrawalMail
	}{
		{name: "half completed, withdrawn by the organiser", e: half, w: Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByOrganiser},
			mails: []withdrawalMail{
				{to: "d@example.test", subject: "[club] a@example.test was withdrawn: your game with them",
					says:  []string{"a@example.test was withdrawn by the organiser from club. They " + lostRule, crosstab},
					games: "Your game with them:\n  game #3, you played Black:\n    won by you, by forfeit\n"},
				{to: "a@example.test", subject: "[club] You were withdrawn",
					says:  []string{"You were withdrawn by the organiser from club. You " + lostRule, told},
					games: "Your games:\n  game #3 against d@example.test, you played White:\n    lost by forfeit\n"},
			}},
		{name: "fewer than half, by mail", e: few, w: Withdrawal{Seat: 1, Kind: WithdrawnAnnulled, How: ByMail},
			mails: []withdrawalMail{
				{to: "b@example.test", subject: "[club] a@example.test withdrew: your game with them",
					says:  []string{"a@example.test withdrew from club. They " + annulRule, crosstab},
					games: "Your game with them:\n  game #1, you played Black:\n    finished 1-0, now annulled: it counts for no one\n"},
				{to: "c@example.test", subject: "[club] a@example.test withdrew: your games with them",
					says: []string{"a@example.test withdrew from club. They " + annulRule},
					games: "Your games with them:\n  game #3, you played Black:\n    annulled: it ends now and counts for no one\n" +
						"  game #4, you played White:\n    annulled: it ends now and counts for no one\n"},
			}},
		{name: "fewer than half, silent on the clock", e: few, w: Withdrawal{Seat: 1, Kind: WithdrawnAnnulled, How: BySilence},
			mails: []withdrawalMail{
				{to: "b@example.test", subject: "[club] a@example.test was withdrawn: your game with them",
					says: []string{"a@example.test lost half their games on time and is withdrawn from club."}},
				{to: "c@example.test", subject: "[club] a@example.test was withdrawn: your games with them"},
				{to: "a@example.test", subject: "[club] You were withdrawn",
					says: []string{"You lost half your games on time and are withdrawn from club. You " + annulRule},
					games: "Your games:\n" +
						"  game #1 against b@example.test, you played White:\n    finished 1-0, now annulled: it counts for no one\n" +
						"  game #3 against c@example.test, you played White:\n    annulled: it ends now and counts for no one\n" +
						"  game #4 against c@example.test, you played Black:\n    annulled: it ends now and counts for no one\n"},
			}},
		{name: "substitutes are told, and named", e: subbed, w: Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByOrganiser},
			mails: []withdrawalMail{
				{to: "yan@example.test", subject: "[club] zoe@example.test was withdrawn: your game with them",
					says: []string{"zoe@example.test was withdrawn by the organiser from club."}},
				{to: "zoe@example.test", subject: "[club] You were withdrawn",
					games: "Your games:\n  game #3 against yan@example.test, you played White:\n    lost by forfeit\n"},
			}},
		// With every game of theirs over and half completed, no result
		// changes: no opponent is told, and the player's mail lists none.
		{name: "no game changes", e: rrEvent(FormatRR, 3, numbered(fin(1, 2, "0-1", "resigned"), fin(3, 1, "1-0", "resigned"), running(2, 3))...),
			w: Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByOrganiser},
			mails: []withdrawalMail{
				{to: "a@example.test", subject: "[club] You were withdrawn",
					says: []string{"You were withdrawn by the organiser from club. You had completed 2 of 2 games, at least half: " +
						"under ICCF's rule the unfinished ones are lost, and the results so far stay.\n\n" + told}},
			}},
		{name: "a knockout", e: ko, w: Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByOrganiser},
			mails: []withdrawalMail{
				{to: "b@x.test", subject: "[cup] a@x.test was withdrawn: your game with them",
					says: []string{"a@x.test was withdrawn by the organiser from cup. In a knockout a player who withdraws loses the match: " +
						"its unfinished games are lost.", `Send "standings cup" to the referee for the rounds.`},
					games: "Your game with them:\n  game #2, you played White:\n    won by you, by forfeit\n"},
				{to: "a@x.test", subject: "[cup] You were withdrawn"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mails := r.WithdrawalMails(tt.e, tt.w, lobbyNow)
			if len(mails) != len(tt.mails) {
				t.Fatalf("mails to %v, want %d", mailsTo(Outcome{Mails: mails}), len(tt.mails))
			}
			ids := map[string]bool{}
			for i, want := range tt.mails {
				m := mails[i]
				if m.Kind != KindNotice || m.To != want.to || m.Subject != want.subject || !m.Date.Equal(lobbyNow) {
					t.Errorf("mail %d: %s to %s, %q; want to %s, %q", i, m.Kind, m.To, m.Subject, want.to, want.subject)
				}
				if !strings.HasSuffix(m.Text, withdrawalFooter) {
					t.Errorf("mail %d has no footer:\n%s", i, m.Text)
				}
				for _, s := range want.says {
					if !strings.Contains(norm(m.Text), norm(s)) {
						t.Errorf("mail %d to %s does not say %q:\n%s", i, m.To, s, m.Text)
					}
				}
				if want.games != "" && !strings.Contains(m.Text, "\n\n"+want.games+"\n") {
					t.Errorf("mail %d to %s does not list\n%s\nit says:\n%s", i, m.To, want.games, m.Text)
				}
				if ids[m.MessageID] {
					t.Errorf("mail %d repeats a Message-ID", i)
				}
				ids[m.MessageID] = true
			}
		})
	}
}

// TestWithdrawalReason: the reason stored with each game a withdrawal
// ends names the seat's current player, how they left and the event; an
// annulled game's starts with AnnulledPrefix, so that its end is told as
// an annulment.
func TestWithdrawalReason(t *testing.T) {
	e := rrEvent(FormatRR, 3)
	e.Players[1].ReplacedBy = "zoe@example.test"
	tests := []struct {
		w    Withdrawal
		want string
	}{
		{Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByMail}, "a@example.test withdrew from club"},
		{Withdrawal{Seat: 1, Kind: WithdrawnAnnulled, How: ByOrganiser}, "annulled: a@example.test was withdrawn by the organiser from club"},
		{Withdrawal{Seat: 3, Kind: WithdrawnLost, How: BySilence}, "c@example.test lost half their games on time and is withdrawn from club"},
		{Withdrawal{Seat: 2, Kind: WithdrawnAnnulled, How: ByMail}, "annulled: zoe@example.test withdrew from club"},
	}
	for _, tt := range tests {
		if got := e.WithdrawalReason(tt.w); got != tt.want {
			t.Errorf("WithdrawalReason(%+v) = %q, want %q", tt.w, got, tt.want)
		}
	}
}

// TestForfeit: a game a withdrawal loses ends at once as lost by the
// player who left, with the withdrawal as its reason and its seed
// revealed; both players get the end as a board mail. The stored game is
// not changed in place; a game over already cannot be forfeited.
func TestForfeit(t *testing.T) {
	const reason = "alice@example.test withdrew from club"
	for _, tt := range []struct {
		loser  rules.Color
		result string
		says   string
	}{
		{rules.White, "0-1", "This game is over: Black won, " + reason + "."},
		{rules.Black, "1-0", "This game is over: White won, " + reason + "."},
	} {
		r, g := newGame(t, rules.Chess())
		g.DrawOffer = &DrawOffer{By: rules.White}
		if tt.loser == rules.Black {
			// A game with a die witness reveals its seed at its end.
			g.Commitment = "c0ffee"
		}
		ng, mails, err := r.Forfeit(g, tt.loser, reason, lobbyNow)
		if err != nil {
			t.Fatal(err)
		}
		if ng.Status != StatusFinished || ng.Result != tt.result || ng.ResultReason != reason || ng.Ending != game.EndForfeit ||
			ng.DrawOffer != nil || !ng.SeedRevealed {
			t.Errorf("%s loses: %s %s (%s), ending %v, draw offer %v, seed revealed %v; want finished %s", tt.loser, ng.Status, ng.Result,
				ng.ResultReason, ng.Ending, ng.DrawOffer, ng.SeedRevealed, tt.result)
		}
		if g.Status != StatusActive || g.Result != "" || g.DrawOffer == nil {
			t.Errorf("the stored game changed in place: %s %s", g.Status, g.Result)
		}
		if got := mailsTo(Outcome{Mails: mails}); len(got) != 2 || got[0] != "alice@example.test" || got[1] != "bob@example.test" {
			t.Fatalf("mails to %v, want to alice and bob", got)
		}
		for _, m := range mails {
			if !strings.Contains(textOf(t, m), tt.says) {
				t.Errorf("the mail to %s does not say %q:\n%s", m.To, tt.says, textOf(t, m))
			}
			reveals := strings.Contains(textOf(t, m), "Commitment (SHA-256 of the seed): c0ffee")
			if reveals != (g.Commitment != "") {
				t.Errorf("the mail to %s reveals a seed: %v, want %v (commitment %q)", m.To, reveals, g.Commitment != "", g.Commitment)
			}
		}
		if _, _, err := r.Forfeit(ng, tt.loser, reason, lobbyNow); err == nil || err.Error() != "game #5 is finished already: it cannot be forfeited" {
			t.Errorf("forfeiting a finished game: %v", err)
		}
	}
}

// TestSubstituted: when a substitute takes over a player's games, the
// substitute gets each game's board with their own reply address and
// whom they play, and the opponent is told who took over from whom.
func TestSubstituted(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	if out := act(t, r, g, rules.White, "e4"); out.Verdict != Applied {
		t.Fatalf("e4: %s", out.Detail)
	}
	g.Players[rules.Black] = Player{Address: "zoe@example.test", Secret: "zzzzzzzzzz"}
	mails, err := r.Substituted(g, rules.Black, "bob@example.test", lobbyNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ to, says string }{
		{"zoe@example.test", "You take over bob@example.test's place in this game: you play Black against alice@example.test. " +
			"Reply to this mail with your moves."},
		{"alice@example.test", "zoe@example.test takes over Black's place (bob@example.test) in this game from bob@example.test."},
	}
	if len(mails) != len(want) {
		t.Fatalf("mails to %v, want to zoe and alice", mailsTo(Outcome{Mails: mails}))
	}
	for i, w := range want {
		if mails[i].To != w.to || !strings.Contains(norm(textOf(t, mails[i])), norm(w.says)) {
			t.Errorf("mail %d to %s:\n%s\nwant to %s, saying %q", i, mails[i].To, textOf(t, mails[i]), w.to, w.says)
		}
	}
	if rt := mails[0].ReplyTo; rt != r.ReplyAddress(g, rules.Black) || !strings.Contains(rt, "zzzzzzzzzz") {
		t.Errorf("the substitute's mail replies to %s, want their own address %s", rt, r.ReplyAddress(g, rules.Black))
	}
}

// TestSeatOfReplacedPlayer (issue 38): once a substitute takes a seat,
// the seat is theirs: the player they replaced holds none (ReplacedIn
// finds it for them), and both are named in the event, as a newcomer must
// not be. Addresses compare as mailboxes.
func TestSeatOfReplacedPlayer(t *testing.T) {
	e := rrEvent(FormatRR, 3)
	e.Players[1].ReplacedBy = "zoe@example.test"
	tests := []struct {
		address    string
		seat       int
		replacedIn int // the seat they left, 0 for none
		named      bool
	}{
		{"a@example.test", 1, 0, true},
		{"A+chess@Example.test", 1, 0, true},
		{"b@example.test", 0, 2, true},
		{"zoe@example.test", 2, 0, true},
		{"c@example.test", 3, 0, true},
		{"d@example.test", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		p, ok := e.ReplacedIn(tt.address)
		replacedIn := 0
		if ok {
			replacedIn = p.Seat
		}
		if seat, named := e.Seat(tt.address), e.Named(tt.address); seat != tt.seat || replacedIn != tt.replacedIn || named != tt.named {
			t.Errorf("%q: seat %d, replaced in %d, named %v; want %d, %d, %v", tt.address, seat, replacedIn, named, tt.seat, tt.replacedIn, tt.named)
		}
	}
}

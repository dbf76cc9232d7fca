package referee

import (
	"strings"
	"testing"

	"referee/internal/dice"
)

// tiedMatch is a two-game knockout match between seats 1 and 2 with the
// results of its two games (seat 1 White in the first).
func tiedMatch(decider Decider, r1, r2 string) *Event {
	seed, _ := dice.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	return &Event{Name: "cup", Format: FormatKO, Decider: decider, Seed: seed,
		Players: []EventPlayer{{Seat: 1, Address: "a@x.test"}, {Seat: 2, Address: "b@x.test"}},
		Games: []EventGame{
			{GameID: 1, Round: 1, Board: 1, Leg: 1, White: 1, Black: 2, Status: StatusFinished, Result: r1},
			{GameID: 2, Round: 1, Board: 1, Leg: 2, White: 2, Black: 1, Status: StatusFinished, Result: r2},
		}}
}

// Issue 29: a tied match goes to the decider chosen at creation.
func TestKnockoutDeciders(t *testing.T) {
	tests := []struct {
		name    string
		decider Decider
		r1, r2  string
		winner  int
		more    bool
		how     string
	}{
		{"decided on points", DeciderMatch, "1-0", "1/2-1/2", 1, false, "on points"},
		{"tied: another match", DeciderMatch, "1-0", "1-0", 0, true, ""},
		{"not tied", DeciderBlack, "0-1", "1/2-1/2", 2, false, "on points"},
		{"tied, Black wins equal: lot", DeciderBlack, "1/2-1/2", "1/2-1/2", 0, false, "by lot"},
		{"tied: lot", DeciderLot, "1-0", "1-0", 0, false, "by lot: roll"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tiedMatch(tt.decider, tt.r1, tt.r2)
			m := e.Matches()[0][0]
			if m.MoreGames != tt.more || !strings.Contains(m.How, tt.how) {
				t.Errorf("match: winner %d, more %v, how %q; want more %v, how with %q", m.Winner, m.MoreGames, m.How, tt.more, tt.how)
			}
			if tt.winner != 0 && m.Winner != tt.winner {
				t.Errorf("winner %d, want %d", m.Winner, tt.winner)
			}
			if strings.Contains(tt.how, "lot") {
				// The lot is roll 1 of "game" cup/1/1 in the die witness's
				// construction: anyone can redo it from the revealed seed.
				roll := dice.Roll(e.Seed, "cup/1/1", 1)
				want := 1
				if roll%2 == 0 {
					want = 2
				}
				if m.Winner != want {
					t.Errorf("lot roll %d gave the match to %d, want %d (odd: the first-named)", roll, m.Winner, want)
				}
			}
		})
	}
}

// The Black-wins decider counts the whole event so far: in one two-game
// match with colours swapped a tie has equal Black wins.
func TestBlackWinsDecider(t *testing.T) {
	e := tiedMatch(DeciderBlack, "1-0", "1-0") // 1-1, no Black win in the match
	e.Players = append(e.Players, EventPlayer{Seat: 3, Address: "c@x.test"}, EventPlayer{Seat: 4, Address: "d@x.test"})
	// Round 2 between the winners... here seats 1 and 2 met in round 2
	// after seat 2 won with Black in round 1 against seat 3.
	for i := range e.Games {
		e.Games[i].Round = 2
	}
	e.Games = append(e.Games, EventGame{GameID: 3, Round: 1, Board: 1, Leg: 1, White: 3, Black: 2, Status: StatusFinished, Result: "0-1"})
	m := e.Matches()[1][0]
	if m.Winner != 2 || !strings.Contains(m.How, "more wins with Black: 1 to 0") {
		t.Errorf("winner %d (%s); want seat 2, who won once with Black in round 1", m.Winner, m.How)
	}
}

// A match with a game still running is undecided, unless a player
// withdrew: then the other wins it.
func TestKnockoutUndecidedAndWithdrawal(t *testing.T) {
	e := tiedMatch(DeciderMatch, "1-0", "")
	e.Games[1].Status = StatusActive
	if m := e.Matches()[0][0]; m.Winner != 0 || m.MoreGames {
		t.Errorf("a match with a running game: winner %d, more %v", m.Winner, m.MoreGames)
	}
	e.Players[0].Withdrawn = WithdrawnLost
	if m := e.Matches()[0][0]; m.Winner != 2 {
		t.Errorf("seat 1 withdrew: winner %d, want 2", m.Winner)
	}
}

// docs/dice.md's worked example of a lot: seed 00 01 ... 1f, match 1 of
// round 1 of event cup: roll 4 (computed independently with Python's hmac),
// even, so the second-named player wins.
func TestKnockoutLotExample(t *testing.T) {
	e := tiedMatch(DeciderLot, "1/2-1/2", "1/2-1/2")
	if got := e.Lot(1, 1); got != 4 {
		t.Fatalf("lot of cup/1/1 = %d, docs/dice.md says 4", got)
	}
	if m := e.Matches()[0][0]; m.Winner != 2 {
		t.Errorf("roll 4 gave the match to %d, want 2 (even: the second-named)", m.Winner)
	}
}

// A player who won round 1 and withdrew in round 2 keeps their round-1
// win: the withdrawal decides their last match only.
func TestKnockoutWithdrawalKeepsEarlierMatches(t *testing.T) {
	e := tiedMatch(DeciderMatch, "1-0", "0-1") // seat 1 wins round 1, 2-0
	e.Players = append(e.Players, EventPlayer{Seat: 3, Address: "c@x.test"}, EventPlayer{Seat: 4, Address: "d@x.test"})
	e.Games = append(e.Games,
		EventGame{GameID: 3, Round: 2, Board: 1, Leg: 1, White: 1, Black: 3, Status: StatusActive},
		EventGame{GameID: 4, Round: 2, Board: 1, Leg: 2, White: 3, Black: 1, Status: StatusActive})
	e.Players[0].Withdrawn = WithdrawnLost
	ms := e.Matches()
	if ms[0][0].Winner != 1 {
		t.Errorf("round 1: winner %d, want seat 1, who won it before withdrawing", ms[0][0].Winner)
	}
	if ms[1][0].Winner != 3 || ms[1][0].How != "by withdrawal" {
		t.Errorf("round 2: winner %d (%s), want seat 3 by withdrawal", ms[1][0].Winner, ms[1][0].How)
	}
}

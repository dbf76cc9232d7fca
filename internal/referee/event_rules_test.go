package referee

import (
	"strings"
	"testing"

	"referee/internal/game"
)

// rrEvent is a round robin of n seats whose games are given.
func rrEvent(format string, n int, games ...EventGame) *Event {
	e := &Event{Name: "club", Format: format}
	for s := 1; s <= n; s++ {
		e.Players = append(e.Players, EventPlayer{Seat: s, Address: string(rune('a'+s-1)) + "@example.test"})
	}
	e.Games = games
	return e
}

// fin is a finished game with the kind of ending the referee stores with
// reason: only a loss on time's kind counts for the silence rule.
func fin(w, b int, result, reason string) EventGame {
	end := game.EndBoard
	switch {
	case strings.HasSuffix(reason, "lost on time"):
		end = game.EndTime
	case strings.HasSuffix(reason, "resigned"):
		end = game.EndResigned
	}
	return EventGame{White: w, Black: b, Status: StatusFinished, Result: result, Reason: reason, Ending: end}
}

func running(w, b int) EventGame { return EventGame{White: w, Black: b, Status: StatusActive} }

// TestWithdrawalKindIsICCFsHalfRule: a player who withdraws having
// completed at least half their games loses the unfinished ones; with fewer,
// all their games are annulled (ICCF's rule, docs of events). Exactly half
// is "at least half". Only games finished with a result count as completed:
// a running or an aborted game does not. A knockout's withdrawal always
// loses the match.
func TestWithdrawalKindIsICCFsHalfRule(t *testing.T) {
	tests := []struct {
		name string
		e    *Event
		want int
	}{
		{"1 of 3 completed", rrEvent(FormatRR, 4, fin(1, 2, "1-0", "checkmate"), running(3, 1), running(1, 4)), WithdrawnAnnulled},
		{"2 of 3 completed", rrEvent(FormatRR, 4, fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4)), WithdrawnLost},
		{"3 of 6 completed: exactly half", rrEvent(FormatDRR, 4,
			fin(1, 2, "0-1", "resigned"), fin(3, 1, "1-0", "resigned"), fin(1, 4, "1/2-1/2", "agreed"),
			running(2, 1), running(1, 3), running(4, 1)), WithdrawnLost},
		{"2 of 6 completed", rrEvent(FormatDRR, 4,
			fin(1, 2, "0-1", "resigned"), fin(3, 1, "1-0", "resigned"), running(1, 4),
			running(2, 1), running(1, 3), running(4, 1)), WithdrawnAnnulled},
		{"an aborted game is not completed", rrEvent(FormatRR, 4,
			fin(1, 2, "1-0", "checkmate"), EventGame{White: 3, Black: 1, Status: StatusAborted}, running(1, 4)), WithdrawnAnnulled},
		{"other players' games do not count", rrEvent(FormatRR, 4,
			fin(2, 3, "1-0", "checkmate"), fin(3, 4, "1-0", "checkmate"), fin(1, 2, "1-0", "checkmate"), running(3, 1), running(1, 4)), WithdrawnAnnulled},
		{"a knockout: the match is lost", rrEvent(FormatKO, 4, running(1, 2)), WithdrawnLost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.WithdrawalKind(1); got != tt.want {
				c, n := tt.e.SeatGames(1)
				t.Errorf("WithdrawalKind = %d (SeatGames %d of %d), want %d", got, c, n, tt.want)
			}
		})
	}
}

// TestSilentIsHalfLostOnTime: a player who lost at least half their games
// on time is treated as withdrawn. Only their own losses on time count: not
// a loss by resignation, nor an opponent's loss on time. A knockout never
// treats anyone as silent.
func TestSilentIsHalfLostOnTime(t *testing.T) {
	tests := []struct {
		name string
		e    *Event
		want bool
	}{
		{"1 of 3 lost on time", rrEvent(FormatRR, 4, fin(1, 2, "0-1", "White lost on time"), running(3, 1), running(1, 4)), false},
		{"2 of 4 lost on time: exactly half", rrEvent(FormatDRR, 3,
			fin(1, 2, "0-1", "White lost on time"), fin(3, 1, "1-0", "Black lost on time"), running(2, 1), running(1, 3)), true},
		{"losses by resignation do not count", rrEvent(FormatRR, 4,
			fin(1, 2, "0-1", "White resigned"), fin(3, 1, "1-0", "Black resigned"), running(1, 4)), false},
		{"the opponents' losses on time do not count", rrEvent(FormatRR, 4,
			fin(1, 2, "1-0", "Black lost on time"), fin(3, 1, "0-1", "White lost on time"), running(1, 4)), false},
		{"a player without games", rrEvent(FormatRR, 4, fin(2, 3, "0-1", "White lost on time")), false},
		{"a knockout", rrEvent(FormatKO, 2, fin(1, 2, "0-1", "White lost on time"), fin(2, 1, "1-0", "Black lost on time")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.Silent(1); got != tt.want {
				t.Errorf("Silent = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestEventTableScoresFinishedGames: the crosstable counts each finished
// game's result (1-0, 0-1, ½-½), skips running games and games without a
// result, removes every game of a player whose games were annulled (ICCF),
// and keeps those of a player who withdrew after half their games.
func TestEventTableScoresFinishedGames(t *testing.T) {
	e := rrEvent(FormatRR, 4,
		fin(1, 2, "1-0", "checkmate"),                         // 1: 1
		fin(3, 1, "1/2-1/2", "agreed"),                        // 1: ½, 3: ½
		fin(2, 3, "0-1", "resigned"),                          // 3: 1
		fin(4, 2, "1-0", "checkmate"),                         // 4: 1 (4's games are annulled below)
		running(1, 4),                                         // not counted
		EventGame{White: 2, Black: 4, Status: StatusFinished}, // no result: not counted
	)
	points := func(e *Event) map[int]float64 {
		out := map[int]float64{}
		for _, s := range e.Table().Standings {
			out[s.Player] = s.Points
		}
		return out
	}
	want := map[int]float64{1: 1.5, 2: 0, 3: 1.5, 4: 1}
	if got := points(e); !equalPoints(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	e.Players[3].Withdrawn = WithdrawnAnnulled
	want = map[int]float64{1: 1.5, 2: 0, 3: 1.5, 4: 0}
	if got := points(e); !equalPoints(got, want) {
		t.Errorf("with 4's games annulled: points %v, want %v", got, want)
	}
	e.Players[3].Withdrawn = WithdrawnLost
	want = map[int]float64{1: 1.5, 2: 0, 3: 1.5, 4: 1}
	if got := points(e); !equalPoints(got, want) {
		t.Errorf("with 4 withdrawn after half their games: points %v, want %v", got, want)
	}
}

func equalPoints(a, b map[int]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestRoundRobinOverWhenNoGameRuns: a round robin is over once it has
// games and none is running (aborted and finished ones alike).
func TestRoundRobinOverWhenNoGameRuns(t *testing.T) {
	if rrEvent(FormatRR, 3).Over() {
		t.Error("an event without games is over")
	}
	if rrEvent(FormatRR, 3, fin(1, 2, "1-0", ""), running(2, 3)).Over() {
		t.Error("an event with a running game is over")
	}
	if !rrEvent(FormatRR, 3, fin(1, 2, "1-0", ""), EventGame{White: 2, Black: 3, Status: StatusAborted}).Over() {
		t.Error("an event whose games all ended is not over")
	}
}

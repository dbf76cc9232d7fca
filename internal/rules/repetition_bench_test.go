package rules

import "testing"

// BenchmarkRepetitionAfterShuffles is the cost of one move and its result
// in a chess game whose last 96 plies were reversible (kings and rooks
// wandering, no capture): its legal moves, mate, the move rules and the
// repetition count, which looks back over those 96 positions, then the
// claim check. (go test -run XXX -bench RepetitionAfterShuffles -benchmem ./internal/rules/)
func BenchmarkRepetitionAfterShuffles(b *testing.B) {
	pos, err := Chess().ParsePosition("r3k3/8/8/8/8/8/8/4K2R w - - 0 1")
	if err != nil {
		b.Fatal(err)
	}
	for ply := range 96 {
		legal := pos.Legal()
		played := false
		for i := range legal {
			m := legal[(ply*7+i)%len(legal)]
			if pos.IsCapture(m) {
				continue
			}
			next, err := pos.Play(m)
			if err != nil {
				b.Fatal(err)
			}
			if next.Result().Over {
				continue
			}
			pos, played = next, true
			break
		}
		if !played {
			b.Fatalf("ply %d: no quiet move in %s", ply, pos)
		}
	}
	var m Move
	for _, x := range pos.Legal() {
		if !pos.IsCapture(x) {
			m = x
		}
	}
	for b.Loop() {
		next, err := pos.Play(m)
		if err != nil {
			b.Fatal(err)
		}
		_ = next.Result()
		_ = next.Claimable()
	}
}

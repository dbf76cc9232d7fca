package rules

import "testing"

func TestChessPerft(t *testing.T) {
	// Published perft numbers (chessprogramming wiki, "Perft Results").
	tests := []struct {
		name, fen string
		counts    []int64
	}{
		{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []int64{20, 400, 8902, 197281}},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int64{48, 2039, 97862, 4085603}},
		{"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int64{14, 191, 2812, 43238}},
		{"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int64{6, 264, 9467, 422333}},
		{"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int64{44, 1486, 62379, 2103487}},
		{"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int64{46, 2079, 89890, 3894594}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Chess().ParsePosition(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tt.counts {
				if testing.Short() && want > 100000 {
					break
				}
				if got := Perft(p, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

// BenchmarkPerftStart5 measures nodes per second of perft 5 from the start
// (4,865,609 leaves; bulk-counted at depth 1).
func BenchmarkPerftStart5(b *testing.B) {
	p := Chess().Start()
	var nodes int64
	for b.Loop() {
		nodes = Perft(p, 5)
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

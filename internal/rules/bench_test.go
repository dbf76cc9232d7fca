package rules

import "testing"

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

// BenchmarkPerftKit measures perft of the variants that go through the
// Position interface (Toto40 depth 4 and Toe-to-Toe depth 2, both from
// the start): the kit's legal-move cache and play by membership.
func BenchmarkPerftKit(b *testing.B) {
	b.Run("toto40-4", func(b *testing.B) {
		p := Toto40().Start()
		for b.Loop() {
			if Perft(p, 4) != 33617 {
				b.Fatal("toto40 perft(4)")
			}
		}
	})
	b.Run("toetotoe-deploy-2", func(b *testing.B) {
		p, err := ToeToToe().ParsePosition("8/8/8/pppppppp/PPPPPPPP/8/8/8[KGRRNNEEkgrrnnee] w d1 0 1")
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if Perft(p, 2) != 304704 {
				b.Fatal("toetotoe perft(2)")
			}
		}
	})
}

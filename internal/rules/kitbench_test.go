package rules

import "testing"

// BenchmarkPerftKit measures perft of the variants on the shared kit
// (Toto40 depth 4 from the start, Toe-to-Toe depth 2 from the first play
// move, Chec Toe's Legal and Play over a fixed walk).
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

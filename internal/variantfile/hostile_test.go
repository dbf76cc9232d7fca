package variantfile

import (
	"fmt"
	"strings"
	"testing"

	"referee/internal/rules"
)

// hostileChain is a file at the reader's limits: as many sections as
// allowed, each inheriting from the one before up to the depth limit, and
// filler lines up to the size limit.
func hostileChain() []byte {
	var b strings.Builder
	for i := range MaxSections {
		if i%MaxInheritDepth == 0 {
			fmt.Fprintf(&b, "[v%d:chess]\n", i)
		} else {
			fmt.Fprintf(&b, "[v%d:v%d]\n", i, i-1)
		}
		fmt.Fprintf(&b, "customPiece1 = a:%s\n", strings.Repeat("FN", 20))
	}
	pad := "# " + strings.Repeat("x", 100) + "\n"
	for b.Len()+len(pad) < MaxFileBytes {
		b.WriteString(pad)
	}
	return []byte(b.String())
}

// hostileRiders is the worst board the reader accepts: 16x16 wrapped both
// ways, each side a king and 16 amazon-nightriders (QNN: queen, knight and
// knight-rider lines, each ray going round the torus up to its own square),
// placed at random where the position stays legal: thousands of moves to
// generate, nearly all of them refused for leaving the king attacked.
const hostileRiders = `
[riders]
maxFile = 16
maxRank = 16
king = k
customPiece1 = a:QNN
referee_wrapFiles = true
referee_wrapRanks = true
castling = false
doubleStep = false
promotionPieceTypes = -
startFen = a2AA3A1AAa2a/9Aa3A1/11a2A1/a5a9/16/16/16/7k2a5/1A9aA3/6a8a/8A7/6A1A1a5/5A9a/4a3A7/3a9A2/7K2a5 w - - 0 1

# Six of them a side on an open board (the most moves of 3,000 random
# legal placements): 634 moves for White.
[open:riders]
startFen = 7a8/9A6/13k2/16/16/11A4/16/a15/12K3/7a8/16/2A8a4/5A10/12A3/14A1/9a3a2 w - - 0 1
`

// TestHostileFilesAreBounded: the file at the reader's limits reads, and
// the worst board builds and has a bounded number of moves.
func TestHostileFilesAreBounded(t *testing.T) {
	src := hostileChain()
	if len(src) > MaxFileBytes {
		t.Fatalf("the chain file is %d bytes, over the limit", len(src))
	}
	f := Parse(src)
	if len(f.Errors) > 0 || len(f.Sections) != MaxSections {
		t.Fatalf("%d sections, errors %v", len(f.Sections), f.Errors)
	}
	if _, err := f.Lookup(fmt.Sprintf("v%d", MaxSections-1)); err != nil {
		t.Fatal(err)
	}
	// One more link than allowed is refused.
	var deep strings.Builder
	deep.WriteString("[d0:chess]\n")
	for i := 1; i <= MaxInheritDepth+1; i++ {
		fmt.Fprintf(&deep, "[d%d:d%d]\n", i, i-1)
	}
	if _, err := Parse([]byte(deep.String())).Lookup(fmt.Sprintf("d%d", MaxInheritDepth+1)); err == nil {
		t.Errorf("an inheritance chain of %d links was accepted", MaxInheritDepth+1)
	}
	v := mustBuild(t, hostileRiders, "riders")
	if n := len(v.Start().Legal()); n == 0 {
		t.Error("no move at the start")
	}
}

// BenchmarkHostile: the worst cases a file can ask for. parse: the 1 MiB
// file of 512 sections in chains of 16; build: the 16x16 torus of
// amazon-nightriders; legal: its moves at the start (each checked for
// leaving the king attacked); perft2: all replies to them.
func BenchmarkHostile(b *testing.B) {
	src := hostileChain()
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			Parse(src)
		}
	})
	for _, name := range []string{"riders", "open"} {
		d, err := Parse([]byte(hostileRiders)).Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("build/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		v, err := Build(d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("legal/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				p, _ := v.ParsePosition(v.Start().String()) // a fresh position: Legal is computed once per position
				n = len(p.Legal())
			}
			b.ReportMetric(float64(n), "moves")
		})
		b.Run("perft2/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				p, _ := v.ParsePosition(v.Start().String())
				n = rules.Perft(p, 2)
			}
			b.ReportMetric(float64(n), "leaves")
		})
	}
}

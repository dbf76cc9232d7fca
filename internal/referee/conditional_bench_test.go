package referee

import (
	"strings"
	"testing"

	"referee/internal/notation"
	"referee/internal/rules"
)

// capTree is MaxCondLines lines of MaxCondPlies plies from chess's start
// after 1. e4: the opponent's moves vary by line, each answer is the first
// legal move (so that lines sharing a beginning agree).
func capTree(tb testing.TB) (rules.Position, []string) {
	tb.Helper()
	start := rules.Chess().Start()
	e4 := start.Legal()[0]
	for _, m := range start.Legal() {
		if notation.SAN(start, m) == "e4" {
			e4 = m
		}
	}
	pos, err := start.Play(e4)
	if err != nil {
		tb.Fatal(err)
	}
	var lines []string
	for k := range MaxCondLines {
		p := pos
		var b strings.Builder
		for ply := 0; ply < MaxCondPlies; ply++ {
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[0]
			if ply%2 == 0 {
				m = legal[(k+ply)%len(legal)]
				b.WriteString("if ")
			}
			b.WriteString(notation.SAN(p, m) + " ")
			if p, err = p.Play(m); err != nil {
				tb.Fatal(err)
			}
		}
		lines = append(lines, strings.TrimSpace(b.String()))
	}
	return pos, lines
}

// BenchmarkReadConditionsAtCap reads and checks a tree at the limits (30
// lines of 30 plies), as a mail carrying one is checked.
func BenchmarkReadConditionsAtCap(b *testing.B) {
	pos, lines := capTree(b)
	if _, err := readConditions(pos, lines); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := readConditions(pos, lines); err != nil {
			b.Fatal(err)
		}
	}
}

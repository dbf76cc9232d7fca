package rules

import (
	"sort"
	"strings"
	"testing"
)

// setup builds a position of v from pieces ("e1": "K", "a14": "P'", "g8":
// "k") and the remaining fields of its position string.
func setup(t *testing.T, v Variant, pieces map[string]string, rest string) Position {
	t.Helper()
	b := v.Board()
	sq := make([]Piece, b.Size())
	for name, p := range pieces {
		s, ok := b.ParseSquare(name)
		if !ok {
			t.Fatalf("setup: %s is not a square", name)
		}
		c := White
		if p[0] >= 'a' {
			c = Black
		}
		sq[s] = MakePiece(p[0]&^0x20, c).WithDown(strings.HasSuffix(p, "'"))
	}
	fen := writeBoard(b, sq, func(pc Piece) string {
		s := string(pc.FENLetter())
		if pc.Down() {
			s += "'"
		}
		return s
	}) + " " + rest
	if v.Name() == "toetotoe" {
		fen = strings.Replace(fen, " ", "[] w ", 1) + " 0 8"
	}
	pos, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("setup %s: %v", fen, err)
	}
	return pos
}

// movesFrom lists the legal moves from one square in coordinate form.
func movesFrom(p Position, from string) []string {
	b := p.Variant().Board()
	var out []string
	for _, m := range p.Legal() {
		if b.SquareName(m.From) == from {
			s := b.SquareName(m.From) + b.SquareName(m.To)
			if m.Promo != 0 {
				s += strings.ToLower(string(m.Promo))
			}
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func hasMove(p Position, from, to string) bool {
	for _, m := range movesFrom(p, from) {
		if m[len(from):] == to || strings.HasPrefix(m[len(from):], to) && len(m) == len(from)+len(to) {
			return true
		}
	}
	return false
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

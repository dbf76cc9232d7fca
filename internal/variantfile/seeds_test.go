package variantfile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"referee/internal/rules"
)

// The seed games written as file sections, as far as variants.ini can say
// them. Orthodox chess is whole (TestBuildChessPerft and the random games
// below). The wrapped boards' pawns cannot be said (each keeps its own
// direction, a group double-steps from its own rank and both promote on
// the enemy's home rank), nor can Black's castling on rank 8 of 14 (the
// castling rank counts from each side's edge), so those sections have no
// pawns and no castling and are compared on positions of the Go
// implementations' random games with the pawns taken off and the castling
// rights cleared: what is compared is the topology (the referee_ keys),
// every piece's moves across the seams, check and mate. Likewise
// Cuarenta without its Frog (it jumps runs of its own pieces), its Pawn
// (it may not capture a pawn; three promotion zones) and its castling
// (king and camel trade places): its board with holes, the King's moving-
// only vertical step (mvD), the Vao (mBcpB), the Guard (FA) and the Camel.
const seedSections = `
[fchess:chess]

[ftoroidal:chess]
maxRank = 14
pawn = -
castling = false
referee_wrapFiles = true
referee_wrapRanks = true
startFen = 8/8/8/8/8/8/rn2k1nr/8/8/8/8/8/8/RN2K1NR w - - 0 1

[fcylindrical:ftoroidal]
referee_wrapFiles = false

[fklein:ftoroidal]
referee_kleinSeam = 11

[fcuarenta]
maxFile = 9
maxRank = 9
king = k:FmvD
bishop = b
customPiece1 = v:mBcpB
customPiece2 = g:FA
customPiece3 = c:C
castling = false
doubleStep = false
promotionPieceTypes = -
referee_holes = a1 c1 e1 g1 i1 b2 d2 f2 h2 a3 c3 e3 g3 i3 b4 d4 f4 h4 a5 c5 e5 g5 i5 b6 d6 f6 h6 a7 c7 e7 g7 i7 b8 d8 f8 h8 a9 c9 e9 g9 i9
startFen = c2b/vgkgv/4/5/4/5/4/VGKGV/B2C w - - 0 1
`

// withoutPawns writes a position string of a seed game with the letters
// in drop taken off (pawns, down-pawns with their apostrophe, frogs), no
// castling rights and no en passant square.
func withoutPawns(pos string, drop string) string {
	f := strings.Fields(pos)
	rows := strings.Split(f[0], "/")
	for i, row := range rows {
		var cells []byte // one byte a square; 0 empty
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				n := 0
				for ; j < len(row) && row[j] >= '0' && row[j] <= '9'; j++ {
					n = n*10 + int(row[j]-'0')
				}
				j--
				for range n {
					cells = append(cells, 0)
				}
			case c == '\'':
			case strings.IndexByte(drop, c|0x20) >= 0:
				cells = append(cells, 0)
			default:
				cells = append(cells, c)
			}
		}
		var b strings.Builder
		empty := 0
		for _, c := range cells {
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		rows[i] = b.String()
	}
	f[0] = strings.Join(rows, "/")
	f[2], f[3] = "-", "-"
	return strings.Join(f, " ")
}

// coordinates lists the legal moves as from-to-promotion, sorted.
func coordinates(p rules.Position) []string {
	var out []string
	for _, m := range p.Legal() {
		out = append(out, uci(p.Variant().Board(), m))
	}
	slices.Sort(out)
	return out
}

// TestSeedGamesAsFileSections: each seed game as a file section gives the
// same legal moves and perft as its Go implementation, over the positions
// of random games of the Go implementation (for the wrapped boards and
// Cuarenta, with what variants.ini cannot say taken off: see seedSections).
func TestSeedGamesAsFileSections(t *testing.T) {
	f := Parse([]byte(seedSections))
	for _, e := range f.Errors {
		t.Fatal(e)
	}
	for i, tc := range []struct{ seed, section, drop string }{
		{"chess", "fchess", ""},
		{"toroidal", "ftoroidal", "p"},
		{"cylindrical", "fcylindrical", "p"},
		{"klein", "fklein", "p"},
		{"cuarenta", "fcuarenta", "pf"},
	} {
		t.Run(tc.seed, func(t *testing.T) {
			goV, err := rules.Lookup(tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			d, err := f.Lookup(tc.section)
			if err != nil {
				t.Fatal(err)
			}
			fileV, err := Build(d)
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			for _, p := range randomPositions(goV, uint64(i)+200, 400) {
				s := p.String()
				if tc.drop != "" {
					s = withoutPawns(s, tc.drop)
				}
				a, err := goV.ParsePosition(s)
				if err != nil {
					continue // e.g. a king left in check once pawns are gone is not a position
				}
				if a.Result().Over {
					continue // bare kings: the seed's own draw rule
				}
				b, err := fileV.ParsePosition(s)
				if err != nil {
					t.Fatalf("%s: the file variant refuses %s: %v", tc.section, s, err)
				}
				if ma, mb := coordinates(a), coordinates(b); !slices.Equal(ma, mb) {
					t.Errorf("%s: legal moves differ:\n  %s: %v\n  %s: %v", s, tc.seed, ma, tc.section, mb)
					continue
				}
				if pa, pb := rules.Perft(a, 2), rules.Perft(b, 2); pa != pb {
					t.Errorf("%s: perft 2 is %d in %s, %d in %s", s, pa, tc.seed, pb, tc.section)
				}
				compared++
			}
			t.Logf("%d of 400 positions compared", compared)
			if compared < 30 { // most wrapped positions without pawns leave a king attacked across a seam
				t.Errorf("only %d of 400 positions compared", compared)
			}
		})
	}
}

package variantfile

import (
	"errors"
	"strings"
	"testing"

	"referee/internal/rules"
)

func mustBuild(t *testing.T, src, name string) rules.Variant {
	t.Helper()
	v, err := Build(mustDef(t, src, name))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func checkPerft(t *testing.T, v rules.Variant, want ...int64) {
	t.Helper()
	for i, w := range want {
		if got := rules.Perft(v.Start(), i+1); got != w {
			t.Errorf("%s: perft %d = %d, want %d", v.Name(), i+1, got, w)
		}
	}
}

// TestBuildChessPerft: orthodox chess as a file section, inherited and
// written out, plays as chess: 20, 400, 8902.
func TestBuildChessPerft(t *testing.T) {
	src := "[mychess:chess]\n" + explicitChess
	checkPerft(t, mustBuild(t, src, "mychess"), 20, 400, 8902)
	checkPerft(t, mustBuild(t, src, "fullchess"), 20, 400, 8902)
}

// The numbers below are Fairy-Stockfish 11.1's (Debian's fairy-stockfish
// package): setoption name VariantPath, UCI_Variant, go perft N.
const againstFSF = `
[mycapa:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = qrbnac
castlingKingsideFile = i
castlingQueensideFile = c

[mysmall]
maxFile = 6
maxRank = 6
pawn = p
knight = n
rook = r
queen = q
king = k
fers = f
startFen = rnqkfr/pppppp/6/6/PPPPPP/RNQKFR w - - 0 1
castling = false
doubleStep = false
promotionRank = 6
promotionPieceTypes = nrq
`

// TestBuildAgainstFairyStockfish: a 10x8 board with archbishop and
// chancellor, and a 6x6 board with a fers and the 11.1 key promotionRank,
// count as Fairy-Stockfish counts.
func TestBuildAgainstFairyStockfish(t *testing.T) {
	checkPerft(t, mustBuild(t, againstFSF, "mycapa"), 28, 784, 25228)
	checkPerft(t, mustBuild(t, againstFSF, "mysmall"), 8, 64, 660, 6567)
}

// TestBuildVaoAndWrapped: the Vao (mBcpB) and the referee_ keys build.
func TestBuildVaoAndWrapped(t *testing.T) {
	src := `
[vao:chess]
customPiece1 = v:mBcpB
bishop = -
startFen = rnvqkvnr/pppppppp/8/8/8/8/PPPPPPPP/RNVQKVNR w KQkq - 0 1
promotionPieceTypes = qrvn

[torus:chess]
maxRank = 10
referee_wrapFiles = true
referee_wrapRanks = true
startFen = 8/8/8/8/4k3/8/8/8/8/R3K2R w - - 0 1
`
	v := mustBuild(t, src, "vao")
	// At the start a Vao has no move (its diagonals are blocked by pawns,
	// and a capture needs a screen and an enemy beyond): 20 moves.
	checkPerft(t, v, 20)
	if !strings.Contains(v.(rules.VariantRulesText).RulesText(), "captures by hopping along bishop lines") {
		t.Errorf("rules text: %s", v.(rules.VariantRulesText).RulesText())
	}
	w := mustBuild(t, src, "torus")
	if !w.Board().WrapsFiles() || !w.Board().WrapsRanks() {
		t.Error("the torus does not wrap")
	}
	// The rook on a1 reaches the rest of file a (9 squares round the
	// wrapped ranks, stopping before itself) and b1-d1; h1, next to it
	// across the a/h seam, holds its own rook.
	p, err := w.ParsePosition("8/8/8/8/4k3/8/8/8/8/R3K2R w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range p.Legal() {
		if m.From == 0 {
			n++
		}
	}
	if n != 9+3 {
		t.Errorf("the rook on a1 has %d moves on the torus, want 12 (file a, b1-d1)", n)
	}
}

// TestBuildRefusesWhatTheEngineLacks: every reason is said.
func TestBuildRefusesWhatTheEngineLacks(t *testing.T) {
	src := `
[x:chess]
customPiece1 = h:nN
knight = -
startFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1
promotionPieceTypes = qrbh
stalemateValue = loss
`
	_, err := Build(mustDef(t, src, "x"))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want unsupported", err)
	}
	for _, want := range []string{"lame leap", "stalemateValue = loss"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if _, err := Build(mustDef(t, "[zh:crazyhouse]\n", "zh")); err == nil || !strings.Contains(err.Error(), "drops") {
		t.Errorf("crazyhouse: %v", err)
	}
}

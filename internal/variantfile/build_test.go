package variantfile

import (
	"errors"
	"os"
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
customPiece1 = h:gQ
knight = -
startFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1
promotionPieceTypes = qrbh
checking = false
`
	_, err := Build(mustDef(t, src, "x"))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want unsupported", err)
	}
	for _, want := range []string{"grasshopper", "checking = false"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	for src, want := range map[string]string{
		"[x:chess]\ncapturesToHand = true\n":                                                   "capturesToHand = true without pieceDrops",
		"[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1\n": "holds pieces in hand ([Nn]) but pieceDrops is false",
		"[x:crazyhouse]\npawn = -\ncustomPiece1 = p:fmWfcF\n":                                  "",
	} {
		_, err := Build(mustDef(t, src, "x"))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", src, err)
		case want != "" && (!errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	// Drop rules the engine does not play are refused when read.
	f := Parse([]byte("[x:crazyhouse]\ndropLoop = true\n"))
	if _, err := f.Lookup("x"); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "dropLoop") {
		t.Errorf("dropLoop: %v", err)
	}
}

// TestBuildDrops: crazyhouse (the built-in section) and pocket knight
// are played with hands, and count Fairy-Stockfish 11.1's perft; empty
// hands without drops are left out of the position string, as
// Fairy-Stockfish writes it; a start position without brackets has empty
// hands.
func TestBuildDrops(t *testing.T) {
	zh := mustBuild(t, "[zh:crazyhouse]\n", "zh")
	if h, ok := zh.(rules.VariantHands); !ok || !h.HasHands() {
		t.Error("crazyhouse has no hands")
	}
	if s := zh.Start().String(); s != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1" {
		t.Errorf("crazyhouse starts at %s", s)
	}
	checkPerft(t, zh, 20, 400, 8902, 197281)
	if !strings.Contains(zh.(rules.VariantRulesText).RulesText(), "goes to the capturer's hand") {
		t.Errorf("rules text: %s", zh.(rules.VariantRulesText).RulesText())
	}
	pk := mustBuild(t, "[pk:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1\npieceDrops = true\n", "pk")
	checkPerft(t, pk, 52, 2565, 88617) // Fairy-Stockfish 11.1, UCI_Variant pocketknight
	plain := mustBuild(t, "[x:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n", "x")
	if h, ok := plain.(rules.VariantHands); ok && h.HasHands() {
		t.Error("chess with empty brackets has hands")
	}
	if s := plain.Start().String(); s != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("chess with empty brackets starts at %s", s)
	}
	bare := mustBuild(t, "[x:chess]\npieceDrops = true\n", "x")
	if s := bare.Start().String(); s != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1" {
		t.Errorf("drops without brackets start at %s", s)
	}
}

// TestShatranjEndings: the bare-king rule as Fairy-Stockfish 11.1 applies
// it (extinction with claim: the side to move, bare, may still bare the
// other king), and a stalemated side losing.
func TestShatranjEndings(t *testing.T) {
	src, err := os.ReadFile("testdata/fsf.ini")
	if err != nil {
		t.Fatal(err)
	}
	v := mustBuild(t, string(src), "xshatranj")
	for _, tc := range []struct{ fen, want string }{
		{"8/8/8/8/8/3k4/8/R3K3 w - - 0 1", "White wins (bare king)"},  // Black bare, White to move
		{"8/8/8/8/8/3k4/8/R3K3 b - - 0 1", "game in progress"},        // Black to move may still take the rook
		{"8/8/8/8/8/3k4/8/RN2K3 b - - 0 1", "White wins (bare king)"}, // two pieces against it: no rescue
		{"8/8/8/8/8/8/2k5/3R2K1 b - - 0 1", "game in progress"},       // the king takes the rook...
		{"k7/8/K7/8/8/8/8/1R6 b - - 0 1", "White wins (stalemate)"},   // stalemated: Black loses
		{"r3k3/8/8/8/8/8/8/4K3 b - - 0 1", "Black wins (bare king)"},  // White bare, not to move
	} {
		p, err := v.ParsePosition(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		if got := p.Result().String(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.fen, got, tc.want)
		}
	}
	// ...and then both kings are bare: no one wins by it.
	p, _ := v.ParsePosition("8/8/8/8/8/8/2k5/3R2K1 b - - 0 1")
	for _, m := range p.Legal() {
		if v.Board().SquareName(m.To) == "d1" {
			q, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if q.Result().Over && q.Result().Reason == "bare king" {
				t.Errorf("K v K after Kxd1: %s", q.Result())
			}
		}
	}
}

// TestNFoldRule: a file's nFoldRule ends the game at once on that
// occurrence (no claim), with nFoldValue for the side to move, or for
// White with nFoldValueAbsolute.
func TestNFoldRule(t *testing.T) {
	src := `
[three:chess]
[fourloss:chess]
nFoldRule = 4
nFoldValue = loss
[blackwins:chess]
nFoldValue = win
[whitewins:chess]
nFoldValue = win
nFoldValueAbsolute = true
`
	// After 1. e3 the knights shuffle: the position after e3 (Black to
	// move) comes again after plies 5, 9, 13.
	moves := []string{"e2e3", "g8f6", "g1f3", "f6g8", "f3g1"}
	play := func(v rules.Variant, n int) rules.Position {
		p := v.Start()
		for i := range n {
			want := moves[0]
			if i > 0 {
				want = moves[1+(i-1)%4]
			}
			var next rules.Position
			for _, m := range p.Legal() {
				if uci(v.Board(), m) == want {
					next, _ = p.Play(m)
				}
			}
			if next == nil {
				t.Fatalf("%s: ply %d (%s) not legal in %s (%s)", v.Name(), i+1, want, p, p.Result())
			}
			p = next
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		plies int
		want  string
	}{
		{"three", 8, "game in progress"},
		{"three", 9, "draw (threefold repetition)"},
		{"fourloss", 9, "game in progress"},
		{"fourloss", 13, "White wins (fourfold repetition)"}, // Black, to move, loses
		{"blackwins", 9, "Black wins (threefold repetition)"},
		{"whitewins", 9, "White wins (threefold repetition)"}, // White's value, though Black is to move
	} {
		v := mustBuild(t, src, tc.name)
		p := play(v, tc.plies)
		if got := p.Result().String(); got != tc.want {
			t.Errorf("%s after %d plies: %s, want %s", tc.name, tc.plies, got, tc.want)
		}
		if c, ok := p.(interface{ Claimable() string }); ok && !p.Result().Over && c.Claimable() != "" {
			t.Errorf("%s after %d plies: a claim of %s is offered; the rule is automatic", tc.name, tc.plies, c.Claimable())
		}
	}
}

package variantfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"referee/internal/rules"
)

func vecs(pairs ...int8) []rules.Vec {
	var out []rules.Vec
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, rules.Vec{DX: pairs[i], DY: pairs[i+1]})
	}
	return out
}

var (
	orth = vecs(0, 1, 0, -1, 1, 0, -1, 0)
	diag = vecs(1, 1, -1, -1, 1, -1, -1, 1)
	knig = vecs(1, 2, -1, -2, 2, -1, -2, 1, 2, 1, -2, -1, 1, -2, -1, 2)
)

// TestNamedTypesRead: every predefined type of Fairy-Stockfish reads, and
// its words are what a player expects.
func TestNamedTypesRead(t *testing.T) {
	want := map[string]string{
		"knight":     "leaps like a knight",
		"archbishop": "moves and captures like a bishop, and leaps like a knight",
		"chancellor": "moves and captures like a rook, and leaps like a knight",
		"amazon":     "moves and captures like a queen, and leaps like a knight",
		"pawn":       "steps one square forward without capturing, and captures one square diagonally forward; it may capture en passant",
		"cannon":     "moves like a rook without capturing, and captures by hopping along rook lines over one piece of either side onto an enemy on a square beyond it",
		"fers":       "steps one square diagonally",
		"wazir":      "steps one square orthogonally",
		"alfil":      "leaps two squares diagonally",
		"commoner":   "steps like a king",
		"gold":       "steps one square orthogonally, and steps one square diagonally forward",
		"silver":     "steps one square diagonally, and steps one square forward",
		"lance":      "moves and captures any distance forward",
		"soldier":    "steps one square forward or sideways",
		"horse":      "leaps like a knight, unless a piece stands on the square it passes",
		"immobile":   "never moves",
	}
	for _, nt := range NamedTypes() {
		b, err := ParseBetza(nt.Betza)
		if err != nil {
			t.Errorf("%s (%q): %v", nt.Key, nt.Betza, err)
			continue
		}
		if w, ok := want[nt.Key]; ok && b.Words() != w {
			t.Errorf("%s (%q) in words:\n got %q\nwant %q", nt.Key, nt.Betza, b.Words(), w)
		}
	}
}

// TestBetzaPrims: each Betza string becomes the engine primitives with
// the vectors, modes and forward flags Fairy-Stockfish gives the piece.
func TestBetzaPrims(t *testing.T) {
	tests := []struct {
		betza string
		want  []rules.Prim
		gaps  int
	}{
		{"W", []rules.Prim{{Kind: rules.Leap, Vecs: orth, Mode: rules.Both}}, 0},
		{"F", []rules.Prim{{Kind: rules.Leap, Vecs: diag, Mode: rules.Both}}, 0},
		{"N", []rules.Prim{{Kind: rules.Leap, Vecs: knig, Mode: rules.Both}}, 0},
		{"R", []rules.Prim{{Kind: rules.Ride, Vecs: orth, Mode: rules.Both}}, 0},
		{"B", []rules.Prim{{Kind: rules.Ride, Vecs: diag, Mode: rules.Both}}, 0},
		{"NN", []rules.Prim{{Kind: rules.Ride, Vecs: knig, Mode: rules.Both}}, 0},
		{"W4", []rules.Prim{{Kind: rules.Ride, Vecs: orth, Max: 4, Mode: rules.Both}}, 0},
		{"R2", []rules.Prim{{Kind: rules.Ride, Vecs: orth, Max: 2, Mode: rules.Both}}, 0},
		{"D", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(0, 2, 0, -2, 2, 0, -2, 0), Mode: rules.Both}}, 0},
		{"C", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(1, 3, -1, -3, 3, -1, -3, 1, 3, 1, -3, -1, 1, -3, -1, 3), Mode: rules.Both}}, 0},
		{"L", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(1, 3, -1, -3, 3, -1, -3, 1, 3, 1, -3, -1, 1, -3, -1, 3), Mode: rules.Both}}, 0},
		{"fmWfcF", []rules.Prim{
			{Kind: rules.Leap, Vecs: vecs(0, 1), Mode: rules.MoveOnly, Forward: true},
			{Kind: rules.Leap, Vecs: vecs(1, 1, -1, 1), Mode: rules.CaptureOnly, Forward: true},
		}, 0},
		{"fsW", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(0, 1, 1, 0, -1, 0), Mode: rules.Both, Forward: true}}, 0},
		{"fN", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(1, 2, -1, 2), Mode: rules.Both, Forward: true}}, 0},
		{"ffN", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(1, 2, -1, 2), Mode: rules.Both, Forward: true}}, 0},
		{"fsN", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(-2, 1, 2, 1), Mode: rules.Both, Forward: true}}, 0},
		{"vW", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(0, 1, 0, -1), Mode: rules.Both}}, 0},
		{"sR", []rules.Prim{{Kind: rules.Ride, Vecs: vecs(1, 0, -1, 0), Mode: rules.Both}}, 0},
		{"bF", []rules.Prim{{Kind: rules.Leap, Vecs: vecs(-1, -1, 1, -1), Mode: rules.Both, Forward: true}}, 0},
		// The Cuarenta Vao: moves as a bishop, captures over a screen.
		{"mBcpB", []rules.Prim{
			{Kind: rules.Ride, Vecs: diag, Mode: rules.MoveOnly},
			{Kind: rules.Hop, Vecs: diag, Mode: rules.CaptureOnly},
		}, 0},
		// The Xiangqi cannon; the Janggi cannon's quiet hop is a gap.
		{"mRcpR", []rules.Prim{
			{Kind: rules.Ride, Vecs: orth, Mode: rules.MoveOnly},
			{Kind: rules.Hop, Vecs: orth, Mode: rules.CaptureOnly},
		}, 0},
		// The Janggi cannon's kind: over a screen, moving or capturing.
		{"pR", []rules.Prim{{Kind: rules.Hop, Vecs: orth, Mode: rules.Both}}, 0},
		{"mpB", []rules.Prim{{Kind: rules.Hop, Vecs: diag, Mode: rules.MoveOnly}}, 0},
		// Toe-to-Toe's pawn leap over a piece.
		{"mjD", []rules.Prim{{Kind: rules.JumpOver, Vecs: orth, Mode: rules.MoveOnly}}, 0},
		{"fmjD", []rules.Prim{{Kind: rules.JumpOver, Vecs: vecs(0, 1), Mode: rules.MoveOnly, Forward: true}}, 0},
		// The Xiangqi horse: each leap passes the orthogonally adjacent square.
		{"nN", []rules.Prim{{Kind: rules.LameLeap, Vecs: knig, Mode: rules.Both, Paths: [][]rules.Vec{
			{{DX: 0, DY: 1}}, {{DX: 0, DY: -1}}, {{DX: 1, DY: 0}}, {{DX: -1, DY: 0}},
			{{DX: 1, DY: 0}}, {{DX: -1, DY: 0}}, {{DX: 0, DY: -1}}, {{DX: 0, DY: 1}}}}}, 0},
		{"gR", nil, 1},
		{"ifmW", nil, 1},
		{"lW", nil, 1}, // one side only: Black turns it by half a turn
		{"CC", nil, 1}, // rides by steps of three
		{"BN", []rules.Prim{{Kind: rules.Ride, Vecs: diag, Mode: rules.Both}, {Kind: rules.Leap, Vecs: knig, Mode: rules.Both}}, 0},
		{"K", []rules.Prim{{Kind: rules.Leap, Vecs: append(append([]rules.Vec{}, orth...), diag...), Mode: rules.Both}}, 0},
		{"", nil, 0},
	}
	for _, tt := range tests {
		b, err := ParseBetza(tt.betza)
		if err != nil {
			t.Errorf("%q: %v", tt.betza, err)
			continue
		}
		got, gaps := b.Prims()
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q primitives:\n got %+v\nwant %+v", tt.betza, got, tt.want)
		}
		if len(gaps) != tt.gaps {
			t.Errorf("%q: %d gaps %q, want %d", tt.betza, len(gaps), gaps, tt.gaps)
		}
	}
}

// TestBetzaRefused: a malformed or unsupported string is refused with the
// position of the letter at fault, never skipped as Fairy-Stockfish skips.
func TestBetzaRefused(t *testing.T) {
	tests := []struct {
		betza       string
		pos         int
		unsupported bool
		says        string
	}{
		{"mBxB", 3, true, "XBetza"},
		{"fm", 1, false, "not followed by an atom"},
		{"W12", 3, true, "one digit"},
		{"3W", 1, false, "must follow an atom"},
		{"Y", 1, false, "not an atom"},
		{"pN", 2, true, "rook and bishop lines"},
		{"nW", 1, false, "cannot be blocked"},
		{"nR", 1, true, "leapers"},
		{"jN", 1, true, "D or A"},
		{"jR", 1, true, "rider"},
		{"RR", 2, false, "already rides"},
		{"icW", 1, true, "first-move-only"},
		{"pgR", 2, false, "two"},
		{"aW", 1, true, "multi-leg"},
		{"Q?", 2, false, "not a Betza letter"},
		{"hfN", 1, false, "select no move"},
	}
	for _, tt := range tests {
		_, err := ParseBetza(tt.betza)
		var be *BetzaError
		if !errors.As(err, &be) {
			t.Errorf("%q: got %v, want a BetzaError", tt.betza, err)
			continue
		}
		if be.Pos != tt.pos || errors.Is(err, ErrUnsupported) != tt.unsupported || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%q: got position %d, unsupported %v, %q; want position %d, unsupported %v, saying %q",
				tt.betza, be.Pos, errors.Is(err, ErrUnsupported), err, tt.pos, tt.unsupported, tt.says)
		}
	}
	if _, err := ParseBetza(strings.Repeat("W", MaxBetzaBytes+1)); err == nil {
		t.Error("an over-long Betza string was read")
	}
}

// TestLamePath: the squares a lame leap passes, as Fairy-Stockfish walks
// them (the Xiangqi horse, the elephant, the Janggi elephant).
func TestLamePath(t *testing.T) {
	tests := []struct {
		v    rules.Vec
		want []rules.Vec
	}{
		{rules.Vec{DX: 1, DY: 2}, vecs(0, 1)},
		{rules.Vec{DX: -2, DY: 1}, vecs(-1, 0)},
		{rules.Vec{DX: 2, DY: 2}, vecs(1, 1)},
		{rules.Vec{DX: 0, DY: -2}, vecs(0, -1)},
		{rules.Vec{DX: 2, DY: 3}, vecs(0, 1, 1, 2)},
	}
	for _, tt := range tests {
		if got := LamePath(tt.v); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("LamePath(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// TestBetzaNotes: j is read by the referee and ignored by Fairy-Stockfish;
// the difference is said.
func TestBetzaNotes(t *testing.T) {
	b, err := ParseBetza("mjD")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Notes) != 1 || !strings.Contains(b.Notes[0], "ignores the j") {
		t.Errorf("notes %q, want one about j", b.Notes)
	}
}

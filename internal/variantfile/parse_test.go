package variantfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// mustDef parses src and returns the definition of name, failing the test
// when it is refused.
func mustDef(t *testing.T, src, name string) *Definition {
	t.Helper()
	f := Parse([]byte(src))
	for _, e := range f.Errors {
		t.Errorf("file error: %v", e)
	}
	d, err := f.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// refusal parses src and returns the error of section name.
func refusal(t *testing.T, src, name string) error {
	t.Helper()
	f := Parse([]byte(src))
	for _, s := range f.Sections {
		if s.Name == name {
			if s.Err == nil {
				t.Fatalf("[%s] was accepted; want it refused", name)
			}
			return s.Err
		}
	}
	t.Fatalf("no section [%s]", name)
	return nil
}

const explicitChess = `
# Orthodox chess written out, as Fairy-Stockfish's default template needs it.
[fullchess]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
`

// TestChessTwoWays: [mychess:chess] and an explicit section say the same.
func TestChessTwoWays(t *testing.T) {
	src := "[mychess:chess]\n" + explicitChess
	a, b := mustDef(t, src, "mychess"), mustDef(t, src, "fullchess")
	for _, d := range []*Definition{a, b} {
		if d.Width != 8 || d.Height != 8 || len(d.Pieces) != 6 || !d.Castling.Enabled || !d.DoubleStep ||
			d.PromotionPieceTypes != [2]string{"QRBN", "QRBN"} || d.NMoveRule != 50 || d.NFoldRule != 3 ||
			d.Results.CheckmateValue != ValueLoss || d.Results.StalemateValue != ValueDraw {
			t.Errorf("[%s] is not orthodox chess: %+v", d.Name, d)
		}
		if d.PromotionRegion[0].Describe(8, 8) != "rank 8" || d.PromotionRegion[1].Describe(8, 8) != "rank 1" {
			t.Errorf("[%s] promotes on %s / %s, want rank 8 / rank 1", d.Name,
				d.PromotionRegion[0].Describe(8, 8), d.PromotionRegion[1].Describe(8, 8))
		}
		if p := d.Piece('k'); p == nil || !p.Royal {
			t.Errorf("[%s]: the king is not royal", d.Name)
		}
	}
}

// TestUnknownKeyRefused: a key the reader does not know is refused with
// its line and a suggestion, never ignored (Fairy-Stockfish ignores it).
func TestUnknownKeyRefused(t *testing.T) {
	err := refusal(t, "[x:chess]\n\nmaxfile = 10\n", "x")
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "did you mean maxFile?") {
		t.Errorf("got %v; want an unknown-key error on line 3 suggesting maxFile", err)
	}
	err = refusal(t, "[x:chess]\nblastOnCapture = true\n", "x")
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("got %v; want an unsupported-key error on line 2", err)
	}
	err = refusal(t, "[x:chess]\nchess960 = true\n", "x")
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("chess960 = true: got %v, want unsupported", err)
	}
}

// TestValueErrors say what was read and what to write.
func TestValueErrors(t *testing.T) {
	tests := []struct{ line, says string }{
		{"castling = yes", `"yes" is not true or false`},
		{"maxFile = 17", "a to p or a number from 1 to 16"},
		{"maxRank = 0", "from 1 to 16"},
		{"nMoveRule = -1", "whole number"},
		{"stalemateValue = lose", "win, loss, draw or none"},
		{"promotionRegionWhite = *9", "ranks 1 to 8"},
		{"promotionPieceTypes = qx", `'x' is not the letter of a piece`},
		{"knight = 7", "a piece key takes a letter"},
		{"knight = n:NN", "only customPiece1..25 and king take Betza moves"},
		{"customPiece1 = a", "needs its moves in Betza"},
		{"customPiece1 = a:mBxB", "letter 3"},
		{"startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", "7 ranks"},
		{"startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w - - 0 1", "describes 9 squares"},
		{"startFen = xnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", `'x' is not a piece`},
		{"startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1", "write w or b"},
		{"customPiece1 = n:NN", "both knight"},
	}
	for _, tt := range tests {
		err := refusal(t, "[x:chess]\n"+tt.line+"\n", "x")
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: got %q, want it to say %q", tt.line, err, tt.says)
		}
	}
}

// TestInheritance: a child changes what it says and keeps the rest; a
// renamed piece is renamed in the inherited piece sets.
func TestInheritance(t *testing.T) {
	src := `
[base:chess]
nMoveRule = 70
[child:base]
knight = h
startFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1
stalemateValue = loss
`
	d := mustDef(t, src, "child")
	if d.NMoveRule != 70 || d.Results.StalemateValue != ValueLoss || d.PromotionPieceTypes[0] != "QRBH" || d.Piece('h') == nil || d.Piece('n') != nil {
		t.Errorf("child: nMoveRule %d, stalemate %v, promotion %q", d.NMoveRule, d.Results.StalemateValue, d.PromotionPieceTypes[0])
	}
	if b := mustDef(t, src, "base"); b.Results.StalemateValue != ValueDraw {
		t.Error("the child's change leaked into its parent")
	}
	// A parent below its child is read, with a note that Fairy-Stockfish would not.
	d = mustDef(t, "[late:early]\n[early:chess]\n", "late")
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "above") {
		t.Errorf("notes %q, want one about the order", d.Notes)
	}
}

// TestInheritanceCycleAndDepth: a circle is refused naming every line;
// a chain deeper than MaxInheritDepth is refused.
func TestInheritanceCycleAndDepth(t *testing.T) {
	src := "[a:b]\n[b:c]\n[c:a]\n[d:a]\n"
	err := refusal(t, src, "b")
	for _, want := range []string{"circle", "line 1", "line 2", "line 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the circle: %q does not say %q", err, want)
		}
	}
	if err := refusal(t, src, "d"); !strings.Contains(err.Error(), "[d] inherits from [a], which is refused") {
		t.Errorf("[d]: %v", err)
	}
	var b strings.Builder
	b.WriteString("[v0:chess]\n")
	for i := 1; i <= MaxInheritDepth+2; i++ {
		fmt.Fprintf(&b, "[v%d:v%d]\n", i, i-1)
	}
	if err := refusal(t, b.String(), fmt.Sprintf("v%d", MaxInheritDepth+2)); !strings.Contains(err.Error(), "deeper") {
		t.Errorf("a deep chain: %v", err)
	}
	mustDef(t, b.String(), "v3")
}

// TestFileLevel: duplicates, built-in names, text before the first
// section, a missing parent.
func TestFileLevel(t *testing.T) {
	f := Parse([]byte("[x:chess]\n[x:chess]\n"))
	if f.Sections[0].Err != nil || f.Sections[1].Err == nil || !strings.Contains(f.Sections[1].Err.Error(), "first on line 1") {
		t.Errorf("duplicate: %v / %v", f.Sections[0].Err, f.Sections[1].Err)
	}
	if err := refusal(t, "[chess]\npawn = p\n", "chess"); !strings.Contains(err.Error(), "built-in") {
		t.Errorf("[chess]: %v", err)
	}
	f = Parse([]byte("maxFile = 8\n[x:chess]\n"))
	if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Error(), "line 1") {
		t.Errorf("text before the first section: %v", f.Errors)
	}
	if err := refusal(t, "[x:nothere]\n", "x"); !strings.Contains(err.Error(), "neither a section") {
		t.Errorf("missing parent: %v", err)
	}
	if err := refusal(t, "[x:chess]\nmaxFile = 8\nmaxFile = 9\n", "x"); !strings.Contains(err.Error(), "set again (first on line 2)") {
		t.Errorf("a key twice: %v", err)
	}
}

// TestLargeBoardAndOurKeys: a 16×16 wrapped board with holes, and the
// referee_ keys.
func TestLargeBoardAndOurKeys(t *testing.T) {
	src := `
[big:chess]
maxFile = 16
maxRank = p
startFen = 16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 w - - 0 1
castling = false
referee_wrapFiles = true
referee_wrapRanks = true
referee_kleinSeam = 11
referee_holes = a1 p16
`
	err := refusal(t, src, "big") // maxRank takes a number
	if !strings.Contains(err.Error(), `"p" is not a rank`) {
		t.Fatalf("maxRank = p: %v", err)
	}
	src = strings.Replace(src, "maxRank = p", "maxRank = 16", 1)
	src = strings.Replace(src, "startFen = 16/", "startFen = 15/", 1)
	src = strings.Replace(src, "/16 w", "/15 w", 1)
	d := mustDef(t, src, "big")
	if d.Width != 16 || d.Height != 16 || !d.WrapFiles || !d.WrapRanks || d.KleinSeam != 11 || d.Holes.Len() != 2 || !d.Holes.Has(15, 15) {
		t.Errorf("big: %dx%d wrap %v %v seam %d holes %s", d.Width, d.Height, d.WrapFiles, d.WrapRanks, d.KleinSeam, d.Holes.Describe(16, 16))
	}
}

// TestLegacyKeys: Fairy-Stockfish 11.1's promotionRank and doubleStepRank.
func TestLegacyKeys(t *testing.T) {
	d := mustDef(t, "[x:chess]\npromotionRank = 6\ndoubleStepRank = 3\n", "x")
	if got := d.PromotionRegion[0].Describe(8, 8); got != "rank 6, rank 7, rank 8" {
		t.Errorf("White promotes on %s", got)
	}
	if got := d.PromotionRegion[1].Describe(8, 8); got != "rank 1, rank 2, rank 3" {
		t.Errorf("Black promotes on %s", got)
	}
	if got := d.DoubleStepRegion[1].Describe(8, 8); got != "rank 6, rank 7" {
		t.Errorf("Black double-steps from %s", got)
	}
}

// TestBuiltins: each built-in reads, and Shatranj's bare king and
// crazyhouse's drops are there.
func TestBuiltins(t *testing.T) {
	var src strings.Builder
	for _, n := range Builtins() {
		fmt.Fprintf(&src, "[my%s:%s]\n", n, n)
	}
	for _, n := range Builtins() {
		mustDef(t, src.String(), "my"+n)
	}
	s := mustDef(t, src.String(), "myshatranj")
	r := s.Results
	if r.ExtinctionValue != ValueLoss || r.ExtinctionPieceTypes != "*" || r.ExtinctionPieceCount != 1 || r.ExtinctionOpponentPieceCount != 2 || s.Results.StalemateValue != ValueLoss {
		t.Errorf("shatranj results: %+v", r)
	}
	if c := mustDef(t, src.String(), "mycrazyhouse"); !c.PieceDrops || !c.CapturesToHand {
		t.Error("crazyhouse has no drops")
	}
}

// TestHostileFiles: too large, too long a line, not text.
func TestHostileFiles(t *testing.T) {
	f := Parse(make([]byte, MaxFileBytes+1))
	if len(f.Errors) == 0 || len(f.Sections) != 0 {
		t.Error("an over-large file was read")
	}
	f = Parse([]byte("[x:chess]\nstartFen = " + strings.Repeat("8/", MaxLineBytes) + "\n"))
	if f.Sections[0].Err == nil || !strings.Contains(f.Sections[0].Err.Error(), "at most 4096") {
		t.Errorf("a long line: %v", f.Sections[0].Err)
	}
	var many strings.Builder
	many.WriteString("[x:chess]\n")
	for i := 0; many.Len() < MaxFileBytes-100; i++ {
		fmt.Fprintf(&many, "k%d = v\n", i)
	}
	f = Parse([]byte(many.String()))
	if err := f.Sections[0].Err; err == nil || len(err.Error()) > 10000 || !strings.Contains(err.Error(), "more lines") {
		t.Errorf("100000 unknown keys: the error is not short and bounded (%d bytes)", len(fmt.Sprint(err)))
	}
	f = Parse([]byte("[x:chess]\x00\n"))
	if len(f.Errors) == 0 {
		t.Error("a NUL byte was read")
	}
}

// TestSourceDefinesTheSame: a variant's Source, read alone, defines it as
// the whole file does (its in-file parents included, others left out).
func TestSourceDefinesTheSame(t *testing.T) {
	src := `
[other]
maxFile = 5
maxRank = 5
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
castling = false

[capa:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = c

[gothic:capa]
startFen = rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1
`
	f := Parse([]byte(src))
	text, err := f.Source("gothic")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "[other]") || !strings.HasPrefix(text, "[capa:chess]\n") {
		t.Errorf("source:\n%s", text)
	}
	want := mustDef(t, src, "gothic")
	got := mustDef(t, text, "gothic")
	if g, w := strings.Join(got.Describe(), "\n"), strings.Join(want.Describe(), "\n"); g != w {
		t.Errorf("the source defines\n%s\nthe file\n%s", g, w)
	}
	if _, err := f.Source("nosuch"); err == nil {
		t.Error("the source of a variant the file lacks")
	}
}

package variantfile

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/internal/rules"
)

// fsfBinary finds Fairy-Stockfish (Debian installs it in /usr/games, which
// root's PATH leaves out). Without it the test is skipped, except under
// CI=true, where .ci/run installs it and its absence is a failure.
func fsfBinary(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"fairy-stockfish", "/usr/games/fairy-stockfish"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("fairy-stockfish is not installed; under CI=true it must be (apt-get install fairy-stockfish)")
	}
	t.Skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
	return ""
}

// fsfEngine talks UCI to one Fairy-Stockfish process.
type fsfEngine struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func startFSF(t *testing.T, bin, variantPath string) *fsfEngine {
	t.Helper()
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_, _ = io.WriteString(in, "quit\n")
		_ = in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	e := &fsfEngine{t: t, in: in, out: bufio.NewScanner(out)}
	e.out.Buffer(make([]byte, 1<<16), 1<<20)
	e.send("uci")
	e.until("uciok")
	e.send("setoption name VariantPath value " + variantPath)
	return e
}

func (e *fsfEngine) send(line string) {
	e.t.Helper()
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		e.t.Fatalf("fairy-stockfish: %v", err)
	}
}

// until reads lines up to one starting with prefix and returns the lines
// read before it and that line.
func (e *fsfEngine) until(prefix string) ([]string, string) {
	e.t.Helper()
	var lines []string
	for e.out.Scan() {
		l := strings.TrimSpace(e.out.Text())
		if strings.HasPrefix(l, prefix) {
			return lines, l
		}
		lines = append(lines, l)
	}
	e.t.Fatalf("fairy-stockfish ended before %q (read %q): %v", prefix, lines, e.out.Err())
	return nil, ""
}

// perft returns Fairy-Stockfish's count from fen and its divide (the count
// after each move, by the move's UCI text).
func (e *fsfEngine) perft(variant, fen string, depth int) (int64, map[string]int64) {
	e.t.Helper()
	e.send("setoption name UCI_Variant value " + variant)
	e.send("ucinewgame")
	e.send("position fen " + fen)
	e.send("go perft " + strconv.Itoa(depth))
	lines, last := e.until("Nodes searched:")
	n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(last, "Nodes searched:")), 10, 64)
	if err != nil {
		e.t.Fatalf("fairy-stockfish said %q", last)
	}
	div := map[string]int64{}
	for _, l := range lines {
		m, c, ok := strings.Cut(l, ": ")
		if !ok || strings.Contains(m, " ") {
			continue
		}
		if k, err := strconv.ParseInt(c, 10, 64); err == nil {
			div[m] = k
		}
	}
	return n, div
}

// firstDifference follows a move whose counts differ down to the position
// where the two disagree on the legal moves themselves, and says which.
func (e *fsfEngine) firstDifference(variant string, p rules.Position, depth int) string {
	e.t.Helper()
	path := ""
	for ; depth >= 1; depth-- {
		_, theirs := e.perft(variant, p.String(), depth)
		ours := divide(p, depth)
		if depth == 1 || len(ours) != len(theirs) {
			return fmt.Sprintf("after%s, in %s: %s", path, p, diffDivide(ours, theirs))
		}
		var next rules.Position
		for _, m := range p.Legal() {
			if u := uci(p.Variant().Board(), m); ours[u] != theirs[u] {
				n, err := p.Play(m)
				if err != nil {
					panic(err)
				}
				path += " " + u
				next = n
				break
			}
		}
		if next == nil {
			return fmt.Sprintf("after%s, in %s: the same moves and counts", path, p)
		}
		p = next
	}
	return ""
}

// uci writes a move as UCI does: from, to and the promotion letter; castling
// is the king's move; a drop is the piece's letter, @ and the square (P@e4).
func uci(b *rules.Board, m rules.Move) string {
	if m.Kind == rules.Drop {
		return string(m.Piece) + "@" + b.SquareName(m.To)
	}
	s := b.SquareName(m.From) + b.SquareName(m.To)
	if m.Promo != 0 {
		s += strings.ToLower(string(m.Promo))
	}
	return s
}

// divide is the engine's count after each legal move, by UCI text.
func divide(p rules.Position, depth int) map[string]int64 {
	out := map[string]int64{}
	for _, m := range p.Legal() {
		next, err := p.Play(m)
		if err != nil {
			panic(err)
		}
		out[uci(p.Variant().Board(), m)] = rules.Perft(next, depth-1)
	}
	return out
}

// diffDivide says which moves the two divides disagree on.
func diffDivide(ours, theirs map[string]int64) string {
	var d []string
	for m, n := range ours {
		if k, ok := theirs[m]; !ok {
			d = append(d, fmt.Sprintf("%s only here (%d)", m, n))
		} else if k != n {
			d = append(d, fmt.Sprintf("%s %d here, %d there", m, n, k))
		}
	}
	for m, k := range theirs {
		if _, ok := ours[m]; !ok {
			d = append(d, fmt.Sprintf("%s only in Fairy-Stockfish (%d)", m, k))
		}
	}
	slices.Sort(d)
	if len(d) > 12 {
		d = append(d[:12], fmt.Sprintf("and %d more", len(d)-12))
	}
	return strings.Join(d, "; ")
}

// randomPositions plays n random games of 6 to 45 plies from the start
// (fewer when a game ends) and returns where each stopped.
func randomPositions(v rules.Variant, seed uint64, n int) []rules.Position {
	r := rand.New(rand.NewPCG(seed, 43))
	var out []rules.Position
	for range n {
		p := v.Start()
		for range 6 + r.IntN(40) {
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			next, err := p.Play(legal[r.IntN(len(legal))])
			if err != nil {
				panic(err)
			}
			if len(next.Legal()) == 0 {
				break // keep a position with moves to count
			}
			p = next
		}
		out = append(out, p)
	}
	return out
}

// fsfDepth is the depth counted from the start: 4 on small boards, 3 else
// (depth 4 of a 10x8 game is a million positions, too slow under -race).
func fsfDepth(v rules.Variant) int {
	if v.Board().Size() <= 36 {
		return 4
	}
	return 3
}

// fsfPositions are positions counted besides the start and the random
// games, where those seldom go: for the drop variants, a promoted piece
// to capture (it goes to hand as a pawn), drops that block a check or
// cannot, full hands.
var fsfPositions = map[string][]string{
	"xcrazyhouse": {
		"r1Q~1k3/8/8/8/8/8/8/4K3[Pn] b - - 0 1",
		"4k3/8/8/8/8/8/8/r3K3[QRBNPqrbnp] w - - 0 1",
		"4k3/8/8/8/8/8/8/r3K2q[QRBNPqrbnp] w - - 0 1",
		"4k3/8/8/8/8/8/3n4/r3K3[QRBNPqrbnp] w - - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[QRBNPqrbnp] w KQkq - 0 1",
	},
	"xdropzones": {
		"r1Q~1k3/8/8/8/8/8/8/4K3[Pn] b - - 0 1",
		"4k3/8/8/8/8/8/8/r3K3[QRBNPqrbnp] w - - 0 1",
		"4k3/8/8/8/b7/8/8/4K3[QRBNPPPqrbnppp] w - - 0 1",
	},
}

// TestAgainstFairyStockfish: every section of testdata/fsf.ini, read by the
// referee and by Fairy-Stockfish 11.1 from the same file, counts the same
// perft from the start (depth 3, or 4 on small boards), from positions
// of random games (depth 2 and 3) and from fsfPositions (depth 2), move by
// move.
func TestAgainstFairyStockfish(t *testing.T) {
	bin := fsfBinary(t)
	path, err := filepath.Abs("testdata/fsf.ini")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(src)
	for _, e := range f.Errors {
		t.Fatalf("testdata/fsf.ini: %v", e)
	}
	if len(f.Sections) < 20 {
		t.Fatalf("testdata/fsf.ini has %d variants; the issue asks for at least 20", len(f.Sections))
	}
	eng := startFSF(t, bin, path)
	for i, s := range f.Sections {
		t.Run(s.Name, func(t *testing.T) {
			eng.t = t
			d, err := f.Lookup(s.Name)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Build(d)
			if err != nil {
				t.Fatal(err)
			}
			type probe struct {
				pos   rules.Position
				depth int
			}
			probes := []probe{{v.Start(), fsfDepth(v)}}
			for j, p := range randomPositions(v, uint64(i), 4) {
				probes = append(probes, probe{p, 2 + j%2})
			}
			for _, fen := range fsfPositions[s.Name] {
				p, err := v.ParsePosition(fen)
				if err != nil {
					t.Fatalf("%s: %v", fen, err)
				}
				probes = append(probes, probe{p, 2})
			}
			for _, pr := range probes {
				fen := pr.pos.String()
				want, theirs := eng.perft(s.Name, fen, pr.depth)
				got := rules.Perft(pr.pos, pr.depth)
				if got != want {
					t.Errorf("%s, perft %d: %d here, %d in Fairy-Stockfish: %s; first difference: %s",
						fen, pr.depth, got, want, diffDivide(divide(pr.pos, pr.depth), theirs), eng.firstDifference(s.Name, pr.pos, pr.depth))
				}
			}
		})
	}
}

// betzaForm writes a section that inherits from d and gives every named
// piece type (pawn and king aside) again as a custom piece in Betza
// notation, with the same letter; the piece sets that named those types
// are written again by letter.
func betzaForm(d *Definition) (name, src string) {
	name = d.Name + "_betza"
	var b strings.Builder
	fmt.Fprintf(&b, "[%s:%s]\n", name, d.Name)
	n := 0
	for _, p := range d.Pieces {
		switch {
		case p.Key == "king":
			fmt.Fprintf(&b, "king = k:%s\nkingType = k\n", p.Betza.Text)
		case p.Key == "pawn" || strings.HasPrefix(p.Key, "customPiece"):
		default:
			n++
			fmt.Fprintf(&b, "%s = -\ncustomPiece%d = %c:%s\n", p.Key, n, p.Letter|0x20, p.Betza.Text)
		}
	}
	fmt.Fprintf(&b, "promotionPieceTypes = %s\n", strings.ToLower(d.PromotionPieceTypes[0]))
	if d.Castling.Enabled {
		fmt.Fprintf(&b, "castlingRookPieces = %s\n", strings.ToLower(d.Castling.RookPieces[0]))
	}
	return name, b.String()
}

// TestNamedPiecesInBetza: every variant of testdata/fsf.ini, its named
// piece types written again in Betza notation (archbishop as BN, cannon as
// mRcpR, knibis as mNcB, ...), counts the same perft as the named form
// (which TestAgainstFairyStockfish checks against Fairy-Stockfish, whose
// 11.1 release reads no Betza pieces), from the start and from random games.
func TestNamedPiecesInBetza(t *testing.T) {
	src, err := os.ReadFile("testdata/fsf.ini")
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(src)
	for i, s := range f.Sections {
		t.Run(s.Name, func(t *testing.T) {
			d, err := f.Lookup(s.Name)
			if err != nil {
				t.Fatal(err)
			}
			named, err := Build(d)
			if err != nil {
				t.Fatal(err)
			}
			name, extra := betzaForm(d)
			bd := mustDef(t, string(src)+"\n"+extra, name)
			rewritten := 0
			for _, p := range bd.Pieces {
				if strings.HasPrefix(p.Key, "customPiece") {
					rewritten++
				}
			}
			if rewritten == 0 {
				t.Fatalf("nothing was written in Betza:\n%s", extra)
			}
			betza, err := Build(bd)
			if err != nil {
				t.Fatalf("%v\n%s", err, extra)
			}
			for j, p := range append([]rules.Position{named.Start()}, randomPositions(named, uint64(i)+100, 4)...) {
				q, err := betza.ParsePosition(p.String())
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				depth := 2 + j%2
				if got, want := rules.Perft(q, depth), rules.Perft(p, depth); got != want {
					t.Errorf("%s, perft %d: %d in Betza, %d named\n%s", p, depth, got, want, extra)
				}
			}
		})
	}
}

package rules

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// crazyhouseSpec is crazyhouse as a spec: chess with drops and captures to
// hand, the pieces in Fairy-Stockfish's type order (so that hands are
// written from the queen down to the pawn, as it writes them).
func crazyhouseSpec() ChessFamilySpec {
	b := Rect("8x8", 8, 8)
	sq := func(s string) Square { x, _ := b.ParseSquare(s); return x }
	rank := func(r int) []Square {
		var out []Square
		for f := range 8 {
			out = append(out, b.Sq(f, r))
		}
		return out
	}
	return ChessFamilySpec{
		Name: "zh", Title: "Crazyhouse by spec", Board: b,
		Pieces: []*PieceType{chessPawn, chessKnight, chessBishop, chessRook, chessQueen, chessKing},
		Start:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
		Pawn:   'P', DoubleStep: [2][]Square{rank(1), rank(6)}, EnPassant: true,
		Promotion: [2][]Square{rank(7), rank(0)}, PromotionChoices: []byte("QRBN"),
		Castles: []CastleSpec{
			{Color: White, Letter: 'K', KingFrom: sq("e1"), KingTo: sq("g1"), RookFrom: sq("h1"), RookTo: sq("f1")},
			{Color: White, Letter: 'Q', KingFrom: sq("e1"), KingTo: sq("c1"), RookFrom: sq("a1"), RookTo: sq("d1"), Long: true},
			{Color: Black, Letter: 'k', KingFrom: sq("e8"), KingTo: sq("g8"), RookFrom: sq("h8"), RookTo: sq("f8")},
			{Color: Black, Letter: 'q', KingFrom: sq("e8"), KingTo: sq("c8"), RookFrom: sq("a8"), RookTo: sq("d8"), Long: true},
		},
		AutoDrawPlies: 100, Repetition: true,
		Drops: true, CapturesToHand: true,
	}
}

func newSpec(t testing.TB, change func(*ChessFamilySpec)) Variant {
	t.Helper()
	s := crazyhouseSpec()
	if change != nil {
		change(&s)
	}
	v, err := NewChessFamily(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustParse(t testing.TB, v Variant, fen string) Position {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// drops lists the legal drops of p as "N@b1", sorted.
func drops(p Position) []string {
	var out []string
	for _, m := range p.Legal() {
		if m.Kind == Drop {
			out = append(out, string(m.Piece)+"@"+p.Variant().Board().SquareName(m.To))
		}
	}
	slices.Sort(out)
	return out
}

func dropMove(p Position, letter byte, to string) Move {
	s, _ := p.Variant().Board().ParseSquare(to)
	return Move{Kind: Drop, From: NoSquare, To: s, Piece: letter}
}

// TestCrazyhousePerft: from the start crazyhouse counts chess's numbers to
// depth 4 (no piece can be in hand and dropped before ply 5), as
// Fairy-Stockfish 11.1 does; from a position with full hands both perft
// paths (the fast one and the one through Position) agree.
func TestCrazyhousePerft(t *testing.T) {
	v := newSpec(t, nil)
	if h, ok := v.(VariantHands); !ok || !h.HasHands() {
		t.Fatal("crazyhouse has no hands")
	}
	if h, ok := Chess().(VariantHands); ok && h.HasHands() {
		t.Fatal("chess has hands")
	}
	for depth, want := range []int64{1, 20, 400, 8902, 197281} {
		if got := Perft(v.Start(), depth); got != want {
			t.Errorf("perft %d = %d, want %d", depth, got, want)
		}
	}
	for _, fen := range []string{
		// Fairy-Stockfish 11.1: 947982 at depth 3, 16130 at depth 3.
		"4k3/8/8/8/8/8/8/r3K3[QRBNPqrbnp] w - - 0 1",
		"r1Q~1k3/8/8/8/8/8/8/4K3[Pn] b - - 0 1",
	} {
		p := mustParse(t, v, fen)
		if fast, slow := Perft(p, 2), perftAny(p, 2, &stopper{}); fast != slow {
			t.Errorf("%s: perft 2 = %d, %d through Position", fen, fast, slow)
		}
	}
	if got := Perft(mustParse(t, v, "r1Q~1k3/8/8/8/8/8/8/4K3[Pn] b - - 0 1"), 3); got != 16130 {
		t.Errorf("perft 3 with a promoted queen to take = %d, want Fairy-Stockfish's 16130", got)
	}
}

// TestDropInCheck: in check from a rook, a drop may block (between the
// rook and the king) and nowhere else; in double check no drop helps.
func TestDropInCheck(t *testing.T) {
	v := newSpec(t, nil)
	p := mustParse(t, v, "4k3/8/8/8/8/8/8/r3K3[NP] w - - 0 1")
	if got, want := drops(p), []string{"N@b1", "N@c1", "N@d1"}; !slices.Equal(got, want) {
		t.Errorf("drops in check: %v, want %v (a pawn may not go to rank 1)", got, want)
	}
	if _, err := p.Play(dropMove(p, 'N', "e4")); !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), "N@e4") {
		t.Errorf("a drop leaving the king in check: %v", err)
	}
	n, err := p.Play(dropMove(p, 'N', "c1"))
	if err != nil {
		t.Fatal(err)
	}
	if n.String() != "4k3/8/8/8/8/8/8/r1N1K3[P] b - - 1 1" {
		t.Errorf("after N@c1: %s", n)
	}
	double := mustParse(t, v, "4k3/8/8/8/8/3n4/8/r3K3[QRBNPqrbnp] w - - 0 1")
	if d := drops(double); len(d) != 0 {
		t.Errorf("drops in double check: %v", d)
	}
	// Out of check, a drop never exposes the king: every empty square.
	free := mustParse(t, v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
	if d := drops(free); len(d) != 62 {
		t.Errorf("%d knight drops on an empty board, want 62", len(d))
	}
}

// TestPawnDropRanks: a pawn is dropped neither on its first rank nor where
// it promotes, unless FirstRankPawnDrops or PromotionZonePawnDrops say so;
// other pieces go everywhere; a drop region restricts every piece.
func TestPawnDropRanks(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1"
	count := func(v Variant, fen string, letter byte) (n int, ranks map[int]bool) {
		p := mustParse(t, v, fen)
		ranks = map[int]bool{}
		for _, m := range p.Legal() {
			if m.Kind == Drop && m.Piece == letter {
				n++
				ranks[v.Board().Rank(m.To)+1] = true
			}
		}
		return n, ranks
	}
	for _, c := range []struct {
		first, zone bool
		want        int
		ranks       []int
	}{
		{false, false, 48, []int{2, 3, 4, 5, 6, 7}},
		{true, false, 55, []int{1, 2, 3, 4, 5, 6, 7}},
		{false, true, 55, []int{2, 3, 4, 5, 6, 7, 8}},
		{true, true, 62, []int{1, 2, 3, 4, 5, 6, 7, 8}},
	} {
		v := newSpec(t, func(s *ChessFamilySpec) { s.FirstRankPawnDrops, s.PromotionZonePawnDrops = c.first, c.zone })
		for i, side := range []string{fen, strings.Replace(fen, " w ", " b ", 1)} {
			n, ranks := count(v, side, 'P')
			var got []int
			for r := range ranks {
				if i == 1 {
					r = 9 - r // Black's ranks counted from its side
				}
				got = append(got, r)
			}
			slices.Sort(got)
			if n != c.want || !slices.Equal(got, c.ranks) {
				t.Errorf("first rank %v, promotion zone %v, %s: %d pawn drops on ranks %v, want %d on %v", c.first, c.zone, side, n, got, c.want, c.ranks)
			}
		}
	}
	// Black's first rank is rank 8, its promotion zone rank 1.
	v := newSpec(t, func(s *ChessFamilySpec) { s.FirstRankPawnDrops = true })
	if _, ranks := count(v, strings.Replace(fen, " w ", " b ", 1), 'P'); !ranks[8] || ranks[1] {
		t.Errorf("Black's pawn drops with first-rank drops: ranks %v", ranks)
	}
	// A drop region: White on ranks 1 to 3, Black on 6 to 8.
	v = newSpec(t, func(s *ChessFamilySpec) {
		for sq := range Square(64) {
			if sq < 24 {
				s.DropRegion[White] = append(s.DropRegion[White], sq)
			}
			if sq >= 40 {
				s.DropRegion[Black] = append(s.DropRegion[Black], sq)
			}
		}
	})
	if n, ranks := count(v, "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1", 'N'); n != 23 || !ranks[1] || ranks[4] {
		t.Errorf("knight drops in White's region: %d on ranks %v, want 23 on 1-3", n, ranks)
	}
	if n, ranks := count(v, "4k3/8/8/8/8/8/8/4K3[Nn] b - - 0 1", 'N'); n != 23 || !ranks[8] || ranks[5] {
		t.Errorf("knight drops in Black's region: %d on ranks %v, want 23 on 6-8", n, ranks)
	}
}

// TestNoDropChecks: with NoDropChecks a drop may not check; moves may.
func TestNoDropChecks(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K3[Q] w - - 0 1"
	all := drops(mustParse(t, newSpec(t, nil), fen))
	quiet := drops(mustParse(t, newSpec(t, func(s *ChessFamilySpec) { s.NoDropChecks = true }), fen))
	// The queen checks e8 from the e-file, the 8th rank, and the two
	// diagonals through e8 (d7-a4, f7-h5): 6+7+4+3 = 20 squares.
	if len(all) != 61 || len(quiet) != 61-20 {
		t.Errorf("%d queen drops, %d without checks; want 61 and 41", len(all), len(quiet))
	}
	if slices.Contains(quiet, "Q@e2") || !slices.Contains(quiet, "Q@a2") {
		t.Errorf("drops without checks: %v", quiet)
	}
	p := mustParse(t, newSpec(t, func(s *ChessFamilySpec) { s.NoDropChecks = true }), fen)
	if !slices.ContainsFunc(p.Legal(), func(m Move) bool { return m.Kind == Normal && p.Variant().Board().SquareName(m.To) == "a8" }) {
		t.Error("a rook's check is not a drop: Ra8+ must stay legal")
	}
}

// TestCapturesToHand: a captured piece goes to the capturer's hand; a
// promoted one (~) as a pawn; an en passant capture too; a promotion
// marks its piece ~.
func TestCapturesToHand(t *testing.T) {
	v := newSpec(t, nil)
	play := func(fen, move string) Position {
		t.Helper()
		p := mustParse(t, v, fen)
		for _, m := range p.Legal() {
			if v.(*stdRules).coord(m) == move {
				n, err := p.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
		}
		t.Fatalf("%s: %s is not legal", fen, move)
		return nil
	}
	for _, c := range []struct{ fen, move, want string }{
		{"r1Q~1k3/8/8/8/8/8/8/4K3[] b - - 0 1", "a8c8", "2r1k3/8/8/8/8/8/8/4K3[p] w - - 0 2"},
		{"r1Q1k3/8/8/8/8/8/8/4K3[] b - - 0 1", "a8c8", "2r1k3/8/8/8/8/8/8/4K3[q] w - - 0 2"},
		{"4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1", "b7b8q", "1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1"},
		{"1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "a7b8n", "1N~2k3/8/8/8/8/8/8/4K3[R] b - - 0 1"},
		{"4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 1", "e5d6", "4k3/8/3P4/8/8/8/8/4K3[P] b - - 0 1"},
		{"4k3/8/8/8/8/8/8/4K3[QQPpn] w - - 0 1", "Q@d4", "4k3/8/8/8/3Q4/8/8/4K3[QPnp] b - - 1 1"},
		{"4k3/8/8/8/8/8/8/4K3[QQPpn] w - - 7 1", "P@d4", "4k3/8/8/8/3P4/8/8/4K3[QQnp] b - - 0 1"},
	} {
		if got := play(c.fen, c.move).String(); got != c.want {
			t.Errorf("%s, %s: %s, want %s", c.fen, c.move, got, c.want)
		}
	}
	n := play("r1Q~1k3/8/8/8/8/8/8/4K3[] b - - 0 1", "a8c8")
	if h := n.Hand(Black); string(h) != "P" || len(n.Hand(White)) != 0 {
		t.Errorf("hands after taking a promoted queen: %q, %q", n.Hand(White), h)
	}
	// Where captures do not go to hand, a capture is gone and nothing is
	// marked ~.
	pk := newSpec(t, func(s *ChessFamilySpec) {
		s.CapturesToHand = false
		s.Start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1"
	})
	p := mustParse(t, pk, "1r2k3/P7/8/8/8/8/8/4K3[N] w - - 0 1")
	for _, m := range p.Legal() {
		if m.Promo == 'Q' && p.Variant().Board().SquareName(m.To) == "b8" {
			n, _ := p.Play(m)
			if n.String() != "1Q2k3/8/8/8/8/8/8/4K3[N] b - - 0 1" {
				t.Errorf("pocket knight promotion: %s", n)
			}
		}
	}
	if _, err := pk.ParsePosition("1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1"); err == nil {
		t.Error("~ was read in a game whose captures do not go to hand")
	}
}

// TestHandsPositionString: hands and ~ round-trip; hands are written in
// Fairy-Stockfish's order whatever order they were read in; bad hands are
// refused with the reason.
func TestHandsPositionString(t *testing.T) {
	v := newSpec(t, nil)
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
		"r1Q~1k3/8/8/8/8/8/8/4K3[QRRBNPPPqbnnp] b - - 3 20",
		"1q~2k3/8/8/8/8/8/8/1R~2K3[p] w - - 0 9",
	} {
		if got := mustParse(t, v, s).String(); got != s {
			t.Errorf("%s reads back as %s", s, got)
		}
	}
	p := mustParse(t, v, "4k3/8/8/8/8/8/8/4K3[pPQnNq-] w - - 0 1")
	if got := p.String(); got != "4k3/8/8/8/8/8/8/4K3[QNPqnp] w - - 0 1" {
		t.Errorf("hands written %s", got)
	}
	if w, b := string(p.Hand(White)), string(p.Hand(Black)); w != "QNP" || b != "QNP" {
		t.Errorf("Hand: %q, %q", w, b)
	}
	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1":                                   "no hands in brackets",
		"4k3/8/8/8/8/8/8/4K3[X] w - - 0 1":                                `'X' is not a piece`,
		"4k3/8/8/8/8/8/8/4K3[K] w - - 0 1":                                "cannot be held in hand",
		"4k3/8/8/8/8/8/8/4K3[P w - - 0 1":                                 "no hands in brackets",
		"~3k3/8/8/8/8/8/8/4K3[] w - - 0 1":                                "must follow a piece letter",
		"4k3/8/8/8/8/8/8/4K3[" + strings.Repeat("P", 254) + "] w - - 0 1": "more than 255 pieces",
	} {
		if _, err := v.ParsePosition(fen); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: %v, want %q", fen, err, want)
		}
	}
	if _, err := NewChessFamily(func() ChessFamilySpec { s := crazyhouseSpec(); s.Drops = false; return s }()); err == nil {
		t.Error("captures to hand without drops were built")
	}
}

// TestHandsKeys: in random crazyhouse games (biased toward captures and
// toward moving back, so that positions repeat) the incremental key
// equals the recomputed one, and repetition counts what a comparison of
// the position strings (without the clocks) counts over the whole game:
// where captures go to hand a capture does not end the history.
func TestHandsKeys(t *testing.T) {
	v := newSpec(t, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	key := func(p Position) string {
		f := strings.Fields(p.String())
		if p.(*stdPos).zEPTerm() == 0 {
			f[3] = "-" // no capture there is legal: FIDE's repetition ignores it
		}
		return strings.Join(f[:4], " ")
	}
	repeated, games := 0, 12
	if testing.Short() || raceEnabled {
		games = 4
	}
	for g := range games {
		p := v.Start()
		var history []string
		var last [2]Move
		for ply := range 160 {
			sp := p.(*stdPos)
			if sp.zkey != sp.fullKey() {
				t.Fatalf("game %d ply %d %s: incremental key %x, recomputed %x", g, ply, p, sp.zkey, sp.fullKey())
			}
			history = append(history, key(p))
			want := 0
			for i := len(history) - 1; i >= 0; i -= 2 {
				if history[i] == history[len(history)-1] {
					want++
				}
			}
			if got := sp.repetitions(); got != want {
				t.Fatalf("game %d ply %d %s: %d repetitions, the strings say %d", g, ply, p, got, want)
			}
			if want > 1 {
				repeated++
			}
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			for _, x := range legal {
				if back := last[p.Turn()]; rng.IntN(3) > 0 && x.Kind == Normal && back.Kind == Normal && x.From == back.To && x.To == back.From {
					m = x
				} else if rng.IntN(8) == 0 && p.IsCapture(x) {
					m = x
				}
			}
			last[p.Turn()] = m
			n, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			p = n
		}
	}
	if repeated == 0 {
		t.Error("no position repeated: the games test nothing")
	}
}

// TestRepetitionAcrossCaptures: where captures go to hand a capture does
// not end the history repetition looks at (a captured piece may come
// back, and Fairy-Stockfish looks back over the whole game): a cycle of
// two captures and two drops repeats the position, and twice may be
// claimed.
func TestRepetitionAcrossCaptures(t *testing.T) {
	v := newSpec(t, nil)
	const fen = "r7/1k6/8/8/8/8/8/R6K[] w - - 0 1"
	p := mustParse(t, v, fen)
	cycle := []string{"a1a8", "b7a8", "h1g1", "a8a7", "g1h1", "a7b7", "R@a1", "r@a8"}
	for round := 1; round <= 2; round++ {
		for _, mv := range cycle {
			var next Position
			for _, m := range p.Legal() {
				if strings.EqualFold(v.(*stdRules).coord(m), mv) {
					n, err := p.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					next = n
				}
			}
			if next == nil {
				t.Fatalf("round %d: %s is not legal in %s", round, mv, p)
			}
			p = next
		}
		if got := strings.Fields(p.String())[0]; got != "r7/1k6/8/8/8/8/8/R6K[]" {
			t.Fatalf("round %d ends at %s", round, p)
		}
		if n := p.(*stdPos).repetitions(); n != round+1 {
			t.Errorf("after round %d: %d occurrences, want %d", round, n, round+1)
		}
	}
	if c := p.Claimable(); c != "threefold repetition" {
		t.Errorf("claimable: %q", c)
	}
}

// TestWhyNotDrop: an illegal drop is explained in the game's terms.
func TestWhyNotDrop(t *testing.T) {
	v := newSpec(t, func(s *ChessFamilySpec) {
		s.NoDropChecks = true
		for sq := range Square(56) { // White drops on ranks 1 to 7
			s.DropRegion[White] = append(s.DropRegion[White], sq)
		}
	})
	p := mustParse(t, v, "4k3/8/8/8/8/8/8/r3K3[NP] w - - 0 1")
	q := mustParse(t, v, "4k3/8/8/8/8/8/8/4K3[QNP] w - - 0 1")
	for _, c := range []struct {
		pos    Position
		letter byte
		to     string
		want   string
	}{
		{p, 'N', "e4", "you are in check, and a knight on e4 does not block it"},
		{p, 'P', "b1", "a pawn may not be dropped on your first rank"},
		{q, 'P', "a8", "a8 is not a square where you may drop a pawn"},
		{q, 'N', "a8", "a8 is not a square where you may drop a knight"},
		{q, 'Q', "e2", "a drop may not give check in this game"},
		{q, 'Q', "a2", ""},
		{q, 'R', "a2", ""}, // none in hand: the reader says so
		{q, 'Q', "e1", ""}, // occupied: the reader says so
	} {
		m := dropMove(c.pos, c.letter, c.to)
		if got := c.pos.(ActionExplain).WhyNot(m); got != c.want {
			t.Errorf("%s %c@%s: %q, want %q", c.pos, c.letter, c.to, got, c.want)
		}
	}
	promo := mustParse(t, newSpec(t, func(s *ChessFamilySpec) { s.FirstRankPawnDrops = true }), "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
	if got := promo.(ActionExplain).WhyNot(dropMove(promo, 'P', "a8")); got != "a pawn may not be dropped where it would promote (a8)" {
		t.Errorf("a pawn on rank 8: %q", got)
	}
	if got := promo.(ActionExplain).WhyNot(Move{Kind: Normal, From: 12, To: 20}); got != "" {
		t.Errorf("a king's move: %q", got)
	}
}

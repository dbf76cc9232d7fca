package rules

import "testing"

// mustChess reads a FEN of orthodox chess.
func mustChess(t *testing.T, fen string) Position {
	t.Helper()
	p, err := Chess().ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func TestFinishedGameHasNoChildren(t *testing.T) {
	// docs/rules/README.md#checking-an-implementation: a finished position has no children (its perft counts
	// are in testdata/chess.perft, "fool's mate"), so divide lists none.
	mate := mustChess(t, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	if got := Divide(mate, 2); len(got) != 0 {
		t.Errorf("divide of a mated position = %v, want nothing", got)
	}
}

func TestFENRoundTrip(t *testing.T) {
	// docs/rules/chess.md#position-string: reading a position string and writing it back gives the
	// same string (the en passant square is written after every double step).
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"4k3/8/8/8/8/8/8/4K3 b - - 99 150",
	} {
		if got := mustChess(t, fen).String(); got != fen {
			t.Errorf("%s is written back as %s", fen, got)
		}
	}
	if got := playCoords(t, Chess().Start(), "e2e4").String(); got != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Errorf("after e2e4 the FEN is %s, want the e3 square written", got)
	}
}

func TestFENRejected(t *testing.T) {
	for _, tt := range []struct{ rule, fen string }{
		{"six fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"},
		{"eight ranks", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"},
		{"eight squares a rank", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"known pieces", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1"},
		{"side w or b", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"},
		{"one king each", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"},
		{"the side not to move is not in check", "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"},
		{"a move number from 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 0"},
		{"the en passant square exists", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1"},
	} {
		if _, err := Chess().ParsePosition(tt.fen); err == nil {
			t.Errorf("%s: %q was accepted", tt.rule, tt.fen)
		}
	}
}

func TestChessResults(t *testing.T) {
	tests := []struct {
		rule, fen string
		want      Result
		claim     string
	}{
		{"checkmate wins (fool's mate)", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
			Result{Over: true, Winner: Black, Reason: "checkmate"}, ""},
		{"stalemate is a draw", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
			Result{Over: true, Draw: true, Reason: "stalemate"}, ""},
		{"the 50-move rule is a claim at 100 plies", "7k/8/6K1/8/8/8/8/R7 w - - 100 80",
			Result{}, "50-move rule"},
		{"no claim at 99 plies", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", Result{}, ""},
		{"the 75-move rule ends the game at 150 plies", "7k/8/6K1/8/8/8/8/R7 w - - 150 80",
			Result{Over: true, Draw: true, Reason: "75-move rule"}, ""},
		{"a mate on the move reaching the 75-move limit is mate", "7k/6Q1/6K1/8/8/8/8/8 b - - 150 100",
			Result{Over: true, Winner: White, Reason: "checkmate"}, ""},
		{"insufficient material: K v K", "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
			Result{Over: true, Draw: true, Reason: "insufficient material"}, ""},
		{"insufficient material: K+B v K", "8/8/4k3/8/8/3K4/5B2/8 w - - 0 1",
			Result{Over: true, Draw: true, Reason: "insufficient material"}, ""},
		{"insufficient material: K v K+N", "8/8/4k3/8/8/3K4/8/5n2 w - - 0 1",
			Result{Over: true, Draw: true, Reason: "insufficient material"}, ""},
		{"insufficient material: K+B v K+B on one colour (c1 and f4 are dark)", "8/8/4k3/8/5b2/3K4/8/2B5 w - - 0 1",
			Result{Over: true, Draw: true, Reason: "insufficient material"}, ""},
		{"bishops on opposite colours can still mate", "8/8/4k3/8/5b2/3K4/8/3B4 w - - 0 1", Result{}, ""},
		{"K+N v K+N is not one of the four cases", "8/8/4k3/8/5n2/3K4/8/3N4 w - - 0 1", Result{}, ""},
		{"K+B v K+N is not one of the four cases", "8/8/4k3/8/5n2/3K4/8/3B4 w - - 0 1", Result{}, ""},
		{"K+N+N v K is not one of the four cases", "8/8/4k3/8/8/3K4/8/2NN4 w - - 0 1", Result{}, ""},
		{"K+B+B v K on one colour is not one of the four cases", "8/8/4k3/8/8/3K4/4B3/3B4 w - - 0 1", Result{}, ""},
		{"a pawn is mating material", "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", Result{}, ""},
	}
	for _, tt := range tests {
		p := mustChess(t, tt.fen)
		if got := p.Result(); got != tt.want {
			t.Errorf("%s: Result = %+v, want %+v", tt.rule, got, tt.want)
		}
		if got := p.Claimable(); got != tt.claim {
			t.Errorf("%s: Claimable = %q, want %q", tt.rule, got, tt.claim)
		}
		if tt.want.Over && len(p.Legal()) != 0 {
			t.Errorf("%s: a finished game lists moves", tt.rule)
		}
	}
}

func TestRepetition(t *testing.T) {
	// docs/rules/chess.md: threefold repetition may be claimed, fivefold ends the
	// game. Knights out and back: the start recurs every 4 plies.
	shuffle := "g1f3 g8f6 f3g1 f6g8"
	p := Chess().Start()
	for round := 1; round <= 4; round++ {
		p = playCoords(t, p, shuffle)
		occurrences := round + 1
		claim, over := "", false
		if occurrences >= 3 {
			claim = "threefold repetition"
		}
		if occurrences >= 5 {
			claim, over = "", true
		}
		if got := p.Claimable(); got != claim {
			t.Errorf("start position seen %d times: Claimable = %q, want %q", occurrences, got, claim)
		}
		if got := p.Result(); got.Over != over || (over && got.Reason != "fivefold repetition") {
			t.Errorf("start position seen %d times: Result = %+v, want over=%v", occurrences, got, over)
		}
	}
	// Two plies short of the third occurrence there is no claim.
	if got := playCoords(t, Chess().Start(), shuffle+" g1f3 g8f6").Claimable(); got != "" {
		t.Errorf("no position has occurred three times, yet Claimable = %q", got)
	}
}

func TestRepetitionAndEnPassant(t *testing.T) {
	// FIDE (docs/rules/chess.md): the en passant square makes a position different
	// only when a capture there is legal. After 1.e4 no black pawn can take
	// on e3, so the position equals the one after each ...Ng8 Ng1 cycle:
	// three occurrences after two cycles.
	p := playCoords(t, Chess().Start(), "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1")
	if got := p.Claimable(); got != "threefold repetition" {
		t.Errorf("after 1.e4 and two knight cycles Claimable = %q, want threefold repetition", got)
	}
	// After 1.e4 ... d4 2.e5 f5 (e.p. capture possible on f6) the same
	// arrangement later, without the e.p. right, is a different position.
	q := playCoords(t, Chess().Start(), "e2e4 d7d5 e4e5 f7f5 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
	if got := q.Claimable(); got != "" {
		t.Errorf("the first occurrence had a legal e.p. capture, so only two count; Claimable = %q", got)
	}
}

func TestCastlingRules(t *testing.T) {
	// docs/rules/chess.md (FIDE): the king may not castle out of, through or into
	// check; the right is lost when the king or that rook moves or the rook
	// is captured.
	tests := []struct {
		rule, fen string
		want      []string // the king's moves from e1 that are castling
	}{
		{"both ways when free", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"e1c1", "e1g1"}},
		{"not out of check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", nil},
		{"not through an attacked square (f1)", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", []string{"e1c1"}},
		{"not into check (c1)", "r3k2r/8/8/8/8/8/2r5/R3K2R w KQkq - 0 1", []string{"e1g1"}},
		{"b1 may be attacked on the long side", "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", []string{"e1c1", "e1g1"}},
		{"not through a piece (b1)", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", []string{"e1g1"}},
		{"not without the right", "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", []string{"e1g1"}},
	}
	for _, tt := range tests {
		p := mustChess(t, tt.fen)
		var got []string
		for _, m := range p.Legal() {
			if m.Kind == Castle {
				got = append(got, coordOf(p.Variant().Board(), m))
			}
		}
		if !same(sortStrings(got), tt.want) {
			t.Errorf("%s: castling moves %v, want %v", tt.rule, got, tt.want)
		}
	}
	// A rook captured on its square takes the right with it.
	p := playCoords(t, mustChess(t, "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1"), "g2h1")
	if got := p.String(); got != "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2" {
		t.Errorf("after Bxh1 the FEN is %s, want the K right gone", got)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestEnPassantAndPromotion(t *testing.T) {
	// docs/rules/chess.md: e.p. right after a double step, removing the passed
	// pawn; promotion to Q, R, B or N, each a move of its own.
	p := playCoords(t, Chess().Start(), "e2e4 a7a6 e4e5 d7d5 e5d6")
	if got := p.String(); got != "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3" {
		t.Errorf("after exd6 e.p. the FEN is %s", got)
	}
	q := mustChess(t, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if got := movesFrom(q, "b7"); !same(got, []string{"b7b8b", "b7b8n", "b7b8q", "b7b8r"}) {
		t.Errorf("a pawn on b7 has %v, want the four promotions", got)
	}
	// The e.p. capture that would expose the king along the rank is illegal.
	r := mustChess(t, "8/8/8/KPp4r/8/8/8/7k w - c6 0 2")
	if hasMove(r, "b5", "c6") {
		t.Errorf("bxc6 e.p. leaves the king on a5 attacked by the rook on h5, yet it is listed")
	}
}

func TestPositionsAreSafeForConcurrentReaders(t *testing.T) {
	// api.go: positions are immutable values; the referee may read one from
	// several goroutines (run with -race). Cuarenta's Vao and Frog take the
	// attack test's slow path, which must not write to the shared board.
	for _, v := range []Variant{Chess(), Cuarenta(), KleinChess()} {
		p := v.Start()
		done := make(chan int, 4)
		for range 4 {
			go func() {
				n := 0
				for _, m := range p.Legal() {
					c, err := p.Play(m)
					if err != nil {
						t.Error(err)
						break
					}
					n += len(c.Legal())
					_ = c.InCheck()
				}
				_, _, _ = p.Result(), p.Claimable(), p.String()
				done <- n
			}()
		}
		first := <-done
		for range 3 {
			if n := <-done; n != first {
				t.Errorf("%s: concurrent readers counted %d and %d replies", v.Name(), first, n)
			}
		}
		if want := Perft(p, 2); int64(first) != want {
			t.Errorf("%s: readers counted %d replies, perft(2) is %d", v.Name(), first, want)
		}
	}
}

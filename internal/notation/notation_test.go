package notation

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"referee/internal/rules"
)

func pos(t testing.TB, fen string) rules.Position {
	t.Helper()
	v := rules.Chess()
	if fen == "" {
		return v.Start()
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseForms(t *testing.T) {
	// docs/rules/README.md#notation: every accepted form of the same move reads as that move.
	const after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
	tests := []struct {
		fen   string
		in    []string
		coord string
	}{
		{"", []string{"Nf3", "Ng1f3", "Ng1-f3", "g1f3", "g1-f3", "nf3", "NF3", "Nf3!", "Nf3!?", "N g1 f3"[:0] + "Ngf3"}, "g1f3"},
		{"", []string{"e4", "e2e4", "e2-e4", "Pe4", "E4", "e4!"}, "e2e4"},
		{after, []string{"Ke2", "Ke1-e2", "e1e2"}, "e1e2"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a8=Q", "a8Q", "a8(Q)", "a8/Q", "a7a8q", "a7-a8=Q+", "a8=q"}, "a7a8q"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"O-O", "0-0", "o-o", "e1g1", "O-O+"}, "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"O-O-O", "0-0-0", "e1c1"}, "e1c1"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", []string{"exd6", "exd6 e.p.", "e5xd6", "e5d6", "ed6"[:0] + "exd6ep", "e5:d6"}, "e5d6"},
		// A whole origin square names its piece: never the bishop that
		// may take on c3 too, as "bxc3" might (TestParseErrors).
		{"4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", []string{"b2c3", "b2xc3", "b2-c3", "B2C3", "B2XC3"}, "b2c3"},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		for _, in := range tt.in {
			m, err := Parse(p, in)
			if err != nil {
				t.Errorf("Parse(%q): %v", in, err)
				continue
			}
			if got := Coord(p, m); got != tt.coord {
				t.Errorf("Parse(%q) = %s, want %s", in, got, tt.coord)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		fen, in, want string
		candidates    int
	}{
		{"", "Nd2", "your own piece stands there", 0},
		{"", "Bc4", "in the way", 0},
		{"", "Ke2", "own piece", 0},
		{"", "Zf3", "no piece with the letter Z", 0},
		{"", "e9", "not a square", 0},
		{"", "hello", "not a move the referee can read", 0},
		{"", "e2e5", "does not move that way", 0},
		{"", "Kd1d2", "d1 holds your queen, not a king", 0},
		{"", "e7e5", "not yours", 0},
		{"", "e3e4", "no piece on e3", 0},
		{"", "Ng1h3q", "not a promotion", 0},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=K", "K is not a promotion choice there: choose one of Q, R, B, N", 0},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", "ambiguous", 2},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", "ambiguous", 4},
		{"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kd2", "you are in check", 0},
		{"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kf2", "would leave your king in check", 0},
		{"7k/8/8/1b6/8/8/4R3/5K2 w - - 0 1", "Rd2", "leave your king in check", 0},
		{"4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bxc3", "ambiguous", 2}, // docs/rules/README.md#notation: two legal readings: ask
		// The same when one reading is a pawn's capture that promotes:
		// the bishop's capture is not chosen for the player.
		{"2r1k3/1P6/4B3/8/8/8/8/4K3 w - - 0 1", "bxc8", "ambiguous", 5},
		{"2r1k3/1P6/4B3/8/8/8/8/4K3 w - - 0 1", "bc8", "ambiguous", 5},
		{"", "O-O", "castling is not allowed", 0},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		_, err := Parse(p, tt.in)
		var ne *Error
		if !errors.As(err, &ne) {
			t.Errorf("Parse(%q) = %v, want a *notation.Error containing %q", tt.in, err, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || len(ne.Candidates) != tt.candidates || !strings.Contains(err.Error(), tt.in) {
			t.Errorf("Parse(%q) error %q (candidates %v), want it to contain %q with %d candidates", tt.in, err, ne.Candidates, tt.want, tt.candidates)
		}
	}
}

func TestSAN(t *testing.T) {
	tests := []struct{ fen, coord, san string }{
		{"", "g1f3", "Nf3"},
		{"", "e2e4", "e4"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "h1d1", "Rhd1"},
		{"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"4k3/8/8/N1N5/8/8/8/N3K3 w - - 0 1", "a5b3", "Na5b3"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q+"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4", "Qh4#"},
		{"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1f7", "Qf7"}, // stalemate: the game is over, but no "#"
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		m, err := ParseCoord(p, tt.coord)
		if err != nil {
			t.Fatalf("%s: %v", tt.coord, err)
		}
		if got := SAN(p, m); got != tt.san {
			t.Errorf("SAN(%s) = %q, want %q", tt.coord, got, tt.san)
		}
	}
}

// FuzzParse: no input panics, a move read is legal, and in the position
// reached (walk picks each move of a random game from the start) every legal
// move's SAN and coordinate forms read back to the same move (docs/rules/README.md#notation).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "exd5", "a8=Q", "N@b3", "e1<>d1", "K@e1 G@d1", "Nb3⌄", "b2d4^", "reroll", "\x00", "Qh4#", "bxc3"} {
		f.Add(s, []byte{12, 7, 3})
	}
	f.Fuzz(func(t *testing.T, s string, walk []byte) {
		p := rules.Chess().Start()
		for _, c := range walk {
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			n, err := p.Play(legal[int(c)%len(legal)])
			if err != nil {
				t.Fatal(err)
			}
			p = n
		}
		if m, err := Parse(p, s); err == nil {
			if _, err := p.Play(m); err != nil {
				t.Fatalf("Parse(%q) in %s returned an illegal move: %v", s, p, err)
			}
		} else if msg, read := err.Error(), fmt.Sprintf("%q", strings.TrimSpace(s)); !strings.Contains(msg, read) {
			t.Fatalf("the error for %q does not say what was read: %s", s, msg)
		}
		for _, m := range p.Legal() {
			for _, form := range []string{SAN(p, m), Coord(p, m)} {
				if got, err := Parse(p, form); err != nil || got != m {
					t.Fatalf("%s: %q read back as %v, %v", p, form, got, err)
				}
			}
		}
	})
}

func TestRoundTripEveryLegalMove(t *testing.T) {
	for _, fen := range []string{"", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"} {
		p := pos(t, fen)
		for _, m := range p.Legal() {
			for _, form := range []string{SAN(p, m), Coord(p, m)} {
				got, err := Parse(p, form)
				if err != nil || got != m {
					t.Errorf("%s: %q read back as %v, %v", fen, form, got, err)
				}
			}
		}
	}
}

func TestCastlingRefusalNamesTheOneReason(t *testing.T) {
	// docs/rules/chess.md (FIDE 3.8.2): castling needs the right (king and
	// rook unmoved), empty squares between them, and a king not in check
	// that neither passes through nor lands on an attacked square. The
	// refusal names the reason that applies, and no other.
	all := [][]string{{"has moved", "gone for good", "has left"}, {"between your king"}, {"in check"}, {"pass through"}, {"land on"}}
	tests := []struct {
		name, fen, in, want string
	}{
		{"squares occupied", "", "O-O", "your bishop stands on f1 and your knight stands on g1"},
		{"long, one square occupied", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", "but your knight stands on b1"},
		{"the right lost, both back in place", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", "your king or your rook on h1 has moved earlier in the game"},
		{"the rook gone", "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", "O-O", "no piece of yours stands on h1"},
		{"the king gone", "r3k2r/8/8/8/8/8/4K3/R6R w - - 0 1", "O-O", "your king has left e1"},
		{"in check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O", "your king is in check"},
		{"passes through an attacked square", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O", "pass through f1, which Black attacks"},
		{"lands on an attacked square", "r3k2r/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "O-O", "land on g1, which Black attacks"},
	}
	if _, err := Parse(rules.Toto40().Start(), "O-O"); err == nil || !strings.Contains(err.Error(), "there is no castling in Toto40") {
		t.Errorf("O-O in Toto40: %v, want \"there is no castling in Toto40\"", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(pos(t, tt.fen), tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) played", tt.in)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("Parse(%q) = %q, want it to say %q", tt.in, msg, tt.want)
			}
			named := 0
			for _, words := range all {
				for _, w := range words {
					if strings.Contains(msg, w) {
						named++
						break
					}
				}
			}
			if named != 1 {
				t.Errorf("Parse(%q) = %q names %d reasons, want one", tt.in, msg, named)
			}
		})
	}
}

// TestRefusalNamesThePieceMeant: a move that fits no legal move is refused
// with the most telling reason of the pieces that might be meant (see
// explain): the piece on a whole origin square, or the only piece of its
// kind, or a pawn on the target's file, by name; several pieces none of
// which moves that way, together; a piece the player does not have, as
// such, even where the opponent has one.
func TestRefusalNamesThePieceMeant(t *testing.T) {
	const lone = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"         // White: king e1, pawn a7
	const pinned = "2r1k3/8/8/1p6/2P5/P7/8/2K5 w - - 0 1" // White: king c1, pawns a3 and c4; Black: rook c8, pawn b5
	const rooksOnD = "8/r2R3K/8/k7/8/8/3P4/3R4 w - - 0 1" // White: king h7, rooks d7 and d1, pawn d2; Black: rook a7
	tests := []struct{ fen, in, want string }{
		// A whole origin square, on the board's first file and rank.
		{"", "a1a3", "your rook on a1 cannot go to a3: a piece stands in the way"},
		{"", "e1e2", "your king on e1 cannot go to e2: your own piece stands there."},
		{"", "a7a5", "the piece on a7 is not yours."},
		// The only king; the pawn on the target's file; no pawn on it.
		{lone, "Ka1", "your king on e1 cannot go to a1: a king does not move that way."},
		{"", "e5", "your pawn on e2 cannot go to e5: a pawn does not move that way."},
		{lone, "b6", "none of your pawns can go to b6: a pawn does not move that way."},
		{"", "Nd4", "none of your knights can go to d4: a knight does not move that way."},
		// The origin's file alone names the pawns of that file only: the
		// c-pawn, pinned by the rook on c8, is not the a-pawn's reason.
		{pinned, "axb5", "none of your pawns can go to b5: a pawn does not move that way."},
		{pinned, "cxb5", "your pawn on c4 cannot go to b5: it would leave your king in check."},
		// A rank that tells two rooks apart names the rook on it: d1's
		// way is blocked by its pawn, d7 is pinned by the rook on a7.
		{rooksOnD, "R1d4", "your rook on d1 cannot go to d4: a piece stands in the way"},
		{rooksOnD, "R7d4", "your rook on d7 cannot go to d4: it would leave your king in check."},
		// Black's queen is not White's.
		{"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd4", "you have no queen that could make it."},
		// A promotion written on a move that is none, however the origin
		// is given.
		{"", "e4=Q", "that move is not a promotion: write it without the Q."},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6=Q", "that move is not a promotion: write it without the Q."},
		{"4k3/R7/8/R7/8/8/8/4K3 w - - 0 1", "R5a6=Q", "that move is not a promotion: write it without the Q."},
		{"4k3/P7/8/8/8/8/1P6/4K3 w - - 0 1", "b4=Q", "that move is not a promotion: write it without the Q."}, // though a7 may promote
		// The mark of a Chec Toe Wizard or Checker move on an ordinary move.
		{"", "Nc3°", `Nc3 is an ordinary move, not a Wizard move: send it as "Nc3", without the mark after the square.`},
		{"", "e4^", `e4 is an ordinary move, not a Checker move: send it as "e4", without the mark after the square.`},
		// A capture naming the piece taken, not its square.
		{"", "PxN", "no pawn of yours can take a knight now."},
		{"", "NxP", "no knight of yours can take a pawn now."},
		// A drop in a game without hands.
		{"", "N@b3", "you have no N in hand to drop (in hand: nothing)."},
	}
	for _, tt := range tests {
		_, err := Parse(pos(t, tt.fen), tt.in)
		if want := fmt.Sprintf("%q was not played: %s", tt.in, tt.want); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v\nwant: %s", tt.in, err, want)
		}
	}
}

// TestCapsLock: a move typed in capitals reads as it does in lower case
// (docs/rules/README.md#notation: "E4", "G1F3"), at every rank digit: on
// Toto40's twelve ranks "A9" is the pawn's step to a9; on the chess board
// "E9" and "E0" name no square, as "e9" and "e0" do not.
func TestCapsLock(t *testing.T) {
	toto, err := rules.Toto40().ParsePosition("p/1p/2h/3n/P3r/P3k/K3p/R3p/N3/H2/P1/P w - 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pos       rules.Position
		in, want  string
		isRefusal bool
	}{
		{pos(t, ""), "E4", "e4", false},
		{pos(t, ""), "G1F3", "Nf3", false},
		{toto, "A9", "a9", false},
		{toto, "A8A9", "a9", false},
		{pos(t, ""), "E9", `"E9" names e9, which is not a square of this board (files a-h, ranks 1-8)`, true},
		{pos(t, ""), "E0", `"E0" names e0, which is not a square of this board (files a-h, ranks 1-8)`, true},
	} {
		r, err := Read(tt.pos, tt.in)
		switch {
		case tt.isRefusal && (err == nil || err.Error() != tt.want):
			t.Errorf("Read(%q) = %q, %v; want the refusal %s", tt.in, r.Read, err, tt.want)
		case !tt.isRefusal && (err != nil || r.Read != tt.want):
			t.Errorf("Read(%q) = %q, %v; want %s", tt.in, r.Read, err, tt.want)
		}
	}
}

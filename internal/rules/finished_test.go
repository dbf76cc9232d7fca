package rules

import (
	"errors"
	"strings"
	"testing"
)

// probeMove reads a move in coordinate form ("a1a2", "c7c8q", "N@b3",
// "pass") without asking whether it is legal: the finished-game tests
// offer moves the pieces could make were the game still going on.
func probeMove(t *testing.T, b *Board, s string) Move {
	t.Helper()
	if s == "pass" {
		return Move{Kind: Pass, From: NoSquare, To: NoSquare}
	}
	if len(s) > 2 && s[1] == '@' {
		to, ok := b.ParseSquare(s[2:])
		if !ok {
			t.Fatalf("probe %q: no square %q", s, s[2:])
		}
		return Move{Kind: Drop, From: NoSquare, To: to, Piece: s[0]}
	}
	// Two squares, each a file letter and digits, then an optional
	// promotion letter.
	var squares []string
	i := 0
	for i < len(s) && len(squares) < 2 {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		squares = append(squares, s[i:j])
		i = j
	}
	if len(squares) != 2 {
		t.Fatalf("probe %q is not written from-square to-square", s)
	}
	from, ok1 := b.ParseSquare(squares[0])
	to, ok2 := b.ParseSquare(squares[1])
	if !ok1 || !ok2 {
		t.Fatalf("probe %q: %q or %q is not a square", s, squares[0], squares[1])
	}
	m := Move{Kind: Normal, From: from, To: to}
	if i < len(s) {
		m.Promo = s[i] &^ 0x20
	}
	return m
}

func TestFinishedGamesRefuseEveryMove(t *testing.T) {
	// docs/rules/README.md#common-ground-§8: once an automatic ending applies, the game is over in
	// the engine itself: Legal lists nothing, Play refuses every move with
	// an error naming the result, and perft counts no children (§10).
	// Each row reaches the end from a position string (fen, or the start
	// when empty) by the moves of script (die values written d1..d6), and
	// probe is a move the side to act could make by how the pieces move.
	tests := []struct {
		name    string
		variant Variant
		fen     string
		pieces  map[string]string // instead of fen: setup() with rest
		rest    string
		script  string
		reason  string
		probe   string
	}{
		// §3 chess
		{name: "chess: checkmate (fool's mate)", variant: Chess(),
			script: "f2f3 e7e5 g2g4 d8h4", reason: "checkmate", probe: "e2e4"},
		{name: "chess: stalemate", variant: Chess(), fen: "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
			script: "g6h6", reason: "stalemate", probe: "h8g8"},
		{name: "chess: 75-move rule", variant: Chess(), fen: "7k/8/6K1/8/8/8/8/R7 w - - 149 80",
			script: "a1a2", reason: "75-move rule", probe: "h8g8"},
		{name: "chess: fivefold repetition", variant: Chess(),
			script: strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 4), reason: "fivefold repetition", probe: "g1f3"},
		{name: "chess: K+B v K after a capture", variant: Chess(), fen: "8/8/4k3/8/8/3K4/4nB2/8 w - - 0 1",
			script: "d3e2", reason: "insufficient material", probe: "e6e5"},
		{name: "chess: K+B v K+B on one colour", variant: Chess(), fen: "8/8/4k3/8/5b2/3K4/8/2B5 w - - 0 1",
			reason: "insufficient material", probe: "c1d2"},
		// §4 wrapped boards
		{name: "toroidal: 75-move rule", variant: Toroidal(), pieces: map[string]string{"e1": "K", "a3": "R", "e8": "k"},
			rest: "w - - 149 80", script: "a3a4", reason: "75-move rule", probe: "e8f8"},
		{name: "toroidal: fivefold repetition", variant: Toroidal(),
			script: strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 4), reason: "fivefold repetition", probe: "g1f3"},
		{name: "cylindrical: bare kings after a capture", variant: Cylindrical(), pieces: map[string]string{"e1": "K", "e2": "r", "e8": "k"},
			rest: "w - - 0 1", script: "e1e2", reason: "insufficient material", probe: "e8d8"},
		{name: "klein: bare kings", variant: KleinChess(), pieces: map[string]string{"e1": "K", "e8": "k"},
			rest: "b - - 0 1", reason: "insufficient material", probe: "e8d8"},
		{name: "klein: 75-move rule", variant: KleinChess(), pieces: map[string]string{"e1": "K", "a3": "R", "e8": "k"},
			rest: "w - - 149 80", script: "a3a4", reason: "75-move rule", probe: "e8f8"},
		// §5 Cuarenta
		{name: "cuarenta: 80 plies without capture or promotion", variant: Cuarenta(),
			pieces: map[string]string{"e2": "K", "h1": "C", "e8": "k"}, rest: "w - - 79 40",
			script: "h1g4", reason: "40-move rule", probe: "e8d7"},
		{name: "cuarenta: bare kings", variant: Cuarenta(), pieces: map[string]string{"e2": "K", "e8": "k"},
			rest: "w - - 0 1", reason: "insufficient material", probe: "e2d3"},
		// §6 Toto40
		{name: "toto40: king captured", variant: Toto40(), pieces: map[string]string{"c8": "R", "h1": "K", "b9": "k", "a12": "p"},
			rest: "w L 1", script: "c8b9", reason: "White captured Black's king", probe: "a12a11"},
		{name: "toto40: the line left", variant: Toto40(), pieces: map[string]string{"c8": "R", "h1": "K", "a12": "k", "e6": "p"},
			rest: "w L 1", script: "c8c7", reason: "White ended a turn with no piece on the fighting line", probe: "e6d7"},
		// A composed position without kings (a game never reaches one: a
		// captured king ends it), so that only rule 3 applies.
		{name: "toto40: no legal move", variant: Toto40(), pieces: map[string]string{"a9": "P", "a10": "p"},
			rest: "w L 1", reason: "no legal move", probe: "a9a10"},
		// The same pawns with Black's king: White's is gone, so Black
		// captured it (rule 1), read from the string alone.
		{name: "toto40: a string without the mover's king", variant: Toto40(), pieces: map[string]string{"a9": "P", "a10": "k"},
			rest: "w - 1", reason: "Black captured White's king", probe: "a9a10"},
		// §7 Toe-to-Toe
		{name: "toetotoe: checkmate", variant: ToeToToe(), fen: "7k/8/r7/8/8/1r6/8/K7[] b p 0 30",
			script: "a6a3", reason: "checkmate", probe: "a1b1"},
		{name: "toetotoe: bare kings after a capture", variant: ToeToToe(), fen: "4k3/8/8/8/8/8/4n3/4K3[] w p 0 30",
			script: "e1e2", reason: "bare kings", probe: "e8d8"},
		// §8 Chec Toe: White's Toe on rank 1 survives Black's turn.
		{name: "chectoe: a Toe survived", variant: ChecToe(), fen: "4/4/4/PNB1[Rpnbr] w 4 - 1",
			script: "R@d1 d1 pass", reason: "Toe survived", probe: "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Position
			switch {
			case tt.pieces != nil:
				p = setup(t, tt.variant, tt.pieces, tt.rest)
			case tt.fen != "":
				var err error
				if p, err = tt.variant.ParsePosition(tt.fen); err != nil {
					t.Fatal(err)
				}
			default:
				p = tt.variant.Start()
			}
			// The game must end on the script's last action, not before.
			for _, tok := range strings.Fields(tt.script) {
				if res := p.Result(); res.Over {
					t.Fatalf("the game ended (%v) before %s", res, tok)
				}
				p = ct(t, p, tok)
			}
			res := p.Result()
			if !res.Over || !strings.Contains(res.Reason, tt.reason) {
				t.Fatalf("Result = %+v, want the game over by %s (%s)", res, tt.reason, p)
			}
			if got := p.Legal(); len(got) != 0 {
				t.Errorf("the finished game (%v) lists %d moves, e.g. %s", res, len(got), coordOf(p.Variant().Board(), got[0]))
			}
			n, err := p.Play(probeMove(t, p.Variant().Board(), tt.probe))
			if err == nil {
				t.Fatalf("Play(%s) after the end (%v) was accepted: %s", tt.probe, res, n)
			}
			if !errors.Is(err, ErrGameOver) || !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), res.String()) {
				t.Errorf("Play(%s) = %q, want an error wrapping ErrGameOver and ErrIllegal that says %q", tt.probe, err, res.String())
			}
			if got := Perft(p, 1); got != 0 {
				t.Errorf("perft(1) of the finished game = %d, want 0", got)
			}
		})
	}
}

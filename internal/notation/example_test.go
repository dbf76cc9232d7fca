package notation_test

import (
	"fmt"

	"referee/internal/notation"
	"referee/internal/rules"
)

// Parse reads a move however a player writes it (docs/rules/README.md#notation): SAN, long
// and coordinate forms all give the same move, written back canonically.
func ExampleParse() {
	pos := rules.Chess().Start()
	for _, in := range []string{"Nf3", "Ng1-f3", "g1f3", "nf3", "e4", "e2-e4"} {
		m, err := notation.Parse(pos, in)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-7s -> %s (%s)\n", in, notation.SAN(pos, m), notation.Coord(pos, m))
	}
	// Output:
	// Nf3     -> Nf3 (g1f3)
	// Ng1-f3  -> Nf3 (g1f3)
	// g1f3    -> Nf3 (g1f3)
	// nf3     -> Nf3 (g1f3)
	// e4      -> e4 (e2e4)
	// e2-e4   -> e4 (e2e4)
}

// A move that cannot be played is refused with what was read, why, and
// what to send instead.
func ExampleParse_refused() {
	pos := rules.Chess().Start()
	for _, in := range []string{"Nd5", "Bc4", "O-O", "hello"} {
		if _, err := notation.Parse(pos, in); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// "Nd5" was not played: none of your knights can go to d5: a knight does not move that way.
	// "Bc4" was not played: your bishop on f1 cannot go to c4: a piece stands in the way (or that move needs a capture).
	// "O-O" was not played: castling is not allowed now: the squares between your king and your rook must be empty, but your bishop stands on f1 and your knight stands on g1.
	// "hello" is not a move the referee can read: write it like d3 (or "moves" for the list)
}

// In Chec Toe a drop is written N@b3 or with the seed's suffix (Nb3⌄),
// and the die decides which piece may act: after a 2, only the knight.
func ExampleParse_checToe() {
	var pos rules.Position = rules.ChecToe().Start()
	pos, _ = pos.(rules.Roller).Roll(2) // the die names the knight
	for _, in := range []string{"N@b3", "Nb3⌄", "P@a1"} {
		m, err := notation.Parse(pos, in)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-5s -> %s\n", in, notation.SAN(pos, m))
	}
	// Output:
	// N@b3  -> N@b3
	// Nb3⌄  -> N@b3
	// "P@a1" was not played: the die shows 2: only a knight may move or be dropped this turn. Legal now: N@ on any empty square (e.g. N@a1), reroll, pass.
}

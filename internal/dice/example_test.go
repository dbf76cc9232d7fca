package dice_test

import (
	"fmt"

	"referee/internal/dice"
)

// A player checks a finished game's die: every roll recomputed from the
// revealed seed, the seed against the commitment mailed at the start, and
// the referee's signature on every roll.
func ExampleVerify() {
	seed, _ := dice.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	key, _ := dice.NewKey()
	rec := dice.Record{GameID: "17", Commitment: seed.Commitment(), PublicKey: key.Public(), Seed: &seed}
	for n := 1; n <= 3; n++ {
		v := dice.Roll(seed, "17", n)
		rec.Rolls = append(rec.Rolls, dice.RolledValue{N: n, Value: v, Sig: key.Sign("17", n, v)})
	}
	fmt.Println(dice.Verify(rec).OK())

	// A referee that changed roll 2 after the fact is caught.
	rec.Rolls[1].Value = rec.Rolls[1].Value%6 + 1
	fmt.Println(dice.Verify(rec).OK())
	// Output:
	// true
	// false
}

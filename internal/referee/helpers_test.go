package referee

import "testing"

// textOf is what a mail says: a board mail's text part as package letters
// writes it, or a plain-text mail's body. Core tests check the mail's
// fields and words, never MIME bytes.
func textOf(t testing.TB, m Mail) string {
	t.Helper()
	if m.Board != nil {
		return m.Board.Text()
	}
	return m.Text
}

// testSeed is docs/dice.md's worked-example seed, the bytes 0..31, as a
// challenge's colour seed.
const testSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

package referee

import "testing"

// textOf is what a mail says: a board mail's text part as package letters
// writes it, or a plain-text mail's body. Core tests check the mail's
// fields and words, never MIME bytes.
func textOf(t *testing.T, m Mail) string {
	t.Helper()
	if m.Board != nil {
		return m.Board.Text()
	}
	return m.Text
}

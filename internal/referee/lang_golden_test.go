package referee

import (
	"testing"
	"time"

	"referee/internal/lang"
	"referee/internal/notation"
	"referee/internal/rules"
)

// TestGoldenMailsPerLanguage (issue 42): one timed chess game of an
// event per language, White reading that language and Black the next
// one, so that each player of one game gets mails in their own language:
// the board mails after 1. e4 (White's confirmation, Black's turn), the
// refusal of an illegal queen move written in White's letters (its
// reason and how the letter was read in White's language too), and
// White's confirmation of a knight's move written in their letters, with
// how it was read. The record in each mail is in its reader's letters.
func TestGoldenMailsPerLanguage(t *testing.T) {
	codes := lang.Codes()[1:] // every language but English
	monday := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for i, code := range codes {
		t.Run(code, func(t *testing.T) {
			r, g := seasonGame(t)
			other := codes[(i+1)%len(codes)]
			g.Players[rules.White].Language = code
			g.Players[rules.Black].Language = other
			in := func(san string) string { return notation.WriteIn(g.Variant, san, code) }
			var mails []Mail
			step := func(c rules.Color, line string, want Verdict, at time.Time) {
				t.Helper()
				out := actAt(t, r, g, c, line, at)
				if out.Verdict != want {
					t.Fatalf("%s: %v %s", line, out.Verdict, out.Detail)
				}
				mails = append(mails, out.Mails...)
			}
			step(rules.White, "e4", Applied, monday)
			step(rules.Black, "e5", Applied, monday.Add(time.Hour))
			mails = mails[:len(mails)-2] // Black's move: White's mail of it is like the first
			step(rules.White, in("Qd5"), Rejected, monday.Add(2*time.Hour))
			knight := in("Nf3")
			if code == "nl" {
				knight = in("Ng1-f3") // "Pf3" is also the English pawn's f3: the referee asks
			}
			step(rules.White, knight, Applied, monday.Add(3*time.Hour))
			mails = mails[:len(mails)-1] // White's own confirmation, not Black's mail
			mailGolden(t, "lang-"+code, mails...)
		})
	}
}

package referee

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestAcceptAnswersOnlyWhatIsPending (issue 37): "accept" and "accept
// draw" agree to what the opponent offered or asked, and to nothing else:
// with nothing of theirs pending they are refused to the sender alone,
// saying why, and never become a draw offer of the sender's own.
func TestAcceptAnswersOnlyWhatIsPending(t *testing.T) {
	for _, tt := range []struct {
		name    string
		setup   []string // White's, then Black's lines before Black's answer
		line    string
		verdict Verdict
		result  string // "" while the game goes on
		says    string
	}{
		{"accept, nothing pending", []string{"e4"}, "accept", Rejected, "", "nothing to accept: your opponent has offered no draw"},
		{"accept draw, nothing pending", []string{"e4"}, "accept draw", Rejected, "", "nothing to accept: your opponent has offered no draw"},
		{"accept, a draw offered", []string{"e4 draw"}, "accept", Applied, "1/2-1/2", ""},
		{"accept draw, a draw offered", []string{"e4 draw"}, "accept draw", Applied, "1/2-1/2", ""},
		{"accept draw, a takeback asked", []string{"e4", "takeback"}, "accept draw", Rejected, "", "no draw offer to accept: your opponent asked to take back"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			for _, l := range tt.setup {
				if out := act(t, r, g, rules.White, l); out.Verdict != Applied {
					t.Fatalf("setup %q: %s %s", l, out.Verdict, out.Detail)
				}
			}
			out := act(t, r, g, rules.Black, tt.line)
			if out.Verdict != tt.verdict || g.Result != tt.result {
				t.Fatalf("%q: %s (%s), result %q; want %s, result %q", tt.line, out.Verdict, out.Detail, g.Result, tt.verdict, tt.result)
			}
			if tt.verdict == Rejected {
				if g.DrawOffer != nil || len(out.Mails) != 1 || out.Mails[0].To != g.Players[rules.Black].Address {
					t.Fatalf("refused %q: draw offer %+v, %d mails; want no offer and one answer to Black", tt.line, g.DrawOffer, len(out.Mails))
				}
				if text := norm(textOf(t, out.Mails[0])); !strings.Contains(text, tt.says) {
					t.Errorf("the answer does not say %q:\n%s", tt.says, text)
				}
			}
		})
	}
}

package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

func TestReplyToAMailTheRefereeNoLongerHas(t *testing.T) {
	// The reply token carries how many actions the player had seen. Fewer
	// than the game's: the game moved on. More: the mail was sent after
	// the backup the referee's database was restored from, so the
	// referee does not have the position it showed; the refusal says so
	// and shows the board the referee has (never "-2 have been played").
	tests := []struct {
		name      string
		seen      int
		want      []string
		forbidden []string
	}{
		{"after a restore", 4, []string{"restored from a backup", "does not have the position you answered",
			"showed game #5 after 4 actions", "ends after 2 actions", "the last 2 actions", "sent again"}, []string{"-2", "older mail"}},
		{"one move behind", 1, []string{"older mail", "after 1 action;", "1 has been played since"}, []string{"backup"}},
		{"two moves behind", 0, []string{"older mail", "2 have been played since"}, []string{"backup"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			act(t, r, g, rules.White, "e4")
			act(t, r, g, rules.Black, "e5")
			m := &reader.Mail{From: g.Players[0].Address, MessageID: "<late@x>", Action: "Nf3",
				Token: &reader.Token{GameID: g.ID, Secret: g.Players[0].Secret, Ply: tt.seen}}
			out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
			if out.Verdict != Rejected || out.Game != nil || len(out.Mails) != 1 {
				t.Fatalf("verdict %v, game changed %v, %d mails", out.Verdict, out.Game != nil, len(out.Mails))
			}
			mail := out.Mails[0]
			text := strings.Join(strings.Fields(textOf(t, mail)), " ")
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("the refusal lacks %q:\n%s", w, textOf(t, mail))
				}
			}
			for _, w := range tt.forbidden {
				if strings.Contains(text, w) {
					t.Errorf("the refusal says %q:\n%s", w, textOf(t, mail))
				}
			}
			// The board shown is the referee's current one (after e4 e5).
			if mail.Board == nil || mail.Board.Pos == nil || mail.Board.Pos.String() != g.Actions[1].Position {
				t.Errorf("the refusal does not show the current board")
			}
		})
	}
}

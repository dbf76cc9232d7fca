package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestLastRefusalBeforeTheLimitSaysSo: issue 33, "silence after the
// refusal limit". After MaxGameRefusalsPerHour (3) refusals in an hour a
// player's further refusals in that game go unanswered; the third says so,
// with the time the limit lifts (an hour after the oldest of the three),
// and a legal move is answered whatever the count.
func TestLastRefusalBeforeTheLimitSaysSo(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)
	send := func(r *Referee, g *Game, action string, env Env) Outcome {
		m := &reader.Mail{From: g.Players[0].Address, MessageID: "<x@x>", Action: action,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[0].Secret, Ply: g.Ply()}}
		env.Now = now
		return r.Handle(Inbound{Mail: m}, g, env)
	}
	const notice = "further mails in this game that cannot be played get no answer"
	tests := []struct {
		name    string
		action  string
		env     Env
		verdict Verdict
		want    string // in the mail to the player; "" for none
		notWant string
	}{
		{name: "first refusal: no notice", action: "c5", env: Env{},
			verdict: Rejected, notWant: notice},
		{name: "second refusal: no notice", action: "c5", env: Env{GameRefusals: 1, OldestGameRefusal: now.Add(-30 * time.Minute)},
			verdict: Rejected, notWant: notice},
		{name: "third refusal: until an hour after the oldest", action: "c5",
			env:     Env{GameRefusals: 2, OldestGameRefusal: now.Add(-20 * time.Minute)},
			verdict: Rejected, want: "until Wed 25 Nov 14:40 UTC, " + notice},
		{name: "third refusal: seconds round up to the next minute", action: "c5",
			env:     Env{GameRefusals: 2, OldestGameRefusal: now.Add(-20*time.Minute + 10*time.Second)},
			verdict: Rejected, want: "until Wed 25 Nov 14:41 UTC"},
		{name: "over the limit: silence", action: "c5", env: Env{GameRefusals: 3, OldestGameRefusal: now.Add(-50 * time.Minute)},
			verdict: Ignored},
		{name: "over the limit: a legal move is played and answered", action: "e4",
			env: Env{GameRefusals: 3, OldestGameRefusal: now.Add(-50 * time.Minute)}, verdict: Applied, want: "White played e4."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			out := send(r, g, tt.action, tt.env)
			if out.Verdict != tt.verdict {
				t.Fatalf("verdict %v, want %v (%s)", out.Verdict, tt.verdict, out.Detail)
			}
			if tt.verdict == Ignored {
				if len(out.Mails) != 0 {
					t.Errorf("%d mails over the limit", len(out.Mails))
				}
				return
			}
			if len(out.Mails) == 0 {
				t.Fatal("no mail")
			}
			text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " ")
			if tt.want != "" && !strings.Contains(text, tt.want) {
				t.Errorf("the mail lacks %q:\n%s", tt.want, text)
			}
			if tt.notWant != "" && strings.Contains(text, tt.notWant) {
				t.Errorf("the mail says %q too early:\n%s", tt.notWant, text)
			}
		})
	}
}

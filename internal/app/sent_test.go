package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/letters"
	"referee/internal/referee"
	"referee/internal/rules"
)

// TestRelayKnowsWhatTheRefereeSent: a reply quotes the referee's mail under
// a quote header in a language and shape no list holds, quoted with ">"
// marks or not at all. The referee knows what it sent: the lines of its
// own mail (the one the reply's In-Reply-To names) and the header directly
// above them are not relayed to the opponent; the player's own words are
// (issue 36).
func TestRelayKnowsWhatTheRefereeSent(t *testing.T) {
	for _, quoted := range []bool{false, true} {
		t.Run(fmt.Sprintf("quote marks %v", quoted), func(t *testing.T) {
			ctx := context.Background()
			a := openTest(t)
			g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
			if err != nil {
				t.Fatal(err)
			}
			if p, err := a.Process(ctx, moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:00:00 +0000", "e4"), 7, 1); err != nil || p.Verdict != referee.Applied {
				t.Fatalf("e4: %+v, %v", p, err)
			}
			// The referee's "your move" mail to Bob, as Bob's client shows it.
			out, err := a.st.Outbox(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var toBob *referee.Mail
			for _, o := range out {
				if o.To == "bob@example.org" {
					m, err := letters.Decode(o.Data)
					if err != nil {
						t.Fatal(err)
					}
					toBob = &m
				}
			}
			if toBob == nil || toBob.Board == nil {
				t.Fatal("no board mail to bob")
			}
			var quote []string
			for _, l := range strings.Split(toBob.Board.Text(), "\n") {
				if quoted {
					l = "> " + l
				}
				quote = append(quote, l)
			}
			g, _ = a.Game(ctx, g.ID)
			body := "e5\nNice opening.\nSee you tomorrow.\n\nKohtunik kirjutas pühapäeval kell kümme\n\n" + strings.Join(quote, "\n")
			raw := fmt.Appendf(nil, "From: bob@example.org\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <b1@example.org>\r\nIn-Reply-To: %s\r\n"+
				"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", a.Referee().ReplyAddress(g, rules.Black), toBob.MessageID,
				strings.ReplaceAll(body, "\n", "\r\n"))
			if p, err := a.Process(ctx, raw, 7, 2); err != nil || p.Verdict != referee.Applied {
				t.Fatalf("e5: %+v, %v", p, err)
			}
			g, _ = a.Game(ctx, g.ID)
			if got := g.Actions[1].Message; got != "Nice opening.\nSee you tomorrow." {
				t.Errorf("relayed %q, want only Bob's own words", got)
			}
		})
	}
}

package referee

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/rules"
)

// condTree returns n conditional lines of plies plies each, legal from
// pos (the opponent to move): the opponent's moves differ from line to
// line, the answers are a function of the position (picked by a hash of
// the position string), so that no two lines answer one move differently.
func condTree(t *testing.T, pos rules.Position, n, plies int) []string {
	t.Helper()
	sans := func(p rules.Position) []string {
		var out []string
		for _, m := range p.Legal() {
			out = append(out, notation.SAN(p, m))
		}
		sort.Strings(out)
		return out
	}
	pick := func(p rules.Position, legal []string) string {
		h := fnv.New32a()
		h.Write([]byte(p.String()))
		return legal[int(h.Sum32()%uint32(len(legal)))]
	}
	var lines []string
next:
	for k := 0; len(lines) < n; k++ {
		if k > 10*n {
			t.Fatalf("only %d lines of %d plies", len(lines), plies)
		}
		p := pos
		var b strings.Builder
		for ply := 0; ply < plies; ply++ {
			legal := sans(p)
			if len(legal) == 0 || p.Result().Over {
				continue next
			}
			san := pick(p, legal)
			switch ply {
			case 0:
				san = legal[k%len(legal)]
			case 2:
				san = legal[(k/len(sans(pos)))%len(legal)]
			}
			if ply%2 == 0 {
				b.WriteString("if ")
			}
			b.WriteString(san + " ")
			rd, err := notation.Read(p, san)
			if err != nil {
				t.Fatal(err)
			}
			if p, err = p.Play(rd.Move); err != nil {
				t.Fatal(err)
			}
		}
		lines = append(lines, strings.TrimSpace(b.String()))
	}
	return lines
}

// readMail reads a raw mail of alice's in game g as the daemon does.
func readMail(t *testing.T, g *Game, c rules.Color, body string) *reader.Mail {
	t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: referee+%d.%s.%d@example.test\r\nSubject: Re: [chess #%d]\r\nMessage-ID: <r%d@example.org>\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s", g.Players[c].Address, g.ID, g.Players[c].Secret, g.Ply(), g.ID, g.Ply(),
		strings.ReplaceAll(body, "\n", "\r\n"))
	m, err := reader.Read([]byte(raw), "referee@example.test", reader.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestConditionalLinesFromTheWholeMail: a valid tree of 30 lines of 30
// plies (the caps) is 4,000 characters and more. Every line is read, none
// is relayed; the message below them is (issue 36: the message was cut at
// 2,000 characters first, so 12 lines were kept, the rest dropped without a
// word and the cut line relayed). One line more is refused whole, as
// before.
func TestConditionalLinesFromTheWholeMail(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	pos, _ := g.Position()
	rd, _ := notation.Read(pos, "e4")
	after, _ := pos.Play(rd.Move)
	lines := condTree(t, after, MaxCondLines+1, MaxCondPlies)
	body := "e4\nHi Bob,\n" + strings.Join(lines[:MaxCondLines], "\n") + "\nGood luck with the Sicilian.\n"
	if len(body) < 4000 {
		t.Fatalf("the tree is only %d characters", len(body))
	}
	m := readMail(t, g, rules.White, body)
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	if out.Verdict != Applied || out.Game == nil {
		t.Fatalf("e4 with 30 lines: %s (%s)", out.Verdict, out.Detail)
	}
	if tr := out.Game.State.Cond.Trees[rules.White]; tr == nil || len(tr.Lines) != MaxCondLines {
		t.Fatalf("tree %+v, want %d lines", tr, MaxCondLines)
	}
	toBob := mailTo(t, out, g.Players[1].Address)
	if strings.Contains(toBob, "if ") || strings.Contains(toBob, "[...]") || !strings.Contains(toBob, "Good luck with the Sicilian.") || !strings.Contains(toBob, "Hi Bob,") {
		t.Errorf("bob's mail relays a line of the tree, or loses the message:\n%s", toBob)
	}

	r, g = newGame(t, rules.Chess())
	m = readMail(t, g, rules.White, "e4\n"+strings.Join(lines, "\n")+"\nGood luck.\n")
	out = r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	if out.Verdict == Applied || !strings.Contains(out.Detail, "31 conditional lines, and at most 30") {
		t.Fatalf("31 lines: %s (%s), want the move and the lines refused", out.Verdict, out.Detail)
	}
}

// TestRelayHoldsNothingOfTheReferees: whatever the reader let through, the
// message relayed to the opponent is cut before a line with the referee's
// address or a reply address of it, a game reference, a Message-ID of the
// referee's or a player's secret (issue 36: a client that quotes the
// reply address would hand the player's secret to the opponent).
func TestRelayHoldsNothingOfTheReferees(t *testing.T) {
	tests := []struct{ name, message, want string }{
		{"plain words", "good luck\nsee you", "good luck\nsee you"},
		{"reply address in an unknown quote header", "good luck\nKlient napisał do referee+5.aaaaaaaaaa.3@example.test\nGame", "good luck"},
		{"the referee's address", "good luck\nReferee <referee@example.test>\nGame", "good luck"},
		{"upper case", "good luck\nREFEREE+5.AAAAAAAAAA.3@EXAMPLE.TEST", "good luck"},
		{"a Message-ID of the referee's", "thanks\nIn reply to <5.aaaaaaaaaa.3.0a1b2c3d@example.test>", "thanks"},
		{"a bare game reference", "thanks\nref 5.aaaaaaaaaa.3", "thanks"},
		{"the mover's secret alone", "thanks\nmy code is aaaaaaaaaa", "thanks"},
		{"another game's reply address", "thanks\nreferee+9.k3fux2ab7q.1@example.test", "thanks"},
		{"an address of the same domain that is not the referee's", "write to bob@example.org", "write to bob@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			out := actMsg(t, r, g, rules.White, "e4", tt.message, -1)
			if out.Verdict != Applied {
				t.Fatalf("%s (%s)", out.Verdict, out.Detail)
			}
			var relay string
			for _, ml := range out.Mails {
				if ml.To == g.Players[1].Address && ml.Board != nil {
					relay = ml.Board.Relay
				}
			}
			if relay != tt.want {
				t.Errorf("relayed %q, want %q", relay, tt.want)
			}
			if a := g.Actions[len(g.Actions)-1].Message; a != tt.want {
				t.Errorf("the action keeps the message %q, want %q", a, tt.want)
			}
		})
	}
}

// TestTwoFromFieldsNotActedOn: a mail with two From fields (RFC 5322
// allows one) is not acted on, even with the player's valid reply address
// and the player's address in the first one (issue 36: the first was used).
func TestTwoFromFieldsNotActedOn(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	raw := fmt.Sprintf("From: %s\r\nFrom: mallory@evil.example\r\nTo: referee+%d.%s.0@example.test\r\nSubject: x\r\n\r\ne4\r\n",
		g.Players[0].Address, g.ID, g.Players[0].Secret)
	m, err := reader.Read([]byte(raw), "referee@example.test", reader.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	if out.Verdict != Ignored || out.Game != nil || len(out.Mails) != 0 || !strings.Contains(out.Detail, "2 From header fields") {
		t.Fatalf("%s (%s), %d mails; want it ignored", out.Verdict, out.Detail, len(out.Mails))
	}
}

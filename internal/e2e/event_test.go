package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 29 through the real servers: a 4-player round robin created with
// "referee event new --open 4", filled by "join" mails, its six games
// started at once by the fourth join, each played to its end by mail (the
// player later in the list resigns), and the final crosstable mailed to
// every player.
func TestRoundRobinByMail(t *testing.T) {
	t.Parallel()
	eachBackend(t, testRoundRobinByMail)
}

var gameTag = regexp.MustCompile(`^\[chess #(\d+)\]`)

func testRoundRobinByMail(t *testing.T, e *env) {
	ps := []*player{{addr: "alice@example.test"}, {addr: "bob@example.test"}, {addr: "carol@example.test"}, {addr: "dave@example.test"}} // the test servers' accounts
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	out, err := exec.Command(bin, "event", "new", "spring", "--db", db, "--variant", "chess", "--format", "rr", "--open", "4",
		"--entry", "open").CombinedOutput()
	if err != nil {
		t.Fatalf("referee event new: %v\n%s", err, out)
	}
	e.startServe(t, bin, db, e.mail.smtpAddr())

	for _, p := range ps[:3] {
		e.joinProved(t, p, "spring")
		if m := e.waitMail(t, p, 1, mailWait)[0]; m.subject != "You joined spring" {
			t.Fatalf("%s's answer to join is %q:\n%s", p.addr, m.subject, m.text)
		}
	}
	e.mailTo(t, ps[3], referee, "join", "join spring")
	ps[3].last = only(t, ps[3].addr, e.waitMail(t, ps[3], 1, mailWait), "Confirm your entry to spring")
	start := time.Now()
	e.send(t, ps[3], "join spring")
	// Each: the listing and three openings; the last to join also the
	// answer to the join.
	reply := map[string]map[string]string{} // player -> game id -> reply address
	for i, p := range ps {
		n := 4
		if i == 3 {
			n = 5
		}
		ms := e.waitMail(t, p, n, mailWait)
		reply[p.addr] = map[string]string{}
		listing := only(t, p.addr, ms, "The event has started")
		if c := strings.Count(listing.text, "reply to: referee+"); c != 3 {
			t.Errorf("%s's listing has %d games, want 3:\n%s", p.addr, c, listing.text)
		}
		for _, m := range ms {
			if g := gameTag.FindStringSubmatch(m.subject); g != nil {
				reply[p.addr][g[1]] = m.replyTo
				mustContain(t, p.addr+"'s listing", listing.text, "game #"+g[1])
			}
		}
		if len(reply[p.addr]) != 3 {
			t.Fatalf("%s got %d opening mails, want 3:%s", p.addr, len(reply[p.addr]), describe(ms))
		}
	}
	t.Logf("the fourth join: 17 mails in %v", time.Since(start).Round(time.Millisecond))

	final := map[string]*received{}
	for g := 1; g <= 6; g++ {
		id := fmt.Sprint(g)
		var two []*player
		for _, p := range ps {
			if _, ok := reply[p.addr][id]; ok {
				two = append(two, p)
			}
		}
		if len(two) != 2 {
			t.Fatalf("game #%s has %d players", id, len(two))
		}
		loser := two[1] // the later one in ps resigns
		e.mailTo(t, loser, reply[loser.addr][id], "resign", "resign")
		e.waitMail(t, loser, 1, mailWait)
		e.mailTo(t, loser, reply[loser.addr][id], "confirm", "confirm")
		n := 1
		if g == 6 {
			n = 2 // and the final crosstable
		}
		for _, p := range two {
			if ms := e.waitMail(t, p, n, mailWait); g == 6 {
				final[p.addr] = only(t, p.addr, ms, "Final crosstable")
			}
		}
	}
	for _, p := range ps {
		if final[p.addr] == nil {
			final[p.addr] = only(t, p.addr, e.waitMail(t, p, 1, mailWait), "Final crosstable")
		}
		mustContain(t, p.addr+"'s final crosstable", final[p.addr].text, "The winner of spring is alice@example.test", "Pts", "dave@example.test")
	}
	e.quiet(t, db, ps...)
}

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// joinProved sends "join NAME" from p, as an address the referee has not
// seen: the referee asks the address to prove itself (issue 38), and p
// replies to that request with "join NAME", as its owner would.
func (e *env) joinProved(t testing.TB, p *player, name string) {
	t.Helper()
	e.mailTo(t, p, referee, "join", "join "+name)
	p.last = only(t, p.addr, e.waitMail(t, p, 1, mailWait), "Confirm your entry to "+name)
	mustContain(t, "the request for proof", p.last.text, `reply to it with "join `+name+`" on the first line`)
	if !strings.HasPrefix(p.last.replyTo, "referee+c") {
		t.Fatalf("the request for proof replies to %q, want a proof token in the plus-address", p.last.replyTo)
	}
	e.send(t, p, "join "+name)
}

// TestOpenEntryFlood (issue 38), through the embedded servers and the
// real ones: under --entry open, forged joins in the names of four
// players used to fill an event and start its games, mailing everyone
// the listings and openings. Now each forged address gets one mail, the
// request to prove it, and nothing starts; the one who replies joins.
func TestOpenEntryFlood(t *testing.T) {
	t.Parallel()
	eachBackend(t, testOpenEntryFlood)
}

func testOpenEntryFlood(t *testing.T, e *env) {
	ps := []*player{{addr: "alice@example.test"}, {addr: "bob@example.test"}, {addr: "carol@example.test"}, {addr: "dave@example.test"}}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	out, err := exec.Command(bin, "event", "new", "flood", "--db", db, "--variant", "chess", "--format", "rr", "--open", "4",
		"--entry", "open").CombinedOutput()
	if err != nil {
		t.Fatalf("referee event new: %v\n%s", err, out)
	}
	e.startServe(t, bin, db, e.mail.smtpAddr())

	mallory := &player{addr: "mallory@example.test"}
	for _, p := range ps {
		// The forger writes the victim's address in From.
		e.mailTo(t, &player{addr: p.addr}, referee, "join", "join flood")
	}
	for _, p := range ps {
		p.last = only(t, p.addr, e.waitMail(t, p, 1, mailWait), "Confirm your entry to flood")
		mustContain(t, p.addr+"'s request for proof", p.last.text, "received a request to enter flood",
			"If you did not ask for this, ignore this mail: nothing happens, and you are not entered.")
	}
	e.quiet(t, db, append(ps, mallory)...)
	show := func() string {
		t.Helper()
		out, err := exec.Command(bin, "event", "show", "flood", "--db", db).CombinedOutput()
		if err != nil {
			t.Fatalf("referee event show: %v\n%s", err, out)
		}
		return string(out)
	}
	if s := show(); !strings.Contains(s, "4 places left of 4") || strings.Contains(s, "alice@") {
		t.Fatalf("after four forged joins the event shows:\n%s", s)
	}
	// Alice did want to play: her reply to the request enters her.
	e.send(t, ps[0], "join flood")
	only(t, ps[0].addr, e.waitMail(t, ps[0], 1, mailWait), "You joined flood")
	e.quiet(t, db, append(ps, mallory)...)
	if s := show(); !strings.Contains(s, "3 places left of 4") || !strings.Contains(s, "alice@example.test") || strings.Contains(s, "bob@") {
		t.Errorf("after alice's proof the event shows:\n%s", s)
	}
}

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Spectators by mail (issue 31), through the real servers: dave, who never
// played here, observes a game shown one move late under `serve
// --observers open`, by a mail to the referee's plain address; her mails
// carry the board a move late and no reply address; "unobserve" ends them.

func TestObserveByMail(t *testing.T) {
	t.Parallel()
	eachBackend(t, testObserveByMail)
}

func testObserveByMail(t *testing.T, e *env) {
	alice, bob, dave := &player{addr: "alice@example.test"}, &player{addr: "bob@example.test"}, &player{addr: "dave@example.test"}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	if out, err := exec.Command(bin, "new", "--db", db, "--address", referee, "--variant", "chess", "--white", alice.addr, "--black", bob.addr,
		"--watch-delay", "1").CombinedOutput(); err != nil {
		t.Fatalf("referee new: %v\n%s", err, out)
	}
	e.startServe(t, bin, db, e.mail.smtpAddr(), "--observers", "open")
	alice.last = e.waitMail(t, alice, 1, mailWait)[0]
	bob.last = e.waitMail(t, bob, 1, mailWait)[0]

	e.mailTo(t, dave, referee, "follow", "observe 1")
	first := e.waitMail(t, dave, 1, mailWait)[0]
	if !strings.Contains(first.subject, "[chess #1]") || first.replyTo != "" {
		t.Errorf("dave's first mail: subject %q, Reply-To %q; want a spectator mail of game #1 with no reply address", first.subject, first.replyTo)
	}
	mustContain(t, "dave's first mail", first.text, "You now observe game #1", "shown 1 move late", `send "unobserve 1"`)
	if strings.Contains(first.text, alice.addr) || strings.Contains(first.text, bob.addr) {
		t.Errorf("the spectator mail names a player's address:\n%s", first.text)
	}

	// e4: nothing for dave yet (one move late); e5: dave sees e4.
	e.send(t, alice, "e4")
	alice.last = e.waitMail(t, alice, 1, mailWait)[0]
	bob.last = e.waitMail(t, bob, 1, mailWait)[0]
	e.quiet(t, db, dave)
	e.send(t, bob, "e5")
	alice.last = e.waitMail(t, alice, 1, mailWait)[0]
	bob.last = e.waitMail(t, bob, 1, mailWait)[0]
	late := e.waitMail(t, dave, 1, mailWait)[0]
	mustContain(t, "dave's mail after e5", late.text, "White played e4. This game is shown 1 move late.")
	if strings.Contains(late.text, "e5") {
		t.Errorf("dave's mail after e5 names e5:\n%s", late.text)
	}

	// Bob asks who observes; dave stops.
	e.send(t, bob, "observers")
	bob.last = e.waitMail(t, bob, 1, mailWait)[0]
	mustContain(t, "bob's answer to observers", bob.last.text, "1 spectator observes this game", dave.addr)
	e.mailTo(t, dave, referee, "stop", "unobserve 1")
	mustContain(t, "dave's answer to unobserve", e.waitMail(t, dave, 1, mailWait)[0].text, "You will get no more mails about game #1")
	e.send(t, alice, "Nf3")
	e.waitMail(t, alice, 1, mailWait)
	e.waitMail(t, bob, 1, mailWait)
	e.quiet(t, db, dave)
}

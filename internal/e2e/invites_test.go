package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestForgedChallengersOneVictim (issue 28, "no one is mailed without
// limit"), through the embedded servers and the real ones: under --players open, challenges to
// dave from 10 forged senders put 3 invitations into his mailbox (the cap
// per invited address, from anyone); his "stop" in a reply to one stops
// the rest, and the organiser's "referee player list" shows it.
func TestForgedChallengersOneVictim(t *testing.T) {
	t.Parallel()
	eachBackend(t, testForgedChallengersOneVictim)
}

// testForgedChallengersOneVictim is TestForgedChallengersOneVictim on one
// mail system.
func testForgedChallengersOneVictim(t *testing.T, e *env) {
	dave := &player{addr: "dave@example.test"}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	e.startServe(t, bin, db, e.mail.smtpAddr(), "--players", "open", "--variants", "chess")

	for i := range 10 {
		forger := &player{addr: fmt.Sprintf("forged%d@evil.test", i)}
		e.mailTo(t, forger, referee, "a game?", "challenge chess "+dave.addr)
	}
	invitations := e.waitMail(t, dave, 3, mailWait)
	for _, inv := range invitations {
		mustContain(t, "an invitation", inv.text, "invites you to a game of Chess", `reply "stop"`)
	}
	e.quiet(t, db, dave) // the other 7 are refused to their senders

	dave.last = invitations[len(invitations)-1]
	e.send(t, dave, "stop")
	ack := e.waitMail(t, dave, 1, mailWait)[0]
	mustContain(t, "the answer to stop", ack.text, "will pass on no more invitations to dave@example.test, from anyone",
		`send "start" to referee@example.test`)

	// A day's cap does not matter any more: a new forged challenger is refused.
	e.mailTo(t, &player{addr: "forged99@evil.test"}, referee, "a game?", "challenge chess "+dave.addr)
	e.quiet(t, db, dave)

	out, err := exec.Command(bin, "player", "--db", db, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("referee player list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "stopped") || !strings.Contains(string(out), dave.addr) {
		t.Errorf("referee player list does not show dave's stop:\n%s", out)
	}
}

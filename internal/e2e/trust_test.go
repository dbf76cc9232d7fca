package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

// Trust holes, each reproduced through the real servers. DESIGN.md, "Mail
// protocol" and "Never lose, never double, never loop", says what must hold.

// TestForgedFromWithLeakedToken: a subject with a game's token leaks (a
// forward, a notification, a screenshot); Mallory copies it into a mail of
// her own with From set to Alice's address and sends it to the referee's
// plain address, with no In-Reply-To. The token counts only from the
// recipient address or a referenced Message-ID of the referee, never from
// the subject: the game must not change, and nobody may be told a move was
// played.
func TestForgedFromWithLeakedToken(t *testing.T) {
	t.Parallel()
	eachBackend(t, testForgedFromWithLeakedToken)
}

// testForgedFromWithLeakedToken is TestForgedFromWithLeakedToken on one mail system.
func testForgedFromWithLeakedToken(t *testing.T, e *env) {
	alice, bob, db, id := chessGame(t)
	r := e.runReferee(t, db, false)
	e.waitBoth(t, alice, bob)

	// The leak, modelled explicitly so that the test keeps its meaning
	// whether or not the referee's own subjects carry the token: Alice's
	// token (from the Reply-To of a real referee mail) in a subject.
	subject := fmt.Sprintf("Re: [chess #%d] Your move (ref:%s)", id, tokenOf(t, alice.last.replyTo))
	raw := fmt.Sprintf("From: Alice <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <forged-%d@attacker.test>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ne4\r\n",
		alice.addr, referee, subject, time.Now().UnixNano(), time.Now().Format(time.RFC1123Z))
	e.sendRaw(t, "mallory@example.test", referee, raw)
	e.waitRefereeDone(t, 1, 20*time.Second)
	e.handled(t, db, alice, bob) // whatever the referee queued is delivered now

	g, err := r.app.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != 0 {
		t.Errorf("a forged From with the token in the subject moved the game: %d action(s), first %s", len(g.Actions), g.Actions[0].SAN)
	}
	gotA, gotB := e.drain(t, alice.addr), e.drain(t, bob.addr)
	for _, m := range gotA {
		if strings.Contains(m.text, "played e4") {
			t.Errorf("Alice was told the forged move was played: %q", m.subject)
		}
	}
	if len(gotB) != 0 {
		t.Errorf("Bob received %d mail(s) after the forged move:%s", len(gotB), describe(gotB))
	}
	t.Logf("after the forged mail Alice received %d mail(s):%s", len(gotA), describe(gotA))
}

// TestMailboxRebuild: a move is played and taken back by agreement, then
// the referee's INBOX is rebuilt as a provider migration does: a new
// UIDVALIDITY, every old mail added again without flags, among them the
// move, which has no Message-ID. Nothing may be applied twice: the move
// taken back must not come back, and nobody is mailed again.
func TestMailboxRebuild(t *testing.T) {
	t.Parallel()
	eachBackend(t, testMailboxRebuild)
}

// testMailboxRebuild is TestMailboxRebuild on one mail system.
func testMailboxRebuild(t *testing.T, e *env) {
	alice, bob, db, id := chessGame(t)
	r := e.runReferee(t, db, false)
	e.waitBoth(t, alice, bob)

	// Alice's client writes no Message-ID, and this Postfix adds none (as
	// an MX does for mail from outside).
	raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nIn-Reply-To: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ne4\r\n",
		alice.addr, alice.last.replyTo, alice.last.subject, alice.last.messageID, time.Now().Format(time.RFC1123Z))
	e.sendRaw(t, alice.addr, alice.last.replyTo, raw)
	e.waitBoth(t, alice, bob)
	e.send(t, alice, "takeback")
	e.waitBoth(t, alice, bob)
	e.send(t, bob, "accept")
	e.waitBoth(t, alice, bob)
	if g, err := r.app.Game(context.Background(), id); err != nil || len(g.Actions) != 0 || !strings.Contains(bob.last.text, "taken back") {
		t.Fatalf("the takeback did not happen: %v, game %+v, Bob's last mail %q", err, g, bob.last.subject)
	}
	e.waitRefereeDone(t, 3, 20*time.Second)
	r.stop()

	msgs, oldValidity := e.mailboxContents(t, referee)
	if len(msgs) != 3 {
		t.Fatalf("the referee's INBOX holds %d messages, want 3 (move, takeback, accept)", len(msgs))
	}
	if mid := headerOf(msgs[0].raw, "Message-ID"); mid != "" || !strings.Contains(string(msgs[0].raw), "\ne4") {
		t.Fatalf("the first mail should be the move e4 without Message-ID; it has Message-ID %q:\n%s", mid, msgs[0].raw)
	}
	newValidity := e.rebuildMailbox(t, referee, msgs)
	if newValidity == oldValidity {
		t.Fatalf("the rebuilt INBOX kept UIDVALIDITY %d", oldValidity)
	}
	t.Logf("INBOX rebuilt: UIDVALIDITY %d -> %d, %d messages without flags", oldValidity, newValidity, len(msgs))

	r = e.runReferee(t, db, false)
	e.waitRefereeDone(t, 3, 20*time.Second)
	e.handled(t, db, alice, bob) // whatever the referee queued is delivered now
	g, err := r.app.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != 0 {
		t.Errorf("after the rebuild the game has %d action(s) (first %s); the move taken back came back", len(g.Actions), g.Actions[0].SAN)
	}
	if g.State.TakebackBy != nil {
		t.Errorf("after the rebuild a takeback by %v is pending again", *g.State.TakebackBy)
	}
	for _, p := range []*player{alice, bob} {
		if got := e.drain(t, p.addr); len(got) != 0 {
			t.Errorf("after the rebuild %s received %d mail(s) about mail already answered:%s", p.addr, len(got), describe(got))
		}
	}
}

// TestOutOfOfficeBotLoop: Alice's out-of-office bot answers every mail she
// receives, to its Reply-To, keeping the subject, with no Auto-Submitted
// header. The referee must not keep refusing it: at most 3 refusals per
// game and player in an hour, and never the same refusal twice in a row.
// The bot runs for at most 20 rounds or 60 s, and stops once the referee
// has handled every answer of the bot and sent Alice nothing new (its own
// record: the inbound outcomes and the outbox, see handled).
func TestOutOfOfficeBotLoop(t *testing.T) {
	t.Parallel()
	eachBackend(t, testOutOfOfficeBotLoop)
}

// testOutOfOfficeBotLoop is TestOutOfOfficeBotLoop on one mail system.
func testOutOfOfficeBotLoop(t *testing.T, e *env) {
	alice, bob, db, _ := chessGame(t)
	e.runReferee(t, db, false)
	e.waitMail(t, bob, 1, 20*time.Second)

	const (
		maxRounds  = 20
		maxTime    = 60 * time.Second
		maxRefusal = 3
	)
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var all, refusals []*received
	start := time.Now()
	rounds := 0
	for rounds < maxRounds && time.Since(start) < maxTime {
		// Asked before the drain: when the referee had handled every
		// answer of the bot and Alice's INBOX held all it sent her, a
		// drain that then finds nothing new means the loop is over.
		done, _ := e.handledNow(t, st, alice)
		got := e.drain(t, alice.addr)
		if len(got) == 0 {
			if done {
				break
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		rounds++
		for _, m := range got {
			all = append(all, m)
			if strings.Contains(m.subject, "Not played") {
				refusals = append(refusals, m)
			}
			to := m.replyTo
			if to == "" {
				to = referee
			}
			raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <ooo-%d-%d@example.test>\r\nIn-Reply-To: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nI am out of the office until 3 December, with no access to my mail.\r\nYour message will be read when I return.\r\n",
				alice.addr, to, m.subject, time.Now().UnixNano(), e.seq.Add(1), m.messageID, time.Now().Format(time.RFC1123Z))
			e.sendRaw(t, alice.addr, to, raw)
		}
	}
	elapsed := time.Since(start).Round(time.Second)
	t.Logf("the bot answered for %v (%d rounds): the referee sent Alice %d mail(s), %d refusal(s)", elapsed, rounds, len(all), len(refusals))
	if len(refusals) > maxRefusal {
		t.Errorf("the referee sent the out-of-office bot %d refusals in %v (%.1f a minute); want at most %d per game and player an hour",
			len(refusals), elapsed, float64(len(refusals))/max(elapsed.Minutes(), 1.0/60), maxRefusal)
	}
	for i := 1; i < len(refusals); i++ {
		if refusalKey(refusals[i]) == refusalKey(refusals[i-1]) {
			t.Errorf("refusal %d repeats refusal %d word for word: %q / %s", i+1, i, refusals[i].subject, firstLine(refusals[i].text))
			break
		}
	}
	if len(all) > 1+maxRefusal {
		t.Errorf("the referee sent the bot %d mails in all:%s", len(all), describe(all[:min(len(all), 6)]))
	}
}

// refusalKey is what makes two refusals the same: the subject (without the
// token, which changes nothing) and the first line of the text.
func refusalKey(m *received) string {
	return refTag.ReplaceAllString(strings.TrimPrefix(m.subject, "Re: "), "") + "\n" + firstLine(m.text)
}

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

// A test that asserts an absence ("Bob got no mail") first waits for the
// referee's own record that it is done: every mail the test sent it has
// an outcome in the database, nothing is left in its outbox, and every
// mail the outbox sent each player is in that player's INBOX. What is not
// there then was never sent: no pause has to be long enough.

// toReferee reports whether addr is the referee's address or a
// plus-address of it.
func toReferee(addr string) bool {
	local, domain, _ := strings.Cut(strings.Trim(addr, "<>"), "@")
	base, _, _ := strings.Cut(local, "+")
	return base+"@"+domain == referee
}

// handledNow reports whether the referee of st has handled every mail the
// test sent it and delivered every mail it queued, and whether each of ps
// has received all the mail the outbox sent them; what it is still
// waiting for, when not.
func (e *env) handledNow(t testing.TB, st *store.Store, ps ...*player) (bool, string) {
	t.Helper()
	ctx := context.Background()
	counts, err := st.InboundCount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for outcome, n := range counts {
		if outcome != "pending" {
			recorded += n
		}
	}
	if sent := int(e.toReferee.Load()); recorded < sent {
		return false, fmt.Sprintf("the referee has recorded an outcome for %d of the %d mails sent to it", recorded, sent)
	}
	if n, err := st.PendingOutbox(ctx); err != nil {
		t.Fatal(err)
	} else if n > 0 {
		return false, fmt.Sprintf("%d mails wait in the referee's outbox", n)
	}
	out, err := st.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		want := 0
		for _, o := range out {
			if o.Sent != nil && strings.EqualFold(o.To, p.addr) {
				want++
			}
		}
		c, sel := e.imapLogin(t, p.addr, false)
		c.Close()
		if int(sel.NumMessages) < want {
			return false, fmt.Sprintf("%s's INBOX holds %d of the %d mails the referee sent there", p.addr, sel.NumMessages, want)
		}
	}
	return true, ""
}

// handled waits until the referee of the database db is done (see
// handledNow) with everything the test sent it, for each of ps.
func (e *env) handled(t testing.TB, db string, ps ...*player) {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(mailWait)
	for {
		ok, why := e.handledNow(t, st, ps...)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", mailWait, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// quiet fails t if any of ps has a mail the test has not read, once the
// referee of db has handled everything (see handled).
func (e *env) quiet(t testing.TB, db string, ps ...*player) {
	t.Helper()
	e.handled(t, db, ps...)
	for _, p := range ps {
		if got := e.drain(t, p.addr); len(got) > 0 {
			t.Errorf("%s received %d unexpected mail(s):%s", p.addr, len(got), describe(got))
		}
	}
}

package e2e

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"referee/internal/mail/imapin"
)

// Helpers that look at (and rebuild) the referee's own mailbox from the
// outside, as its mail provider would see it, without marking anything.

// imapLogin opens a new IMAP session of user with INBOX selected (read-only
// unless write): a new session each time, so counts are fresh (TECH-NOTES:
// a selected mailbox is only as fresh as its session's last sync).
func (e *env) imapLogin(t testing.TB, user string, write bool) (*imapclient.Client, *imap.SelectData) {
	t.Helper()
	c, err := imapclient.DialInsecure(e.mail.imapAddr(), nil)
	if err != nil {
		t.Fatalf("IMAP dial: %v", err)
	}
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		t.Fatalf("IMAP login %s: %v", user, err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: !write}).Wait()
	if err != nil {
		c.Close()
		t.Fatalf("IMAP select INBOX of %s: %v", user, err)
	}
	return c, sel
}

// refereeBacklog counts the messages of the referee's INBOX, and those the
// referee has not marked done yet.
func (e *env) refereeBacklog(t testing.TB) (total, undone int) {
	t.Helper()
	c, sel := e.imapLogin(t, referee, false)
	defer c.Close()
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imapin.DoneFlag}}, nil).Wait()
	if err != nil {
		t.Fatalf("IMAP search: %v", err)
	}
	return int(sel.NumMessages), len(data.AllUIDs())
}

// waitRefereeDone waits until the referee's INBOX holds at least total
// messages and the referee has finished with every one of them.
func (e *env) waitRefereeDone(t testing.TB, total int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		n, undone := e.refereeBacklog(t)
		if n >= total && undone == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the referee's INBOX has %d messages (want at least %d), %d not done", timeout, n, total, undone)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sessions are open IMAP sessions, one per user, INBOX selected.
type sessions struct {
	mu sync.Mutex
	m  map[string]*session
}

type session struct {
	mu sync.Mutex // one command sequence at a time
	c  *imapclient.Client
}

func (ss *sessions) get(addr, user string) (*session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if s := ss.m[user]; s != nil {
		return s, nil
	}
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return nil, fmt.Errorf("IMAP dial %s: %w", addr, err)
	}
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("IMAP login %s: %w", user, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("IMAP select INBOX of %s: %w", user, err)
	}
	if ss.m == nil {
		ss.m = map[string]*session{}
	}
	s := &session{c: c}
	ss.m[user] = s
	return s, nil
}

func (ss *sessions) drop(user string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if s := ss.m[user]; s != nil {
		s.c.Close()
		delete(ss.m, user)
	}
}

func (ss *sessions) closeAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for user, s := range ss.m {
		s.c.Logout().Wait()
		s.c.Close()
		delete(ss.m, user)
	}
}

// fetchNew returns the messages of user's INBOX not marked done yet, in UID
// order, and marks them done (the referee's own done flag, so that a
// drained referee mailbox is one the referee has finished with).
func (ss *sessions) fetchNew(addr, user string) ([][]byte, error) {
	s, err := ss.get(addr, user)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// NOOP first: a selected mailbox is only as fresh as its last sync.
	if err := s.c.Noop().Wait(); err != nil {
		return nil, fmt.Errorf("IMAP NOOP (%s): %w", user, err)
	}
	found, err := s.c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imapin.DoneFlag}}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("IMAP search (%s): %w", user, err)
	}
	uids := found.AllUIDs()
	if len(uids) == 0 {
		return nil, nil
	}
	set := imap.UIDSetNum(uids...)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil, fmt.Errorf("IMAP fetch (%s): %w", user, err)
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].UID < msgs[j].UID })
	var out [][]byte
	for _, m := range msgs {
		out = append(out, m.FindBodySection(body))
	}
	flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imapin.DoneFlag, imap.FlagSeen}}
	if err := s.c.Store(set, flags, nil).Close(); err != nil {
		return nil, fmt.Errorf("IMAP store (%s): %w", user, err)
	}
	return out, nil
}

type stored struct {
	raw   []byte
	flags []imap.Flag
}

// mailboxContents returns every message of user's INBOX, in UID order,
// with its UIDVALIDITY.
func (e *env) mailboxContents(t testing.TB, user string) ([]stored, uint32) {
	t.Helper()
	c, sel := e.imapLogin(t, user, false)
	defer c.Close()
	if sel.NumMessages == 0 {
		return nil, sel.UIDValidity
	}
	body := &imap.FetchItemBodySection{Peek: true}
	all, err := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		t.Fatalf("IMAP fetch: %v", err)
	}
	var out []stored
	for _, m := range all {
		out = append(out, stored{raw: m.FindBodySection(body), flags: m.Flags})
	}
	return out, sel.UIDValidity
}

// rebuildMailbox rebuilds user's INBOX as a provider migration does: the
// mailbox is deleted and created again, so it gets a new UIDVALIDITY, and every message is appended again
// as it was, without its flags. It returns the new UIDVALIDITY.
func (e *env) rebuildMailbox(t testing.TB, user string, msgs []stored) uint32 {
	t.Helper()
	if err := e.mail.dropInbox(user); err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(e.mail.imapAddr(), nil)
	if err != nil {
		t.Fatalf("IMAP dial: %v", err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatalf("IMAP login %s: %v", user, err)
	}
	for i, m := range msgs {
		cmd := c.Append("INBOX", int64(len(m.raw)), nil)
		if _, err := cmd.Write(m.raw); err != nil {
			t.Fatalf("APPEND message %d: %v", i+1, err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatalf("APPEND message %d: %v", i+1, err)
		}
		if _, err := cmd.Wait(); err != nil {
			t.Fatalf("APPEND message %d: %v", i+1, err)
		}
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("IMAP select: %v", err)
	}
	if int(sel.NumMessages) != len(msgs) {
		t.Fatalf("rebuilt INBOX holds %d messages, want %d", sel.NumMessages, len(msgs))
	}
	return sel.UIDValidity
}

var refTag = regexp.MustCompile(`\s*\(ref:[^)]*\)`)

// tokenOf is the game token a referee's Reply-To carries:
// referee+TOKEN@example.test.
func tokenOf(t testing.TB, replyTo string) string {
	t.Helper()
	local, _, _ := strings.Cut(replyTo, "@")
	_, tok, ok := strings.Cut(local, "+")
	if !ok || tok == "" {
		t.Fatalf("the referee's Reply-To %q carries no token", replyTo)
	}
	return tok
}

func headerOf(raw []byte, name string) string {
	head, _, _ := strings.Cut(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n\n")
	for _, line := range strings.Split(head, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func describe(ms []*received) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "\n  %q: %s", m.subject, firstLine(m.text))
	}
	return b.String()
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

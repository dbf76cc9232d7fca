package embedded

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

func startDir(t *testing.T, dir string) *Server {
	t.Helper()
	s, err := Start(context.Background(), Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stored is a message as a client sees it.
type stored struct {
	uid   imap.UID
	flags string // sorted, lower-case, space-separated
	date  time.Time
	raw   []byte
}

// mailbox returns the UIDVALIDITY, UIDNEXT and messages of a mailbox.
func snapshot(t *testing.T, c *imapclient.Client, name string) (uint32, imap.UID, []stored) {
	t.Helper()
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("selecting %s: %v", name, err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []stored
	if sel.NumMessages == 0 {
		msgs = nil // "1:*" on an empty mailbox names nothing
	}
	for _, m := range msgs {
		var fl []string
		for _, f := range m.Flags {
			fl = append(fl, strings.ToLower(string(f)))
		}
		slices.Sort(fl)
		out = append(out, stored{m.UID, strings.Join(fl, " "), m.InternalDate, m.FindBodySection(section)})
	}
	return sel.UIDValidity, sel.UIDNext, out
}

func TestRestartKeepsMailboxes(t *testing.T) {
	// Task 1: on a Dir, every account's mailboxes survive Close and Start:
	// messages byte-exact with their UIDs, flags and dates, UIDVALIDITY and
	// UIDNEXT; a UID is never handed out twice, not even that of the
	// highest message after it was expunged. The flags of a STORE of
	// several messages at once (persisted together) survive too.
	dir := t.TempDir()
	s := startDir(t, dir)
	for i := 1; i <= 4; i++ {
		if err := send(t, s, "alice@example.test", []string{"referee+g1@example.test"}, msg(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := send(t, s, "alice@example.test", []string{"bob@example.test"}, msg(9)); err != nil {
		t.Fatal(err)
	}
	c := login(t, s, "referee@example.test", nil)
	if err := c.Create("Referee/Done", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	store := func(uid imap.UID, flags ...imap.Flag) {
		t.Helper()
		if err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	}
	store(1, "$RefereeDone", imap.FlagSeen)
	store(2, imap.FlagFlagged)
	if _, err := c.Move(imap.UIDSetNum(2), "Referee/Done").Wait(); err != nil {
		t.Fatal(err)
	}
	answered, err := c.Store(imap.UIDSetNum(1, 3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{"$Both"}}, nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	if len(answered) != 2 || answered[0].UID != 1 || answered[1].UID != 3 || !slices.Contains(answered[1].Flags, "$both") {
		t.Fatalf("STORE of messages 1 and 3 answered %+v", answered)
	}
	store(4, imap.FlagDeleted) // the highest UID goes
	if err := c.UIDExpunge(imap.UIDSetNum(4)).Close(); err != nil {
		t.Fatal(err)
	}
	before := map[string][]stored{}
	var validity [2]uint32
	var next [2]imap.UID
	validity[0], next[0], before["INBOX"] = snapshot(t, c, "INBOX")
	validity[1], next[1], before["Referee/Done"] = snapshot(t, c, "Referee/Done")
	if len(before["INBOX"]) != 2 || len(before["Referee/Done"]) != 1 || next[0] != 5 ||
		before["INBOX"][0].flags != "$both $refereedone \\seen" || before["INBOX"][1].flags != "$both" {
		t.Fatalf("before the restart: INBOX %v (UIDNEXT %d), done %v", before["INBOX"], next[0], before["Referee/Done"])
	}
	c.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = startDir(t, dir)
	c = login(t, s, "referee@example.test", nil)
	for i, name := range []string{"INBOX", "Referee/Done"} {
		v, n, after := snapshot(t, c, name)
		if v != validity[i] || n != next[i] {
			t.Errorf("%s: UIDVALIDITY %d UIDNEXT %d after the restart, want %d %d", name, v, n, validity[i], next[i])
		}
		if len(after) != len(before[name]) {
			t.Fatalf("%s: %d messages after the restart, want %d", name, len(after), len(before[name]))
		}
		for j, m := range after {
			b := before[name][j]
			if m.uid != b.uid || m.flags != b.flags || !m.date.Equal(b.date) || !bytes.Equal(m.raw, b.raw) {
				t.Errorf("%s: message %d after the restart: uid %d flags %q date %v, want uid %d flags %q date %v (text equal: %v)",
					name, j, m.uid, m.flags, m.date, b.uid, b.flags, b.date, bytes.Equal(m.raw, b.raw))
			}
		}
	}
	if got := inbox(t, s, "bob@example.test"); len(got) != 1 || !bytes.HasSuffix(got[0], msg(9)) {
		t.Errorf("bob's INBOX after the restart: %q", got)
	}
	// New mail gets the next UID, above every one handed out before.
	if err := send(t, s, "alice@example.test", []string{"referee@example.test"}, msg(5)); err != nil {
		t.Fatal(err)
	}
	_, _, after := snapshot(t, c, "INBOX")
	if last := after[len(after)-1]; last.uid != 5 || !bytes.HasSuffix(last.raw, msg(5)) {
		t.Errorf("new mail after the restart has UID %d (%q), want 5", last.uid, last.raw)
	}
}

func TestUIDValidity(t *testing.T) {
	// Task 1: a fresh store takes its UIDVALIDITY from the clock, so a store
	// deleted and made again later starts above the old one; within an
	// account every new mailbox (a deleted one made again included) gets
	// a higher one than any before, even if the clock went back.
	clock := time.Unix(1_800_000_000, 0)
	now := func() time.Time { return clock }
	log := slog.New(slog.DiscardHandler)
	validity := func(st *mailStore, acct, mbox string) uint32 {
		t.Helper()
		a, err := st.ensureAccount(acct)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := a.mailbox(mbox)
		if err != nil {
			t.Fatal(err)
		}
		return mb.uidValidity
	}
	dir := filepath.Join(t.TempDir(), "mail")
	st, err := openStore(dir, log, now)
	if err != nil {
		t.Fatal(err)
	}
	first := validity(st, "referee@example.test", "INBOX")
	if first != 1_800_000_000 {
		t.Errorf("fresh store: UIDVALIDITY %d, want the clock's %d", first, 1_800_000_000)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Minute)
	if st, err = openStore(dir, log, now); err != nil {
		t.Fatal(err)
	}
	if v := validity(st, "referee@example.test", "INBOX"); v <= first {
		t.Errorf("store made again a minute later: UIDVALIDITY %d, not above the old store's %d", v, first)
	}
	clock = clock.Add(-time.Hour) // the clock goes back
	a, _ := st.ensureAccount("referee@example.test")
	last := validity(st, "referee@example.test", "INBOX")
	for range 2 {
		if err := a.delete("INBOX"); err != nil {
			t.Fatal(err)
		}
		if err := a.create("INBOX"); err != nil {
			t.Fatal(err)
		}
		// ...and is kept across a restart.
		if st, err = openStore(dir, log, now); err != nil {
			t.Fatal(err)
		}
		a, _ = st.ensureAccount("referee@example.test")
		v := validity(st, "referee@example.test", "INBOX")
		if v <= last {
			t.Errorf("INBOX deleted and made again: UIDVALIDITY %d, not above %d", v, last)
		}
		last = v
	}
}

func TestInterruptedWritesIgnored(t *testing.T) {
	// Task 1: what a crash mid-write leaves (temporary files of an append,
	// of a state file, of a mailbox being created; the .json of a message
	// whose .eml never arrived) is ignored and cleared at load; the
	// messages that were whole are all there.
	dir := t.TempDir()
	s := startDir(t, dir)
	for i := 1; i <= 2; i++ {
		if err := s.Deliver("referee@example.test", msg(i)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	acct := filepath.Join(dir, "referee@example.test")
	mboxes, _ := filepath.Glob(filepath.Join(acct, "mbox-*"))
	if len(mboxes) != 1 {
		t.Fatalf("account directory holds %v", mboxes)
	}
	leftovers := map[string]string{
		filepath.Join(mboxes[0], ".tmp-append-123"):         "From: x\r\nSubject: half",
		filepath.Join(mboxes[0], ".tmp-mailbox.json-9"):     `{"name":"INBOX","uidval`,
		filepath.Join(mboxes[0], "3.json"):                  `{"date":"2026-01-01T00:00:00Z","flags":["\\seen"]}`,
		filepath.Join(mboxes[0], ".tmp-3.json-5"):           `{"da`,
		filepath.Join(acct, ".tmp-mbox-77", "mailbox.json"): `{"name":"Half","uidvalidity":77,"uidnext":1}`,
		filepath.Join(dir, ".tmp-x"):                        "",
	}
	for path, text := range leftovers {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s = startDir(t, dir)
	c := login(t, s, "referee@example.test", nil)
	_, next, got := snapshot(t, c, "INBOX")
	if len(got) != 2 || !bytes.Equal(got[0].raw, msg(1)) || !bytes.Equal(got[1].raw, msg(2)) || next != 3 {
		t.Errorf("after the crash: UIDNEXT %d, messages %+v", next, got)
	}
	if l, err := c.List("", "*", nil).Collect(); err != nil || len(l) != 1 {
		t.Errorf("mailboxes after the crash: %v %v, want INBOX alone", l, err)
	}
	for path := range leftovers {
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s is still there after the load", path)
		}
	}
}

// TestKillDuringAppends is run twice: as the test, and (with
// REFEREE_EMBEDDED_CHILD set) as a process that appends until it is
// killed.
func TestKillDuringAppends(t *testing.T) {
	// Task 1: kill -9 in the middle of appends: every message that is
	// there after the restart is whole, none is lost whose append had
	// returned, and the next UID is above every UID handed out.
	if dir := os.Getenv("REFEREE_EMBEDDED_CHILD"); dir != "" {
		appendForever(dir)
		return
	}
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := t.TempDir()
	var acked []int
	const rounds = 8
	for round := range rounds {
		acked = append(acked, killChild(t, dir, round, rounds)...)
		st, err := openStore(dir, slog.New(slog.DiscardHandler), time.Now)
		if err != nil {
			t.Fatal(err)
		}
		a := st.account("referee@example.test")
		if a == nil {
			t.Fatal("the account is gone")
		}
		mb, err := a.mailbox("INBOX")
		if err != nil {
			t.Fatal(err)
		}
		have := map[int]bool{}
		for _, m := range mb.msgs {
			have[int(m.uid)] = true
			text, release, err := m.open()
			if err != nil {
				t.Fatal(err)
			}
			b := make([]byte, m.size)
			if _, err := text.ReadAt(b, 0); err != nil {
				t.Fatal(err)
			}
			release()
			if want := bigMsg(int(m.uid)); !bytes.Equal(b, want) {
				t.Errorf("round %d: message %d is damaged: %d bytes, want %d", round, m.uid, len(b), len(want))
			}
		}
		for _, uid := range acked {
			if !have[uid] {
				t.Errorf("round %d: message %d was acknowledged before a kill and is gone", round, uid)
			}
		}
		if top := imap.UID(slices.Max(acked)); mb.uidNext <= top {
			t.Errorf("round %d: UIDNEXT %d after the kill, not above %d", round, mb.uidNext, top)
		}
		t.Logf("round %d: %d appends acknowledged in all, %d messages after the kill, UIDNEXT %d", round, len(acked), len(mb.msgs), mb.uidNext)
	}
}

// killChild starts a process appending to the store in dir, waits for
// three acknowledged appends, and kills it with SIGKILL part way (round
// of rounds) into a later one. It returns the UIDs acknowledged.
func killChild(t *testing.T, dir string, round, rounds int) []int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringAppends$")
	cmd.Env = append(os.Environ(), "REFEREE_EMBEDDED_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var acked []int
	var times []time.Time
	sc := bufio.NewScanner(out)
	for len(acked) < 3 && sc.Scan() {
		if uid, err := strconv.Atoi(sc.Text()); err == nil {
			acked = append(acked, uid)
			times = append(times, time.Now())
		}
	}
	if len(acked) < 3 {
		t.Fatalf("the child stopped after %v: %v", acked, sc.Err())
	}
	per := times[2].Sub(times[1])
	time.Sleep(per * time.Duration(round) / time.Duration(rounds))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Acknowledgements already written count too.
	for sc.Scan() {
		if uid, err := strconv.Atoi(sc.Text()); err == nil {
			acked = append(acked, uid)
		}
	}
	return acked
}

// bigMsg is message n of TestKillDuringAppends: 256 KiB, so that a kill
// often lands mid-write.
func bigMsg(n int) []byte {
	b := fmt.Appendf(nil, "Subject: m%d\r\n\r\n", n)
	return append(b, bytes.Repeat([]byte{byte('a' + n%26)}, 256<<10)...)
}

func appendForever(dir string) {
	st, err := openStore(dir, slog.New(slog.DiscardHandler), time.Now)
	if err != nil {
		panic(err)
	}
	a, err := st.ensureAccount("referee@example.test")
	if err != nil {
		panic(err)
	}
	mb, err := a.mailbox("INBOX")
	if err != nil {
		panic(err)
	}
	for {
		mb.mu.Lock()
		next := int(mb.uidNext)
		mb.mu.Unlock()
		d, err := mb.appendReader(bytes.NewReader(bigMsg(next)), &imap.AppendOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d\n", d.UID)
	}
}

package embedded

// The mail store: every account's mailboxes and messages, in memory and,
// when the server has a directory, on disk so that they survive a restart.
//
// On-disk layout (Options.Dir):
//
//	<dir>/<account>/account.json            {"last_uidvalidity": N}
//	<dir>/<account>/mbox-<uidvalidity>/mailbox.json
//	                                         {"name", "uidvalidity", "uidnext", "subscribed"}
//	<dir>/<account>/mbox-<uidvalidity>/<uid>.eml   the message, byte-exact, never rewritten
//	<dir>/<account>/mbox-<uidvalidity>/<uid>.json  {"date", "flags"}
//
// Every file is written to a ".tmp-" file in the same directory, synced and
// renamed into place, and the directory is synced; a name starting with
// ".tmp-" is a write that a crash interrupted and is removed at load. A
// message exists once its .eml is in place: an append first raises and
// persists UIDNEXT, then writes the .json, then renames the .eml in, so a
// crash at any point leaves either no message or a whole one, and never a
// UID that could be handed out twice. An expunge removes the .eml first.
// UIDVALIDITY comes from the clock (seconds since 1970, and always above the
// account's last one), as RFC 3501 advises, so a store deleted and created
// again does not reuse the (UIDVALIDITY, UID) pairs of the old one.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

const (
	tmpPrefix   = ".tmp-"
	mboxPrefix  = "mbox-"
	accountFile = "account.json"
	mailboxFile = "mailbox.json"
)

// mailStore holds the accounts.
type mailStore struct {
	dir string // "" keeps everything in memory
	log *slog.Logger
	now func() time.Time

	mu       sync.Mutex
	accounts map[string]*account
}

// openStore loads the store of dir, creating dir if needed; dir "" is a
// store in memory.
func openStore(dir string, log *slog.Logger, now func() time.Time) (*mailStore, error) {
	st := &mailStore{dir: dir, log: log, now: now, accounts: map[string]*account{}}
	if dir == "" {
		return st, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the mail directory: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the mail directory: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			st.removeLeftover(filepath.Join(dir, e.Name()))
			continue
		}
		if !e.IsDir() {
			continue
		}
		name, err := url.PathUnescape(e.Name())
		if err != nil {
			log.Warn("embedded: ignoring a directory that is not an account", "dir", e.Name())
			continue
		}
		a, err := st.loadAccount(name, filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		st.accounts[name] = a
	}
	return st, nil
}

func (st *mailStore) removeLeftover(path string) {
	st.log.Info("embedded: removing what an interrupted write left", "path", path)
	if err := os.RemoveAll(path); err != nil {
		st.log.Warn("embedded: removing a leftover", "path", path, "err", err)
	}
}

// account returns the account name, or nil.
func (st *mailStore) account(name string) *account {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.accounts[name]
}

// ensureAccount returns the account name, creating it with an INBOX.
func (st *mailStore) ensureAccount(name string) (*account, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if a := st.accounts[name]; a != nil {
		return a, nil
	}
	a := &account{st: st, name: name, mailboxes: map[string]*mailbox{}}
	if st.dir != "" {
		a.dir = filepath.Join(st.dir, url.PathEscape(name))
		if err := os.MkdirAll(a.dir, 0o700); err != nil {
			return nil, fmt.Errorf("creating the directory of account %s: %w", name, err)
		}
		if err := syncDir(st.dir); err != nil {
			return nil, err
		}
	}
	if err := a.create("INBOX"); err != nil {
		return nil, err
	}
	st.accounts[name] = a
	return a, nil
}

// account is one user's mailboxes.
type account struct {
	st   *mailStore
	name string
	dir  string // "" in memory

	mu           sync.Mutex
	mailboxes    map[string]*mailbox
	lastValidity uint32
}

type accountState struct {
	LastUIDValidity uint32 `json:"last_uidvalidity"`
}

type mailboxState struct {
	Name        string `json:"name"`
	UIDValidity uint32 `json:"uidvalidity"`
	UIDNext     uint32 `json:"uidnext"`
	Subscribed  bool   `json:"subscribed"`
}

type messageMeta struct {
	Date  time.Time `json:"date"`
	Flags []string  `json:"flags"`
}

func (st *mailStore) loadAccount(name, dir string) (*account, error) {
	a := &account{st: st, name: name, dir: dir, mailboxes: map[string]*mailbox{}}
	var as accountState
	if b, err := os.ReadFile(filepath.Join(dir, accountFile)); err == nil {
		if err := json.Unmarshal(b, &as); err != nil {
			return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, accountFile), err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading the state of account %s: %w", name, err)
	}
	a.lastValidity = as.LastUIDValidity
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the directory of account %s: %w", name, err)
	}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), tmpPrefix):
			st.removeLeftover(filepath.Join(dir, e.Name()))
		case e.IsDir() && strings.HasPrefix(e.Name(), mboxPrefix):
			mb, err := a.loadMailbox(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			if other := a.mailboxes[mb.name]; other != nil {
				return nil, fmt.Errorf("account %s: both %s and %s hold mailbox %q", name, other.dir, mb.dir, mb.name)
			}
			a.mailboxes[mb.name] = mb
			a.lastValidity = max(a.lastValidity, mb.uidValidity)
		}
	}
	return a, nil
}

func (a *account) loadMailbox(dir string) (*mailbox, error) {
	b, err := os.ReadFile(filepath.Join(dir, mailboxFile))
	if err != nil {
		return nil, fmt.Errorf("reading the state of mailbox %s: %w", dir, err)
	}
	var ms mailboxState
	if err := json.Unmarshal(b, &ms); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, mailboxFile), err)
	}
	if ms.UIDValidity == 0 || ms.Name == "" {
		return nil, fmt.Errorf("%s: no name or UIDVALIDITY", filepath.Join(dir, mailboxFile))
	}
	mb := &mailbox{acct: a, dir: dir, uidValidity: ms.UIDValidity, name: ms.Name, subscribed: ms.Subscribed, uidNext: imap.UID(max(ms.UIDNext, 1))}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading mailbox %s: %w", dir, err)
	}
	emls, metas := map[imap.UID]os.DirEntry{}, map[imap.UID]bool{}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, tmpPrefix) {
			a.st.removeLeftover(filepath.Join(dir, n))
			continue
		}
		base, ext, _ := strings.Cut(n, ".")
		uid, err := strconv.ParseUint(base, 10, 32)
		if err != nil || uid == 0 {
			continue
		}
		switch ext {
		case "eml":
			emls[imap.UID(uid)] = e
		case "json":
			metas[imap.UID(uid)] = true
		}
	}
	for uid := range metas {
		if _, ok := emls[uid]; !ok {
			// The .json of an append that did not finish, or of an expunge
			// that did.
			a.st.removeLeftover(filepath.Join(dir, metaName(uid)))
		}
	}
	for uid, e := range emls {
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("reading message %d of %s: %w", uid, dir, err)
		}
		msg := &message{uid: uid, path: filepath.Join(dir, emlName(uid)), size: info.Size(), t: info.ModTime(), flags: map[imap.Flag]struct{}{}}
		if b, err := os.ReadFile(filepath.Join(dir, metaName(uid))); err == nil {
			var mm messageMeta
			if err := json.Unmarshal(b, &mm); err != nil {
				a.st.log.Warn("embedded: unreadable flags; the message keeps none", "mailbox", ms.Name, "uid", uid, "err", err)
			} else {
				if !mm.Date.IsZero() {
					msg.t = mm.Date
				}
				for _, f := range mm.Flags {
					msg.flags[flagKey(imap.Flag(f))] = struct{}{}
				}
			}
		}
		mb.msgs = append(mb.msgs, msg)
		mb.uidNext = max(mb.uidNext, uid+1)
	}
	slices.SortFunc(mb.msgs, func(x, y *message) int { return cmp.Compare(x.uid, y.uid) })
	mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
	return mb, nil
}

func emlName(uid imap.UID) string  { return fmt.Sprintf("%d.eml", uid) }
func metaName(uid imap.UID) string { return fmt.Sprintf("%d.json", uid) }

// mailbox looks up a mailbox by name.
func (a *account) mailbox(name string) (*mailbox, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mailboxLocked(name)
}

func (a *account) mailboxLocked(name string) (*mailbox, error) {
	if mb, ok := a.mailboxes[name]; ok {
		return mb, nil
	}
	return nil, errNoMailbox(name)
}

// nextValidityLocked allocates a UIDVALIDITY above every earlier one of the
// account and persists it before it is used.
func (a *account) nextValidityLocked() (uint32, error) {
	v := uint32(a.st.now().Unix())
	if v <= a.lastValidity {
		v = a.lastValidity + 1
	}
	if a.dir != "" {
		b, _ := json.Marshal(accountState{LastUIDValidity: v})
		if err := writeFileAtomic(a.dir, accountFile, bytes.NewReader(b)); err != nil {
			return 0, fmt.Errorf("account %s: %w", a.name, err)
		}
	}
	a.lastValidity = v
	return v, nil
}

// create creates a mailbox.
func (a *account) create(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	name = trimDelim(name)
	if _, taken := a.mailboxes[name]; taken {
		return errMailboxExists(name)
	}
	v, err := a.nextValidityLocked()
	if err != nil {
		return err
	}
	mb := &mailbox{acct: a, uidValidity: v, name: name, uidNext: 1, tracker: imapserver.NewMailboxTracker(0)}
	if a.dir != "" {
		mb.dir = filepath.Join(a.dir, fmt.Sprintf("%s%d", mboxPrefix, v))
		tmp := filepath.Join(a.dir, fmt.Sprintf("%smbox-%d", tmpPrefix, v))
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("creating mailbox %q: %w", name, err)
		}
		if err := os.Mkdir(tmp, 0o700); err != nil {
			return fmt.Errorf("creating mailbox %q: %w", name, err)
		}
		if err := writeFileAtomic(tmp, mailboxFile, bytes.NewReader(mb.stateJSON())); err != nil {
			return fmt.Errorf("creating mailbox %q: %w", name, err)
		}
		if err := os.Rename(tmp, mb.dir); err != nil {
			return fmt.Errorf("creating mailbox %q: %w", name, err)
		}
		if err := syncDir(a.dir); err != nil {
			return fmt.Errorf("creating mailbox %q: %w", name, err)
		}
	}
	a.mailboxes[name] = mb
	return nil
}

// delete deletes a mailbox and its messages.
func (a *account) delete(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	mb, err := a.mailboxLocked(name)
	if err != nil {
		return err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.dir != "" {
		// One rename removes the mailbox; what follows only frees space.
		gone := filepath.Join(a.dir, tmpPrefix+"deleted-"+filepath.Base(mb.dir))
		if err := os.Rename(mb.dir, gone); err != nil {
			return fmt.Errorf("deleting mailbox %q: %w", name, err)
		}
		if err := syncDir(a.dir); err != nil {
			return fmt.Errorf("deleting mailbox %q: %w", name, err)
		}
		if err := os.RemoveAll(gone); err != nil {
			a.st.log.Warn("embedded: removing a deleted mailbox's files", "dir", gone, "err", err)
		}
	}
	mb.deleted = true
	delete(a.mailboxes, name)
	return nil
}

// rename renames a mailbox.
func (a *account) rename(oldName, newName string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	newName = trimDelim(newName)
	if _, taken := a.mailboxes[newName]; taken {
		return errMailboxExists(newName)
	}
	mb, err := a.mailboxLocked(oldName)
	if err != nil {
		return err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	// The name is in the mailbox's own state file: one atomic write
	// renames it on disk.
	mb.name = newName
	if err := mb.saveStateLocked(); err != nil {
		mb.name = oldName
		return fmt.Errorf("renaming mailbox %q: %w", oldName, err)
	}
	delete(a.mailboxes, oldName)
	a.mailboxes[newName] = mb
	return nil
}

// mailbox is one mailbox; its messages are in UID order.
type mailbox struct {
	acct        *account
	dir         string // "" in memory
	uidValidity uint32
	tracker     *imapserver.MailboxTracker

	mu         sync.Mutex
	name       string
	subscribed bool
	msgs       []*message
	uidNext    imap.UID
	deleted    bool
}

// message is one message. Its text is in buf (in memory) or in the file
// path; only flags change.
type message struct {
	uid  imap.UID
	t    time.Time
	size int64
	buf  []byte
	path string

	flags map[imap.Flag]struct{} // guarded by the mailbox's mu
}

// open returns a reader of the message's text and a function to release
// it.
func (m *message) open() (*io.SectionReader, func(), error) {
	if m.path == "" {
		return io.NewSectionReader(bytes.NewReader(m.buf), 0, int64(len(m.buf))), func() {}, nil
	}
	f, err := os.Open(m.path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening message %d: %w", m.uid, err)
	}
	return io.NewSectionReader(f, 0, m.size), func() { f.Close() }, nil
}

func (m *message) flagList() []imap.Flag {
	l := make([]imap.Flag, 0, len(m.flags))
	for f := range m.flags {
		l = append(l, f)
	}
	slices.Sort(l)
	return l
}

func (mb *mailbox) stateJSON() []byte {
	b, _ := json.Marshal(mailboxState{Name: mb.name, UIDValidity: mb.uidValidity, UIDNext: uint32(mb.uidNext), Subscribed: mb.subscribed})
	return b
}

func (mb *mailbox) saveStateLocked() error {
	if mb.dir == "" {
		return nil
	}
	return writeFileAtomic(mb.dir, mailboxFile, bytes.NewReader(mb.stateJSON()))
}

// saveFlagsLocked persists the flags of msgs, each in its own file. It
// returns how many of them, in order, are persisted: all of them when the
// error is nil.
func (mb *mailbox) saveFlagsLocked(msgs ...*message) (int, error) {
	if mb.dir == "" {
		return len(msgs), nil
	}
	files := make([]namedBytes, len(msgs))
	for i, msg := range msgs {
		flags := msg.flagList()
		mm := messageMeta{Date: msg.t, Flags: make([]string, len(flags))}
		for j, f := range flags {
			mm.Flags[j] = string(f)
		}
		b, _ := json.Marshal(mm)
		files[i] = namedBytes{name: metaName(msg.uid), data: b}
	}
	n, err := writeFilesAtomic(mb.dir, files)
	if err != nil {
		return n, fmt.Errorf("saving the flags of messages of %q: %w", mb.name, err)
	}
	return n, nil
}

// appendReader adds the message read from r.
func (mb *mailbox) appendReader(r io.Reader, opts *imap.AppendOptions) (*imap.AppendData, error) {
	msg := newMessage(opts)
	if mb.dir == "" {
		buf, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("reading the message: %w", err)
		}
		msg.buf, msg.size = buf, int64(len(buf))
		return mb.add(msg, nil)
	}
	// The text goes to a temporary file first, outside the lock.
	f, err := os.CreateTemp(mb.dir, tmpPrefix+"append-*")
	if err != nil {
		if mb.isDeleted() {
			return nil, errDeleted()
		}
		return nil, fmt.Errorf("storing a message in %q: %w", mb.name, err)
	}
	tmp := f.Name()
	n, err := io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("storing a message in %q: %w", mb.name, err)
	}
	msg.size = n
	data, err := mb.add(msg, func(dst string) error { return os.Rename(tmp, dst) })
	if err != nil {
		os.Remove(tmp)
	}
	return data, err
}

// copyFrom adds a copy of src (a message of another mailbox) with its
// date and flags.
func (mb *mailbox) copyFrom(src *message, flags []imap.Flag) (*imap.AppendData, error) {
	msg := newMessage(&imap.AppendOptions{Time: src.t, Flags: flags})
	msg.size, msg.buf = src.size, src.buf
	if mb.dir == "" {
		if src.path != "" {
			return nil, errors.New("copying a message from disk to memory")
		}
		return mb.add(msg, nil)
	}
	return mb.add(msg, func(dst string) error {
		if src.path == "" {
			return writeFileAtomic(filepath.Dir(dst), filepath.Base(dst), bytes.NewReader(src.buf))
		}
		// The text never changes: a hard link is a copy. Where links are
		// not possible, copy the bytes.
		if err := os.Link(src.path, dst); err == nil {
			return nil
		}
		f, err := os.Open(src.path)
		if err != nil {
			return err
		}
		defer f.Close()
		return writeFileAtomic(filepath.Dir(dst), filepath.Base(dst), f)
	})
}

func newMessage(opts *imap.AppendOptions) *message {
	msg := &message{t: opts.Time, flags: map[imap.Flag]struct{}{}}
	if msg.t.IsZero() {
		msg.t = time.Now()
	}
	for _, f := range opts.Flags {
		msg.flags[flagKey(f)] = struct{}{}
	}
	return msg
}

func (mb *mailbox) isDeleted() bool {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.deleted
}

// add gives msg the next UID and adds it; place, on disk, puts its text at
// the given path.
func (mb *mailbox) add(msg *message, place func(dst string) error) (*imap.AppendData, error) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.deleted {
		return nil, errDeleted()
	}
	msg.uid = mb.uidNext
	// UIDNEXT moves on (and is persisted) before the message exists: a
	// failure or crash from here on burns the UID, never reuses it.
	mb.uidNext++
	if mb.dir != "" {
		if err := mb.saveStateLocked(); err != nil {
			return nil, fmt.Errorf("storing a message in %q: %w", mb.name, err)
		}
		if _, err := mb.saveFlagsLocked(msg); err != nil {
			return nil, err
		}
		msg.path = filepath.Join(mb.dir, emlName(msg.uid))
		if err := place(msg.path); err != nil {
			os.Remove(filepath.Join(mb.dir, metaName(msg.uid)))
			return nil, fmt.Errorf("storing message %d in %q: %w", msg.uid, mb.name, err)
		}
		if err := syncDir(mb.dir); err != nil {
			return nil, fmt.Errorf("storing message %d in %q: %w", msg.uid, mb.name, err)
		}
		msg.buf = nil
	}
	mb.msgs = append(mb.msgs, msg)
	mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
	return &imap.AppendData{UIDValidity: mb.uidValidity, UID: msg.uid}, nil
}

// expungeLocked removes msgs from the mailbox, from disk first, and
// queues an EXPUNGE for each for the mailbox's sessions. It returns the
// sequence numbers of those EXPUNGEs in the order sent: each message's
// number once the ones before it are gone. A message whose text cannot be
// removed stays.
func (mb *mailbox) expungeLocked(msgs []*message) ([]uint32, error) {
	gone := make(map[*message]bool, len(msgs))
	var errs []error
	for _, msg := range msgs {
		if err := mb.removeFilesLocked(msg); err != nil {
			errs = append(errs, err)
			continue
		}
		gone[msg] = true
	}
	if mb.dir != "" {
		errs = append(errs, syncDir(mb.dir))
	}
	var seqNums []uint32
	kept := make([]*message, 0, len(mb.msgs)-len(gone))
	for _, msg := range mb.msgs {
		if !gone[msg] {
			kept = append(kept, msg)
			continue
		}
		n := uint32(len(kept) + 1)
		seqNums = append(seqNums, n)
		mb.tracker.QueueExpunge(n)
	}
	mb.msgs = kept
	return seqNums, errors.Join(errs...)
}

// removeFilesLocked removes a message's files: the .eml first, since once
// it is gone the message is; a .json left behind is removed at load.
func (mb *mailbox) removeFilesLocked(msg *message) error {
	if mb.dir == "" {
		return nil
	}
	if err := os.Remove(msg.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("expunging message %d of %q: %w", msg.uid, mb.name, err)
	}
	if err := os.Remove(filepath.Join(mb.dir, metaName(msg.uid))); err != nil && !errors.Is(err, os.ErrNotExist) {
		mb.acct.st.log.Warn("embedded: removing an expunged message's flags", "uid", msg.uid, "err", err)
	}
	return nil
}

// trimDelim drops trailing hierarchy delimiters from a mailbox name: "a/"
// is "a".
func trimDelim(name string) string { return strings.TrimRight(name, string(mailboxDelim)) }

// writeFileAtomic writes name in dir from r: a temporary file, synced,
// renamed over name, and the directory synced.
func writeFileAtomic(dir, name string, r io.Reader) error {
	f, err := os.CreateTemp(dir, tmpPrefix+name+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
	}
	tmp := f.Name()
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
	}
	return syncDir(dir)
}

// namedBytes is a file's name and content.
type namedBytes struct {
	name string
	data []byte
}

// writeFilesAtomic is writeFileAtomic for several files of dir: each
// written to a temporary file and synced, then all renamed over their
// names in order, and the directory synced once (a STORE of many
// messages syncs the directory once, not once a message). It returns how
// many files, in order, are in place: none when a temporary file could
// not be written, those renamed before a rename failed (and the directory
// is synced for them all the same).
func writeFilesAtomic(dir string, files []namedBytes) (int, error) {
	if len(files) == 1 {
		if err := writeFileAtomic(dir, files[0].name, bytes.NewReader(files[0].data)); err != nil {
			return 0, err
		}
		return 1, nil
	}
	tmps := make([]string, 0, len(files))
	removeTmps := func(from int) {
		for _, t := range tmps[from:] {
			os.Remove(t)
		}
	}
	for _, nf := range files {
		f, err := os.CreateTemp(dir, tmpPrefix+nf.name+"-*")
		if err != nil {
			removeTmps(0)
			return 0, fmt.Errorf("writing %s: %w", filepath.Join(dir, nf.name), err)
		}
		tmps = append(tmps, f.Name())
		_, err = f.Write(nf.data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			removeTmps(0)
			return 0, fmt.Errorf("writing %s: %w", filepath.Join(dir, nf.name), err)
		}
	}
	for i, nf := range files {
		if err := os.Rename(tmps[i], filepath.Join(dir, nf.name)); err != nil {
			removeTmps(i)
			return i, errors.Join(fmt.Errorf("writing %s: %w", filepath.Join(dir, nf.name), err), syncDir(dir))
		}
	}
	if err := syncDir(dir); err != nil {
		// Renamed, but maybe not durable: as with one file, report it.
		return 0, err
	}
	return len(files), nil
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// flagKey is how a flag is kept: flags and keywords are
// case-insensitive (RFC 9051 2.3.2).
func flagKey(f imap.Flag) imap.Flag { return imap.Flag(strings.ToLower(string(f))) }

// has reports whether m has the flag f; the caller holds the mailbox's
// lock.
func (m *message) has(f imap.Flag) bool {
	_, ok := m.flags[flagKey(f)]
	return ok
}

// quoteName quotes a mailbox name for a message.
func quoteName(name string) string { return strconv.Quote(name) }

func errNoMailbox(name string) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "there is no mailbox " + quoteName(name)}
}

// errDeleted answers an APPEND, COPY or MOVE into a mailbox deleted
// meanwhile.
func errDeleted() error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "the mailbox has been deleted"}
}

func errMailboxExists(name string) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "there is already a mailbox " + quoteName(name)}
}

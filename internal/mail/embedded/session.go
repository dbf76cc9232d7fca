package embedded

// The IMAP side of the store: one session per connection, implementing
// go-imap's imapserver.Session on the mailboxes of store.go. A session that
// has selected a mailbox holds a view of it: the mailbox, the session's own
// numbering of its messages (go-imap's SessionTracker) and the result a
// SEARCH RETURN (SAVE) kept for "$". SEARCH itself is in search.go.

import (
	"bytes"
	"cmp"
	"crypto/subtle"
	"errors"
	"io"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

const mailboxDelim rune = '/'

// imapSession is one IMAP connection.
type imapSession struct {
	s    *Server
	acct *account // nil before login
	// view is the selected mailbox, or nil. IDLE runs in a goroutine of
	// its own, and the connection may close (Close) while it ends: the
	// pointer is atomic so that both see one value.
	view atomic.Pointer[view]
}

var (
	_ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)
	_ imapserver.SessionMove      = (*imapSession)(nil)
	_ imapserver.SessionNamespace = (*imapSession)(nil)
)

// view is a session's view of its selected mailbox.
type view struct {
	*mailbox
	tracker *imapserver.SessionTracker
	saved   imap.UIDSet // what "$" stands for
}

// slot is a message of the selected mailbox with its two numbers: pos, its
// place in the mailbox (from 1, as the mailbox's tracker counts), and seq,
// its sequence number for the session, 0 while the session has not been
// told of it.
type slot struct {
	pos, seq uint32
	msg      *message
}

// slotsLocked returns every message of the mailbox, in order.
func (v *view) slotsLocked() []slot {
	l := make([]slot, len(v.msgs))
	for i, msg := range v.msgs {
		pos := uint32(i + 1)
		l[i] = slot{pos: pos, seq: v.tracker.EncodeSeqNum(pos), msg: msg}
	}
	return l
}

// pickLocked returns the messages a client's number set names, in order.
func (v *view) pickLocked(set imap.NumSet) []slot {
	all := v.slotsLocked()
	named := v.namedBy(set, all)
	return slices.DeleteFunc(all, func(s slot) bool { return !named(s) })
}

// span is a range of numbers, both ends included.
type span struct{ lo, hi uint32 }

// spansOf reads n ranges given by bound, in which 0 stands for "*", the
// number last. A range may be given high end first (RFC 9051 9: "4:2" is
// "2:4").
func spansOf(n int, bound func(i int) (uint32, uint32), last uint32) []span {
	l := make([]span, n)
	for i := range l {
		a, b := bound(i)
		if a == 0 {
			a = last
		}
		if b == 0 {
			b = last
		}
		l[i] = span{min(a, b), max(a, b)}
	}
	return l
}

func inSpans(l []span, n uint32) bool {
	return slices.ContainsFunc(l, func(s span) bool { return s.lo <= n && n <= s.hi })
}

// namedBy returns the test of whether a message of all (every message of
// the mailbox, in order) is named by the client's number set. "*" is the
// last message: for sequence numbers the last the session knows, for UIDs
// the mailbox's. "$" is the saved SEARCH result, by UID whatever the kind
// of command.
func (v *view) namedBy(set imap.NumSet, all []slot) func(slot) bool {
	if imap.IsSearchRes(set) {
		saved := v.saved
		return func(s slot) bool { return saved.Contains(s.msg.uid) }
	}
	switch set := set.(type) {
	case imap.SeqSet:
		var last uint32
		for i := len(all) - 1; i >= 0 && last == 0; i-- {
			last = all[i].seq
		}
		l := spansOf(len(set), func(i int) (uint32, uint32) { return set[i].Start, set[i].Stop }, last)
		return func(s slot) bool { return s.seq != 0 && inSpans(l, s.seq) }
	case imap.UIDSet:
		var last uint32
		if len(all) > 0 {
			last = uint32(all[len(all)-1].msg.uid)
		}
		l := spansOf(len(set), func(i int) (uint32, uint32) { return uint32(set[i].Start), uint32(set[i].Stop) }, last)
		return func(s slot) bool { return inSpans(l, uint32(s.msg.uid)) }
	}
	return func(slot) bool { return false }
}

func (se *imapSession) Close() error { return se.Unselect() }

// Unselect leaves the selected mailbox, if any.
func (se *imapSession) Unselect() error {
	if v := se.view.Swap(nil); v != nil {
		v.tracker.Close()
	}
	return nil
}

// Login accepts any address of the domain (in any case, with or without a
// +detail) with the shared password, creating the account on first use, so
// a person can point a mail client at it before mail arrived.
func (se *imapSession) Login(username, password string) error {
	if !se.s.inDomain(username) || subtle.ConstantTimeCompare([]byte(password), []byte(se.s.opts.Password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	a, err := se.s.store.ensureAccount(canonical(username))
	if err != nil {
		se.s.opts.Logger.Error("embedded: creating an account at login", "user", username, "err", err)
		return err
	}
	se.acct = a
	return nil
}

func (se *imapSession) Select(name string, _ *imap.SelectOptions) (*imap.SelectData, error) {
	mb, err := se.acct.mailbox(name)
	if err != nil {
		return nil, err
	}
	se.Unselect()
	mb.mu.Lock()
	defer mb.mu.Unlock()
	se.view.Store(&view{mailbox: mb, tracker: mb.tracker.NewSession()})
	return mb.selectDataLocked(), nil
}

func (se *imapSession) Create(name string, _ *imap.CreateOptions) error {
	return se.acct.create(name)
}

func (se *imapSession) Delete(name string) error { return se.acct.delete(name) }

func (se *imapSession) Rename(oldName, newName string, _ *imap.RenameOptions) error {
	return se.acct.rename(oldName, newName)
}

func (se *imapSession) Subscribe(name string) error   { return se.setSubscribed(name, true) }
func (se *imapSession) Unsubscribe(name string) error { return se.setSubscribed(name, false) }

func (se *imapSession) setSubscribed(name string, on bool) error {
	mb, err := se.acct.mailbox(name)
	if err != nil {
		return err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	was := mb.subscribed
	mb.subscribed = on
	if err := mb.saveStateLocked(); err != nil {
		mb.subscribed = was
		return err
	}
	return nil
}

func (se *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}}}, nil
}

// List answers LIST in name order. With no pattern it gives the hierarchy
// delimiter only.
func (se *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	listed := func(name string) bool {
		return slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailboxDelim, ref, p) })
	}
	se.acct.mu.Lock()
	var mbs []*mailbox
	for name, mb := range se.acct.mailboxes {
		if listed(name) {
			mbs = append(mbs, mb)
		}
	}
	se.acct.mu.Unlock()
	var out []*imap.ListData
	for _, mb := range mbs {
		if d := mb.listData(options); d != nil {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *imap.ListData) int { return cmp.Compare(a.Mailbox, b.Mailbox) })
	for _, d := range out {
		if err := w.WriteList(d); err != nil {
			return err
		}
	}
	return nil
}

func (se *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	mb, err := se.acct.mailbox(name)
	if err != nil {
		return nil, err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.statusDataLocked(options), nil
}

func (se *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	mb, err := se.acct.mailbox(name)
	if err != nil {
		return nil, errTryCreate(name)
	}
	return mb.appendReader(r, options)
}

func (se *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	v := se.view.Load()
	if v == nil {
		return nil
	}
	return v.tracker.Poll(w, allowExpunge)
}

// idlePeriod bounds how late an idling client learns of mail that arrived
// just before its IDLE began.
const idlePeriod = time.Second

// Idle waits for updates until stop is closed. It first sends the updates
// already pending and re-checks every idlePeriod: the tracker's IDLE sends
// only updates that arrive while it runs, so a message delivered between a
// client's last command and its IDLE would go unnoticed until the next one.
func (se *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := se.Poll(w, true); err != nil {
			return err
		}
		timer := time.NewTimer(idlePeriod)
		v := se.view.Load()
		if v == nil {
			// Nothing selected: nothing to report; wait out the period.
			select {
			case <-stop:
				timer.Stop()
				return nil
			case <-timer.C:
			}
			continue
		}
		inner := make(chan struct{})
		go func() {
			defer close(inner)
			select {
			case <-stop:
			case <-timer.C:
			}
		}()
		if err := v.tracker.Idle(w, inner); err != nil {
			timer.Stop()
			return err
		}
		<-inner
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

// Expunge removes the messages flagged \Deleted (of uids only, for UID
// EXPUNGE). The EXPUNGE responses go out through the tracker, as for every
// session of the mailbox.
func (se *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	v := se.view.Load()
	v.mu.Lock()
	defer v.mu.Unlock()
	cands := v.slotsLocked()
	if uids != nil {
		cands = v.pickLocked(*uids)
	}
	var gone []*message
	for _, s := range cands {
		if s.msg.has(imap.FlagDeleted) {
			gone = append(gone, s.msg)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	_, err := v.expungeLocked(gone)
	return err
}

// setFlagsLocked gives the messages of slots the flags that op with list
// makes of their own, persists them and queues the changes for the
// mailbox's sessions but quiet (nil: for all). It returns the slots whose
// flags are now as asked (changed or already so); on failure the messages
// not persisted keep their flags, and the error says why.
func (v *view) setFlagsLocked(slots []slot, op imap.StoreFlagsOp, list []imap.Flag, quiet *imapserver.SessionTracker) ([]slot, error) {
	type change struct {
		slot
		prev map[imap.Flag]struct{}
	}
	var changed []change
	var same []slot
	for _, s := range slots {
		next := make(map[imap.Flag]struct{}, len(s.msg.flags)+len(list))
		if op != imap.StoreFlagsSet {
			maps.Copy(next, s.msg.flags)
		}
		for _, f := range list {
			if op == imap.StoreFlagsDel {
				delete(next, flagKey(f))
			} else {
				next[flagKey(f)] = struct{}{}
			}
		}
		if maps.Equal(next, s.msg.flags) {
			same = append(same, s)
			continue
		}
		changed = append(changed, change{slot: s, prev: s.msg.flags})
		s.msg.flags = next
	}
	msgs := make([]*message, len(changed))
	for i, c := range changed {
		msgs[i] = c.msg
	}
	n, err := v.saveFlagsLocked(msgs...)
	ok := same
	for i, c := range changed {
		if i >= n {
			c.msg.flags = c.prev
			continue
		}
		v.mailbox.tracker.QueueMessageFlags(c.pos, c.msg.uid, c.msg.flagList(), quiet)
		ok = append(ok, c.slot)
	}
	return ok, err
}

// Store changes flags and, unless SILENT, answers with each message's new
// flags. Other sessions hear of the change through the tracker. The flags
// of all the messages are persisted together (saveFlagsLocked).
func (se *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	v := se.view.Load()
	v.mu.Lock()
	set, err := v.setFlagsLocked(v.pickLocked(numSet), flags.Op, flags.Flags, v.tracker)
	done := make([]fetchItem, 0, len(set))
	for _, s := range set {
		done = append(done, fetchItem{slot: s, flags: s.msg.flagList()})
	}
	v.mu.Unlock()
	if err != nil {
		return err
	}
	if flags.Silent {
		return nil
	}
	slices.SortFunc(done, func(a, b fetchItem) int { return cmp.Compare(a.pos, b.pos) })
	for _, it := range done {
		rw := w.CreateMessage(it.seq)
		rw.WriteUID(it.msg.uid)
		rw.WriteFlags(it.flags)
		if err := rw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// fetchItem is a message to answer for, with its flags as they were under
// the lock.
type fetchItem struct {
	slot
	flags []imap.Flag
}

// Fetch answers FETCH. Marking \Seen (for a BODY[...] without PEEK) happens
// under the mailbox lock; the texts are read and sent after it is
// released, so that a big message does not hold up deliveries. A message's
// text never changes; one expunged meanwhile is skipped.
func (se *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	v := se.view.Load()
	peekOnly := !slices.ContainsFunc(options.BodySection, func(bs *imap.FetchItemBodySection) bool { return !bs.Peek })
	var items []fetchItem
	var errs []error
	v.mu.Lock()
	for _, s := range v.pickLocked(numSet) {
		if !peekOnly && !s.msg.has(imap.FlagSeen) {
			_, err := v.setFlagsLocked([]slot{s}, imap.StoreFlagsAdd, []imap.Flag{imap.FlagSeen}, nil)
			errs = append(errs, err)
		}
		items = append(items, fetchItem{slot: s, flags: s.msg.flagList()})
	}
	v.mu.Unlock()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, it := range items {
		if err := writeFetch(w, it, options); err != nil {
			return err
		}
	}
	return nil
}

// readsText reports whether a FETCH needs the message text, not only what
// the store keeps beside it.
func readsText(o *imap.FetchOptions) bool {
	return o.Envelope || o.BodyStructure != nil || len(o.BodySection)+len(o.BinarySection)+len(o.BinarySectionSize) > 0
}

// writeFetch writes the FETCH response for one message.
func writeFetch(w *imapserver.FetchWriter, it fetchItem, o *imap.FetchOptions) error {
	var text *io.SectionReader
	if readsText(o) {
		r, release, err := it.msg.open()
		if err != nil {
			return nil // expunged meanwhile
		}
		defer release()
		text = r
	}
	rw := w.CreateMessage(it.seq)
	rw.WriteUID(it.msg.uid)
	if o.Flags {
		rw.WriteFlags(it.flags)
	}
	if o.RFC822Size {
		rw.WriteRFC822Size(it.msg.size)
	}
	if o.InternalDate {
		rw.WriteInternalDate(it.msg.t)
	}
	if o.Envelope {
		rw.WriteEnvelope(imapserver.ExtractEnvelope(readHeader(text)))
	}
	if o.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(fromStart(text)))
	}
	for _, bs := range o.BodySection {
		if err := writeBodySection(rw, bs, text); err != nil {
			return err
		}
	}
	for _, bs := range o.BinarySection {
		b := imapserver.ExtractBinarySection(fromStart(text), bs)
		if err := drain(rw.WriteBinarySection(bs, int64(len(b))), bytes.NewReader(b)); err != nil {
			return err
		}
	}
	for _, bs := range o.BinarySectionSize {
		rw.WriteBinarySectionSize(bs, imapserver.ExtractBinarySectionSize(fromStart(text), bs))
	}
	return rw.Close()
}

// writeBodySection sends one BODY[...] item. The whole text, or a range of
// it, is copied straight from the store without reading more than asked
// for; any other section is cut out by go-imap.
func writeBodySection(rw *imapserver.FetchResponseWriter, bs *imap.FetchItemBodySection, text *io.SectionReader) error {
	if bs.Specifier != imap.PartSpecifierNone || len(bs.Part) > 0 {
		b := imapserver.ExtractBodySection(fromStart(text), bs)
		return drain(rw.WriteBodySection(bs, int64(len(b))), bytes.NewReader(b))
	}
	from, n := int64(0), text.Size()
	if p := bs.Partial; p != nil {
		from = min(p.Offset, n)
		n = min(p.Size, n-from)
	}
	return drain(rw.WriteBodySection(bs, n), io.NewSectionReader(text, from, n))
}

// fromStart reads text from its first byte, whoever read it before.
func fromStart(text *io.SectionReader) io.Reader { return io.NewSectionReader(text, 0, text.Size()) }

// drain copies r into wc and closes it.
func drain(wc io.WriteCloser, r io.Reader) error {
	_, err := io.Copy(wc, r)
	return errors.Join(err, wc.Close())
}

// copyTo copies the messages of numSet to the mailbox dest and returns
// what COPY answers and the messages copied.
func (se *imapSession) copyTo(numSet imap.NumSet, dest string) (*imap.CopyData, []*message, error) {
	v := se.view.Load()
	dst, err := se.acct.mailbox(dest)
	if err != nil {
		return nil, nil, errTryCreate(dest)
	}
	if dst == v.mailbox {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "a mailbox cannot be copied or moved into itself"}
	}
	v.mu.Lock()
	var items []fetchItem
	for _, s := range v.pickLocked(numSet) {
		items = append(items, fetchItem{slot: s, flags: s.msg.flagList()})
	}
	v.mu.Unlock()
	data := &imap.CopyData{UIDValidity: dst.uidValidity}
	copied := make([]*message, 0, len(items))
	for _, it := range items {
		ad, err := dst.copyFrom(it.msg, it.flags)
		if err != nil {
			return nil, nil, err
		}
		data.SourceUIDs.AddNum(it.msg.uid)
		data.DestUIDs.AddNum(ad.UID)
		copied = append(copied, it.msg)
	}
	return data, copied, nil
}

func (se *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, _, err := se.copyTo(numSet, dest)
	return data, err
}

// Move copies, then expunges what was copied: a crash in between leaves
// the message in both mailboxes, never in neither. The EXPUNGE responses
// follow the COPYUID through the tracker, which the server polls before it
// ends the command.
func (se *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	data, copied, err := se.copyTo(numSet, dest)
	if err != nil {
		return err
	}
	v := se.view.Load()
	v.mu.Lock()
	// Another session may have expunged some meanwhile.
	still := slices.DeleteFunc(copied, func(m *message) bool { return !slices.Contains(v.msgs, m) })
	_, err = v.expungeLocked(still)
	v.mu.Unlock()
	if err != nil {
		return err
	}
	return w.WriteCopyData(data)
}

// errTryCreate is the answer to an APPEND, COPY or MOVE into a mailbox that
// does not exist.
func errTryCreate(name string) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "there is no mailbox " + quoteName(name)}
}

// listData is the LIST answer for mb, or nil where options leave it out.
// There are no special-use mailboxes.
func (mb *mailbox) listData(options *imap.ListOptions) *imap.ListData {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	switch {
	case options.SelectSpecialUse, options.SelectSubscribed && !mb.subscribed:
		return nil
	}
	d := &imap.ListData{Mailbox: mb.name, Delim: mailboxDelim}
	if mb.subscribed {
		d.Attrs = []imap.MailboxAttr{imap.MailboxAttrSubscribed}
	}
	if options.ReturnStatus != nil {
		d.Status = mb.statusDataLocked(options.ReturnStatus)
	}
	return d
}

// tally is what STATUS and SELECT count in a mailbox.
type tally struct {
	seen, deleted uint32
	bytes         int64
	firstUnseen   uint32 // sequence number, 0 for none
	flags         map[imap.Flag]struct{}
}

func (mb *mailbox) tallyLocked() tally {
	t := tally{flags: map[imap.Flag]struct{}{}}
	for i, msg := range mb.msgs {
		t.bytes += msg.size
		maps.Copy(t.flags, msg.flags)
		switch {
		case msg.has(imap.FlagSeen):
			t.seen++
		case t.firstUnseen == 0:
			t.firstUnseen = uint32(i + 1)
		}
		if msg.has(imap.FlagDeleted) {
			t.deleted++
		}
	}
	return t
}

func (mb *mailbox) statusDataLocked(options *imap.StatusOptions) *imap.StatusData {
	t := mb.tallyLocked()
	n := uint32(len(mb.msgs))
	d := &imap.StatusData{Mailbox: mb.name}
	ask := func(want bool, v uint32) *uint32 {
		if !want {
			return nil
		}
		return &v
	}
	d.NumMessages = ask(options.NumMessages, n)
	d.NumUnseen = ask(options.NumUnseen, n-t.seen)
	d.NumDeleted = ask(options.NumDeleted, t.deleted)
	d.NumRecent = ask(options.NumRecent, 0) // nothing is \Recent here
	if options.UIDNext {
		d.UIDNext = mb.uidNext
	}
	if options.UIDValidity {
		d.UIDValidity = mb.uidValidity
	}
	if options.Size {
		d.Size = &t.bytes
	}
	return d
}

// selectDataLocked is the answer to SELECT. Any keyword may be stored.
func (mb *mailbox) selectDataLocked() *imap.SelectData {
	t := mb.tallyLocked()
	flags := slices.Sorted(maps.Keys(t.flags))
	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    append(slices.Clip(flags), imap.FlagWildcard),
		NumMessages:       uint32(len(mb.msgs)),
		FirstUnseenSeqNum: t.firstUnseen,
		UIDNext:           mb.uidNext,
		UIDValidity:       mb.uidValidity,
	}
}

package embedded

// The IMAP side of the store: one session per connection. The mailbox
// logic follows go-imap's imapmemserver (MIT License, Copyright (c) 2013
// The Go-IMAP Authors, 2016 Proton Technologies AG, 2023 Simon Ser), which
// keeps everything in memory and cannot be given back its UIDs after a
// restart; here each change also goes to the store's directory.

import (
	"crypto/subtle"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

const mailboxDelim rune = '/'

// session is one IMAP connection.
type imapSession struct {
	s    *Server
	acct *account // nil before login
	view *view    // the selected mailbox, or nil
}

var (
	_ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)
	_ imapserver.SessionMove      = (*imapSession)(nil)
	_ imapserver.SessionNamespace = (*imapSession)(nil)
)

// view is a session's view of a selected mailbox, with its own queue of
// updates.
type view struct {
	*mailbox
	tracker   *imapserver.SessionTracker
	searchRes imap.UIDSet
}

func (se *imapSession) Close() error {
	if se.view != nil {
		se.view.tracker.Close()
		se.view = nil
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
	if se.view != nil {
		se.view.tracker.Close()
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	se.view = &view{mailbox: mb, tracker: mb.tracker.NewSession()}
	return mb.selectDataLocked(), nil
}

func (se *imapSession) Unselect() error {
	if se.view != nil {
		se.view.tracker.Close()
		se.view = nil
	}
	return nil
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

func (se *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	se.acct.mu.Lock()
	var l []imap.ListData
	for name, mb := range se.acct.mailboxes {
		if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailboxDelim, ref, p) }) {
			continue
		}
		if data := mb.list(options); data != nil {
			l = append(l, *data)
		}
	}
	se.acct.mu.Unlock()
	sort.Slice(l, func(i, j int) bool { return l[i].Mailbox < l[j].Mailbox })
	for i := range l {
		if err := w.WriteList(&l[i]); err != nil {
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
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	return mb.appendReader(r, options)
}

func (se *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if se.view == nil {
		return nil
	}
	return se.view.tracker.Poll(w, allowExpunge)
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
		if se.view == nil {
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
		if err := se.view.tracker.Idle(w, inner); err != nil {
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

func (se *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	v := se.view
	v.mu.Lock()
	defer v.mu.Unlock()
	set := map[*message]struct{}{}
	for _, msg := range v.msgs {
		if uids != nil && !uids.Contains(msg.uid) {
			continue
		}
		if _, ok := msg.flags[canonicalFlag(imap.FlagDeleted)]; ok {
			set[msg] = struct{}{}
		}
	}
	if len(set) == 0 {
		return nil
	}
	_, err := v.expungeLocked(set)
	return err
}

func (se *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	v := se.view
	v.mu.Lock()
	defer v.mu.Unlock()
	v.staticSearchCriteria(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i, msg := range v.msgs {
		seqNum := v.tracker.EncodeSeqNum(uint32(i) + 1)
		if !matches(msg, seqNum, criteria) {
			continue
		}
		// Always populate the UID set, since it may be saved for SEARCHRES.
		uidSet.AddNum(msg.uid)
		var num uint32
		switch kind {
		case imapserver.NumKindSeq:
			if seqNum == 0 {
				continue
			}
			seqSet.AddNum(seqNum)
			num = seqNum
		case imapserver.NumKindUID:
			num = uint32(msg.uid)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if data.Max == 0 || num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	switch kind {
	case imapserver.NumKindSeq:
		data.All = seqSet
	case imapserver.NumKindUID:
		data.All = uidSet
	}
	if options.ReturnSave {
		v.searchRes = uidSet
	}
	return &data, nil
}

// fetched is a message to answer a FETCH for, taken under the lock.
type fetched struct {
	seqNum uint32
	msg    *message
	flags  []imap.Flag
}

func (se *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	v := se.view
	markSeen := slices.ContainsFunc(options.BodySection, func(bs *imap.FetchItemBodySection) bool { return !bs.Peek })
	var list []fetched
	var saveErr error
	v.mu.Lock()
	v.forEachLocked(numSet, func(seqNum uint32, msg *message) {
		if _, seen := msg.flags[canonicalFlag(imap.FlagSeen)]; markSeen && !seen {
			msg.flags[canonicalFlag(imap.FlagSeen)] = struct{}{}
			if err := v.saveFlagsLocked(msg); err != nil && saveErr == nil {
				saveErr = err
			}
			v.mailbox.tracker.QueueMessageFlags(seqNum, msg.uid, msg.flagList(), nil)
		}
		list = append(list, fetched{v.tracker.EncodeSeqNum(seqNum), msg, msg.flagList()})
	})
	v.mu.Unlock()
	if saveErr != nil {
		return saveErr
	}
	// The texts are read and sent outside the lock, so that a big message
	// does not hold up deliveries. A message's text never changes; one
	// expunged meanwhile may be gone from disk and is skipped.
	for _, f := range list {
		if err := fetchOne(w, f, options); err != nil {
			return err
		}
	}
	return nil
}

func fetchOne(w *imapserver.FetchWriter, f fetched, options *imap.FetchOptions) error {
	msg := f.msg
	needText := len(options.BodySection) > 0 || len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0 ||
		options.Envelope || options.BodyStructure != nil
	var text *io.SectionReader
	if needText {
		r, release, err := msg.open()
		if err != nil {
			return nil // expunged meanwhile
		}
		defer release()
		text = r
	}
	rw := w.CreateMessage(f.seqNum)
	rw.WriteUID(msg.uid)
	if options.Flags {
		rw.WriteFlags(f.flags)
	}
	if options.InternalDate {
		rw.WriteInternalDate(msg.t)
	}
	if options.RFC822Size {
		rw.WriteRFC822Size(msg.size)
	}
	if options.Envelope {
		rw.WriteEnvelope(envelope(text))
	}
	if options.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(newReader(text)))
	}
	for _, bs := range options.BodySection {
		if bs.Specifier == imap.PartSpecifierNone && len(bs.Part) == 0 {
			// The whole message, or a range of it: straight from the
			// text, without reading more than asked for.
			off, n := int64(0), msg.size
			if bs.Partial != nil {
				off = min(bs.Partial.Offset, msg.size)
				n = min(bs.Partial.Size, msg.size-off)
			}
			wc := rw.WriteBodySection(bs, n)
			_, werr := io.Copy(wc, io.NewSectionReader(text, off, n))
			if cerr := wc.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return werr
			}
			continue
		}
		buf := imapserver.ExtractBodySection(newReader(text), bs)
		if err := writeAll(rw.WriteBodySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		buf := imapserver.ExtractBinarySection(newReader(text), bs)
		if err := writeAll(rw.WriteBinarySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		rw.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(newReader(text), bss))
	}
	return rw.Close()
}

// newReader reads text from its start.
func newReader(text *io.SectionReader) io.Reader { return io.NewSectionReader(text, 0, text.Size()) }

func writeAll(wc io.WriteCloser, b []byte) error {
	_, err := wc.Write(b)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (se *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	v := se.view
	var saveErr error
	v.mu.Lock()
	v.forEachLocked(numSet, func(seqNum uint32, msg *message) {
		storeFlags(msg, flags)
		if err := v.saveFlagsLocked(msg); err != nil && saveErr == nil {
			saveErr = err
		}
		v.mailbox.tracker.QueueMessageFlags(seqNum, msg.uid, msg.flagList(), v.tracker)
	})
	v.mu.Unlock()
	if saveErr != nil {
		return saveErr
	}
	if !flags.Silent {
		return se.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
	}
	return nil
}

func storeFlags(msg *message, store *imap.StoreFlags) {
	switch store.Op {
	case imap.StoreFlagsSet:
		clear(msg.flags)
		fallthrough
	case imap.StoreFlagsAdd:
		for _, f := range store.Flags {
			msg.flags[canonicalFlag(f)] = struct{}{}
		}
	case imap.StoreFlagsDel:
		for _, f := range store.Flags {
			delete(msg.flags, canonicalFlag(f))
		}
	}
}

// copyTo copies the messages of numSet to the mailbox dest and returns the
// messages copied.
func (se *imapSession) copyTo(numSet imap.NumSet, dest string) (*imap.CopyData, []*message, error) {
	v := se.view
	dst, err := se.acct.mailbox(dest)
	if err != nil {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if dst == v.mailbox {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
	}
	type src struct {
		msg   *message
		flags []imap.Flag
	}
	var srcs []src
	v.mu.Lock()
	v.forEachLocked(numSet, func(_ uint32, msg *message) { srcs = append(srcs, src{msg, msg.flagList()}) })
	v.mu.Unlock()
	data := &imap.CopyData{UIDValidity: dst.uidValidity}
	var copied []*message
	for _, s := range srcs {
		ad, err := dst.copyFrom(s.msg, s.flags)
		if err != nil {
			return nil, nil, err
		}
		data.SourceUIDs.AddNum(s.msg.uid)
		data.DestUIDs.AddNum(ad.UID)
		copied = append(copied, s.msg)
	}
	return data, copied, nil
}

func (se *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, _, err := se.copyTo(numSet, dest)
	return data, err
}

// Move copies, then expunges what was copied: a crash in between leaves
// the message in both mailboxes, never in neither.
func (se *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	data, copied, err := se.copyTo(numSet, dest)
	if err != nil {
		return err
	}
	v := se.view
	v.mu.Lock()
	set := map[*message]struct{}{}
	for _, msg := range copied {
		if slices.Contains(v.msgs, msg) {
			set[msg] = struct{}{}
		}
	}
	seqNums, err := v.expungeLocked(set)
	for i, n := range seqNums {
		seqNums[i] = v.tracker.EncodeSeqNum(n)
	}
	v.mu.Unlock()
	if err != nil {
		return err
	}
	if err := w.WriteCopyData(data); err != nil {
		return err
	}
	for _, n := range seqNums {
		if err := w.WriteExpunge(n); err != nil {
			return err
		}
	}
	return nil
}

func (mb *mailbox) list(options *imap.ListOptions) *imap.ListData {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if options.SelectSubscribed && !mb.subscribed {
		return nil
	}
	if options.SelectSpecialUse {
		return nil // no special-use mailboxes here
	}
	data := imap.ListData{Mailbox: mb.name, Delim: mailboxDelim}
	if mb.subscribed {
		data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
	}
	if options.ReturnStatus != nil {
		data.Status = mb.statusDataLocked(options.ReturnStatus)
	}
	return &data
}

func (mb *mailbox) statusDataLocked(options *imap.StatusOptions) *imap.StatusData {
	data := imap.StatusData{Mailbox: mb.name}
	if options.NumMessages {
		n := uint32(len(mb.msgs))
		data.NumMessages = &n
	}
	if options.UIDNext {
		data.UIDNext = mb.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = mb.uidValidity
	}
	if options.NumUnseen {
		n := uint32(len(mb.msgs)) - mb.countByFlagLocked(imap.FlagSeen)
		data.NumUnseen = &n
	}
	if options.NumDeleted {
		n := mb.countByFlagLocked(imap.FlagDeleted)
		data.NumDeleted = &n
	}
	if options.Size {
		var size int64
		for _, msg := range mb.msgs {
			size += msg.size
		}
		data.Size = &size
	}
	if options.NumRecent {
		n := uint32(0)
		data.NumRecent = &n
	}
	return &data
}

func (mb *mailbox) countByFlagLocked(flag imap.Flag) uint32 {
	var n uint32
	for _, msg := range mb.msgs {
		if _, ok := msg.flags[canonicalFlag(flag)]; ok {
			n++
		}
	}
	return n
}

func (mb *mailbox) selectDataLocked() *imap.SelectData {
	set := map[imap.Flag]struct{}{}
	var firstUnseen uint32
	for i, msg := range mb.msgs {
		for f := range msg.flags {
			set[f] = struct{}{}
		}
		if _, ok := msg.flags[canonicalFlag(imap.FlagSeen)]; !ok && firstUnseen == 0 {
			firstUnseen = uint32(i) + 1
		}
	}
	flags := make([]imap.Flag, 0, len(set))
	for f := range set {
		flags = append(flags, f)
	}
	slices.Sort(flags)
	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:       uint32(len(mb.msgs)),
		FirstUnseenSeqNum: firstUnseen,
		UIDNext:           mb.uidNext,
		UIDValidity:       mb.uidValidity,
	}
}

func (v *view) forEachLocked(numSet imap.NumSet, f func(seqNum uint32, msg *message)) {
	numSet = v.staticNumSet(numSet)
	for i, msg := range v.msgs {
		seqNum := uint32(i) + 1
		var contains bool
		switch numSet := numSet.(type) {
		case imap.SeqSet:
			s := v.tracker.EncodeSeqNum(seqNum)
			contains = s != 0 && numSet.Contains(s)
		case imap.UIDSet:
			contains = numSet.Contains(msg.uid)
		}
		if contains {
			f(seqNum, msg)
		}
	}
}

// staticNumSet turns "*" into the highest sequence number or UID, and "$"
// into the saved search result.
func (v *view) staticNumSet(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return v.searchRes
	}
	switch numSet := numSet.(type) {
	case imap.SeqSet:
		top := uint32(len(v.msgs))
		for i := range numSet {
			staticNumRange(&numSet[i].Start, &numSet[i].Stop, top)
		}
	case imap.UIDSet:
		top := uint32(v.uidNext) - 1
		for i := range numSet {
			staticNumRange((*uint32)(&numSet[i].Start), (*uint32)(&numSet[i].Stop), top)
		}
	}
	return numSet
}

func staticNumRange(start, stop *uint32, top uint32) {
	dyn := false
	if *start == 0 {
		*start, dyn = top, true
	}
	if *stop == 0 {
		*stop, dyn = top, true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

func (v *view) staticSearchCriteria(criteria *imap.SearchCriteria) {
	seqNums := make([]imap.SeqSet, 0, len(criteria.SeqNum))
	for _, seqSet := range criteria.SeqNum {
		switch numSet := v.staticNumSet(seqSet).(type) {
		case imap.SeqSet:
			seqNums = append(seqNums, numSet)
		case imap.UIDSet: // with SEARCHRES
			criteria.UID = append(criteria.UID, numSet)
		}
	}
	criteria.SeqNum = seqNums
	for i, uidSet := range criteria.UID {
		criteria.UID[i] = v.staticNumSet(uidSet).(imap.UIDSet)
	}
	for i := range criteria.Not {
		v.staticSearchCriteria(&criteria.Not[i])
	}
	for i := range criteria.Or {
		for j := range criteria.Or[i] {
			v.staticSearchCriteria(&criteria.Or[i][j])
		}
	}
}

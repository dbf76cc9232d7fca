package embedded

// SEARCH. The criteria of a command are turned once into a list of tests,
// one per criterion, the cheap ones (numbers, flags, dates, size) before
// those that read the message; the tests then run over the mailbox in one
// pass. A message's text is opened only when a test needs it, and each of
// the two things read from it is read at most once per SEARCH: the
// header, for HEADER and SENT*, and the searchable words of the whole
// message, for BODY and TEXT.

import (
	"bufio"
	"io"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// Search answers SEARCH and UID SEARCH, and with RETURN (SAVE) keeps the
// result for "$".
func (se *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	v := se.view.Load()
	v.mu.Lock()
	defer v.mu.Unlock()
	all := v.slotsLocked()
	meets := searchCompiler{v: v, all: all}.compile(criteria)
	var hits []slot
	for _, s := range all {
		if meets(&candidate{slot: s}) {
			hits = append(hits, s)
		}
	}
	if options.ReturnSave {
		var saved imap.UIDSet
		for _, h := range hits {
			saved.AddNum(h.msg.uid)
		}
		v.saved = saved
	}
	return searchData(kind, hits), nil
}

// searchData is the answer for hits, which are in mailbox order: by UID,
// or by the session's sequence numbers, leaving out the messages the
// session has not been told of yet. Both kinds of number grow with the
// mailbox order, so the first and last are MIN and MAX.
func searchData(kind imapserver.NumKind, hits []slot) *imap.SearchData {
	var nums []uint32
	for _, h := range hits {
		n := h.seq
		if kind == imapserver.NumKindUID {
			n = uint32(h.msg.uid)
		}
		if n != 0 {
			nums = append(nums, n)
		}
	}
	d := &imap.SearchData{Count: uint32(len(nums))}
	if len(nums) > 0 {
		d.Min, d.Max = nums[0], nums[len(nums)-1]
	}
	if kind == imapserver.NumKindUID {
		set := imap.UIDSet{}
		for _, n := range nums {
			set.AddNum(imap.UID(n))
		}
		d.All = set
	} else {
		set := imap.SeqSet{}
		set.AddNum(nums...)
		d.All = set
	}
	return d
}

// candidate is a message under test, with what has been read of it.
type candidate struct {
	slot
	head  *header // nil until read
	words *words  // nil until read
}

// test is one criterion.
type test func(*candidate) bool

// searchCompiler turns criteria into tests for one session's view; all is
// every message of the mailbox, in order, for "*".
type searchCompiler struct {
	v   *view
	all []slot
}

// compile returns the test of every criterion of c together. MODSEQ is not
// offered (no CONDSTORE) and never asked for.
func (sc searchCompiler) compile(c *imap.SearchCriteria) test {
	var tests []test
	add := func(t test) { tests = append(tests, t) }
	for _, set := range c.SeqNum {
		add(sc.numbers(set))
	}
	for _, set := range c.UID {
		add(sc.numbers(set))
	}
	for _, f := range c.Flag {
		add(func(cd *candidate) bool { return cd.msg.has(f) })
	}
	for _, f := range c.NotFlag {
		add(func(cd *candidate) bool { return !cd.msg.has(f) })
	}
	if c.Larger > 0 {
		add(func(cd *candidate) bool { return cd.msg.size > c.Larger })
	}
	if c.Smaller > 0 {
		add(func(cd *candidate) bool { return cd.msg.size < c.Smaller })
	}
	if days := (dayRange{c.Since, c.Before}); !days.open() {
		add(func(cd *candidate) bool { return days.holds(cd.msg.t) })
	}
	if days := (dayRange{c.SentSince, c.SentBefore}); !days.open() {
		add(func(cd *candidate) bool {
			h := cd.header()
			return h.dated && days.holds(h.date)
		})
	}
	for _, hf := range c.Header {
		key, sub := strings.ToLower(hf.Key), strings.ToLower(hf.Value)
		add(func(cd *candidate) bool {
			values, ok := cd.header().fields[key]
			return ok && anyContains(values, sub)
		})
	}
	for _, s := range c.Body {
		sub := strings.ToLower(s)
		add(func(cd *candidate) bool { return anyContains(cd.readWords().texts, sub) })
	}
	for _, s := range c.Text {
		sub := strings.ToLower(s)
		add(func(cd *candidate) bool {
			w := cd.readWords()
			return anyContains(w.fields, sub) || anyContains(w.texts, sub)
		})
	}
	for i := range c.Not {
		inner := sc.compile(&c.Not[i])
		add(func(cd *candidate) bool { return !inner(cd) })
	}
	for i := range c.Or {
		either, or := sc.compile(&c.Or[i][0]), sc.compile(&c.Or[i][1])
		add(func(cd *candidate) bool { return either(cd) || or(cd) })
	}
	return func(cd *candidate) bool {
		for _, t := range tests {
			if !t(cd) {
				return false
			}
		}
		return true
	}
}

// numbers is the test of a sequence set or UID set.
func (sc searchCompiler) numbers(set imap.NumSet) test {
	named := sc.v.namedBy(set, sc.all)
	return func(cd *candidate) bool { return named(cd.slot) }
}

// anyContains reports whether sub is in one of l. Everything is lower-case
// already; "" is in everything, even an empty l.
func anyContains(l []string, sub string) bool {
	if sub == "" {
		return true
	}
	for _, s := range l {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// dayRange is the days from since up to but not including before; a zero
// end is open. SEARCH compares days, whatever the time and zone (RFC 9051
// 6.4.4): a time counts as the day it was where it was.
type dayRange struct{ since, before time.Time }

func (r dayRange) open() bool { return r.since.IsZero() && r.before.IsZero() }

func (r dayRange) holds(t time.Time) bool {
	d := dayOf(t)
	return (r.since.IsZero() || !d.Before(dayOf(r.since))) && (r.before.IsZero() || d.Before(dayOf(r.before)))
}

// dayOf is the day of t in t's own zone, as midnight UTC.
func dayOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// header is what SEARCH uses of a message's header.
type header struct {
	fields map[string][]string // lower-case name: lower-case values, encoded words decoded
	date   time.Time           // of the Date field
	dated  bool                // whether there is a Date field that parses
}

func (cd *candidate) header() *header {
	if cd.head != nil {
		return cd.head
	}
	cd.head = &header{fields: map[string][]string{}}
	text, release, err := cd.msg.open()
	if err != nil {
		return cd.head // expunged meanwhile: an empty header
	}
	defer release()
	h := readHeader(text)
	eachField(h, func(key, value string) {
		k := strings.ToLower(key)
		cd.head.fields[k] = append(cd.head.fields[k], value)
	})
	if t, err := mail.ParseDate(h.Get("Date")); err == nil {
		cd.head.date, cd.head.dated = t, true
	}
	return cd.head
}

// readHeader reads the header at the start of text; a header that does
// not parse is empty.
func readHeader(text *io.SectionReader) textproto.Header {
	h, err := textproto.ReadHeader(bufio.NewReader(fromStart(text)))
	if err != nil {
		return textproto.Header{}
	}
	return h
}

// eachField calls f with the name and the lower-cased, decoded value of
// every field of h.
func eachField(h textproto.Header, f func(key, value string)) {
	mh := gomessage.Header{Header: h}
	fields := mh.Fields()
	for fields.Next() {
		v, err := fields.Text()
		if err != nil {
			v = fields.Value() // an encoding it cannot decode: as it is
		}
		f(fields.Key(), strings.ToLower(v))
	}
}

// words is what BODY and TEXT search in a message, lower-cased: the
// values of the header fields of the message and of each of its parts,
// and the decoded text of each text/* or message/* part. Other parts
// (images, attachments) are not text.
type words struct {
	fields []string
	texts  []string
}

func (cd *candidate) readWords() *words {
	if cd.words != nil {
		return cd.words
	}
	cd.words = &words{}
	text, release, err := cd.msg.open()
	if err != nil {
		return cd.words
	}
	defer release()
	e, _ := gomessage.Read(text) // an unknown charset or encoding still gives the entity, undecoded
	if e == nil {
		return cd.words
	}
	// A part that does not parse ends the walk; the words before it stay.
	_ = e.Walk(func(_ []int, part *gomessage.Entity, _ error) error {
		if part == nil {
			return nil
		}
		eachField(part.Header.Header, func(_, value string) { cd.words.fields = append(cd.words.fields, value) })
		mt, _, err := part.Header.ContentType()
		if err != nil || !(strings.HasPrefix(mt, "text/") || strings.HasPrefix(mt, "message/")) {
			return nil // multipart parts come next in the walk
		}
		if b, err := io.ReadAll(part.Body); err == nil {
			cd.words.texts = append(cd.words.texts, strings.ToLower(string(b)))
		}
		return nil
	})
	return cd.words
}

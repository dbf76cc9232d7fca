package embedded

// SEARCH, as in go-imap's imapmemserver (MIT License, see session.go),
// reading a message's text only for the criteria that need it.

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// envelope is the ENVELOPE of the message text.
func envelope(text *io.SectionReader) *imap.Envelope {
	h, err := textproto.ReadHeader(bufio.NewReader(newReader(text)))
	if err != nil {
		return nil
	}
	return imapserver.ExtractEnvelope(h)
}

// entity parses the message; it never returns nil.
func (m *message) entity() (*gomessage.Entity, func()) {
	text, release, err := m.open()
	if err == nil {
		if e, _ := gomessage.Read(text); e != nil {
			return e, release
		}
		release()
	}
	e, _ := gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	return e, func() {}
}

// matches reports whether msg, with sequence number seqNum in the
// session's view (0 if the session does not know it yet), matches
// criteria.
func matches(msg *message, seqNum uint32, criteria *imap.SearchCriteria) bool {
	for _, seqSet := range criteria.SeqNum {
		if seqNum == 0 || !seqSet.Contains(seqNum) {
			return false
		}
	}
	for _, uidSet := range criteria.UID {
		if !uidSet.Contains(msg.uid) {
			return false
		}
	}
	if !matchDate(msg.t, criteria.Since, criteria.Before) {
		return false
	}
	for _, flag := range criteria.Flag {
		if _, ok := msg.flags[canonicalFlag(flag)]; !ok {
			return false
		}
	}
	for _, flag := range criteria.NotFlag {
		if _, ok := msg.flags[canonicalFlag(flag)]; ok {
			return false
		}
	}
	if criteria.Larger != 0 && msg.size <= criteria.Larger {
		return false
	}
	if criteria.Smaller != 0 && msg.size >= criteria.Smaller {
		return false
	}
	if len(criteria.Header) > 0 || !criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
		e, release := msg.entity()
		header := mail.Header{Header: e.Header}
		ok := true
		for _, fc := range criteria.Header {
			if !matchHeaderFields(header.FieldsByKey(fc.Key), fc.Value) {
				ok = false
				break
			}
		}
		if ok && (!criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero()) {
			t, err := header.Date()
			ok = err == nil && matchDate(t, criteria.SentSince, criteria.SentBefore)
		}
		release()
		if !ok {
			return false
		}
	}
	for _, text := range criteria.Text {
		if !matchText(msg, text, true) {
			return false
		}
	}
	for _, body := range criteria.Body {
		if !matchText(msg, body, false) {
			return false
		}
	}
	for i := range criteria.Not {
		if matches(msg, seqNum, &criteria.Not[i]) {
			return false
		}
	}
	for i := range criteria.Or {
		if !matches(msg, seqNum, &criteria.Or[i][0]) && !matches(msg, seqNum, &criteria.Or[i][1]) {
			return false
		}
	}
	return true
}

func matchText(msg *message, pattern string, includeHeader bool) bool {
	e, release := msg.entity()
	defer release()
	return matchEntity(e, pattern, includeHeader)
}

func matchDate(t, since, before time.Time) bool {
	// RFC 3501 compares dates without the time zone.
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if !since.IsZero() && t.Before(since) {
		return false
	}
	if !before.IsZero() && !t.Before(before) {
		return false
	}
	return true
}

func matchHeaderFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		v, _ := fields.Text()
		if strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

func matchEntity(e *gomessage.Entity, pattern string, includeHeader bool) bool {
	if pattern == "" {
		return true
	}
	if includeHeader && matchHeaderFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false
			}
			if matchEntity(part, pattern, includeHeader) {
				return true
			}
		}
	}
	t, _, err := e.Header.ContentType()
	if err != nil || (!strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/")) {
		return false
	}
	buf, err := io.ReadAll(e.Body)
	if err != nil {
		return false
	}
	return bytes.Contains(bytes.ToLower(buf), bytes.ToLower([]byte(pattern)))
}

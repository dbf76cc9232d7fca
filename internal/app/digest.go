package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	mailreader "referee/internal/mail/reader"
)

// digest identifies a mail as its sender wrote it: the hex SHA-256 of the
// raw message without the header fields that servers add on the way in
// (Received, Return-Path, Delivered-To, Authentication-Results, spam and
// virus verdicts, ...). A mailbox rebuilt or migrated, a mail delivered
// twice, or one refetched under a new UID, keeps its digest even when the
// server stamped it anew; a mail the sender wrote differently does not.
func digest(raw []byte) string {
	h := sha256.New()
	rest := raw
	skipping := false // inside a trace field's continuation lines
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		body := bytes.TrimRight(line, "\r\n")
		if len(body) == 0 {
			h.Write(line) // the blank line, then the body whole
			h.Write(rest)
			break
		}
		if body[0] == ' ' || body[0] == '\t' {
			if !skipping {
				h.Write(line)
			}
			continue
		}
		name, _, ok := bytes.Cut(body, []byte(":"))
		skipping = ok && traceField(strings.ToLower(string(bytes.TrimSpace(name))))
		if !skipping {
			h.Write(line)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// traceField reports whether a header field is one that mail servers add
// in transit, not one the sender wrote: Received, the receiving side's
// fields (the reader's list), and the bookkeeping of mbox and maildir
// stores.
func traceField(name string) bool {
	switch name {
	case "received", "status", "x-status", "x-keywords", "x-uid", "content-length", "lines":
		return true
	}
	return mailreader.ReceivingField(name)
}

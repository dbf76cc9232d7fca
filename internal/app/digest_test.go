package app

import (
	"testing"

	mailreader "referee/internal/mail/reader"
)

func TestDigestIgnoresTraceFields(t *testing.T) {
	const mail = "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: move\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\ne4\r\n"
	base := digest([]byte(mail))
	same := []string{
		// Delivered again, or from a rebuilt mailbox: new trace fields on top.
		"Return-Path: <alice@example.org>\r\nDelivered-To: referee@example.test\r\nReceived: from mx by imap with LMTP\r\n\tid 42; Mon, 23 Nov 2026 10:00:01 +0000\r\n" + mail,
		"Authentication-Results: mx.example.test; dkim=pass\r\nX-Spam-Status: No, score=0.1\r\n" + mail,
	}
	for _, m := range same {
		if got := digest([]byte(m)); got != base {
			t.Errorf("digest changed with trace fields:\n%s", m)
		}
	}
	differs := []string{
		"From: alice@example.org\r\nTo: referee@example.test\r\nSubject: move\r\nDate: Mon, 23 Nov 2026 10:05:00 +0000\r\n\r\ne4\r\n",
		"From: alice@example.org\r\nTo: referee@example.test\r\nSubject: move\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nd4\r\n",
		// A trace-looking word inside the body is content.
		"From: alice@example.org\r\nTo: referee@example.test\r\nSubject: move\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\ne4\r\nReceived: thanks\r\n",
	}
	for _, m := range differs {
		if digest([]byte(m)) == base {
			t.Errorf("two different mails have one digest:\n%s", m)
		}
	}
}

func mailreaderDefaultMax() int { return int(mailreader.DefaultLimits().MaxBytes) }

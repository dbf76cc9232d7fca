package reader

import (
	"strings"
	"testing"
)

// The sender's part of every mail below: what alice's provider sent.
const senderPart = "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=gmail.example; s=20230601;\r\n" +
	"\th=from:to:subject:date:message-id; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b=Xb4Qz1aB\r\n" +
	"MIME-Version: 1.0\r\n" +
	"From: Alice Liddell <alice@gmail.example>\r\n" +
	"Date: Sun, 22 Nov 2026 10:13:55 +0000\r\n" +
	"Message-ID: <CAH+w=7KqL9x0XyZ@mail.gmail.example>\r\n" +
	"Subject: Re: [chess #17] Move 12: your turn (White)\r\n" +
	"To: Referee <referee+17.k3fux2ab7q.23@example.test>\r\n" +
	"Content-Type: text/plain; charset=\"UTF-8\"\r\n\r\nNf3\r\n"

// Fields the receiving side adds, as the servers write them.
const (
	// Postfix's smtpd records the reception from outside.
	rcvExternal = "Received: from mail-wr1-f41.google.example (mail-wr1-f41.google.example [209.85.221.41])\r\n" +
		"\t(using TLSv1.3 with cipher TLS_AES_256_GCM_SHA384 (256/256 bits)\r\n" +
		"\t key-exchange X25519 server-signature RSA-PSS (2048 bits) server-digest SHA256)\r\n" +
		"\t(No client certificate requested)\r\n" +
		"\tby mx.example.test (Postfix) with ESMTPS id 4XyZ1c0m2Lz4wXy\r\n" +
		"\tfor <referee+17.k3fux2ab7q.23@example.test>; Sun, 22 Nov 2026 10:14:02 +0000 (UTC)\r\n"
	// Dovecot's LMTP delivery (Dovecot 2.3 writes its short host name).
	dovecotLMTP = "Return-Path: <alice@gmail.example>\r\n" +
		"Delivered-To: referee@example.test\r\n" +
		"Received: from mx.example.test\r\n" +
		"\tby mx with LMTP\r\n" +
		"\tid eDYpBfglA2oF1AEAu9opvQ\r\n" +
		"\t(envelope-from <alice@gmail.example>)\r\n" +
		"\tfor <referee@example.test>; Sun, 22 Nov 2026 10:14:03 +0000\r\n"
	// OpenDKIM and OpenDMARC.
	arOpenDKIMPass = "Authentication-Results: mx.example.test;\r\n" +
		"\tdkim=pass (2048-bit key; unprotected) header.d=gmail.example header.i=@gmail.example header.b=\"Xb4Qz1aB\";\r\n" +
		"\tdkim-atps=neutral\r\n"
	arOpenDMARCPass = "Authentication-Results: mx.example.test; dmarc=pass (p=none dis=none) header.from=gmail.example\r\n"
	arOpenDMARCSPF  = "Authentication-Results: mx.example.test; spf=pass smtp.mailfrom=gmail.example\r\n"
	arOpenDKIMFail  = "Authentication-Results: mx.example.test;\r\n" +
		"\tdkim=fail reason=\"signature verification failed\" (2048-bit key; unprotected) header.d=gmail.example header.b=\"Xb4Qz1aB\"\r\n"
	arDMARCFail = "Authentication-Results: mx.example.test; dmarc=fail (p=reject dis=none) header.from=gmail.example\r\n"
	// rspamd's one field.
	arRspamd = "Authentication-Results: mx.example.test;\r\n" +
		"\tdkim=pass header.d=gmail.example header.s=20230601 header.b=Xb4Qz1aB;\r\n" +
		"\tspf=pass (mx.example.test: domain of alice@gmail.example designates 209.85.221.41 as permitted sender) smtp.mailfrom=alice@gmail.example;\r\n" +
		"\tdmarc=pass (policy=none) header.from=gmail.example\r\n"
	rspamdTrace = "X-Rspamd-Queue-Id: 4XyZ1c0m2Lz4wXy\r\nX-Rspamd-Action: no action\r\nX-Rspamd-Server: mx\r\n" +
		"X-Spamd-Result: default: False [-0.10 / 15.00];\r\n\tR_DKIM_ALLOW(-0.20)[gmail.example:s=20230601]\r\n"
	// amavis checks after the queue and hands the mail back to Postfix.
	amavis = "Received: from localhost (localhost [127.0.0.1])\r\n" +
		"\tby mx.example.test (Postfix) with ESMTP id 4XyZ2d1n3Mz4wXz\r\n" +
		"\tfor <referee@example.test>; Sun, 22 Nov 2026 10:14:03 +0000 (UTC)\r\n" +
		"X-Virus-Scanned: Debian amavisd-new at mx.example.test\r\n" +
		"X-Spam-Flag: NO\r\nX-Spam-Score: -0.1\r\nX-Spam-Level:\r\n" +
		"Authentication-Results: mx.example.test (amavisd-new);\r\n" +
		"\tdkim=pass (2048-bit key) header.d=gmail.example\r\n" +
		"Received: from mx.example.test ([127.0.0.1])\r\n" +
		"\tby localhost (mx.example.test [127.0.0.1]) (amavisd-new, port 10024)\r\n" +
		"\twith ESMTP id Zx9-aB3cD4eF; Sun, 22 Nov 2026 10:14:02 +0000 (UTC)\r\n"
)

// TestAuthZone: --require-auth trusts only the Authentication-Results
// fields of the trusted server in the zone its receiving side added above
// everything the sender wrote (docs/require-auth.md), and a failing result
// there wins over a passing one. Each server setup and each attack is a
// whole header as it arrives in the referee's mailbox.
func TestAuthZone(t *testing.T) {
	tests := []struct {
		name, hdr string
		ok        bool
		reason    string
	}{
		// Setups that give the accepted shape.
		{"milter inserting at the top (index 0), Dovecot LMTP on top",
			dovecotLMTP + arOpenDMARCPass + arOpenDKIMPass + rcvExternal, true, "dkim=pass for gmail.example from mx.example.test"},
		{"rspamd's field above the reception, with its trace fields",
			dovecotLMTP + arRspamd + rspamdTrace + rcvExternal, true, "dkim=pass for gmail.example"},
		{"amavis after the queue, reinjected, then LMTP",
			dovecotLMTP + amavis + rcvExternal, true, "dkim=pass for gmail.example"},
		{"Dovecot Sieve filter adding the field at delivery",
			arOpenDKIMPass + dovecotLMTP + rcvExternal, true, "dkim=pass for gmail.example"},
		{"Postfix re-queueing after alias expansion (no from, no address)",
			dovecotLMTP + "Received: by mx.example.test (Postfix) id 4PZSYg2bXyz4xFS; Sun, 22 Nov 2026 10:14:03 +0000 (UTC)\r\n" +
				"Delivered-To: chess@example.test\r\n" + arOpenDKIMPass + rcvExternal, true, "dkim=pass"},
		{"IPv6 loopback and unix socket hops",
			"Received: from mx.example.test ([unix socket]) by mx.example.test (Dovecot) with LMTP id 1; Sun, 22 Nov 2026 10:14:03 +0000\r\n" +
				"Received: from localhost (localhost [IPv6:::1]) by mx.example.test (Postfix) with ESMTP id 2; Sun, 22 Nov 2026 10:14:03 +0000\r\n" +
				arOpenDKIMPass + rcvExternal, true, "dkim=pass"},
		{"spf=pass for the From domain in OpenDMARC's own field",
			dovecotLMTP + arOpenDMARCSPF + rcvExternal, true, "spf=pass for gmail.example"},
		// OpenDKIM and OpenDMARC on Postfix insert at index 1, which Postfix
		// puts directly below its own Received: where a sender's field is too.
		{"OpenDKIM's default place, directly below Postfix's Received: refused",
			dovecotLMTP + rcvExternal + arOpenDKIMPass, false,
			"1 header(s) naming mx.example.test ignored: they are below the Received field from mail-wr1-f41.google.example by mx.example.test"},
		// Attacks.
		{"the sender's own field when the server adds none",
			dovecotLMTP + rcvExternal + arOpenDKIMPass, false, "no DKIM or SPF result from mx.example.test at the top of the mail; 1 header(s)"},
		{"a forged pass right below the server's real fail",
			dovecotLMTP + arOpenDKIMFail + rcvExternal + arOpenDKIMPass, false, "found dkim=fail for gmail.example); 1 header(s)"},
		{"a forged pass right below the server's real fail, both below the reception",
			dovecotLMTP + rcvExternal + arOpenDKIMFail + arOpenDKIMPass, false, "2 header(s) naming mx.example.test ignored"},
		{"a failing field in the zone wins over a passing one",
			dovecotLMTP + arOpenDKIMPass + arOpenDKIMFail + rcvExternal, false,
			"mx.example.test says dkim=fail for gmail.example, which wins over its dkim=pass for gmail.example"},
		{"dmarc=fail wins over a dkim pass",
			dovecotLMTP + arDMARCFail + arOpenDKIMPass + rcvExternal, false, "says dmarc=fail for gmail.example, which wins"},
		{"a field of another authserv-id",
			dovecotLMTP + strings.Replace(arOpenDKIMPass, "mx.example.test", "mx.evil.example", 1) + rcvExternal, false,
			"no DKIM or SPF result from mx.example.test"},
		{"a pass for another domain than From",
			dovecotLMTP + strings.Replace(arOpenDKIMPass, "header.d=gmail.example", "header.d=evil.example", 1) + rcvExternal, false,
			"found dkim=pass for evil.example"},
		{"a field below a sender's field, with no Received at all",
			"Return-Path: <alice@gmail.example>\r\nX-Mailer: forged\r\n" + arOpenDKIMPass, false, "below the first field a sender writes (x-mailer)"},
		{"HELO naming the trusted host does not make the reception internal",
			dovecotLMTP + "Received: from mx.example.test (unknown [198.51.100.66])\r\n\tby mx.example.test (Postfix) with ESMTP id 4X; Sun, 22 Nov 2026 10:14:02 +0000\r\n" +
				arOpenDKIMPass, false, "below the Received field from mx.example.test by mx.example.test"},
		{"HELO as a loopback literal does not either",
			dovecotLMTP + "Received: from [127.0.0.1] (unknown [198.51.100.66])\r\n\tby mx.example.test (Postfix) with ESMTP id 4X; Sun, 22 Nov 2026 10:14:02 +0000\r\n" +
				arOpenDKIMPass, false, "ignored"},
		{"a loopback hop recorded by another host ends the zone",
			"Received: from localhost (localhost [127.0.0.1]) by relay.other.example (Postfix) with ESMTP id 1; Sun, 22 Nov 2026 10:14:03 +0000\r\n" +
				arOpenDKIMPass + rcvExternal, false, "ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(tt.hdr+senderPart), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			ok, why := AuthVerdict(m, "mx.example.test")
			if ok != tt.ok || !strings.Contains(why, tt.reason) {
				t.Errorf("ok = %v (%s)\nwant %v (%s)", ok, why, tt.ok, tt.reason)
			}
		})
	}
}

// TestAuthVerdictHandMade: a Mail not made by Read (no header kept) is
// never authenticated, whatever its AuthResults say.
func TestAuthVerdictHandMade(t *testing.T) {
	m := &Mail{From: "alice@gmail.example", AuthResults: []AuthResult{{Server: "mx.example.test",
		DKIM: []DKIMResult{{Value: "pass", Domain: "gmail.example"}}}}}
	if ok, why := AuthVerdict(m, "mx.example.test"); ok {
		t.Errorf("ok (%s), want a refusal", why)
	}
}

// TestAuthZoneHops: which Received fields count as hops inside the
// receiving machine, so that a field of the trusted server above them is
// still in the trusted zone. Every address a hop names must be a loopback
// address, written in brackets, in parentheses or bare; one outside
// address anywhere in the field makes it the reception from outside,
// below which a sender's fields begin.
func TestAuthZoneHops(t *testing.T) {
	hop := func(s string) string {
		return "Received: " + s + "; Sun, 22 Nov 2026 10:14:03 +0000 (UTC)\r\n"
	}
	tests := []struct {
		name, rcv string
		internal  bool
	}{
		{"loopback literal, recorded by the trusted host",
			hop("from localhost (localhost [127.0.0.1]) by mx.example.test (Postfix) with ESMTP id 1"), true},
		{"bare loopback address",
			hop("from 127.0.0.1 by mx.example.test with SMTP id 1"), true},
		{"a loopback literal and an outside one",
			hop("from localhost ([127.0.0.1]) by mx.example.test (Postfix) with ESMTP id 1 (originating [198.51.100.66])"), false},
		{"a loopback literal and an outside IPv6 one",
			hop("from localhost ([127.0.0.1]) by mx.example.test (Postfix) with ESMTP id 1 (originating [IPv6:2001:db8::66])"), false},
		{"a bare loopback address and a bare outside one",
			hop("from 127.0.0.1 by mx.example.test with SMTP id 1 via 198.51.100.66"), false},
		{"a bare outside address",
			hop("from 198.51.100.66 by mx.example.test with SMTP id 1"), false},
		{"the trusted host's name from an outside IPv6 address",
			hop("from mx.example.test ([IPv6:2001:db8::66]) by mx.example.test (Postfix) with ESMTP id 1"), false},
		{"the loopback IPv6 address",
			hop("from mx.example.test ([IPv6:::1]) by mx.example.test (Postfix) with ESMTP id 1"), true},
		{"an empty literal is no address: the names decide",
			hop("from mx.example.test ([]) by mx.example.test (Postfix) with ESMTP id 1"), true},
		{"an empty literal from another host",
			hop("from relay.other.example ([]) by mx.example.test (Postfix) with ESMTP id 1"), false},
		// A Received field without its date (";" and after) is read
		// as the same field with one.
		{"loopback literal, no date",
			"Received: from localhost (localhost [127.0.0.1]) by mx.example.test (Postfix) with ESMTP id 1\r\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(dovecotLMTP+tt.rcv+arOpenDKIMPass+rcvExternal+senderPart), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			ok, why := AuthVerdict(m, "mx.example.test")
			if ok != tt.internal {
				t.Errorf("ok = %v (%s); want %v: the hop is internal: %v", ok, why, tt.internal, tt.internal)
			}
			if !tt.internal && !strings.Contains(why, "1 header(s) naming mx.example.test ignored: they are below the Received field") {
				t.Errorf("reason %q does not say the field below the reception was ignored", why)
			}
		})
	}
}

// TestAuthFieldsOutsideTheFromDomain: results for another domain than the
// From address's (a mailing list's signature, a forwarder's) neither
// authenticate the sender nor fail them; a parenthesis inside a quoted
// reason is no comment, so the result after it is read; an SPF MAIL FROM
// written as "@domain" names that domain.
func TestAuthFieldsOutsideTheFromDomain(t *testing.T) {
	ar := func(results string) string {
		return "Authentication-Results: mx.example.test;\r\n\t" + results + "\r\n"
	}
	tests := []struct {
		name, fields string
		ok           bool
		reason       string
	}{
		{"a failing signature of a list beside dmarc=pass for From",
			ar("dkim=fail header.d=lists.example; dmarc=pass header.from=gmail.example"), true, "dmarc=pass for gmail.example"},
		{"a failing signature of a list beside spf=pass for From",
			ar("dkim=fail header.d=lists.example; spf=pass smtp.mailfrom=alice@gmail.example"), true, "spf=pass for gmail.example"},
		{"no signature at all (dkim=none) counts against From, without spf=pass",
			ar("dkim=none; dmarc=pass header.from=gmail.example"), false, "says dkim=none for gmail.example, which wins over its dmarc=pass"},
		{"a list's pass and From's own fail",
			ar("dkim=pass header.d=lists.example; dkim=fail header.d=gmail.example"), false, "found dkim=pass for lists.example, dkim=fail for gmail.example"},
		{"From's first failing result is the one named",
			ar("dkim=fail header.d=gmail.example; dkim=none"), false, "neither DKIM nor SPF passed for gmail.example"},
		{"the MAIL FROM domain written with its at sign",
			ar("dkim=fail header.d=lists.example; spf=pass smtp.mailfrom=@gmail.example"), true, "spf=pass for gmail.example"},
		{"a parenthesis inside a quoted reason",
			ar(`dkim=fail reason="key not found :(" header.d=gmail.example; spf=pass smtp.mailfrom=alice@gmail.example`), true, "spf=pass for gmail.example"},
		{"a quoted reason with a whole comment inside",
			ar(`dkim=fail reason="bad (sig)" header.d=gmail.example`), false, "found dkim=fail for gmail.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(dovecotLMTP+tt.fields+rcvExternal+senderPart), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			ok, why := AuthVerdict(m, "mx.example.test")
			if ok != tt.ok || !strings.Contains(why, tt.reason) {
				t.Errorf("ok = %v (%s)\nwant %v (%s)", ok, why, tt.ok, tt.reason)
			}
		})
	}
}

// TestAuthHeadCap: the header's top is kept up to maxHead fields, both
// sides: a field of the trusted server after maxHead-1 internal hops is
// in the zone; after maxHead hops it is past what is kept, and ignored.
func TestAuthHeadCap(t *testing.T) {
	lmtp := "Received: from mx.example.test by mx with LMTP id x; Sun, 22 Nov 2026 10:14:03 +0000\r\n"
	for _, tt := range []struct {
		hops int
		ok   bool
	}{{maxHead - 1, true}, {maxHead, false}} {
		m, err := Read([]byte(strings.Repeat(lmtp, tt.hops)+arOpenDKIMPass+rcvExternal+senderPart), base, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := AuthVerdict(m, "mx.example.test"); ok != tt.ok {
			t.Errorf("%d hops: ok = %v (%s), want %v", tt.hops, ok, why, tt.ok)
		}
	}
}

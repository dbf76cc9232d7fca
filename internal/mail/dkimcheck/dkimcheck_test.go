package dkimcheck

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"referee/internal/mail/dkimcheck/dkimtest"
)

func mailFrom(from, body string) string {
	return "From: Alice <" + from + ">\r\nTo: referee+1.aaaaaaaaaa.1@referee.test\r\nSubject: Re: move\r\n" +
		"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <m1@x>\r\n\r\n" + body + "\r\n"
}

// TestCheck: the referee's own DKIM verification, against DNS served on
// loopback (issue 28: --require-auth refused every mail under Postfix with
// OpenDKIM, whose Authentication-Results sit below Postfix's Received).
func TestCheck(t *testing.T) {
	zone := map[string][]string{
		"_dmarc.example.test": {"v=DMARC1; p=reject"},                // relaxed alignment (the default)
		"_dmarc.strict.test":  {"v=DMARC1; p=quarantine; adkim=s"},   // strict alignment
		"_dmarc.policy.test":  {"v=DMARC1; p=none; sp=reject"},       // the organizational domain's record
		"_dmarc.broken.test":  {"v=DMARC1; p=nonsense-not-a-policy"}, // unreadable
	}
	example := dkimtest.NewSigner(t, "example.test", zone)
	exampleMail := dkimtest.NewSigner(t, "mail.example.test", zone)
	evil := dkimtest.NewSigner(t, "evil.test", zone)
	strictSub := dkimtest.NewSigner(t, "mail.strict.test", zone)
	nodmarc := dkimtest.NewSigner(t, "nodmarc.test", zone)
	nodmarcSub := dkimtest.NewSigner(t, "mail.nodmarc.test", zone)
	policySub := dkimtest.NewSigner(t, "mail.policy.test", zone)
	broken := dkimtest.NewSigner(t, "broken.test", zone)
	srv := dkimtest.Start(t, zone)
	res, err := NewResolver(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	c := New(res)
	signed := example.Sign(t, mailFrom("alice@example.test", "e4"))
	tampered := bytes.Replace(bytes.Clone(signed), []byte("\r\ne4\r\n"), []byte("\r\nQh5\r\n"), 1)
	for _, tc := range []struct {
		name string
		raw  []byte
		from string
		ok   bool
		says string
	}{
		{"signed by the From domain", signed, "example.test", true, "aligned"},
		{"tampered body", tampered, "example.test", false, "failed"},
		{"tampered From", bytes.Replace(bytes.Clone(signed), []byte("alice@"), []byte("mallo@"), 1), "example.test", false, "failed"},
		{"unaligned signature", evil.Sign(t, mailFrom("alice@example.test", "e4")), "example.test", false, "not aligned"},
		{"subdomain under relaxed DMARC", exampleMail.Sign(t, mailFrom("alice@example.test", "e4")), "example.test", true, "relaxed"},
		{"subdomain under strict DMARC", strictSub.Sign(t, mailFrom("bob@strict.test", "e4")), "strict.test", false, "not aligned"},
		{"no DMARC: the domain's own signature", nodmarc.Sign(t, mailFrom("carol@nodmarc.test", "e4")), "nodmarc.test", true, "no DMARC record"},
		{"no DMARC: a subdomain's signature", nodmarcSub.Sign(t, mailFrom("carol@nodmarc.test", "e4")), "nodmarc.test", false, "not aligned"},
		{"DMARC of the organizational domain", policySub.Sign(t, mailFrom("dan@x.policy.test", "e4")), "x.policy.test", true, "DMARC record of policy.test"},
		{"unsigned", []byte(mailFrom("alice@example.test", "e4")), "example.test", false, "no DKIM signature"},
		{"key not published", dkimtest.NewSigner(t, "nokey.test", map[string][]string{}).Sign(t, mailFrom("e@nokey.test", "e4")), "nokey.test", false, "failed"},
		{"unreadable DMARC record", broken.Sign(t, mailFrom("f@broken.test", "e4")), "broken.test", false, "not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := c.Check(context.Background(), tc.raw, tc.from)
			if v.OK != tc.ok || !strings.Contains(v.Reason, tc.says) {
				t.Errorf("Check = %v, %q; want %v and a reason saying %q", v.OK, v.Reason, tc.ok, tc.says)
			}
		})
	}
}

// TestResolverCachesByTTL: an answer, found or not, is kept for its TTL
// (300 s for the records, the SOA minimum of 120 s for a missing name) and
// asked again after it.
func TestResolverCachesByTTL(t *testing.T) {
	srv := dkimtest.Start(t, map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=reject"}})
	res, err := NewResolver(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	res.now = func() time.Time { return now }
	ctx := context.Background()
	ask := func(name string) {
		t.Helper()
		txts, err := res.LookupTXT(ctx, name)
		var dnsErr *net.DNSError
		switch {
		case name == "_dmarc.example.test" && (err != nil || len(txts) != 1):
			t.Fatalf("LookupTXT(%s) = %q, %v", name, txts, err)
		case name != "_dmarc.example.test" && !(errorsAs(err, &dnsErr) && dnsErr.IsNotFound):
			t.Fatalf("LookupTXT(%s) = %q, %v; want not found", name, txts, err)
		}
	}
	for _, step := range []struct {
		after time.Duration
		want  int // questions the server has had
	}{
		{0, 2}, {time.Minute, 2}, {59 * time.Second, 2}, // 119 s: both kept
		{2 * time.Second, 3},   // 121 s: the missing name expired
		{180 * time.Second, 5}, // 301 s: the record expired, and the missing name (asked at 121 s) too
	} {
		now = now.Add(step.after)
		ask("_dmarc.example.test")
		ask("_dmarc.missing.test")
		if got := srv.Questions(); got != step.want {
			t.Errorf("after %v more: the server was asked %d times, want %d", step.after, got, step.want)
		}
	}
}

// TestResolverServerDown: a server that does not answer is a temporary
// failure, and is not cached.
func TestResolverServerDown(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close() // nothing listens there now
	res, err := NewResolver(addr)
	if err != nil {
		t.Fatal(err)
	}
	res.timeout = 500 * time.Millisecond
	_, err = res.LookupTXT(context.Background(), "_dmarc.example.test")
	var dnsErr *net.DNSError
	if !errorsAs(err, &dnsErr) || !dnsErr.IsTemporary {
		t.Fatalf("LookupTXT with no server = %v; want a temporary *net.DNSError", err)
	}
	if len(res.cache) != 0 {
		t.Errorf("a failure was cached: %v", res.cache)
	}
}

// TestStrangersDNSNotAsked: the keys of signatures that cannot align with
// the From domain are not looked up (a stranger's DNS may be slow on
// purpose), and a domain whose DNS failed is not asked again for a minute,
// so a stream of such mail costs one failure a minute, not one a mail.
func TestStrangersDNSNotAsked(t *testing.T) {
	zone := map[string][]string{"_dmarc.example.test": {"v=DMARC1; p=reject"}, "_dmarc.slow.test": {dkimtest.ServFail}}
	evil := dkimtest.NewSigner(t, "evil.test", zone)
	slow := dkimtest.NewSigner(t, "slow.test", zone)
	srv := dkimtest.Start(t, zone)
	res, err := NewResolver(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	c := New(res)
	ctx := context.Background()
	if v := c.Check(ctx, evil.Sign(t, mailFrom("alice@example.test", "e4")), "example.test"); v.OK || srv.Asked("sel._domainkey.evil.test") != 0 {
		t.Errorf("a signature of evil.test on mail from example.test: %v, and evil.test's key was asked %d times; want refused, never asked",
			v, srv.Asked("sel._domainkey.evil.test"))
	}
	for i := range 3 {
		v := c.Check(ctx, slow.Sign(t, mailFrom("m@slow.test", "e4")), "slow.test")
		if v.OK || !v.Temporary {
			t.Errorf("mail %d from slow.test, whose DNS fails: %+v; want refused as temporary", i, v)
		}
	}
	if n := srv.Asked("_dmarc.slow.test"); n != 1 {
		t.Errorf("_dmarc.slow.test was asked %d times for 3 mails, want 1", n)
	}
}

// Package dkimtest serves DKIM keys and DMARC records from a DNS server on
// loopback and signs mail with those keys, for tests of the referee's own
// DKIM verification. Only tests import it.
package dkimtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/miekg/dns"
)

// Server is a DNS server on 127.0.0.1 answering TXT questions from a fixed
// zone, with TTL 300 for records and an SOA minimum of 120 for missing
// names; a name whose only record is ServFail gets SERVFAIL. It counts the
// questions it is asked.
type Server struct {
	Addr string // host:port

	mu    sync.Mutex
	txt   map[string][]string
	asked map[string]int
}

// ServFail as a name's only record makes the server answer SERVFAIL.
const ServFail = "!SERVFAIL"

// Start serves zone (names in lower case, without the final dot) until the
// test ends. zone must not change afterwards.
func Start(t testing.TB, zone map[string][]string) *Server {
	t.Helper()
	s := &Server{txt: zone, asked: map[string]int{}}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(s.serve)}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	s.Addr = pc.LocalAddr().String()
	return s
}

func (s *Server) serve(w dns.ResponseWriter, q *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(q)
	name := strings.ToLower(strings.TrimSuffix(q.Question[0].Name, "."))
	s.mu.Lock()
	s.asked[name]++
	txts, ok := s.txt[name]
	s.mu.Unlock()
	if len(txts) == 1 && txts[0] == ServFail {
		m.Rcode, txts = dns.RcodeServerFailure, nil
	} else if !ok {
		m.Rcode = dns.RcodeNameError
		m.Ns = []dns.RR{&dns.SOA{Hdr: dns.RR_Header{Name: "test.", Rrtype: dns.TypeSOA, Class: dns.ClassINET, Ttl: 600},
			Ns: "ns.test.", Mbox: "root.test.", Serial: 1, Refresh: 1, Retry: 1, Expire: 1, Minttl: 120}}
	}
	for _, txt := range txts {
		// Long records in 255-byte character-strings, as zone files have them.
		var parts []string
		for len(txt) > 255 {
			parts, txt = append(parts, txt[:255]), txt[255:]
		}
		m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Question[0].Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 300},
			Txt: append(parts, txt)})
	}
	w.WriteMsg(m)
}

// Questions is how many questions the server was asked.
func (s *Server) Questions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.asked {
		n += c
	}
	return n
}

// Asked is how many times the server was asked about name.
func (s *Server) Asked(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[name]
}

// Signer is an Ed25519 DKIM key of one domain, published (by NewSigner) as
// sel._domainkey.<domain>.
type Signer struct {
	Domain string
	key    ed25519.PrivateKey
}

// NewSigner makes a key for domain and adds its record to zone.
func NewSigner(t testing.TB, domain string, zone map[string][]string) Signer {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	zone["sel._domainkey."+domain] = []string{"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}
	return Signer{Domain: domain, key: priv}
}

// Sign returns raw with a DKIM-Signature of the signer's domain over
// From, To, Subject, Date and Message-ID and the body.
func (s Signer) Sign(t testing.TB, raw string) []byte {
	t.Helper()
	var out bytes.Buffer
	err := dkim.Sign(&out, strings.NewReader(raw), &dkim.SignOptions{Domain: s.Domain, Selector: "sel", Signer: s.key,
		HeaderKeys: []string{"From", "To", "Subject", "Date", "Message-ID"}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

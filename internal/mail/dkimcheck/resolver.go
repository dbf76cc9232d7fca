package dkimcheck

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// Resolver looks up TXT records at one DNS server (a recursive resolver)
// and keeps each answer, found or not found, for as long as its TTL says
// (at most MaxTTL): DKIM keys and DMARC records are looked up for every
// mail from a domain, and the cache makes a burst of mail from one domain
// cost one lookup. The standard library's resolver does not report TTLs,
// hence this small client. It is safe for concurrent use.
type Resolver struct {
	addr    string // host:port of the DNS server
	timeout time.Duration
	now     func() time.Time

	mu    sync.Mutex
	cache map[string]cached
	// failing holds, by organizational domain, until when lookups under it
	// fail at once: a domain whose DNS timed out or failed is not asked
	// again for failWait, so a stream of mail from a domain with slow DNS
	// costs one timeout a minute, not one a mail.
	failing map[string]time.Time
}

// failWait is how long a domain whose lookup failed is not asked again.
const failWait = time.Minute

type cached struct {
	txts    []string
	err     error // a *net.DNSError with IsNotFound, or nil
	expires time.Time
}

const (
	// MaxTTL caps how long an answer is kept, whatever its TTL.
	MaxTTL = 24 * time.Hour
	// negativeTTL is how long a "not found" without an SOA is kept.
	negativeTTL = 5 * time.Minute
	// maxCache caps the names kept; when full, expired ones go first, then all.
	maxCache = 10_000
)

// NewResolver returns a Resolver asking the DNS server at addr
// ("127.0.0.1:5353", or a host without port for port 53). An empty addr
// means the first nameserver of /etc/resolv.conf (the system's), else
// 127.0.0.1:53.
func NewResolver(addr string) (*Resolver, error) {
	if addr == "" {
		addr = systemNameserver("/etc/resolv.conf")
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(strings.Trim(addr, "[]"), "53")
	}
	host, _, _ := net.SplitHostPort(addr)
	if net.ParseIP(host) == nil {
		return nil, fmt.Errorf("the DNS server %q is not an IP address (with an optional :port), e.g. 127.0.0.1:53 or [::1]:53", addr)
	}
	return &Resolver{addr: addr, timeout: 3 * time.Second, now: time.Now, cache: map[string]cached{}, failing: map[string]time.Time{}}, nil
}

// Addr is the DNS server asked.
func (r *Resolver) Addr() string { return r.addr }

// systemNameserver reads the first nameserver of a resolv.conf.
func systemNameserver(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "127.0.0.1:53"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 2 && fields[0] == "nameserver" {
			if ip := net.ParseIP(strings.SplitN(fields[1], "%", 2)[0]); ip != nil {
				return net.JoinHostPort(ip.String(), "53")
			}
		}
	}
	return "127.0.0.1:53"
}

// LookupTXT returns the TXT records of name, one string per record (its
// character-strings joined), as net.LookupTXT does: a name without TXT
// records gives a *net.DNSError with IsNotFound, a failure of the server
// one with IsTemporary.
func (r *Resolver) LookupTXT(ctx context.Context, name string) ([]string, error) {
	key := strings.ToLower(strings.TrimSuffix(name, "."))
	now := r.now()
	r.mu.Lock()
	if c, ok := r.cache[key]; ok && now.Before(c.expires) {
		r.mu.Unlock()
		return c.txts, c.err
	}
	org := orgDomain(key)
	if until, ok := r.failing[org]; ok && now.Before(until) {
		r.mu.Unlock()
		return nil, &net.DNSError{Err: "a lookup under " + org + " failed less than a minute ago", Name: key, Server: r.addr, IsTemporary: true}
	}
	r.mu.Unlock()
	txts, ttl, err := r.query(ctx, key)
	var dnsErr *net.DNSError
	if err != nil && !(errors.As(err, &dnsErr) && dnsErr.IsNotFound) {
		if ctx.Err() == nil { // the server failed, not the caller's budget
			r.mu.Lock()
			if len(r.failing) >= maxCache {
				clear(r.failing)
			}
			r.failing[org] = now.Add(failWait)
			r.mu.Unlock()
		}
		return nil, err // not kept as an answer
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.cache) >= maxCache {
		for k, c := range r.cache {
			if !now.Before(c.expires) {
				delete(r.cache, k)
			}
		}
		if len(r.cache) >= maxCache {
			clear(r.cache)
		}
	}
	r.cache[key] = cached{txts: txts, err: err, expires: now.Add(min(ttl, MaxTTL))}
	return txts, err
}

// query asks the server once over UDP (over TCP when the answer is
// truncated) and returns the TXT records, the TTL to keep the answer for,
// and a *net.DNSError for a name without TXT records or a failure.
func (r *Resolver) query(ctx context.Context, name string) ([]string, time.Duration, error) {
	notFound := &net.DNSError{Err: "no TXT record", Name: name, Server: r.addr, IsNotFound: true}
	temp := func(err error) error {
		return &net.DNSError{Err: err.Error(), Name: name, Server: r.addr, IsTemporary: true, IsTimeout: errors.Is(err, context.DeadlineExceeded)}
	}
	qname, err := dnsmessage.NewName(name + ".")
	if err != nil {
		return nil, negativeTTL, notFound // too long to exist
	}
	var idb [2]byte
	rand.Read(idb[:])
	id := binary.BigEndian.Uint16(idb[:])
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, RecursionDesired: true})
	b.EnableCompression()
	q := dnsmessage.Question{Name: qname, Type: dnsmessage.TypeTXT, Class: dnsmessage.ClassINET}
	var opt dnsmessage.ResourceHeader
	if err := errors.Join(b.StartQuestions(), b.Question(q), b.StartAdditionals(),
		opt.SetEDNS0(4096, dnsmessage.RCodeSuccess, false)); err != nil {
		return nil, 0, temp(err)
	}
	if err := b.OPTResource(opt, dnsmessage.OPTResource{}); err != nil {
		return nil, 0, temp(err)
	}
	msg, err := b.Finish()
	if err != nil {
		return nil, 0, temp(err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.exchange(ctx, "udp", msg)
	if err == nil {
		var h dnsmessage.Header
		if h, err = peekHeader(resp); err == nil && h.Truncated {
			resp, err = r.exchange(ctx, "tcp", msg)
		}
	}
	if err != nil {
		return nil, 0, temp(err)
	}
	var p dnsmessage.Parser
	h, err := p.Start(resp)
	if err != nil {
		return nil, 0, temp(fmt.Errorf("reading the answer: %w", err))
	}
	if h.ID != id || !h.Response {
		return nil, 0, temp(errors.New("an answer to another question"))
	}
	switch h.RCode {
	case dnsmessage.RCodeSuccess, dnsmessage.RCodeNameError:
	default:
		return nil, 0, temp(fmt.Errorf("the server answered %v", h.RCode))
	}
	if err := p.SkipAllQuestions(); err != nil {
		return nil, 0, temp(err)
	}
	var txts []string
	ttl := MaxTTL
	for {
		ah, err := p.AnswerHeader()
		if errors.Is(err, dnsmessage.ErrSectionDone) {
			break
		}
		if err != nil {
			return nil, 0, temp(err)
		}
		if ah.Type != dnsmessage.TypeTXT || ah.Class != dnsmessage.ClassINET {
			if err := p.SkipAnswer(); err != nil {
				return nil, 0, temp(err)
			}
			continue
		}
		rr, err := p.TXTResource()
		if err != nil {
			return nil, 0, temp(err)
		}
		txts = append(txts, strings.Join(rr.TXT, ""))
		ttl = min(ttl, time.Duration(ah.TTL)*time.Second)
	}
	if len(txts) > 0 {
		return txts, ttl, nil
	}
	// Not found: keep it for the SOA's negative TTL (RFC 2308).
	neg := negativeTTL
	for {
		ah, err := p.AuthorityHeader()
		if err != nil {
			break
		}
		if ah.Type != dnsmessage.TypeSOA {
			if p.SkipAuthority() != nil {
				break
			}
			continue
		}
		soa, err := p.SOAResource()
		if err != nil {
			break
		}
		neg = time.Duration(min(ah.TTL, soa.MinTTL)) * time.Second
		break
	}
	return nil, neg, notFound
}

func peekHeader(resp []byte) (dnsmessage.Header, error) {
	var p dnsmessage.Parser
	return p.Start(resp)
}

// exchange sends msg and reads one answer.
func (r *Resolver) exchange(ctx context.Context, network string, msg []byte) ([]byte, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, r.addr)
	if err != nil {
		return nil, fmt.Errorf("asking the DNS server %s: %w", r.addr, err)
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if network == "tcp" {
		framed := binary.BigEndian.AppendUint16(nil, uint16(len(msg)))
		if _, err := c.Write(append(framed, msg...)); err != nil {
			return nil, fmt.Errorf("asking the DNS server %s over TCP: %w", r.addr, err)
		}
		var n [2]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return nil, fmt.Errorf("reading the DNS server %s over TCP: %w", r.addr, err)
		}
		resp := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(c, resp); err != nil {
			return nil, fmt.Errorf("reading the DNS server %s over TCP: %w", r.addr, err)
		}
		return resp, nil
	}
	if _, err := c.Write(msg); err != nil {
		return nil, fmt.Errorf("asking the DNS server %s: %w", r.addr, err)
	}
	buf := make([]byte, 65535)
	n, err := c.Read(buf)
	if err != nil {
		return nil, fmt.Errorf("reading the DNS server %s: %w", r.addr, err)
	}
	return buf[:n], nil
}

// Package dkimcheck lets the referee verify a mail's DKIM signatures
// itself, with the DMARC alignment of the From domain, as evidence that a
// mail comes from the domain of its From address (serve --require-auth
// dkim or either; see docs/require-auth.md). Keys and DMARC records are
// looked up over DNS at a configurable server and kept by their TTL
// (Resolver).
package dkimcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-msgauth/dmarc"
	"golang.org/x/net/publicsuffix"

	"referee/internal/mail/reader"
)

// maxSignatures caps the signatures verified in one mail (each may cost a
// DNS lookup and an RSA verification), and checkBudget the time one mail's
// check may take, DNS included: mail is read one at a time, so this is the
// most one mail can delay the next.
const (
	maxSignatures = 5
	checkBudget   = 10 * time.Second
)

// lookupFor reports whether the TXT name is one the check of a mail from
// fromDomain needs: a DMARC record of fromDomain or of its organizational
// domain fromOrg, or a DKIM key (<selector>._domainkey.<d>) of a domain d
// under fromOrg, the only ones that can be aligned.
func lookupFor(name, fromDomain, fromOrg string) bool {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if name == "_dmarc."+fromDomain || name == "_dmarc."+fromOrg {
		return true
	}
	_, d, ok := strings.Cut(name, "._domainkey.")
	return ok && orgDomain(d) == fromOrg
}

// Verdict is what the referee's own DKIM verification found. The type
// lives in package reader, beside the header's verdict, so that the core
// can read it without depending on this package's DNS code.
type Verdict = reader.DKIMVerdict

// Checker verifies DKIM signatures and their DMARC alignment.
type Checker struct {
	res *Resolver
}

// New returns a Checker looking keys and policies up through res.
func New(res *Resolver) *Checker { return &Checker{res: res} }

// Check verifies the DKIM signatures of raw for the From domain fromDomain
// (lower case). The mail passes when one signature verifies and its
// signing domain (d=) is aligned with fromDomain:
//
//   - when fromDomain (or, failing that, its organizational domain) has a
//     DMARC record, as its adkim= says: relaxed (the default) accepts a
//     d= with the same organizational domain (mail.example.org for
//     example.org), strict only fromDomain itself;
//   - when it has none, only a signature by fromDomain itself (strict):
//     without a policy nothing says a parent or sibling domain speaks for
//     it.
//
// A DMARC record's p= does not matter: whatever the domain asks receivers
// to do with failing mail, the referee acts only on mail that passes.
func (c *Checker) Check(ctx context.Context, raw []byte, fromDomain string) Verdict {
	fromDomain = strings.ToLower(strings.TrimSuffix(fromDomain, "."))
	if fromDomain == "" {
		return Verdict{Reason: "the mail has no From domain to verify DKIM for"}
	}
	ctx, cancel := context.WithTimeout(ctx, checkBudget)
	defer cancel()
	fromOrg := orgDomain(fromDomain)
	lookup := func(name string) ([]string, error) {
		// Only keys that could align with the From domain, and its DMARC
		// records, are looked up: a stranger's signatures of other domains
		// cannot pass, and their DNS is not asked (it may be slow on
		// purpose).
		if !lookupFor(name, fromDomain, fromOrg) {
			return nil, &net.DNSError{Err: "not looked up: not the From domain's", Name: name, IsNotFound: true}
		}
		return c.res.LookupTXT(ctx, name)
	}
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: maxSignatures})
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		return Verdict{Reason: fmt.Sprintf("the DKIM signatures could not be read: %v", err)}
	}
	if len(vs) == 0 {
		return Verdict{Reason: "the mail has no DKIM signature"}
	}
	policy, strict, perr := c.alignment(fromDomain, lookup)
	if perr != nil {
		return Verdict{Reason: perr.Error(), Temporary: true}
	}
	var found []string
	temporary := false
	for _, v := range vs {
		d := strings.ToLower(v.Domain)
		switch {
		case !aligned(d, fromDomain, strict):
			found = append(found, fmt.Sprintf("d=%s is not aligned with %s", d, fromDomain))
		case v.Err != nil:
			found = append(found, fmt.Sprintf("d=%s failed (%v)", d, v.Err))
			temporary = temporary || dkim.IsTempFail(v.Err)
		default:
			return Verdict{OK: true, Reason: fmt.Sprintf("a DKIM signature of %s verified by the referee, aligned with the From domain %s (%s)", d, fromDomain, policy)}
		}
	}
	return Verdict{Reason: fmt.Sprintf("no DKIM signature aligned with the From domain %s verified (%s): %s", fromDomain, policy, strings.Join(found, "; ")),
		Temporary: temporary}
}

// alignment looks up the DMARC record of domain (else of its
// organizational domain) and says which alignment it asks for.
func (c *Checker) alignment(domain string, lookup func(string) ([]string, error)) (policy string, strict bool, err error) {
	opts := &dmarc.LookupOptions{LookupTXT: lookup}
	org := orgDomain(domain)
	for _, d := range []string{domain, org} {
		rec, err := dmarc.LookupWithOptions(d, opts)
		switch {
		case err == nil:
			if rec.DKIMAlignment == dmarc.AlignmentStrict {
				return fmt.Sprintf("DMARC record of %s: strict alignment", d), true, nil
			}
			return fmt.Sprintf("DMARC record of %s: relaxed alignment", d), false, nil
		case errors.Is(err, dmarc.ErrNoPolicy):
		case dmarc.IsTempFail(err):
			return "", false, fmt.Errorf("the DMARC record of %s could not be looked up (%v): the mail may verify later", d, err)
		default:
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				break
			}
			return "", false, fmt.Errorf("the DMARC record of %s is not valid (%v): DKIM not trusted for it", d, err)
		}
		if org == domain {
			break
		}
	}
	return fmt.Sprintf("no DMARC record for %s: only its own signature counts", domain), true, nil
}

// aligned reports whether the signing domain d is aligned with the From
// domain (RFC 7489 3.1.1).
func aligned(d, from string, strict bool) bool {
	if d == from {
		return true
	}
	return !strict && orgDomain(d) == orgDomain(from)
}

// orgDomain is the organizational domain (RFC 7489 3.2): the public
// suffix plus one label.
func orgDomain(d string) string {
	if o, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return o
	}
	return d
}

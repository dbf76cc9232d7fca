// Package dkimsign signs the referee's outgoing mail with DKIM (RFC 6376),
// so that the players' providers can tell it really comes from the
// referee's domain, and makes the keys for it.
package dkimsign

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

// Signer signs mail for one domain and selector.
type Signer struct {
	opts dkim.SignOptions
}

// signedHeaders are the fields covered by the signature (RFC 6376 5.4.1's
// recommendation, for the fields the referee writes).
var signedHeaders = []string{"From", "Reply-To", "Subject", "Date", "To", "Message-ID", "In-Reply-To", "References",
	"MIME-Version", "Content-Type", "Auto-Submitted"}

// New returns a signer for domain and selector with key.
func New(domain, selector string, key crypto.Signer) (*Signer, error) {
	if domain == "" || selector == "" {
		return nil, errors.New("DKIM needs the signing domain and a selector")
	}
	return &Signer{opts: dkim.SignOptions{Domain: domain, Selector: selector, Signer: key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: signedHeaders}}, nil
}

// Load reads a PEM private key (PKCS #8 or PKCS #1 RSA, as Keygen and
// opendkim-genkey write them) from path.
func Load(path, domain, selector string) (*Signer, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the DKIM key: %w", err)
	}
	block, _ := pem.Decode(raw)
	if block == nil {
		return nil, fmt.Errorf("the DKIM key %s is not PEM: create one with \"referee dkim-keygen\"", path)
	}
	var key crypto.Signer
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		var k any
		k, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		if err == nil {
			var ok bool
			if key, ok = k.(crypto.Signer); !ok {
				err = fmt.Errorf("a %T cannot sign", k)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the DKIM key %s: %w", path, err)
	}
	return New(domain, selector, key)
}

// Sign returns raw with a DKIM-Signature field on top (relaxed/relaxed,
// SHA-256, RSA or Ed25519 as the key is), its signing time t= set to at
// (the mail's Date; none when at is zero). The same raw, key and at give
// the same bytes: RSA PKCS #1 v1.5 and Ed25519 signatures are
// deterministic, and nothing else in the field depends on the clock. So a
// mail written again after a crash (the outbox writes and signs each mail
// when it sends it) is the same mail, byte for byte.
func (s *Signer) Sign(raw []byte, at time.Time) ([]byte, error) {
	o := s.opts
	var algo string
	var hash crypto.Hash
	switch o.Signer.Public().(type) {
	case *rsa.PublicKey:
		algo, hash = "rsa-sha256", crypto.SHA256
	case ed25519.PublicKey:
		algo, hash = "ed25519-sha256", crypto.Hash(0) // RFC 8463: Ed25519 over the SHA-256 digest
	default:
		return nil, fmt.Errorf("DKIM-signing a mail: a %T key cannot sign DKIM; use an RSA or Ed25519 key", o.Signer.Public())
	}
	head, body, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok {
		head, body = bytes.TrimSuffix(raw, []byte("\r\n")), nil
	}
	fields := splitFields(string(head) + "\r\n")
	bh := sha256.Sum256(relaxedBody(body))

	// The fields signed, each the last one of its name not yet taken
	// (RFC 6376 5.4.2); a field the mail lacks is left out.
	var names []string
	var canon bytes.Buffer
	used := make([]bool, len(fields))
	for _, key := range o.HeaderKeys {
		for i := len(fields) - 1; i >= 0; i-- {
			if !used[i] && strings.EqualFold(fieldName(fields[i]), key) {
				used[i] = true
				names = append(names, strings.ToLower(key))
				canon.WriteString(relaxedField(fields[i]))
				canon.WriteString("\r\n")
				break
			}
		}
	}
	sig := fmt.Sprintf("DKIM-Signature: v=1; a=%s; c=relaxed/relaxed; d=%s; s=%s;\r\n\t", algo, o.Domain, o.Selector)
	if !at.IsZero() {
		sig += fmt.Sprintf("t=%d; ", at.Unix())
	}
	sig += "h=" + strings.Join(names, ":") + ";\r\n\tbh=" + base64.StdEncoding.EncodeToString(bh[:]) + ";\r\n\tb="
	canon.WriteString(relaxedField(sig))
	digest := sha256.Sum256(canon.Bytes())
	signature, err := o.Signer.Sign(rand.Reader, digest[:], hash)
	if err != nil {
		return nil, fmt.Errorf("DKIM-signing a mail: %w", err)
	}
	b64 := base64.StdEncoding.EncodeToString(signature)
	var out bytes.Buffer
	out.WriteString(sig)
	for len(b64) > 72 {
		out.WriteString(b64[:72] + "\r\n\t")
		b64 = b64[72:]
	}
	out.WriteString(b64 + "\r\n")
	out.Write(raw)
	return out.Bytes(), nil
}

// splitFields splits a header block (CRLF line ends) into its fields, each
// with its folded continuation lines and without the final CRLF.
func splitFields(head string) []string {
	var fields []string
	for _, line := range strings.SplitAfter(head, "\r\n") {
		if line == "" {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && len(fields) > 0 {
			fields[len(fields)-1] += line
			continue
		}
		fields = append(fields, line)
	}
	for i, f := range fields {
		fields[i] = strings.TrimSuffix(f, "\r\n")
	}
	return fields
}

func fieldName(f string) string {
	name, _, _ := strings.Cut(f, ":")
	return strings.TrimRight(name, " \t")
}

// relaxedField is the "relaxed" canonical form of one header field (RFC
// 6376 3.4.2), without its CRLF.
func relaxedField(f string) string {
	name, value, _ := strings.Cut(f, ":")
	value = strings.ReplaceAll(value, "\r\n", "")
	return strings.ToLower(strings.TrimRight(name, " \t")) + ":" + collapse(value)
}

// collapse turns each run of spaces and tabs into one space and trims both
// ends.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
}

// relaxedBody is the "relaxed" canonical form of a body (RFC 6376 3.4.4):
// runs of whitespace within a line become one space, whitespace at the end
// of a line goes, and so do empty lines at the end of the body.
func relaxedBody(body []byte) []byte {
	lines := strings.Split(string(body), "\r\n")
	for i, l := range lines {
		keepLead := len(l) > 0 && (l[0] == ' ' || l[0] == '\t')
		l = collapse(l)
		if keepLead {
			l = " " + l
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\r\n") + "\r\n")
}

// Keygen makes a 2048-bit RSA key and returns it as PKCS #8 PEM, with the
// DNS TXT record that publishes its public half for selector and domain.
func Keygen(domain, selector string) (keyPEM []byte, record string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, "", fmt.Errorf("making a DKIM key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the DKIM key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the DKIM public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), Record(domain, selector, pub), nil
}

// Record writes the DNS TXT record for a DER (PKIX) RSA public key, split
// into strings of at most 255 characters as DNS requires.
func Record(domain, selector string, pkix []byte) string {
	value := "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(pkix)
	var parts []string
	for len(value) > 255 {
		parts = append(parts, value[:255])
		value = value[255:]
	}
	parts = append(parts, value)
	return fmt.Sprintf("%s._domainkey.%s. IN TXT ( \"%s\" )", selector, strings.TrimSuffix(domain, "."), strings.Join(parts, "\"\n\t\""))
}

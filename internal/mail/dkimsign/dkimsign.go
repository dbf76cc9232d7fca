// Package dkimsign signs the referee's outgoing mail with DKIM (RFC 6376),
// so that the players' providers can tell it really comes from the
// referee's domain, and makes the keys for it.
package dkimsign

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

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

// Sign returns raw with a DKIM-Signature field on top.
func (s *Signer) Sign(raw []byte) ([]byte, error) {
	opts := s.opts
	var out bytes.Buffer
	if err := dkim.Sign(&out, bytes.NewReader(raw), &opts); err != nil {
		return nil, fmt.Errorf("DKIM-signing a mail: %w", err)
	}
	return out.Bytes(), nil
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

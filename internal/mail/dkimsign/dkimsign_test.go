package dkimsign

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

func TestSignedMailVerifiesAgainstThePublishedRecord(t *testing.T) {
	keyPEM, record, err := Keygen("example.org", "ref2026")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(record, "ref2026._domainkey.example.org. IN TXT") {
		t.Errorf("record: %s", record)
	}
	path := filepath.Join(t.TempDir(), "dkim.pem")
	os.WriteFile(path, keyPEM, 0o600)
	s, err := Load(path, "example.org", "ref2026")
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte("From: Referee <referee@example.org>\r\nTo: alice@example.net\r\nSubject: [chess #1] Move 1\r\n" +
		"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <1.abc@example.org>\r\n\r\nWhite played e4.\r\n")
	signed, err := s.Sign(raw, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// The verifier reads the key from DNS: here, from the record printed
	// for the organiser, joined as a resolver would.
	txt := strings.Join(regexp.MustCompile(`"([^"]*)"`).FindAllString(record, -1), "")
	txt = strings.ReplaceAll(txt, `"`, "")
	lookup := func(domain string) ([]string, error) {
		if domain != "ref2026._domainkey.example.org" {
			t.Errorf("looked up %s", domain)
		}
		return []string{txt}, nil
	}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(signed), &dkim.VerifyOptions{LookupTXT: lookup})
	if err != nil || len(verifs) != 1 || verifs[0].Err != nil || verifs[0].Domain != "example.org" {
		t.Fatalf("verify: %v %+v", err, verifs)
	}
	// A changed body no longer verifies.
	tampered := bytes.Replace(signed, []byte("e4"), []byte("d4"), 1)
	verifs, _ = dkim.VerifyWithOptions(bytes.NewReader(tampered), &dkim.VerifyOptions{LookupTXT: lookup})
	if len(verifs) != 1 || verifs[0].Err == nil {
		t.Error("a tampered mail verified")
	}
}

func TestLoadRefusesJunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	os.WriteFile(path, []byte("not a key"), 0o600)
	if _, err := Load(path, "example.org", "s"); err == nil || !strings.Contains(err.Error(), "dkim-keygen") {
		t.Errorf("Load of junk: %v", err)
	}
}

// TestSignIsDeterministicAndVerifies: the outbox writes and signs a mail
// when it sends it, so a resend after a crash must be the same bytes: the
// same mail, key and time give the same signature, for RSA and Ed25519
// keys alike, and an independent verifier (go-msgauth) accepts it, also
// with folded fields and whitespace the relaxed forms must even out.
func TestSignIsDeterministicAndVerifies(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsaPub, _ := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	edPub, edKey, _ := ed25519.GenerateKey(rand.Reader)
	raw := []byte("From: Referee <referee@example.org>\r\nTo: alice@example.net\r\nSubject:  [chess #1]\r\n\tMove  1: your turn\r\n" +
		"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <1.abc@example.org>\r\nReferences: <a@x>\r\n <b@x>\r\n" +
		"Content-Type: text/plain\r\n\r\nWhite  played\te4.   \r\n  indented line\r\n\r\n\r\n")
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		key  crypto.Signer
		txt  string
	}{
		{"rsa", rsaKey, "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(rsaPub)},
		{"ed25519", edKey, "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(edPub)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New("example.org", "sel", tt.key)
			if err != nil {
				t.Fatal(err)
			}
			one, err := s.Sign(raw, at)
			if err != nil {
				t.Fatal(err)
			}
			two, _ := s.Sign(raw, at)
			if !bytes.Equal(one, two) {
				t.Errorf("two signatures of one mail differ:\n%s\n%s", one[:400], two[:400])
			}
			if !bytes.Contains(one, []byte("t=1795428000;")) {
				t.Errorf("the signing time is not the mail's date:\n%s", one[:300])
			}
			lookup := func(string) ([]string, error) { return []string{tt.txt}, nil }
			verifs, err := dkim.VerifyWithOptions(bytes.NewReader(one), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(verifs) != 1 || verifs[0].Err != nil {
				t.Fatalf("verify: %v %+v\n%s", err, verifs, one)
			}
			tampered := bytes.Replace(one, []byte("Move  1"), []byte("Move  2"), 1)
			verifs, _ = dkim.VerifyWithOptions(bytes.NewReader(tampered), &dkim.VerifyOptions{LookupTXT: lookup})
			if len(verifs) != 1 || verifs[0].Err == nil {
				t.Error("a mail with a changed subject verified")
			}
		})
	}
}

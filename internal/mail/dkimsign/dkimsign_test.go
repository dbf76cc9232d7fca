package dkimsign

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	signed, err := s.Sign(raw)
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

package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadCA: a file without a certificate is refused at start, saying
// what it holds instead.
func TestLoadCA(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		file, want string
	}{
		{filepath.Join(dir, "missing.pem"), "no such file"},
		{write("key.pem", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n"), "a private key, not a certificate"},
		{write("empty.pem", "nothing here\n"), "no PEM certificate"},
	} {
		if _, err := LoadCA(c.file); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--tls-ca") {
			t.Errorf("LoadCA(%s): %v; want an error naming --tls-ca and saying %q", filepath.Base(c.file), err, c.want)
		}
	}
}

// TestExplain: each TLS failure in words, and nothing for other errors.
func TestExplain(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("dial: %w", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), "--tls-ca"},
		{x509.HostnameError{Host: "mail.example.org", Certificate: &x509.Certificate{}}, `not valid for "mail.example.org"`},
		{x509.CertificateInvalidError{Reason: x509.Expired, Cert: &x509.Certificate{}}, "must renew it"},
		{tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, "--smtp-tls starttls"},
		{fmt.Errorf("connection refused"), ""},
	} {
		got := Explain(c.err, "--smtp-tls")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("Explain(%v) = %q; want %q", c.err, got, c.want)
		}
	}
}

// Package tlsconf holds what the referee's IMAP and SMTP connections share
// about TLS: the certificate authorities they trust (serve --tls-ca) and a
// plain explanation of a failed handshake, for the log and the outbox.
package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
)

// LoadCA reads the PEM certificates of file (a private CA's certificate,
// or a bundle) into a pool to trust instead of the system's authorities.
// It refuses a file without a single certificate, so that a wrong path or
// a key file is found at start, not at the first handshake.
func LoadCA(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--tls-ca %s: %w; give the PEM file of the CA that signed your mail server's certificate", file, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		what := "no PEM certificate"
		if strings.Contains(string(data), "PRIVATE KEY") {
			what = "a private key, not a certificate"
		}
		return nil, fmt.Errorf("--tls-ca %s holds %s; give the CA's certificate (a file with \"-----BEGIN CERTIFICATE-----\" blocks)", file, what)
	}
	return pool, nil
}

// Config is the TLS configuration for a connection to host: the
// system's authorities, or roots when not nil.
func Config(host string, roots *x509.CertPool, insecureSkipVerify bool) *tls.Config {
	return &tls.Config{ServerName: host, RootCAs: roots, InsecureSkipVerify: insecureSkipVerify}
}

// Explain says in words what a TLS failure means and what to do about
// it, or "" when err is no TLS failure. flag is the setting that chose
// TLS (--imap-tls or --smtp-tls), for the advice.
func Explain(err error, flag string) string {
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		verify   *tls.CertificateVerificationError
		alert    tls.AlertError
	)
	switch {
	case errors.As(err, &unknown):
		return "the TLS handshake failed: the server's certificate is signed by an authority this machine does not trust; if the server uses a private CA, give its certificate with --tls-ca FILE"
	case errors.As(err, &hostname):
		return fmt.Sprintf("the TLS handshake failed: the server's certificate is not valid for %q; connect with a name the certificate holds", hostname.Host)
	case errors.As(err, &invalid):
		return "the TLS handshake failed: the server's certificate is not valid (" + invalid.Error() + "); the server must renew it"
	case errors.As(err, &verify):
		return "the TLS handshake failed: the server's certificate could not be verified"
	case errors.As(err, &record):
		return fmt.Sprintf("the server did not answer in TLS: on a port that expects STARTTLS (587, 143) set %s starttls; on 465 or 993, tls", flag)
	case errors.As(err, &alert):
		return "the TLS handshake failed: the server refused it (" + alert.Error() + ")"
	}
	return ""
}

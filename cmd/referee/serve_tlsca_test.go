package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// privateCA makes a certificate authority and a server certificate for
// 127.0.0.1 signed by it, as a club's own CA would; it writes the CA's
// certificate to ca.pem and its key to key.pem in dir.
func privateCA(t *testing.T, dir string) *tls.Config {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Club CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ca.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(caKey)
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER, caDER}, PrivateKey: key}}}
}

// tlsMailServers starts an IMAP server (implicit TLS) holding one mail to
// referee (password "pw") and an SMTP server (implicit TLS, AUTH PLAIN
// with "pw"), both with a certificate from a private CA whose certificate
// is dir/ca.pem.
func tlsMailServers(t *testing.T, dir, referee string) (imapAddr, smtpAddr string, backend *loginSMTP) {
	t.Helper()
	tc := privateCA(t, dir)
	mem := imapmemserver.New()
	u := imapmemserver.NewUser(referee, "pw")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	mail := "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: hello\r\nMessage-ID: <a1@example.org>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nhelp\r\n"
	if _, err := u.Append("INBOX", literal{strings.NewReader(mail), int64(len(mail))}, &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	isrv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:   imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		Logger: log.New(io.Discard, "", 0),
	})
	iln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go isrv.Serve(tls.NewListener(iln, tc))
	t.Cleanup(func() { isrv.Close() })

	backend = &loginSMTP{password: "pw"}
	ssrv := smtp.NewServer(backend)
	ssrv.Domain = "localhost"
	ssrv.ErrorLog = quiet{}
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ssrv.Serve(tls.NewListener(sln, tc))
	t.Cleanup(func() { ssrv.Close() })
	return iln.Addr().String(), sln.Addr().String(), backend
}

// TestServeTLSCA (issue 38): a mail server whose certificate comes from a
// private CA is refused, and the refusal names --tls-ca; with --tls-ca the
// referee reads the mailbox (implicit TLS) and answers over SMTP (TLS).
// A --tls-ca that holds no certificate stops serve at once.
func TestServeTLSCA(t *testing.T) {
	const referee = "referee@example.test"
	dir := t.TempDir()
	imapAddr, smtpAddr, backend := tlsMailServers(t, dir, referee)
	db := filepath.Join(dir, "r.db")
	serve := func(extra ...string) (int, string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out, errb bytes.Buffer
		args := append([]string{"serve", "--once", "--db", db, "--address", referee, "--imap", imapAddr, "--imap-tls", "tls",
			"--imap-pass", "pw", "--smtp", smtpAddr, "--smtp-tls", "tls"}, extra...)
		return run(ctx, args, &out, &errb), errb.String()
	}
	code, logs := serve()
	if code != exitFail || !strings.Contains(logs, "reading the mailbox") || !strings.Contains(logs, "--tls-ca") {
		t.Errorf("without --tls-ca: exit %d, want %d with a TLS failure that names --tls-ca:\n%s", code, exitFail, logs)
	}
	code, logs = serve("--tls-ca", filepath.Join(dir, "ca.pem"))
	if code != exitOK {
		t.Fatalf("with --tls-ca: exit %d\n%s", code, logs)
	}
	backend.mu.Lock()
	got := len(backend.got)
	backend.mu.Unlock()
	if got != 1 {
		t.Errorf("with --tls-ca the SMTP server got %d mails; want the answer to the mail read over IMAP", got)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "key.pem"), "a private key, not a certificate"},
		{filepath.Join(dir, "missing.pem"), "no such file"},
	} {
		if code, logs := serve("--tls-ca", c.file); code != exitUsage || !strings.Contains(logs, c.want) {
			t.Errorf("--tls-ca %s: exit %d, want %d and %q:\n%s", c.file, code, exitUsage, c.want, logs)
		}
	}
}

// TestReadyzWithAnUntrustedCertificate (issue 38): with a wrong CA the log
// repeated "IMAP session failed ... unknown authority" while /readyz
// answered ok, as it only opened TCP connections. Now /readyz fails for
// IMAP and SMTP alike, with the reason; with --tls-ca it is ready.
func TestReadyzWithAnUntrustedCertificate(t *testing.T) {
	const referee = "referee@example.test"
	dir := t.TempDir()
	imapAddr, smtpAddr, _ := tlsMailServers(t, dir, referee)
	for _, c := range []struct {
		name  string
		extra []string
		want  []string
	}{
		{"no --tls-ca", nil, []string{"FAIL imap: the last IMAP session failed", "--tls-ca", "FAIL smtp: an SMTP session could not be opened", "TLS handshake"}},
		{"--tls-ca", []string{"--tls-ca", filepath.Join(dir, "ca.pem")}, []string{"ok imap", "ok smtp", "ok outbox"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			statusAddr := freeAddr(t)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int, 1)
			var out, errb syncBuffer
			go func() {
				args := append([]string{"serve", "--db", filepath.Join(t.TempDir(), "r.db"), "--address", referee, "--imap", imapAddr, "--imap-tls", "tls",
					"--imap-pass", "pw", "--smtp", smtpAddr, "--smtp-tls", "tls", "--status-addr", statusAddr}, c.extra...)
				done <- run(ctx, args, &out, &errb)
			}()
			defer func() { cancel(); <-done }()
			var last string
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				_, o, e := cli(t, "health", "--ready", "--url", statusAddr)
				last = o + e
				all := true
				for _, w := range c.want {
					all = all && strings.Contains(last, w)
				}
				if all {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Errorf("/readyz never said %q; last answer:\n%s\nlog:\n%s", c.want, last, errb.String())
		})
	}
}

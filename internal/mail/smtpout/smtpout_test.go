package smtpout

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// recorder is an in-process SMTP backend that records messages, or fails
// with a configured code.
type recorder struct {
	got      chan []byte
	failCode int
}

func (r *recorder) NewSession(*smtp.Conn) (smtp.Session, error) { return &sess{r: r}, nil }

type sess struct{ r *recorder }

func (s *sess) Reset()        {}
func (s *sess) Logout() error { return nil }
func (s *sess) Mail(string, *smtp.MailOptions) error {
	return nil
}
func (s *sess) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *sess) Data(r io.Reader) error {
	b, _ := io.ReadAll(r)
	if s.r.failCode != 0 {
		return &smtp.SMTPError{Code: s.r.failCode, Message: "refused for the test"}
	}
	s.r.got <- b
	return nil
}

func serve(t *testing.T, failCode int) (*recorder, string) {
	rec := &recorder{got: make(chan []byte, 4), failCode: failCode}
	srv := smtp.NewServer(rec)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return rec, ln.Addr().String()
}

func TestSendByteExact(t *testing.T) {
	rec, addr := serve(t, 0)
	raw := []byte("From: r@x.test\r\nTo: a@x.test\r\nSubject: hi\r\n\r\nline one\r\n.leading dot\r\n")
	if err := New(Config{Addr: addr, TLS: "none"}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw); err != nil {
		t.Fatal(err)
	}
	if got := <-rec.got; !bytes.Equal(got, raw) {
		t.Errorf("received %q\nwant %q", got, raw)
	}
}

func TestSendErrors(t *testing.T) {
	for _, tt := range []struct {
		code      int
		permanent bool
	}{{451, false}, {554, true}} {
		_, addr := serve(t, tt.code)
		err := New(Config{Addr: addr, TLS: "none"}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
		if err == nil || IsPermanent(err) != tt.permanent || !strings.Contains(err.Error(), "DATA") {
			t.Errorf("code %d: err %v, permanent %v; want permanent=%v naming the DATA step", tt.code, err, IsPermanent(err), tt.permanent)
		}
	}
}

func TestServerDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	start := time.Now()
	err := New(Config{Addr: addr, TLS: "none", Timeout: 5 * time.Second}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, []byte("x"))
	if err == nil || IsPermanent(err) {
		t.Errorf("err = %v, want a temporary connection error", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

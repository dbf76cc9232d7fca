package embedded

import (
	"context"
	"strings"
	"testing"

	"referee/internal/mail/smtpout"
)

func TestRelayRefusedAndPlusDelivery(t *testing.T) {
	s, err := Start(context.Background(), Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := smtpout.New(smtpout.Config{Addr: s.SMTPAddr(), TLS: "none"})
	err = c.Send(context.Background(), "a@example.test", []string{"someone@elsewhere.invalid"}, []byte("Subject: x\r\n\r\nx\r\n"))
	if err == nil || !smtpout.IsPermanent(err) || !strings.Contains(err.Error(), "relaying denied") {
		t.Errorf("mail to another domain: %v, want a permanent relaying refusal", err)
	}
	if got := s.EnsureUser("Referee+17.abc.3@Example.TEST"); got != "referee@example.test" {
		t.Errorf("plus-address account = %q, want referee@example.test", got)
	}
	if _, err := Start(context.Background(), Options{IMAPAddr: "0.0.0.0:0", SMTPAddr: "127.0.0.1:0"}); err == nil {
		t.Error("a non-loopback listen address was accepted")
	}
	if !strings.Contains(s.Instructions(), s.IMAPAddr()) {
		t.Error("instructions do not name the IMAP address")
	}
}

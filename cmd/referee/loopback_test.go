package main

import (
	"io"
	"log"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// loopbackIMAP serves user's mailbox (password "pw"), holding mails, from
// an in-memory IMAP server on 127.0.0.1 until the test ends, and returns
// its address and the user, to append more mail. wrap, when not nil, wraps
// each session (to watch or change the login).
func loopbackIMAP(t *testing.T, user string, mails []string, wrap func(imapserver.Session) imapserver.Session) (string, *imapmemserver.User) {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser(user, "pw")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	for _, m := range mails {
		if _, err := u.Append("INBOX", literal{strings.NewReader(m), int64(len(m))}, &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			s := imapserver.Session(mem.NewSession())
			if wrap != nil {
				s = wrap(s)
			}
			return s, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true,
		Logger:       log.New(io.Discard, "", 0),
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), u
}

// loopbackSMTP serves backend from a go-smtp server on 127.0.0.1 (plain
// AUTH allowed) until the test ends, and returns its address.
func loopbackSMTP(t *testing.T, backend smtp.Backend) string {
	t.Helper()
	srv := smtp.NewServer(backend)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = quiet{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

package daemon_test

import (
	"context"
	"path/filepath"
	"testing"

	"referee/internal/mail/embedded"
)

// startEmbedded starts the embedded mail server as `referee serve` does
// without --imap, its mailboxes kept in dir, with the players' accounts.
func startEmbedded(t *testing.T, dir string) *embedded.Server {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{referee, "alice@example.test", "bob@example.test"} {
		srv.EnsureUser(u)
	}
	return srv
}

func TestRestartEmbeddedModeAnswersNewMail(t *testing.T) {
	// Task 1: the README's default mode: the referee and its embedded mail
	// server stop (Ctrl-C) and start again on the same database and mail
	// directory; the moves sent afterwards are all answered, none taken
	// for one already processed.
	dbPath := filepath.Join(t.TempDir(), "referee.db")
	mailDir := dbPath + ".mail"
	w := &world{t: t, srv: startEmbedded(t, mailDir), db: dbPath, last: map[string]*mail{}}
	w.open()
	id := w.start("chess", nil)
	w.move("alice@example.test", "e4")
	w.move("bob@example.test", "e5")

	for _, moves := range [][2]string{{"Nf3", "Nc6"}, {"Bb5", "a6"}} {
		// Stop everything, start everything again.
		if err := w.app.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.srv.Close(); err != nil {
			t.Fatal(err)
		}
		w.srv = startEmbedded(t, mailDir)
		w.open()
		// w.move fails the test unless both players got the new board.
		w.move("alice@example.test", moves[0])
		w.move("bob@example.test", moves[1])
	}
	g, err := w.app.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != 6 {
		t.Errorf("%d moves recorded, want 6", len(g.Actions))
	}
}

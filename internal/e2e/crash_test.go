package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/notation"
	"referee/internal/rules"
)

// buildReferee builds the referee's binary for t.
func buildReferee(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "referee")
	build := exec.Command("go", "build", "-o", bin, "./cmd/referee")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the referee: %v\n%s", err, out)
	}
	return bin
}

// TestCrashSafety kills `referee serve` with SIGKILL at a different moment
// after every move of a 24-ply game (24 kills), restarting it each time. At
// the end every move was applied exactly once, every move was answered, and
// no reply was lost; a reply may be delivered twice with the same
// Message-ID when the kill fell between the SMTP server's acceptance and the
// outbox's commit (at-least-once delivery; mail clients merge such copies).
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the referee 24 times")
	}
	t.Parallel()
	eachBackend(t, testCrashSafety)
}

// testCrashSafety is TestCrashSafety on one mail system.
func testCrashSafety(t *testing.T, e *env) {
	alice, bob := setupPlayers()
	dir := t.TempDir()
	bin := buildReferee(t)
	db := filepath.Join(dir, "referee.db")
	a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.NewGame(context.Background(), "chess", alice.addr, bob.addr, nil)
	a.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The moves: a fixed walk through legal moves, chosen before the game.
	const plies = 24
	var moves []string
	pos := rules.Chess().Start()
	for i := range plies {
		legal := pos.Legal()
		m := legal[(i*7+2)%len(legal)]
		moves = append(moves, notation.SAN(pos, m))
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		if pos.Result().Over {
			t.Fatalf("the scripted walk ends the game at ply %d", i+1)
		}
	}

	var proc *exec.Cmd
	startServe := func() {
		proc = exec.Command(bin, "serve", "--db", db, "--address", referee, "--imap", e.mail.imapAddr(), "--imap-user", referee,
			"--imap-pass", password, "--imap-tls", "none", "--smtp", e.mail.smtpAddr(), "--smtp-tls", "none",
			"--poll", "200ms", "--retry", "200ms", "--log-level", "error")
		proc.Stdout, proc.Stderr = nil, os.Stderr
		if err := proc.Start(); err != nil {
			t.Fatal(err)
		}
	}
	kill := func() {
		proc.Process.Signal(syscall.SIGKILL)
		proc.Wait()
	}
	startServe()
	defer func() { kill() }()

	seen := map[string]map[string]bool{alice.addr: {}, bob.addr: {}}
	duplicates := 0
	// next waits for a reply p has not seen before, counting re-deliveries.
	next := func(p *player) {
		deadline := time.Now().Add(mailWait)
		for {
			for _, m := range e.drain(t, p.addr) {
				if seen[p.addr][m.messageID] {
					duplicates++
					continue
				}
				seen[p.addr][m.messageID] = true
				p.last = m
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s got no new reply within %v", p.addr, mailWait)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	next(alice)
	next(bob)
	players := []*player{alice, bob}
	kills := 0
	for i, mv := range moves {
		e.send(t, players[i%2], mv)
		// Kill somewhere between 0 and 390 ms after the move was sent:
		// before it was read, while it is processed, while replies go out.
		time.Sleep(time.Duration((i*53)%400) * time.Millisecond)
		kill()
		kills++
		startServe()
		next(alice)
		next(bob)
	}
	kill()
	a, err = app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	final, err := a.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Actions) != plies {
		t.Errorf("%d actions applied, want exactly %d", len(final.Actions), plies)
	}
	for i, act := range final.Actions {
		if act.SAN != moves[i] {
			t.Errorf("action %d is %s, want %s", i+1, act.SAN, moves[i])
		}
	}
	for _, p := range players {
		if n := len(seen[p.addr]); n != plies+1 {
			t.Errorf("%s received %d distinct replies, want %d", p.addr, n, plies+1)
		}
	}
	counts, _ := a.Store().InboundCount(context.Background())
	if counts["applied"] != plies {
		t.Errorf("inbound outcomes %v, want %d applied", counts, plies)
	}
	t.Logf("%d SIGKILLs; %d replies re-delivered with the same Message-ID; inbound %v", kills, duplicates, counts)
}

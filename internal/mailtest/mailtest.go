// Package mailtest starts private Dovecot (IMAP, LMTP) and Postfix (SMTP)
// instances on 127.0.0.1 for one test, with scripts/mailservers.sh: their
// own configuration, queue, mailboxes, logs and pid files in a fresh state
// directory, on free high ports. The machine's own mail servers and their
// configuration are never touched, and only the processes started here are
// ever stopped.
//
// The servers run only when asked: CI=true or REFEREE_E2E=1. Otherwise
// Start skips the test with a message saying how to run it.
package mailtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Domain is the mail domain of every instance.
const Domain = "example.test"

// Password is every account's password.
const Password = "secret"

// Users are the accounts every instance has (local parts, @Domain).
const Users = "referee white black alice bob carol dave mallory"

// Servers is one private pair of mail servers.
type Servers struct {
	IMAPAddr, SMTPAddr, LMTPAddr string
	// State is the instance's directory: configuration, queue, mailboxes,
	// logs (dovecot.log, postfix.log).
	State  string
	script string
}

// Enabled reports whether the end-to-end tests were asked for, and if not,
// how to ask.
func Enabled() (bool, string) {
	if os.Getenv("CI") == "true" || os.Getenv("REFEREE_E2E") == "1" {
		return true, ""
	}
	return false, "end-to-end test through private Dovecot and Postfix instances; run it with " +
		"REFEREE_E2E=1 go test ./internal/e2e (as root, with dovecot-imapd dovecot-lmtpd postfix installed; CI=true runs it too)"
}

// Start starts a private instance for tb, or skips tb when the end-to-end
// tests were not asked for. The instance is stopped, and its state
// directory removed, when tb ends (kept, with its path logged, when
// REFEREE_E2E_KEEP=1).
func Start(tb testing.TB) *Servers {
	tb.Helper()
	if ok, why := Enabled(); !ok {
		tb.Skip(why)
	}
	for _, c := range []string{"dovecot", "doveadm", "postconf"} {
		if _, err := exec.LookPath(c); err != nil {
			tb.Fatalf("%s is not installed: apt-get install dovecot-imapd dovecot-lmtpd postfix (.ci/run does)", c)
		}
	}
	if os.Geteuid() != 0 {
		tb.Fatal("the end-to-end tests run Postfix's master daemon, which needs root")
	}
	script, err := scriptPath()
	if err != nil {
		tb.Fatal(err)
	}
	sweep(script, tb)
	var s *Servers
	for attempt := 1; ; attempt++ {
		s, err = start(script)
		if err == nil {
			break
		}
		// A port picked as free may have been taken meanwhile by another
		// test package: pick again.
		if attempt == 3 {
			tb.Fatalf("starting private mail servers: %v", err)
		}
	}
	tb.Cleanup(func() {
		if err := s.run("stop"); err != nil {
			tb.Errorf("stopping private mail servers: %v", err)
			return
		}
		if os.Getenv("REFEREE_E2E_KEEP") == "1" {
			tb.Logf("mail server state and logs kept in %s", s.State)
			return
		}
		if tb.Failed() {
			tb.Logf("mail server logs removed with %s; REFEREE_E2E_KEEP=1 keeps them", s.State)
		}
		os.RemoveAll(s.State)
	})
	return s
}

func start(script string) (*Servers, error) {
	ports, err := freePorts(3)
	for try := 0; err == nil && try < 20 && anyTaken(ports); try++ {
		ports, err = freePorts(3)
	}
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", statePrefix)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if err := writeOwner(dir); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("state directory: %w", err)
	}
	s := &Servers{
		IMAPAddr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])),
		SMTPAddr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1])),
		LMTPAddr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[2])),
		State:    dir,
		script:   script,
	}
	env := []string{
		"REFEREE_TEST_IMAP_PORT=" + strconv.Itoa(ports[0]),
		"REFEREE_TEST_SMTP_PORT=" + strconv.Itoa(ports[1]),
		"REFEREE_TEST_LMTP_PORT=" + strconv.Itoa(ports[2]),
		"REFEREE_TEST_USERS=" + Users,
	}
	if err := s.runEnv(env, "start"); err != nil {
		s.run("stop") // whatever half of it started
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// StopPostfix stops this instance's Postfix only (the machine's own
// Postfix, if any, is not touched).
func (s *Servers) StopPostfix() error { return s.run("stop", "postfix") }

// StartPostfix starts this instance's Postfix again, on the same port.
func (s *Servers) StartPostfix() error { return s.run("start", "postfix") }

func (s *Servers) run(args ...string) error { return s.runEnv(nil, args...) }

func (s *Servers) runEnv(env []string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{s.script, args[0], s.State}, args[1:]...)...)
	cmd.Env = append(os.Environ(), env...)
	// No stdin or stdout: the daemons inherit nothing a caller waits on.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("mailservers.sh %s %s: %w: %s", strings.Join(args, " "), s.State, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return nil
}

const statePrefix = "refmail-"

// processID names a running process for as long as it runs: its pid and its
// start time (pids are reused), or "" when there is no such process.
func processID(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The fields after the command name, which is in parentheses and may
	// hold anything; the start time is field 22 of the whole line.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return fmt.Sprintf("%d %s", pid, f[19])
}

// writeOwner records in dir that this process owns the instance, at once:
// the file appears whole (a rename), so that a sweep by a test starting
// beside this one never reads half of it, takes it for a process that is
// gone, and stops servers still in use.
func writeOwner(dir string) error {
	tmp := filepath.Join(dir, "owner.tmp")
	if err := os.WriteFile(tmp, []byte(processID(os.Getpid())), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "owner"))
}

// sweep stops the instances that earlier test processes started and could
// not stop (a test binary killed by -timeout runs no cleanup): those whose
// state directory names an owner process that no longer runs. The script
// signals only the pids recorded in that state directory.
func sweep(script string, tb testing.TB) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), statePrefix+"*"))
	for _, dir := range dirs {
		owner, err := os.ReadFile(filepath.Join(dir, "owner"))
		if err != nil {
			continue
		}
		var pid int
		var start uint64
		if _, err := fmt.Sscanf(string(owner), "%d %d", &pid, &start); err != nil || processID(pid) == string(owner) {
			continue
		}
		s := &Servers{State: dir, script: script}
		if err := s.run("stop"); err != nil {
			tb.Logf("stale mail servers in %s: %v", dir, err)
			continue
		}
		os.RemoveAll(dir)
	}
}

// anyTaken reports whether a port is one of another instance's, running or
// not yet removed, on this machine (its state directory's ports file). A
// port free now may be one whose server is stopped for a while on purpose
// (TestPostfixDownThenBack), while that test's referee keeps trying it: a
// new instance there would receive mail meant for another test, whose
// players have the same addresses.
func anyTaken(ports []int) bool {
	files, _ := filepath.Glob(filepath.Join(os.TempDir(), statePrefix+"*", "ports"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			_, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && slices.Contains(ports, n) {
				return true
			}
		}
	}
	return false
}

// freePorts asks the kernel for n distinct free ports on 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func scriptPath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding scripts/mailservers.sh: %w", err)
	}
	for {
		p := filepath.Join(dir, "scripts", "mailservers.sh")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("finding scripts/mailservers.sh: %w", err)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("finding scripts/mailservers.sh: no go.mod above the working directory")
		}
		dir = parent
	}
}

package mailtest

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// snapshot hashes every file under the given directories.
func snapshot(t *testing.T, dirs ...string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil {
				out[path] = sha256.Sum256(b)
			}
			return nil
		})
	}
	return out
}

// systemPostfix returns the pid of the machine's own Postfix master, or 0.
func systemPostfix() int {
	b, err := os.ReadFile("/var/spool/postfix/pid/master.pid")
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || !alive(pid) {
		return 0
	}
	return pid
}

func alive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

func greeting(t *testing.T, addr string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("greeting of %s: %v", addr, err)
	}
	return line
}

// TestPrivateInstance starts an instance, passes a mail through it, stops
// and restarts its Postfix, and stops it; the machine's configuration is
// byte-identical afterwards and its own Postfix, if running, still runs.
func TestPrivateInstance(t *testing.T) {
	before := snapshot(t, "/etc/postfix", "/etc/dovecot")
	sys := systemPostfix()
	s := Start(t)

	if g := greeting(t, s.SMTPAddr); !strings.Contains(g, "referee-test") {
		t.Errorf("SMTP %s greets %q: not the private Postfix", s.SMTPAddr, g)
	}
	if g := greeting(t, s.IMAPAddr); !strings.HasPrefix(g, "* OK") {
		t.Errorf("IMAP %s greets %q", s.IMAPAddr, g)
	}
	c, err := smtp.Dial(s.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	msg := "From: bob@example.test\r\nTo: alice@example.test\r\nSubject: private\r\n\r\nhello\r\n"
	if err := c.SendMail("bob@example.test", []string{"alice+tag@example.test"}, strings.NewReader(msg)); err != nil {
		t.Fatalf("sending through the private Postfix: %v", err)
	}
	c.Quit()
	newDir := filepath.Join(s.State, "mail", "alice@example.test", "Maildir", "new")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if es, _ := os.ReadDir(newDir); len(es) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the mail did not reach %s through Postfix and Dovecot's LMTP", newDir)
		}
		time.Sleep(50 * time.Millisecond)
	}

	if err := s.StopPostfix(); err != nil {
		t.Fatal(err)
	}
	if listening(s.SMTPAddr) {
		t.Errorf("SMTP %s still open after StopPostfix", s.SMTPAddr)
	}
	if !listening(s.IMAPAddr) {
		t.Errorf("StopPostfix stopped Dovecot too")
	}
	if err := s.StartPostfix(); err != nil {
		t.Fatal(err)
	}
	if !listening(s.SMTPAddr) {
		t.Errorf("SMTP %s not open after StartPostfix", s.SMTPAddr)
	}
	pids := map[string]int{}
	for name, f := range map[string]string{"dovecot": "run/master.pid", "postfix": "postfix/spool/pid/master.pid"} {
		b, err := os.ReadFile(filepath.Join(s.State, f))
		if err != nil {
			t.Fatalf("%s pid file: %v", name, err)
		}
		pids[name], _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if err := s.run("stop"); err != nil {
		t.Fatal(err)
	}
	for name, pid := range pids {
		if alive(pid) {
			t.Errorf("%s (pid %d) still runs after stop", name, pid)
		}
	}
	if listening(s.SMTPAddr) || listening(s.IMAPAddr) || listening(s.LMTPAddr) {
		t.Errorf("ports still open after stop")
	}
	after := snapshot(t, "/etc/postfix", "/etc/dovecot")
	for path, h := range before {
		if after[path] != h {
			t.Errorf("%s changed", path)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s appeared", path)
		}
	}
	if sys != 0 && !alive(sys) {
		t.Errorf("the machine's own Postfix (pid %d) stopped", sys)
	} else {
		t.Logf("machine's own Postfix master: pid %d (0: not running)", sys)
	}
}

// TestStopSignalsOnlyItsOwn: whatever the pid files of a state directory
// say, stop signals no process whose command line does not name that
// directory. It starts no mail server.
func TestStopSignalsOnlyItsOwn(t *testing.T) {
	script, err := scriptPath()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		pidfile func(victim int) string
	}{
		{"a foreign live pid", func(v int) string { return strconv.Itoa(v) + "\n" }},
		{"a foreign pid with junk", func(v int) string { return " " + strconv.Itoa(v) + "x\n" }},
		{"a pid that does not run", func(int) string { return "999999999\n" }},
		{"an empty file", func(int) string { return "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			victim := exec.Command("sleep", "60")
			if err := victim.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- victim.Wait() }()
			defer func() { victim.Process.Kill(); <-exited }()
			state := t.TempDir()
			for _, f := range []string{"run/master.pid", "postfix/spool/pid/master.pid"} {
				p := filepath.Join(state, f)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(tc.pidfile(victim.Process.Pid)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(state, "ports"), []byte("imap_port=1\nsmtp_port=1\nlmtp_port=1\n"), 0o644)
			s := &Servers{State: state, script: script}
			if err := s.run("stop"); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				exited <- err
				t.Errorf("stop signalled pid %d, which it did not start: %v", victim.Process.Pid, err)
			case <-time.After(300 * time.Millisecond):
			}
		})
	}
}

// TestSweepStopsOrphans: an instance whose owner process is gone (a test
// binary killed by -timeout) is stopped and removed by the next Start.
func TestSweepStopsOrphans(t *testing.T) {
	if ok, why := Enabled(); !ok {
		t.Skip(why)
	}
	script, err := scriptPath()
	if err != nil {
		t.Fatal(err)
	}
	s, err := start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.run("stop"); os.RemoveAll(s.State) })
	// Half an owner line (a file read while it was written, before owners
	// were renamed into place) is not taken for a process that is gone.
	for _, partial := range []string{"", "12", fmt.Sprint(os.Getpid())} {
		if err := os.WriteFile(filepath.Join(s.State, "owner"), []byte(partial), 0o644); err != nil {
			t.Fatal(err)
		}
		sweep(script, t)
		if _, err := os.Stat(s.State); err != nil || !listening(s.IMAPAddr) {
			t.Fatalf("owner %q: the sweep stopped an instance whose owner it could not read whole", partial)
		}
	}
	if err := os.WriteFile(filepath.Join(s.State, "owner"), []byte("999999999 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	sweep(script, t)
	if _, err := os.Stat(s.State); err == nil {
		t.Errorf("the orphaned instance's state %s is still there", s.State)
	}
	if listening(s.SMTPAddr) || listening(s.IMAPAddr) {
		t.Errorf("the orphaned instance still listens")
	}
}

// TestPortsOfOtherInstancesAreNotReused: a port in another instance's
// state directory counts as taken even while nothing listens on it (its
// Postfix stopped for a while on purpose).
func TestPortsOfOtherInstancesAreNotReused(t *testing.T) {
	dir, err := os.MkdirTemp("", statePrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "ports"), []byte("imap_port=41001\nsmtp_port=41002\nlmtp_port=41003\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !anyTaken([]int{50000, 41002}) {
		t.Error("port 41002, listed by another instance, was not taken for taken")
	}
	if anyTaken([]int{50000, 50001}) {
		t.Error("ports no instance lists were taken for taken")
	}
}

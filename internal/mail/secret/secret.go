// Package secret supplies the passwords of the IMAP and SMTP logins: given
// as such, read from a file, or printed by a command (as msmtp's
// passwordeval). A file or command is read again when the server refuses
// the password, so that rotating it needs no restart.
package secret

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Timeout bounds one run of a password command.
const Timeout = 30 * time.Second

// Source yields one login's password. Safe for concurrent use.
type Source struct {
	what string // how the password is given, for errors: "--imap-pass-file /etc/x"
	read func(ctx context.Context) (string, error)

	mu   sync.Mutex
	cur  string
	have bool
}

// Fixed is a password given as such; it never changes.
func Fixed(password string) *Source {
	return &Source{what: "the password", read: func(context.Context) (string, error) { return password, nil }}
}

// File reads the password from path: the whole file, without surrounding
// white space. flag names the setting for errors (e.g. "--imap-pass-file").
func File(flag, path string) *Source {
	what := flag + " " + path
	return &Source{what: what, read: func(context.Context) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		p := strings.TrimSpace(string(b))
		if p == "" {
			return "", fmt.Errorf("%s: the file is empty; put the password in it", what)
		}
		return p, nil
	}}
}

// Command runs command with /bin/sh -c (at most Timeout) and takes the
// first line of its standard output as the password, as msmtp's
// passwordeval does. Its output is never logged or put in an error; a
// failure reports the command, its exit status and the first line of its
// standard error.
func Command(flag, command string) *Source {
	what := fmt.Sprintf("%s %q", flag, command)
	return &Source{what: what, read: func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, Timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("%s: the command did not finish within %s", what, Timeout)
		}
		if err != nil {
			line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
			if line == "" {
				line = "no error output"
			}
			return "", fmt.Errorf("%s failed: %w (%s); run it by hand as the referee's user to see why", what, err, line)
		}
		sc := bufio.NewScanner(&stdout)
		sc.Scan()
		p := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(p) == "" {
			return "", fmt.Errorf("%s printed no password on its first line; it must print the password on standard output", what)
		}
		return p, nil
	}}
}

// String says how the password is given (never the password).
func (s *Source) String() string { return s.what }

// Password returns the password, reading the file or running the command
// the first time only.
func (s *Source) Password(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.have {
		return s.cur, nil
	}
	p, err := s.read(ctx)
	if err != nil {
		return "", err
	}
	s.cur, s.have = p, true
	return p, nil
}

// Refused reports that the server refused password: the file is read (or
// the command run) again. It returns the password now in force and whether
// it differs from the refused one, in which case a login with it is worth
// trying at once.
func (s *Source) Refused(ctx context.Context, password string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.read(ctx)
	if err != nil {
		s.have = false
		return "", false, err
	}
	s.cur, s.have = p, true
	return p, p != password, nil
}

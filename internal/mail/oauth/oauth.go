// Package oauth obtains OAuth 2 bearer tokens for IMAP and SMTP from a
// command the organiser configures, and speaks the two SASL mechanisms that
// carry them: XOAUTH2 (Google, Microsoft) and OAUTHBEARER (RFC 7628).
//
// The referee does not run OAuth flows itself: a helper (oauth2l, pizauth,
// mutt_oauth2.py, a curl against the provider's token endpoint, ...) does,
// and prints the access token. The token source runs that helper, keeps the
// token until shortly before it expires, and runs the helper again when the
// token expired or the server rejected it.
package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TokenSource supplies bearer tokens.
type TokenSource interface {
	// Token returns a token that is believed valid.
	Token(ctx context.Context) (string, error)
	// Invalidate reports that the server rejected token: the next Token
	// obtains a new one. A token other than the one held is ignored, so
	// that a late report cannot discard a newer token.
	Invalidate(token string)
}

// Defaults of Options.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultLifetime = 45 * time.Minute
	// maxOutput bounds what is read of the command's stdout and stderr.
	maxOutput = 64 << 10
)

// Options configure a CommandSource.
type Options struct {
	// Command is run with /bin/sh -c; its standard output is the token,
	// or a JSON object holding it (see CommandSource).
	Command string
	// Timeout bounds one run of the command; default DefaultTimeout.
	Timeout time.Duration
	// Lifetime is how long a token is kept when the command does not say
	// when it expires; default DefaultLifetime.
	Lifetime time.Duration
	// Logger receives a line per run of the command (never the token);
	// nil discards them.
	Logger *slog.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// CommandSource is a TokenSource that runs a command. The command prints
// either the bare access token on one line, or a JSON object with
// "access_token" and optionally "expires_in" (seconds, as an OAuth token
// endpoint answers) or "expiry" (RFC 3339, as golang.org/x/oauth2 tokens
// are written in JSON). A token is kept until a
// tenth of its lifetime (at most 5 minutes) before it expires; one of
// unknown lifetime for Options.Lifetime. It is safe for concurrent use;
// the command runs once at a time.
type CommandSource struct {
	opts Options

	mu      sync.Mutex
	token   string
	refresh time.Time // when to run the command again
}

// NewCommandSource returns a source that runs opts.Command.
func NewCommandSource(opts Options) (*CommandSource, error) {
	if strings.TrimSpace(opts.Command) == "" {
		return nil, errors.New("the OAuth token command is empty: give a shell command that prints an access token (see docs/providers.md)")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Lifetime <= 0 {
		opts.Lifetime = DefaultLifetime
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &CommandSource{opts: opts}, nil
}

// Token returns the cached token, or runs the command for a new one.
func (s *CommandSource) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	if s.token != "" && now.Before(s.refresh) {
		return s.token, nil
	}
	s.token = ""
	tok, lifetime, known, err := s.run(ctx)
	if err != nil {
		return "", err
	}
	keep := lifetime
	if known {
		keep -= min(lifetime/10, 5*time.Minute)
	}
	s.token, s.refresh = tok, now.Add(keep)
	s.opts.Logger.Info("obtained an OAuth token", "command", s.opts.Command, "lifetime", lifetime, "lifetime_known", known, "kept_until", s.refresh.Format(time.RFC3339))
	return tok, nil
}

// Invalidate drops token if it is the one held.
func (s *CommandSource) Invalidate(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if token != "" && token == s.token {
		s.token = ""
		s.opts.Logger.Info("the server rejected the OAuth token; the token command runs again at the next login", "command", s.opts.Command)
	}
}

// CommandError is a failure of the token command. Its text names the
// command, its exit status and the first line of its standard error; it
// never holds the command's standard output.
type CommandError struct {
	Command string
	Status  string // "exit status 1", "did not finish within 30s", ...
	Stderr  string // first non-empty line of standard error, if any
	Err     error
}

func (e *CommandError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the OAuth token command %q %s", e.Command, e.Status)
	if e.Stderr != "" {
		fmt.Fprintf(&b, "; it said: %s", e.Stderr)
	}
	b.WriteString(" (run the command by hand to see what is wrong; it must print an access token)")
	return b.String()
}

func (e *CommandError) Unwrap() error { return e.Err }

// limitedBuffer keeps the first max bytes written to it and counts the rest.
type limitedBuffer struct {
	buf   bytes.Buffer
	max   int
	total int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.total += len(p)
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// run runs the command once and reads its output.
func (s *CommandSource) run(parent context.Context) (tok string, lifetime time.Duration, known bool, err error) {
	ctx, cancel := context.WithTimeout(parent, s.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", s.opts.Command)
	stdout := &limitedBuffer{max: maxOutput}
	stderr := &limitedBuffer{max: maxOutput}
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A helper that leaves a child holding stdout open must not hold the
	// referee up: Wait gives up this long after the shell was killed.
	cmd.WaitDelay = 2 * time.Second
	setProcessGroup(cmd)
	runErr := cmd.Run()
	fail := func(status string, err error) (string, time.Duration, bool, error) {
		return "", 0, false, &CommandError{Command: s.opts.Command, Status: status, Stderr: firstLine(stderr.buf.Bytes()), Err: err}
	}
	if runErr != nil {
		var ee *exec.ExitError
		switch {
		case parent.Err() != nil:
			return fail("was interrupted", parent.Err())
		case ctx.Err() != nil:
			return fail(fmt.Sprintf("did not finish within %s and was stopped", s.opts.Timeout), ctx.Err())
		case errors.As(runErr, &ee):
			return fail("failed with "+ee.ProcessState.String(), runErr)
		case errors.Is(runErr, exec.ErrWaitDelay):
			// It exited well but left something holding its output open;
			// what it printed is complete enough to use.
		default:
			return fail("could not be run", runErr)
		}
	}
	if stdout.total > maxOutput {
		return fail(fmt.Sprintf("printed %d bytes, more than the %d a token may take", stdout.total, maxOutput), nil)
	}
	tok, lifetime, known, perr := parse(stdout.buf.Bytes(), s.opts.Now())
	if perr != nil {
		return fail("succeeded, but "+perr.Error(), nil)
	}
	if !known {
		lifetime = s.opts.Lifetime
	}
	return tok, lifetime, known, nil
}

// parse reads the command's output. Its errors never quote the output.
func parse(out []byte, now time.Time) (tok string, lifetime time.Duration, known bool, err error) {
	text := strings.TrimSpace(string(out))
	if text == "" {
		return "", 0, false, errors.New("printed nothing; it must print the access token")
	}
	if !strings.HasPrefix(text, "{") {
		if n := strings.Count(text, "\n") + 1; n > 1 {
			return "", 0, false, fmt.Errorf("printed %d lines; it must print the access token alone on one line, or a JSON object with \"access_token\"", n)
		}
		if err := checkToken(text); err != nil {
			return "", 0, false, err
		}
		return text, 0, false, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return "", 0, false, fmt.Errorf("printed something that starts with '{' but is not a JSON object (%v); print the access token alone, or a JSON object with \"access_token\"", jsonErr(err))
	}
	raw, ok := obj["access_token"]
	if !ok {
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range obj {
				if !yield(k) {
					return
				}
			}
		})
		return "", 0, false, fmt.Errorf("printed a JSON object without \"access_token\" (its keys: %s)", strings.Join(keys, ", "))
	}
	if err := json.Unmarshal(raw, &tok); err != nil {
		return "", 0, false, errors.New("printed a JSON object whose \"access_token\" is not a string")
	}
	if err := checkToken(tok); err != nil {
		return "", 0, false, err
	}
	if raw, ok := obj["expires_in"]; ok {
		// A number, or a number in a string (some endpoints send "3599").
		var n json.Number
		var s string
		if json.Unmarshal(raw, &s) == nil {
			n = json.Number(s)
		} else if err := json.Unmarshal(raw, &n); err != nil {
			return "", 0, false, errors.New("printed a JSON object whose \"expires_in\" is not a number of seconds")
		}
		secs, err := strconv.ParseFloat(string(n), 64)
		if err != nil || secs <= 0 || secs > 1e7 {
			return "", 0, false, fmt.Errorf("printed a JSON object whose \"expires_in\" is %s; it must be a positive number of seconds", raw)
		}
		return tok, time.Duration(secs * float64(time.Second)), true, nil
	}
	if raw, ok := obj["expiry"]; ok {
		var at time.Time
		if err := json.Unmarshal(raw, &at); err != nil {
			return "", 0, false, fmt.Errorf("printed a JSON object whose \"expiry\" is %s, not an RFC 3339 time", raw)
		}
		if !at.After(now) {
			return "", 0, false, fmt.Errorf("printed a token that expired at %s (it is now %s); the helper must refresh it", at.Format(time.RFC3339), now.Format(time.RFC3339))
		}
		return tok, at.Sub(now), true, nil
	}
	return tok, 0, false, nil
}

// jsonErr describes a JSON syntax error by position only: the error text
// of encoding/json can quote the input.
func jsonErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	}
	return "invalid JSON"
}

// checkToken refuses what cannot be a bearer token (RFC 6750 b64token):
// whitespace or control characters would also break the SASL messages.
func checkToken(tok string) error {
	if tok == "" {
		return errors.New("printed an empty access token")
	}
	for _, r := range tok {
		if r <= ' ' || r >= 0x7f {
			return errors.New("printed an access token with a space, a control character or a non-ASCII character in it; a bearer token has none")
		}
	}
	return nil
}

// firstLine returns the first non-empty line of b, trimmed and cut to 200
// bytes.
func firstLine(b []byte) string {
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(line) > 200 {
			line = strings.ToValidUTF8(line[:200], "") + "…"
		}
		return line
	}
	return ""
}

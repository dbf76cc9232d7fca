package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
)

// secret is what every test token contains: no error or log may show it.
const secret = "s3cr3tT0k3n"

// issued matches a token the counting commands print (the commands
// themselves hold secret, but never a number after it).
var issued = regexp.MustCompile(secret + `-[0-9]`)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// counting returns a command that prints tok-<n> for its n-th run (n from
// 1), in format: "plain" or a JSON template with %s for the token.
func counting(t *testing.T, format string) (cmd string, runs func() int) {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "runs")
	tokExpr := `` + secret + `-$(wc -l < '` + f + `' | tr -d ' ')`
	print := `printf '%s\n' "` + tokExpr + `"`
	if format != "plain" {
		print = `printf '%s\n' "` + strings.ReplaceAll(strings.ReplaceAll(fmt.Sprintf(format, tokExpr), `"`, `\"`), `\"$(`, `$(`) + `"`
	}
	cmd = `echo run >> '` + f + `'; ` + print
	return cmd, func() int {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0
		}
		return bytes.Count(b, []byte("\n"))
	}
}

func TestParse(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, out string
		tok       string
		lifetime  time.Duration // 0: unknown
		err       string        // part of the error; "" = success
	}{
		{"bare", "ya29.a0" + secret + "\n", "ya29.a0" + secret, 0, ""},
		{"bare, no newline, spaces around", "  eyJ0." + secret + "_-~+/==  ", "eyJ0." + secret + "_-~+/==", 0, ""},
		{"token endpoint JSON", `{"access_token":"` + secret + `","expires_in":3599,"token_type":"Bearer","scope":"https://mail.google.com/"}`, secret, 3599 * time.Second, ""},
		{"expires_in as a string", `{"access_token":"` + secret + `","expires_in":"600"}`, secret, 600 * time.Second, ""},
		{"x/oauth2 JSON with expiry", `{"access_token":"` + secret + `","token_type":"Bearer","expiry":"2026-11-23T13:00:00Z"}`, secret, time.Hour, ""},
		{"JSON without a lifetime", `{"access_token":"` + secret + `"}`, secret, 0, ""},
		{"nothing", "\n \n", "", 0, "printed nothing"},
		{"two lines", "Opening browser...\n" + secret + "\n", "", 0, "printed 2 lines"},
		{"space inside", "Bearer " + secret, "", 0, "a space"},
		{"control character", secret + "\x01x", "", 0, "control character"},
		{"not JSON", `{"access_token": "` + secret, "", 0, "not a JSON object"},
		{"no access_token", `{"token":"` + secret + `","expires_in":5}`, "", 0, `without "access_token" (its keys: expires_in, token)`},
		{"access_token a number", `{"access_token":12}`, "", 0, "not a string"},
		{"empty access_token", `{"access_token":""}`, "", 0, "empty access token"},
		{"expires_in negative", `{"access_token":"` + secret + `","expires_in":-5}`, "", 0, "positive number of seconds"},
		{"expires_in a word", `{"access_token":"` + secret + `","expires_in":"soon"}`, "", 0, "expires_in"},
		{"expiry in the past", `{"access_token":"` + secret + `","expiry":"2026-11-23T11:00:00Z"}`, "", 0, "expired at 2026-11-23T11:00:00Z"},
		{"expiry not a time", `{"access_token":"` + secret + `","expiry":"tomorrow"}`, "", 0, "not an RFC 3339 time"},
	} {
		tok, lifetime, known, err := parse([]byte(tt.out), now)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.err)
			} else if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error shows the token: %v", tt.name, err)
			}
			continue
		}
		if err != nil || tok != tt.tok || known != (tt.lifetime != 0) || lifetime != tt.lifetime {
			t.Errorf("%s: got %q, %v, known %v, %v; want %q, %v", tt.name, tok, lifetime, known, err, tt.tok, tt.lifetime)
		}
	}
}

func TestCachingExpiryAndInvalidate(t *testing.T) {
	for _, tt := range []struct {
		format string
		keep   time.Duration // how long a token is kept
	}{
		{"plain", 45 * time.Minute},                                                 // the default lifetime
		{`{"access_token":"%s","expires_in":3600}`, 55 * time.Minute},               // an hour less 5 minutes
		{`{"access_token":"%s","expires_in":"600"}`, 9 * time.Minute},               // less a tenth
		{`{"access_token":"%s","expiry":"2026-11-23T12:30:00Z"}`, 27 * time.Minute}, // 30 min less a tenth
	} {
		cmd, runs := counting(t, tt.format)
		clk := &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
		var logs bytes.Buffer
		s, err := NewCommandSource(Options{Command: cmd, Now: clk.now, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		get := func(want string, wantRuns int) {
			t.Helper()
			tok, err := s.Token(ctx)
			if err != nil || tok != want || runs() != wantRuns {
				t.Fatalf("%s: Token = %q, %v after %d runs; want %q after %d", tt.format, tok, err, runs(), want, wantRuns)
			}
		}
		get(secret+"-1", 1)
		clk.add(tt.keep - time.Second)
		get(secret+"-1", 1) // still cached
		clk.add(2 * time.Second)
		get(secret+"-2", 2)         // expired: run again
		s.Invalidate(secret + "-1") // an old token: ignored
		get(secret+"-2", 2)
		s.Invalidate(secret + "-2") // the server refused it
		get(secret+"-3", 3)
		if issued.MatchString(logs.String()) {
			t.Errorf("%s: the log shows the token:\n%s", tt.format, logs.String())
		}
		if !strings.Contains(logs.String(), "obtained an OAuth token") || !strings.Contains(logs.String(), "rejected") {
			t.Errorf("%s: the log does not tell of the runs and the rejection:\n%s", tt.format, logs.String())
		}
	}
}

func TestCommandFailures(t *testing.T) {
	for _, tt := range []struct {
		name, cmd string
		timeout   time.Duration
		want      []string
	}{
		{"exit status and first stderr line", "echo " + secret + "; echo >&2; echo >&2 'invalid_grant: token expired'; echo >&2 sec\"\"ond line; exit 3",
			0, []string{"exit status 3", "invalid_grant: token expired", "run the command by hand"}},
		{"not found", "no-such-oauth-helper-xyz", 0, []string{"exit status 127", "not found"}},
		{"killed", "kill -9 $$", 0, []string{"signal: killed"}},
		{"timeout, with a child holding stdout", "echo " + secret + "; sleep 30 & sleep 30", 300 * time.Millisecond, []string{"did not finish within 300ms"}},
		{"prints two lines", "echo 'Visit https://example.test/auth'; echo " + secret, 0, []string{"printed 2 lines"}},
	} {
		s, err := NewCommandSource(Options{Command: tt.cmd, Timeout: tt.timeout})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		tok, err := s.Token(context.Background())
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: took %v", tt.name, took)
		}
		if err == nil {
			t.Errorf("%s: got token %q, want an error", tt.name, tok)
			continue
		}
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Command != tt.cmd {
			t.Errorf("%s: %v is not a CommandError naming the command", tt.name, err)
		}
		msg := err.Error()
		for _, w := range append(tt.want, fmt.Sprintf("%q", tt.cmd)) {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q does not contain %q", tt.name, msg, w)
			}
		}
		if strings.Contains(msg, "second line") {
			t.Errorf("%s: error %q shows more than the first stderr line", tt.name, msg)
		}
		// The command itself holds the secret in these tests; what it
		// printed must not appear beyond it.
		if strings.Count(msg, secret) > strings.Count(tt.cmd, secret) {
			t.Errorf("%s: error shows the command's output: %q", tt.name, msg)
		}
	}
	if _, err := NewCommandSource(Options{Command: "  "}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty command: err = %v", err)
	}
}

func TestCancelledContext(t *testing.T) {
	s, err := NewCommandSource(Options{Command: "sleep 30"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Token(ctx)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("err = %v after %v, want an interruption wrapping the context's error", err, time.Since(start))
	}
}

func TestXOAuth2Client(t *testing.T) {
	c, err := NewClient("xoauth2", "referee@example.test", "imap.example.test", 993, secret)
	if err != nil {
		t.Fatal(err)
	}
	mech, ir, err := c.Start()
	if want := "user=referee@example.test\x01auth=Bearer " + secret + "\x01\x01"; mech != "XOAUTH2" || string(ir) != want || err != nil {
		t.Errorf("Start = %q, %q, %v; want XOAUTH2, %q", mech, ir, err, want)
	}
	if c.Rejection() != "" {
		t.Errorf("Rejection before any challenge: %q", c.Rejection())
	}
	resp, err := c.Next([]byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`))
	if err != nil || resp == nil || len(resp) != 0 {
		t.Errorf("Next(error challenge) = %q, %v; want an empty response", resp, err)
	}
	if r := c.Rejection(); !strings.Contains(r, `"401"`) || !strings.Contains(r, "mail.google.com") {
		t.Errorf("Rejection = %q", r)
	}
	if _, err := NewClient("PLAIN", "u", "h", 1, "t"); err == nil || !strings.Contains(err.Error(), "PLAIN") {
		t.Errorf("PLAIN: err = %v", err)
	}
}

func TestOAuthBearerClientAgainstGoSASLServer(t *testing.T) {
	for _, tt := range []struct {
		token string
		ok    bool
	}{{secret, true}, {"expired", false}} {
		var got sasl.OAuthBearerOptions
		srv := sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			got = o
			if o.Token != secret {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
		c, err := NewClient("OAUTHBEARER", "referee@example.test", "imap.example.test", 993, tt.token)
		if err != nil {
			t.Fatal(err)
		}
		mech, resp, err := c.Start()
		if mech != "OAUTHBEARER" || err != nil {
			t.Fatalf("Start: %q, %v", mech, err)
		}
		var done bool
		var serr error
		for i := 0; i < 4 && !done; i++ {
			var challenge []byte
			challenge, done, serr = srv.Next(resp)
			if serr != nil || done {
				break
			}
			if resp, err = c.Next(challenge); err != nil {
				t.Fatalf("client Next: %v", err)
			}
		}
		if got.Username != "referee@example.test" || got.Host != "imap.example.test" || got.Port != 993 || got.Token != tt.token {
			t.Errorf("server read %+v", got)
		}
		if tt.ok && (serr != nil || !done) {
			t.Errorf("good token: done %v, err %v", done, serr)
		}
		if !tt.ok && (serr == nil || !strings.Contains(c.Rejection(), "invalid_token")) {
			t.Errorf("bad token: server err %v, rejection %q; want a failure after the dummy response", serr, c.Rejection())
		}
	}
}

func TestXOAuth2ServerWithClient(t *testing.T) {
	for _, tt := range []struct {
		name  string
		token string
		ok    bool
	}{{"valid", secret, true}, {"expired", "old", false}} {
		var gotUser, gotToken string
		srv := NewXOAuth2Server(func(user, token string) error {
			gotUser, gotToken = user, token
			if token != secret {
				return errors.New("invalid credentials")
			}
			return nil
		})
		c, _ := NewClient(XOAuth2, "referee@example.test", "", 0, tt.token)
		_, resp, _ := c.Start()
		var done bool
		var err error
		for i := 0; i < 4; i++ {
			var ch []byte
			ch, done, err = srv.Next(resp)
			if done || err != nil {
				break
			}
			resp, _ = c.Next(ch)
		}
		if gotUser != "referee@example.test" || gotToken != tt.token {
			t.Errorf("%s: server read %q, %q", tt.name, gotUser, gotToken)
		}
		if tt.ok != (err == nil) || !done {
			t.Errorf("%s: done %v, err %v", tt.name, done, err)
		}
		if !tt.ok && !strings.Contains(c.Rejection(), "401") {
			t.Errorf("%s: rejection %q", tt.name, c.Rejection())
		}
	}
	for _, bad := range []string{"user=a\x01auth=Basic x\x01\x01", "user=a\x01auth=Bearer x", "auth=Bearer x\x01\x01"} {
		srv := NewXOAuth2Server(func(string, string) error { return nil })
		if _, done, err := srv.Next([]byte(bad)); err == nil || !done {
			t.Errorf("%q: done %v, err %v; want a failure", bad, done, err)
		}
	}
}

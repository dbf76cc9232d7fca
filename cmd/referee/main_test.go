package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs the referee binary's main logic in-process.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestAdminCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, out, errs := cli(t, "init", "--db", db); code != 0 || !strings.Contains(out, "referee key") {
		t.Fatalf("init: %d %q %q", code, out, errs)
	}
	code, out, _ := cli(t, "new", "--db", db, "--variant", "cuarenta", "--white", "alice@example.org", "--black", "Bob <bob@example.org>")
	if code != 0 || strings.TrimSpace(out) != "1" {
		t.Fatalf("new: %d %q", code, out)
	}
	if code, out, _ := cli(t, "list", "--db", db); code != 0 || !strings.Contains(out, "cuarenta") || !strings.Contains(out, "bob@example.org") {
		t.Errorf("list: %d %q", code, out)
	}
	if code, out, _ := cli(t, "show", "--db", db, "1"); code != 0 || !strings.Contains(out, "###") || !strings.Contains(out, "White to play") {
		t.Errorf("show: %d %q", code, out)
	}
	if code, out, _ := cli(t, "export", "--db", db, "1"); code != 0 || !strings.Contains(out, `[Variant "cuarenta"]`) {
		t.Errorf("export: %d %q", code, out)
	}
	if code, _, errs := cli(t, "abort", "--db", db, "1", "--reason", "player left"); code != 0 {
		t.Errorf("abort: %d %q", code, errs)
	}
	if code, out, _ := cli(t, "list", "--db", db, "--status", "aborted"); code != 0 || !strings.Contains(out, "aborted") {
		t.Errorf("list aborted: %d %q", code, out)
	}
}

func TestBadArgumentsChangeNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	cli(t, "new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "b@example.org")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"new", "--db", db, "--variant", "checkers", "--white", "a@example.org", "--black", "b@example.org"}, "not a variant"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "not-an-address", "--black", "b@example.org"}, "not a mail address"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "a@example.org"}, "same address"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "a@example.org"}, "--black is missing"},
		{[]string{"show", "--db", db, "42"}, "no game #42"},
		{[]string{"show", "--db", db, "x"}, "not a game id"},
		{[]string{"abort", "--db", db, "1"}, "--reason"},
		{[]string{"list", "--db", db, "--status", "paused"}, "not a status"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"perft", "--variant", "chess", "--depth", "2", "--moves", "e4 e4"}, "move 2"},
	}
	for _, tt := range tests {
		code, _, errs := cli(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errs, tt.want)
		}
	}
	cli(t, "abort", "--db", db, "1", "--reason", "test")
	if code, _, errs := cli(t, "abort", "--db", db, "1", "--reason", "again"); code != 2 || !strings.Contains(errs, "aborted already") {
		t.Errorf("aborting an aborted game: %d %q", code, errs)
	}
	if code, out, _ := cli(t, "list", "--db", db); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("after the refused commands the database holds:\n%s", out)
	}
}

func TestPerftAndMovesOutput(t *testing.T) {
	if code, out, _ := cli(t, "perft", "--variant", "chess", "--depth", "3"); code != 0 || !strings.HasSuffix(out, "8902\n") {
		t.Errorf("perft: %d %q", code, out)
	}
	code, out, _ := cli(t, "perft", "--variant", "chess", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 21 || lines[20] != "400" || lines[0] != "a2a3 20" {
		t.Errorf("divide: %d %q", code, out)
	}
	code, out, _ = cli(t, "moves", "--variant", "chess", "--moves", "e4 e5 Nf3", "--format", "san")
	if code != 0 || !strings.Contains(out, "Nc6\n") || strings.Count(out, "\n") != 29 {
		t.Errorf("moves: %d %q", code, out)
	}
	code, out, _ = cli(t, "moves", "--variant", "chectoe", "--rolls", "2")
	if code != 0 || !strings.Contains(out, "N@a1\n") || !strings.Contains(out, "reroll\n") {
		t.Errorf("chectoe moves: %d %q", code, out)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe", "--rolls", "7"); code != 2 || !strings.Contains(errs, "1 to 6") {
		t.Errorf("roll 7: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe"); code != 2 || !strings.Contains(errs, "--rolls") {
		t.Errorf("no rolls: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe", "--rolls", "2 3 4"); code != 2 || !strings.Contains(errs, "rolls") {
		t.Errorf("too many rolls: %d %q", code, errs)
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands() {
		code, _, errs := cli(t, c.name, "--help")
		if code != 0 || !strings.Contains(errs, "Usage: referee "+c.name) {
			t.Errorf("%s --help: exit %d, %q", c.name, code, errs)
		}
	}
}

func TestInspectAndVerify(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	seed := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chectoe", "--white", "alice@example.test", "--black", "bob@example.test", "--seed", seed); code != 0 {
		t.Fatal(errs)
	}
	if code, out, _ := cli(t, "verify", "--db", db, "1"); code != 0 || !strings.HasPrefix(out, "HONEST") {
		t.Errorf("verify: %d %q", code, out)
	}
	// A mail from a stranger naming game 1 with a wrong reply code.
	eml := filepath.Join(dir, "m.eml")
	os.WriteFile(eml, []byte("From: mallory@example.org\r\nTo: referee+1.aaaaaaaaaa.0@example.test\r\nSubject: x\r\nMessage-ID: <i@x>\r\n\r\nN@b2\r\n"), 0o644)
	code, out, _ := cli(t, "inspect", "--db", db, eml)
	if code != 0 || !strings.Contains(out, `"game": 1`) || !strings.Contains(out, `"action": null`) || !strings.Contains(out, "wrong secret") {
		t.Errorf("inspect: %d %s", code, out)
	}
	// An --address serve would refuse is refused here too (the reader
	// cannot make plus-addresses of it), before the mail is read.
	for _, bad := range []string{"@example.test", "referee", "referee+1@example.test"} {
		if code, out, errs := cli(t, "inspect", "--db", db, "--address", bad, eml); code != 2 || out != "" || !strings.Contains(errs, "--address") {
			t.Errorf("inspect --address %q: exit %d, %q, %q; want exit 2 and the address refused", bad, code, out, errs)
		}
	}
	code, out, _ = cli(t, "export", "--db", db, "1")
	rec := filepath.Join(dir, "g.pgn")
	os.WriteFile(rec, []byte(out), 0o644)
	// The seed is still secret: only the signatures can be checked.
	if code, out, _ := cli(t, "verify", "--record", rec); code != 0 || !strings.Contains(out, "still secret") {
		t.Errorf("verify --record: %d %q", code, out)
	}
	os.WriteFile(rec, []byte(strings.Replace(out, "{die 1 = ", "{die 1 = 9", 1)), 0o644)
	if code, _, _ := cli(t, "verify", "--record", rec); code == 0 {
		t.Error("a tampered record verified")
	}
}

func TestReplayRecord(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pgn")
	os.WriteFile(good, []byte("[Variant \"chess\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"), 0o644)
	if code, out, errs := cli(t, "replay", good); code != 0 || !strings.Contains(out, "4 actions replayed") || !strings.Contains(out, "0-1") {
		t.Errorf("replay: %d %q %q", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.pgn")
	os.WriteFile(bad, []byte("[Variant \"toto40\"]\n\n1. g3 Re6 2. Kd9 *\n"), 0o644)
	if code, _, errs := cli(t, "replay", bad); code != 2 || !strings.Contains(errs, "action 3") || !strings.Contains(errs, "Kd9") {
		t.Errorf("replay of an illegal record: %d %q", code, errs)
	}
}

func TestServeSettingsPrecedence(t *testing.T) {
	// Command line beats REFEREE_* beats the config file.
	dir := t.TempDir()
	conf := filepath.Join(dir, "referee.conf")
	os.WriteFile(conf, []byte("# settings\npoll = \"7s\"\nsmtp-user = \"fromfile\"\nimap-user = \"fromfile\"\n"), 0o644)
	t.Setenv("REFEREE_SMTP_USER", "fromenv")
	var s serveFlags
	fs := newFlags("serve", "", "", os.Stderr)
	s.register(fs)
	if err := fs.Parse([]string{"--config", conf, "--imap-user", "fromflag"}); err != nil {
		t.Fatal(err)
	}
	if err := applyEnvAndFile(fs, s.config); err != nil {
		t.Fatal(err)
	}
	if s.poll.String() != "7s" || s.smtpUser != "fromenv" || s.imapUser != "fromflag" {
		t.Errorf("poll %v, smtp-user %q, imap-user %q", s.poll, s.smtpUser, s.imapUser)
	}
	os.WriteFile(conf, []byte("pol = \"7s\"\n"), 0o644)
	if err := applyEnvAndFile(fs, conf); err == nil || !strings.Contains(err.Error(), "not a setting") {
		t.Errorf("a misspelt setting: %v", err)
	}
}

func TestNewRefusesSharedMailboxes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	tests := []struct {
		white, black, want string
	}{
		// The referee's own mailbox, plain or plus-addressed, can never play:
		// its mails would come back to itself.
		{"referee@example.test", "bob@example.org", "referee's own mailbox"},
		{"alice@example.org", "Referee+x@Example.test", "referee's own mailbox"},
		// Two players on one mailbox would each read the other's secrets.
		{"alice@example.org", "alice+black@example.org", "same mailbox"},
		{"Alice@Example.org", "alice@example.org", "same address"},
	}
	for _, tt := range tests {
		code, _, errs := cli(t, "new", "--db", db, "--address", "referee@example.test", "--variant", "chess", "--white", tt.white, "--black", tt.black)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("new --white %s --black %s: exit %d, %q; want exit 2 and %q", tt.white, tt.black, code, errs, tt.want)
		}
	}
	if code, out, _ := cli(t, "list", "--db", db); code != 0 || strings.Count(out, "\n") > 1 {
		t.Errorf("refused games were created:\n%s", out)
	}
}

func TestNewKeepsQuotedLocalParts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", `"john doe"@example.org`, "--black", "bob@example.org")
	if code != 0 {
		t.Fatalf("new: %d %s", code, errs)
	}
	// Without its quotes, "john doe@example.org" names no mailbox at all.
	if _, out, _ := cli(t, "show", "--db", db, "1"); !strings.Contains(out, `White: "john doe"@example.org`) {
		t.Errorf("show:\n%s", out)
	}
}

func TestAbortRefusesBadReasons(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	cli(t, "new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "b@example.org")
	for _, reason := range []string{"caf\xe9 closed", "line one\nline two"} {
		if code, _, errs := cli(t, "abort", "--db", db, "1", "--reason", reason); code != 2 || !strings.Contains(errs, "--reason") {
			t.Errorf("abort --reason %q: exit %d, %q; want exit 2", reason, code, errs)
		}
	}
	if _, out, _ := cli(t, "show", "--db", db, "1"); !strings.Contains(out, "Status: active") {
		t.Errorf("a refused abort changed the game:\n%s", out)
	}
}

func TestVerifyKeepsARunningGamesSeedSecret(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	seed := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chectoe", "--white", "alice@example.test", "--black", "bob@example.test", "--seed", seed); code != 0 {
		t.Fatal(errs)
	}
	// The seed predicts every future roll: while the game runs, verify
	// checks the signatures only and never prints it.
	code, out, _ := cli(t, "verify", "--db", db, "1")
	if code != 0 || strings.Contains(out, seed) || !strings.Contains(out, "still secret") {
		t.Errorf("verify of a running game: exit %d\n%s", code, out)
	}
	cli(t, "abort", "--db", db, "1", "--reason", "test over")
	code, out, _ = cli(t, "verify", "--db", db, "1")
	if code != 0 || !strings.Contains(out, seed) {
		t.Errorf("verify after the end: exit %d\n%s", code, out)
	}
}

func TestDKIMKeygen(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dkim.pem")
	code, stdout, errs := cli(t, "dkim-keygen", "--domain", "example.org", "--selector", "ref", "--out", out)
	if code != 0 || !strings.Contains(stdout, `ref._domainkey.example.org. IN TXT ( "v=DKIM1; k=rsa; p=`) {
		t.Fatalf("dkim-keygen: %d %q %q", code, stdout, errs)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v %v", fi, err)
	}
	if code, _, errs := cli(t, "dkim-keygen", "--domain", "example.org", "--out", out); code != 2 || !strings.Contains(errs, "never overwritten") {
		t.Errorf("second run over the same file: %d %q", code, errs)
	}
}

func TestLogFormats(t *testing.T) {
	var b bytes.Buffer
	log, err := newLogger(&b, "info", "json")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("inbound", "verdict", "applied", "game", 3)
	if !strings.HasPrefix(b.String(), `{"time":`) || !strings.Contains(b.String(), `"verdict":"applied","game":3}`) {
		t.Errorf("json log line: %s", b.String())
	}
	if _, err := newLogger(&b, "info", "xml"); err == nil || !strings.Contains(err.Error(), "text or json") {
		t.Errorf("--log-format xml: %v", err)
	}
}

func TestStatusCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	cli(t, "new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "b@example.org")
	code, out, errs := cli(t, "status", "--db", db)
	if code != 0 || !strings.Contains(out, "Games: 1 active") || !strings.Contains(out, "Outbox: 2 to deliver") || !strings.Contains(out, "Last IMAP contact: never") {
		t.Errorf("status: %d %q %q", code, out, errs)
	}
	if code, out, _ := cli(t, "status", "--db", db, "--json"); code != 0 || !strings.Contains(out, `"outbox_pending": 2`) {
		t.Errorf("status --json: %d %q", code, out)
	}
	if code, _, errs := cli(t, "status", "--db", filepath.Join(t.TempDir(), "none.db")); code != 2 || !strings.Contains(errs, "no database") {
		t.Errorf("status without a database: %d %q", code, errs)
	}
}

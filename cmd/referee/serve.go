package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/dkimsign"
	"referee/internal/mail/embedded"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
	"referee/internal/status"
	"referee/internal/store"
)

// serveFlags are the settings of `referee serve`.
type serveFlags struct {
	db, address, config                                 string
	imapAddr, imapUser, imapPass, imapPassFile, imapTLS string
	smtpAddr, smtpUser, smtpPass, smtpPassFile, smtpTLS string
	doneFolder, trustedAuthServ, logLevel, embeddedIMAP string
	logFormat, dkimKey, dkimSelector, statusAddr        string
	embeddedSMTP                                        string
	imapAuth, imapTokenCmd, smtpAuth, smtpTokenCmd      string
	players, defaultTime, variants                      string // the lobby (player.go)
	maxGames, keepSentDays                              int
	poll, retry                                         time.Duration
	once, requireAuth, noIdle                           bool
}

func (s *serveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.config, "config", "", "read settings from this `file` (lines \"name = value\", names as the flags)")
	fs.StringVar(&s.db, "db", "referee.db", "SQLite database `path`")
	fs.StringVar(&s.address, "address", "referee@example.test", "the referee's own mail `address`; players reply to plus-addresses of it")
	fs.StringVar(&s.imapAddr, "imap", "", "IMAP server `host:port`; empty runs the embedded mail server")
	fs.StringVar(&s.imapUser, "imap-user", "", "IMAP user (default: the --address)")
	fs.StringVar(&s.imapPass, "imap-pass", "", "IMAP password")
	fs.StringVar(&s.imapPassFile, "imap-pass-file", "", "read the IMAP password from this `file`")
	fs.StringVar(&s.imapTLS, "imap-tls", "tls", "IMAP transport security: none (loopback only), starttls or tls")
	fs.StringVar(&s.imapAuth, "imap-auth", "password", "IMAP login: password, xoauth2 or oauthbearer (OAuth 2 token from --imap-token-cmd)")
	fs.StringVar(&s.imapTokenCmd, "imap-token-cmd", "", "shell `command` that prints an OAuth access token (or JSON with access_token, expires_in); run again when it expires")
	fs.StringVar(&s.smtpAddr, "smtp", "", "SMTP server `host:port` for replies")
	fs.StringVar(&s.smtpUser, "smtp-user", "", "SMTP user (empty: no AUTH)")
	fs.StringVar(&s.smtpPass, "smtp-pass", "", "SMTP password")
	fs.StringVar(&s.smtpPassFile, "smtp-pass-file", "", "read the SMTP password from this `file`")
	fs.StringVar(&s.smtpTLS, "smtp-tls", "starttls", "SMTP transport security: none (loopback only), starttls or tls")
	fs.StringVar(&s.smtpAuth, "smtp-auth", "password", "SMTP login: password (AUTH PLAIN when --smtp-user is set), xoauth2 or oauthbearer (token from --smtp-token-cmd; user default: the IMAP user)")
	fs.StringVar(&s.smtpTokenCmd, "smtp-token-cmd", "", "shell `command` that prints an OAuth access token for SMTP (may be the same as --imap-token-cmd)")
	fs.DurationVar(&s.poll, "poll", time.Minute, "polling interval when the server has no IDLE (and IDLE refresh)")
	fs.DurationVar(&s.retry, "retry", 30*time.Second, "wait before the first retry of a failed delivery (doubling up to 1h)")
	fs.BoolVar(&s.noIdle, "no-idle", false, "poll every --poll even when the server offers IMAP IDLE")
	fs.StringVar(&s.doneFolder, "done-folder", "", "move processed mail to this folder (default: flag it $RefereeDone)")
	fs.BoolVar(&s.once, "once", false, "process the mailbox once, deliver the outbox, and exit (for cron and tests)")
	fs.BoolVar(&s.requireAuth, "require-auth", false, "accept only mail whose Authentication-Results (from --trusted-authserv) show DKIM or SPF passing")
	fs.StringVar(&s.trustedAuthServ, "trusted-authserv", "", "the authserv-id of your own mail server's Authentication-Results header")
	fs.StringVar(&s.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&s.logFormat, "log-format", "text", "text (key=value lines) or json (one JSON object a line)")
	fs.StringVar(&s.statusAddr, "status-addr", "", "serve /status (JSON) and /metrics (Prometheus) on this `host:port`, e.g. 127.0.0.1:9180")
	fs.StringVar(&s.dkimKey, "dkim-key", "", "sign outgoing mail with the DKIM key in this PEM `file` (see referee dkim-keygen)")
	fs.StringVar(&s.dkimSelector, "dkim-selector", "referee", "the DKIM `selector` published for --dkim-key")
	fs.StringVar(&s.embeddedIMAP, "embedded-imap", "127.0.0.1:1143", "listen `address` of the embedded IMAP server")
	fs.StringVar(&s.embeddedSMTP, "embedded-smtp", "127.0.0.1:1025", "listen `address` of the embedded SMTP server")
	fs.StringVar(&s.players, "players", "known", "who may challenge by mail: open (anyone), known (played here, or referee player add) or a `file` of addresses, one a line")
	fs.IntVar(&s.maxGames, "max-games", 10, "the most active games one player may have")
	fs.StringVar(&s.defaultTime, "default-time", "", "time control of games made by challenge that name none (\"3d\", \"10d+1d\"); also referee new's default via REFEREE_DEFAULT_TIME")
	fs.IntVar(&s.keepSentDays, "keep-sent-days", 30, "keep the text of sent mail this many `days` (0: for ever); the record of each mail stays")
	fs.StringVar(&s.variants, "variants", "all", "the variants offered by mail, comma-separated (e.g. chess,toto40)")
}

// applyEnvAndFile fills every flag not given on the command line from the
// environment (REFEREE_IMAP_USER for --imap-user, ...), then from the config
// file. Command line beats environment beats file.
func applyEnvAndFile(fs *flag.FlagSet, config string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fileVals := map[string]string{}
	if config != "" {
		f, err := os.Open(config)
		if err != nil {
			return fmt.Errorf("--config: %w", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			k = strings.TrimSpace(k)
			if !ok || fs.Lookup(k) == nil {
				return fmt.Errorf("%s line %d: %q is not a setting; write \"name = value\" with a flag name such as imap or smtp-user", config, n, line)
			}
			fileVals[k] = strings.Trim(strings.TrimSpace(v), `"`)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("reading %s: %w", config, err)
		}
	}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || given[f.Name] || f.Name == "config" {
			return
		}
		env := "REFEREE_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(env); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", env, v, e)
			}
			return
		}
		if v, ok := fileVals[f.Name]; ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s: %s = %q: %w", config, f.Name, v, e)
			}
		}
	})
	return err
}

func readSecret(value, file, what string) (string, error) {
	if file == "" {
		return value, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--%s-file: %w", what, err)
	}
	return strings.TrimSpace(string(b)), nil
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: use text or json", format)
}

func checkTLS(name, mode, addr string) error {
	switch mode {
	case "tls", "starttls":
		return nil
	case "none":
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return fmt.Errorf("--%s %q is not host:port", name, addr)
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("--%s-tls none sends passwords or OAuth tokens in clear text, so it is allowed only on loopback, not %s; use starttls or tls", name, host)
		}
		return nil
	}
	return fmt.Errorf("--%s-tls %q: use none, starttls or tls", name, mode)
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var s serveFlags
	fs := newFlags("serve", "[flags]", "Runs the referee against a mailbox. With no --imap it starts an embedded IMAP and SMTP\nserver on localhost, so that any mail client can play at once.", stderr)
	s.register(fs)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	if err := applyEnvAndFile(fs, s.config); err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	log, err := newLogger(stderr, s.logLevel, s.logFormat)
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	// One daemon per database: a second one (or `serve --once` from cron
	// next to a running daemon) would send every reply twice.
	lock, err := store.LockDB(s.db)
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitFail
	}
	defer lock.Release()
	if os.Getenv("GOGC") == "" {
		// A daemon's heap is mostly garbage between moves: collecting at
		// half again the live heap rather than twice it keeps the peak
		// resident size about 4 MB lower (docs/performance.md) for a
		// collection every few moves of about a millisecond.
		debug.SetGCPercent(50)
	}
	if s.keepSentDays < 0 {
		fmt.Fprintf(stderr, "referee serve: --keep-sent-days %d is negative; give a number of days, or 0 to keep the text of sent mail for ever\n", s.keepSentDays)
		return exitUsage
	}
	cfg := daemon.Config{Once: s.once, Logger: log, RetryBase: s.retry, KeepSent: time.Duration(s.keepSentDays) * 24 * time.Hour}
	if s.imapAddr == "" {
		if s.imapAuth != "password" || s.smtpAuth != "password" || s.imapTokenCmd != "" || s.smtpTokenCmd != "" {
			fmt.Fprintln(stderr, "referee serve: --imap-auth, --smtp-auth and the token commands apply to a real mail server (--imap and --smtp); the embedded server needs none of them")
			return exitUsage
		}
		// The mailboxes live beside the database, so that a restart keeps
		// them and their UIDs (the referee's record of what it processed).
		srv, err := embedded.Start(ctx, embedded.Options{Domain: domainOf(s.address), IMAPAddr: s.embeddedIMAP, SMTPAddr: s.embeddedSMTP,
			Dir: s.db + ".mail", Logger: log.With("part", "embedded")})
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: starting the embedded mail server: %v\n(use --embedded-imap/--embedded-smtp for other ports, or --imap/--smtp for a real mail server)\n", err)
			return exitFail
		}
		defer srv.Close()
		srv.EnsureUser(s.address)
		fmt.Fprintln(stdout, srv.Instructions(startCommand(os.Args[0], s.db, s.address)))
		cfg.IMAP = imapin.Config{Addr: srv.IMAPAddr(), User: s.address, Password: srv.Password(), TLS: "none", Poll: s.poll}
		cfg.SMTP = smtpout.Config{Addr: srv.SMTPAddr(), TLS: "none"}
	} else {
		if s.smtpAddr == "" {
			fmt.Fprintln(stderr, "referee serve: --imap is set but --smtp is not; the referee needs both to read moves and send replies")
			return exitUsage
		}
		if err := checkTLS("imap", s.imapTLS, s.imapAddr); err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		if err := checkTLS("smtp", s.smtpTLS, s.smtpAddr); err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		ipass, err := readSecret(s.imapPass, s.imapPassFile, "imap-pass")
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		spass, err := readSecret(s.smtpPass, s.smtpPassFile, "smtp-pass")
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		itok, stok, err := tokenSources(&s, log)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		user := s.imapUser
		if user == "" {
			user = s.address
		}
		suser := s.smtpUser
		if suser == "" && s.smtpAuth != "password" {
			suser = user
		}
		cfg.IMAP = imapin.Config{Addr: s.imapAddr, User: user, Password: ipass, TLS: s.imapTLS, Poll: s.poll, DoneFolder: s.doneFolder, NoIdle: s.noIdle,
			Auth: s.imapAuth, Token: itok}
		cfg.SMTP = smtpout.Config{Addr: s.smtpAddr, User: suser, Password: spass, TLS: s.smtpTLS, Auth: s.smtpAuth, Token: stok}
	}
	lobby, playerList, err := s.lobbyOptions()
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	var signer *dkimsign.Signer
	if s.dkimKey != "" {
		if signer, err = dkimsign.Load(s.dkimKey, domainOf(s.address), s.dkimSelector); err != nil {
			fmt.Fprintf(stderr, "referee serve: --dkim-key: %v\n", err)
			return exitUsage
		}
	}
	a, err := app.Open(ctx, app.Options{DB: s.db, Address: s.address, Logger: log, RequireAuth: s.requireAuth, TrustedAuthServ: s.trustedAuthServ, DKIM: signer,
		Lobby: lobby, PlayerList: playerList})
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitFail
	}
	defer a.Close()
	cfg.Metrics = status.NewMetrics(time.Now())
	if s.statusAddr != "" {
		ln, err := net.Listen("tcp", s.statusAddr)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: --status-addr %s: %v\n", s.statusAddr, err)
			return exitFail
		}
		hs := &http.Server{Handler: status.Handler(a.Store(), cfg.Metrics, time.Now), ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		log.Info("status served", "addr", ln.Addr().String(), "paths", "/status /metrics")
	}
	log.Info("referee serving", "address", s.address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "db", s.db, "once", s.once)
	if err := daemon.Run(ctx, a, cfg); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitFail
	}
	log.Info("referee stopped")
	return exitOK
}

func domainOf(addr string) string {
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		return addr[at+1:]
	}
	return "example.test"
}

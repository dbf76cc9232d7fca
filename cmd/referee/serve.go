package main

import (
	"context"
	"crypto/x509"
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
	"referee/internal/mail/tlsconf"
	"referee/internal/pace"
	"referee/internal/sdnotify"
	"referee/internal/status"
	"referee/internal/store"
	"referee/internal/timecontrol"
	"referee/internal/web"
)

// serveFlags are the settings of `referee serve`.
type serveFlags struct {
	db, address, config                                 string
	imapAddr, imapUser, imapPass, imapPassFile, imapTLS string
	smtpAddr, smtpUser, smtpPass, smtpPassFile, smtpTLS string
	doneFolder, trustedAuthServ, logLevel, embeddedIMAP string
	logFormat, dkimKey, dkimSelector, statusAddr        string
	embeddedSMTP                                        string
	tlsCA                                               string // a private CA for IMAP and SMTP
	imapAuth, imapTokenCmd, smtpAuth, smtpTokenCmd      string
	players, defaultTime, variants, variantFile         string // the lobby (player.go)
	observers                                           string // who may observe by mail (player.go)
	maxGames, keepSentDays, maxStrangerAnswers          int
	poll, retry                                         time.Duration
	readyOutboxAge                                      time.Duration // /readyz (deployment)
	rated                                               bool          // games are rated unless casual (docs/ratings.md)
	minRating, maxRating, minReliability                float64       // who may challenge or accept (docs/ratings.md)
	imapPassCmd, smtpPassCmd                            string        // passwords from a command (deployment)
	once, noIdle                                        bool
	sendLimit                                           string    // pacing the outbox (daemon/pacing.go)
	smtpConnections                                     int       // the outbox's connections (daemon/sender.go)
	auth                                                authFlags // serve_auth.go
	web                                                 webFlags  // the public pages (site.go)
}

func (s *serveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.config, "config", "", "read settings from this TOML `file` (name = \"value\", names as the flags; docs/operating.md)")
	fs.StringVar(&s.db, "db", "referee.db", "SQLite database `path`")
	fs.StringVar(&s.address, "address", "referee@example.test", "the referee's own mail `address`; players reply to plus-addresses of it")
	fs.StringVar(&s.imapAddr, "imap", "", "IMAP server `host:port`; empty runs the embedded mail server")
	fs.StringVar(&s.imapUser, "imap-user", "", "IMAP user (default: the --address)")
	fs.StringVar(&s.imapPass, "imap-pass", "", "IMAP password")
	fs.StringVar(&s.imapPassFile, "imap-pass-file", "", "read the IMAP password from this `file` (again when the server refuses it)")
	fs.StringVar(&s.imapPassCmd, "imap-pass-cmd", "", "shell `command` whose first line of output is the IMAP password, as msmtp's passwordeval (run again when the server refuses it)")
	fs.StringVar(&s.imapTLS, "imap-tls", "tls", "IMAP transport security: none (loopback only), starttls or tls")
	fs.StringVar(&s.tlsCA, "tls-ca", "", "trust the CA certificates of this PEM `file` (a private CA) for the IMAP and SMTP servers' certificates, instead of the system's authorities")
	fs.StringVar(&s.imapAuth, "imap-auth", "password", "IMAP login: password, xoauth2 or oauthbearer (OAuth 2 token from --imap-token-cmd)")
	fs.StringVar(&s.imapTokenCmd, "imap-token-cmd", "", "shell `command` that prints an OAuth access token (or JSON with access_token, expires_in); run again when it expires")
	fs.StringVar(&s.smtpAddr, "smtp", "", "SMTP server `host:port` for replies")
	fs.StringVar(&s.smtpUser, "smtp-user", "", "SMTP user (default: the IMAP user, i.e. the --address; it logs in whenever the server offers AUTH)")
	fs.StringVar(&s.smtpPass, "smtp-pass", "", "SMTP password (default, with the default --smtp-user: the IMAP password)")
	fs.StringVar(&s.smtpPassFile, "smtp-pass-file", "", "read the SMTP password from this `file` (again when the server refuses it)")
	fs.StringVar(&s.smtpPassCmd, "smtp-pass-cmd", "", "shell `command` whose first line of output is the SMTP password, as msmtp's passwordeval (run again when the server refuses it)")
	fs.StringVar(&s.smtpTLS, "smtp-tls", "starttls", "SMTP transport security: none (loopback only), starttls or tls")
	fs.StringVar(&s.smtpAuth, "smtp-auth", "password", "SMTP login: password (AUTH PLAIN when --smtp-user is set), xoauth2 or oauthbearer (token from --smtp-token-cmd; user default: the IMAP user)")
	fs.StringVar(&s.smtpTokenCmd, "smtp-token-cmd", "", "shell `command` that prints an OAuth access token for SMTP (may be the same as --imap-token-cmd)")
	fs.DurationVar(&s.poll, "poll", time.Minute, "polling interval when the server has no IDLE (and IDLE refresh)")
	fs.DurationVar(&s.retry, "retry", 30*time.Second, "wait before the first retry of a failed delivery (doubling up to 1h)")
	fs.BoolVar(&s.noIdle, "no-idle", false, "poll every --poll even when the server offers IMAP IDLE")
	fs.StringVar(&s.doneFolder, "done-folder", "", "move processed mail to this folder (default: flag it $RefereeDone)")
	fs.BoolVar(&s.once, "once", false, "process the mailbox once, deliver the outbox, and exit (for cron and tests)")
	fs.StringVar(&s.trustedAuthServ, "trusted-authserv", "", "the authserv-id of your own mail server's Authentication-Results header")
	fs.StringVar(&s.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&s.logFormat, "log-format", "text", "text (key=value lines) or json (one JSON object a line)")
	fs.StringVar(&s.statusAddr, "status-addr", "", "serve /status (JSON), /metrics (Prometheus), /healthz and /readyz on this `host:port`, e.g. 127.0.0.1:9180")
	fs.DurationVar(&s.readyOutboxAge, "ready-outbox-age", 30*time.Minute, "/readyz fails when a mail has waited in the outbox longer than this and nothing was delivered meanwhile")
	fs.StringVar(&s.dkimKey, "dkim-key", "", "sign outgoing mail with the DKIM key in this PEM `file` (see referee dkim-keygen)")
	fs.StringVar(&s.dkimSelector, "dkim-selector", "referee", "the DKIM `selector` published for --dkim-key")
	fs.StringVar(&s.embeddedIMAP, "embedded-imap", "127.0.0.1:1143", "listen `address` of the embedded IMAP server")
	fs.StringVar(&s.embeddedSMTP, "embedded-smtp", "127.0.0.1:1025", "listen `address` of the embedded SMTP server")
	fs.StringVar(&s.players, "players", "known", "who may challenge by mail: open (anyone), known (played here, or referee player add) or a `file` of addresses, one a line")
	fs.StringVar(&s.observers, "observers", "known", "who may observe games by mail (\"observe GAME\"): open (anyone), known (played here, or referee player add) or none")
	fs.IntVar(&s.maxGames, "max-games", 10, "the most active games one player may have")
	fs.StringVar(&s.defaultTime, "default-time", "", "time control of games made by challenge that name none: "+timecontrol.Syntax+"; "+timecontrol.DaysOffSyntax+"; also referee new's default via REFEREE_DEFAULT_TIME")
	fs.BoolVar(&s.rated, "rated", false, "games made by challenge are rated unless the challenge says casual (without it: casual unless it says rated); see docs/ratings.md")
	fs.Float64Var(&s.minRating, "min-rating", 0, "only players rated at least this in the challenge's variant may challenge or accept by mail (0: no limit; a new player counts as 1500)")
	fs.Float64Var(&s.maxRating, "max-rating", 0, "only players rated at most this in the challenge's variant may challenge or accept by mail (0: no limit)")
	fs.Float64Var(&s.minReliability, "min-reliability", 0, "only players whose reliability in the challenge's variant is at least this `percent` may challenge or accept by mail (0: no limit)")
	fs.IntVar(&s.maxStrangerAnswers, "max-stranger-answers", app.DefaultMaxStrangerAnswers, "answer at most this many mails an `hour` that cannot be tied to a game or player, across all senders (0: none at all)")
	fs.IntVar(&s.keepSentDays, "keep-sent-days", 30, "keep the text of sent mail this many `days` (0: for ever); the record of each mail stays")
	fs.StringVar(&s.sendLimit, "send-limit", "", "the mailbox's sending `limits`, e.g. 2000/day,100/hour: the outbox paces itself under them, the most urgent mail first (docs/providers.md lists providers' limits)")
	fs.IntVar(&s.smtpConnections, "smtp-connections", daemon.DefaultConnections, "deliver the outbox over this many SMTP `connections` side by side (1 to 16); each mail still goes once, the most urgent first, and a player's mails in order")
	fs.StringVar(&s.variants, "variants", "all", "the variants offered by mail, comma-separated (e.g. chess,toto40)")
	fs.StringVar(&s.variantFile, "variant-file", os.Getenv("REFEREE_VARIANT_FILE"), "a `file` of your own variants in variants.ini syntax (README, \"Your own variant\"): offered by mail with the referee's own, and kept in the database for their games (env REFEREE_VARIANT_FILE)")

	// Anti-spoofing: --require-auth and --dns (serve_auth.go).
	s.auth.register(fs)
	// The public pages: --http, --public (site.go).
	s.web.register(fs, true)
}

// applyEnvAndFile fills every flag not given on the command line from the
// environment (REFEREE_IMAP_USER for --imap-user, ...), then from the config
// file. Command line beats environment beats file.
func applyEnvAndFile(fs *flag.FlagSet, config string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fileVals, fileLines := map[string]string{}, map[string]int{}
	if config != "" {
		var err error
		if fileVals, fileLines, err = readConfig(fs, config); err != nil {
			return err
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
				err = fmt.Errorf("%s line %d: %s = %q: %w", config, fileLines[f.Name], f.Name, v, e)
			}
		}
	})
	return err
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	return newLoggerFor(w, level, format, false)
}

// newLoggerFor is newLogger; with journal, each line starts with its
// syslog priority for journald (journal.go).
func newLoggerFor(w io.Writer, level, format string, journal bool) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	if format != "text" && format != "" && format != "json" {
		return nil, fmt.Errorf("--log-format %q: use text or json", format)
	}
	if journal {
		return slog.New(newJournalHandler(w, opts, format == "json")), nil
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
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
	if code, ok := parseFlagsOnly(fs, joinAuthMode(args)); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "referee serve: read %q after the flags; serve takes flags only (a value with spaces needs quotes)\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}
	if err := applyEnvAndFile(fs, s.config); err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	if err := s.auth.check(s.trustedAuthServ); err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	// Under systemd, levels reach journald as priorities.
	f, _ := stderr.(*os.File)
	log, err := newLoggerFor(stderr, s.logLevel, s.logFormat, underJournald(f))
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	if err := checkAddress(s.address); err != nil {
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
	if s.maxStrangerAnswers < 0 {
		fmt.Fprintf(stderr, "referee serve: --max-stranger-answers %d is negative; give a number of answers an hour, or 0 to answer no stranger\n", s.maxStrangerAnswers)
		return exitUsage
	}
	if s.smtpConnections < 1 || s.smtpConnections > 16 {
		fmt.Fprintf(stderr, "referee serve: --smtp-connections %d is out of range; give 1 to 16 (the default, %d, was measured in docs/performance.md; a provider may refuse more than a few at once)\n", s.smtpConnections, daemon.DefaultConnections)
		return exitUsage
	}
	limits, err := pace.Parse(s.sendLimit)
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: --send-limit: %v\n", err)
		return exitUsage
	}
	cfg := daemon.Config{Once: s.once, Logger: log, RetryBase: s.retry, KeepSent: time.Duration(s.keepSentDays) * 24 * time.Hour,
		SendLimits: limits, SMTPConnections: s.smtpConnections}
	if s.imapAddr == "" {
		if s.imapAuth != "password" || s.smtpAuth != "password" || s.imapTokenCmd != "" || s.smtpTokenCmd != "" || s.tlsCA != "" {
			fmt.Fprintln(stderr, "referee serve: --imap-auth, --smtp-auth, the token commands and --tls-ca apply to a real mail server (--imap and --smtp); the embedded server needs none of them")
			return exitUsage
		}
		// The mailboxes live beside the database, so that a restart keeps
		// them and their UIDs (the referee's record of what it processed).
		// The server outlives ctx (SIGTERM): it stops when serve returns,
		// after the daemon delivered the outbox (daemon.Config.Drain), so
		// that the replies of the last moves go out now, not at the next
		// start.
		srv, err := embedded.Start(context.WithoutCancel(ctx), embedded.Options{Domain: domainOf(s.address), IMAPAddr: s.embeddedIMAP, SMTPAddr: s.embeddedSMTP,
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
		// --- passwords: given, from a file or from a command (deployment) ---
		isecret, err := passwordSource(ctx, "imap", s.imapAuth, s.imapPass, s.imapPassFile, s.imapPassCmd)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		ssecret, err := passwordSource(ctx, "smtp", s.smtpAuth, s.smtpPass, s.smtpPassFile, s.smtpPassCmd)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		if w := exampleAddressWarning(s.address, s.imapAddr); w != "" {
			log.Warn(w)
		}
		// --- end of passwords ---
		itok, stok, err := tokenSources(&s, log)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: %v\n", err)
			return exitUsage
		}
		user := s.imapUser
		if user == "" {
			user = s.address
		}
		// SMTP login is never silently off: the user defaults to the IMAP
		// user (the --address unless --imap-user says otherwise), as one
		// mailbox account usually serves both, with its password.
		suser, defaulted := s.smtpUser, false
		if suser == "" {
			suser, defaulted = user, true
			if ssecret == nil {
				ssecret = isecret
			}
		}
		var roots *x509.CertPool
		if s.tlsCA != "" {
			if roots, err = tlsconf.LoadCA(s.tlsCA); err != nil {
				fmt.Fprintf(stderr, "referee serve: %v\n", err)
				return exitUsage
			}
		}
		cfg.IMAP = imapin.Config{Addr: s.imapAddr, User: user, Secret: isecret, TLS: s.imapTLS, Poll: s.poll, DoneFolder: s.doneFolder, NoIdle: s.noIdle,
			Auth: s.imapAuth, Token: itok, RootCAs: roots}
		cfg.SMTP = smtpout.Config{Addr: s.smtpAddr, User: suser, Secret: ssecret, TLS: s.smtpTLS, Auth: s.smtpAuth, Token: stok,
			LoginIfOffered: defaulted && s.smtpAuth == "password", Logger: log.With("part", "smtp"), RootCAs: roots}
	}
	lobby, playerList, err := s.lobbyOptions()
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitUsage
	}
	if err := web.CheckPublic(s.web.public); err != nil {
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
	a, err := app.Open(ctx, app.Options{DB: s.db, Address: s.address, Logger: log, RequireAuth: s.auth.mode != "", AuthMode: string(s.auth.mode), DNS: s.auth.dns, TrustedAuthServ: s.trustedAuthServ, DKIM: signer,
		Lobby: lobby, PlayerList: playerList, MaxStrangerAnswers: strangerCap(s.maxStrangerAnswers), VariantsFile: s.variantFile})
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitFail
	}
	defer a.Close()
	cfg.Metrics = status.NewMetrics(time.Now())
	stopWeb, ok := s.web.serveWeb(ctx, a, log, stderr)
	if !ok {
		return exitFail
	}
	defer stopWeb()
	// --- monitoring and systemd (deployment) ---
	if s.statusAddr != "" {
		ln, err := net.Listen("tcp", s.statusAddr)
		if err != nil {
			fmt.Fprintf(stderr, "referee serve: --status-addr %s: %v\n", s.statusAddr, err)
			return exitFail
		}
		// Ready: the last IMAP session logged in and the mailbox was read
		// lately; an SMTP session logs in (or a mail went out lately);
		// sending is not blocked and the outbox moves.
		sessions := status.NewSessions(time.Now)
		cfg.IMAP.OnSession = sessions.IMAP
		smtpProbe := smtpout.New(cfg.SMTP)
		opts := status.Options{Build: buildLabels(), Ready: []status.Check{
			status.IMAPReady(a.Store(), sessions, 2*min(s.poll, 25*time.Minute)+2*time.Minute),
			status.SMTPReady(a.Store(), func(ctx context.Context) error {
				ss, err := smtpProbe.Open(ctx)
				if err != nil {
					return err
				}
				return ss.Close()
			}, 10*time.Minute, time.Now),
			status.OutboxNotStuck(a.Store(), s.readyOutboxAge, time.Now)}}
		hs := &http.Server{Handler: status.NewHandler(a.Store(), cfg.Metrics, time.Now, opts), ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		log.Info("status served", "addr", ln.Addr().String(), "paths", "/status /metrics /healthz /readyz")
	}
	// Type=notify: READY=1 once the database is open and the mail servers
	// are known, WATCHDOG=1 while the database answers, STOPPING=1 when
	// SIGTERM arrives. Outside systemd, nothing.
	notify := sdnotify.FromEnv()
	if wd, err := sdnotify.WatchdogInterval(); err != nil {
		log.Warn("systemd watchdog ignored", "err", err)
	} else if wd > 0 {
		wctx, stopWatchdog := context.WithCancel(ctx)
		defer stopWatchdog()
		go notify.Watchdog(wctx, wd, func(ctx context.Context) error { return status.Live(ctx, a.Store()) }, log)
	}
	if err := notify.Ready(); err != nil {
		log.Warn("telling systemd the daemon is ready", "err", err)
	}
	stopped := context.AfterFunc(ctx, func() {
		if err := notify.Stopping(); err != nil {
			log.Warn("telling systemd the daemon is stopping", "err", err)
		}
	})
	defer stopped()
	// --- end of monitoring and systemd ---
	log.Info("referee serving", "address", s.address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "db", s.db, "once", s.once)
	if err := daemon.Run(ctx, a, cfg); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return exitFail
	}
	log.Info("referee stopped")
	return exitOK
}

// strangerCap turns --max-stranger-answers into app.Options'
// MaxStrangerAnswers, where 0 means the default: a flag of 0 answers none.
func strangerCap(n int) int {
	if n == 0 {
		return app.NoStrangerAnswers
	}
	return n
}

func domainOf(addr string) string {
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		return addr[at+1:]
	}
	return "example.test"
}

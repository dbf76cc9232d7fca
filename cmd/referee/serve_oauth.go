package main

import (
	"fmt"
	"log/slog"

	"referee/internal/mail/oauth"
)

// tokenSources checks the OAuth settings of `serve` and returns the token
// sources of IMAP and SMTP (nil for password auth). One command given for
// both runs as one source, so that its token is fetched once.
func tokenSources(s *serveFlags, log *slog.Logger) (imapTok, smtpTok oauth.TokenSource, err error) {
	if err := checkAuthFlags("imap", s.imapAuth, s.imapTokenCmd, s.imapPass, s.imapPassFile); err != nil {
		return nil, nil, err
	}
	if err := checkAuthFlags("smtp", s.smtpAuth, s.smtpTokenCmd, s.smtpPass, s.smtpPassFile); err != nil {
		return nil, nil, err
	}
	newSource := func(cmd, part string) (oauth.TokenSource, error) {
		if cmd == "" {
			return nil, nil
		}
		return oauth.NewCommandSource(oauth.Options{Command: cmd, Logger: log.With("part", part)})
	}
	if imapTok, err = newSource(s.imapTokenCmd, "imap-token"); err != nil {
		return nil, nil, err
	}
	if s.smtpTokenCmd == s.imapTokenCmd {
		return imapTok, imapTok, nil
	}
	if smtpTok, err = newSource(s.smtpTokenCmd, "smtp-token"); err != nil {
		return nil, nil, err
	}
	return imapTok, smtpTok, nil
}

// checkAuthFlags checks --NAME-auth against --NAME-token-cmd and the
// password settings.
func checkAuthFlags(name, auth, cmd, pass, passFile string) error {
	switch auth {
	case "password":
		if cmd != "" {
			return fmt.Errorf("--%s-token-cmd is set but --%s-auth is password, so the command would never run; add --%s-auth xoauth2 (Gmail, Microsoft 365) or oauthbearer, or drop --%s-token-cmd", name, name, name, name)
		}
		return nil
	case "xoauth2", "oauthbearer":
		if cmd == "" {
			return fmt.Errorf("--%s-auth %s needs --%s-token-cmd, a shell command that prints an access token (see docs/providers.md)", name, auth, name)
		}
		if pass != "" || passFile != "" {
			return fmt.Errorf("--%s-auth %s logs in with a token, but --%s-pass or --%s-pass-file is set too; drop the password, or use --%s-auth password", name, auth, name, name, name)
		}
		return nil
	}
	return fmt.Errorf("--%s-auth %q: use password, xoauth2 or oauthbearer", name, auth)
}

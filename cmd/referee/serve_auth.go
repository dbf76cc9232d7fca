package main

import (
	"flag"
	"fmt"
	"net"
	"strings"

	"referee/internal/referee"
)

// authFlags are serve's anti-spoofing settings (docs/require-auth.md).
type authFlags struct {
	mode authMode
	dns  string
}

func (a *authFlags) register(fs *flag.FlagSet) {
	fs.Var(&a.mode, "require-auth", "accept only mail shown to come from its From domain: `header` (the Authentication-Results of --trusted-authserv; "+
		"also what --require-auth alone means), dkim (the referee verifies DKIM and DMARC alignment itself) or either")
	fs.StringVar(&a.dns, "dns", "", "the DNS server (`host:port`) that --require-auth dkim|either asks for DKIM keys and DMARC records (default: the system's, from /etc/resolv.conf)")
}

// check says what is wrong with the settings together.
func (a *authFlags) check(trustedAuthServ string) error {
	if (a.mode == referee.AuthHeader || a.mode == referee.AuthEither) && trustedAuthServ == "" {
		return fmt.Errorf("--require-auth %s trusts the Authentication-Results of your mail server, so it needs --trusted-authserv "+
			"(the authserv-id your server writes, e.g. mx.example.org); or use --require-auth dkim", a.mode)
	}
	if a.dns != "" && a.mode != referee.AuthDKIM && a.mode != referee.AuthEither {
		return fmt.Errorf("--dns %s is used only by --require-auth dkim or either; drop it, or give one of those", a.dns)
	}
	if a.dns != "" {
		host := a.dns
		if h, _, err := net.SplitHostPort(a.dns); err == nil {
			host = h
		}
		if net.ParseIP(strings.Trim(host, "[]")) == nil {
			return fmt.Errorf("--dns %q is not an IP address with an optional port, e.g. 127.0.0.1:53 or [::1]:53", a.dns)
		}
	}
	return nil
}

// authMode is the value of --require-auth: "" (off), header, dkim or
// either. It is a boolean flag too, so that "--require-auth" alone keeps
// its old meaning (header), and true/false from the environment or a
// config file still work.
type authMode string

func (m *authMode) String() string { return string(*m) }

// IsBoolFlag lets "--require-auth" stand alone.
func (m *authMode) IsBoolFlag() bool { return true }

func (m *authMode) Set(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on", referee.AuthHeader:
		*m = referee.AuthHeader
	case "false", "0", "no", "off", "":
		*m = ""
	case referee.AuthDKIM:
		*m = referee.AuthDKIM
	case referee.AuthEither:
		*m = referee.AuthEither
	default:
		return fmt.Errorf("%q is not a mode: use header, dkim or either (or false to turn it off)", v)
	}
	return nil
}

// joinAuthMode rewrites "--require-auth MODE" as "--require-auth=MODE": a
// boolean flag never takes the next argument, and the flag package would
// stop at MODE and silently ignore every flag after it.
func joinAuthMode(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--require-auth" || a == "-require-auth") && i+1 < len(args) {
			switch strings.ToLower(args[i+1]) {
			case referee.AuthHeader, referee.AuthDKIM, referee.AuthEither, "true", "false":
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

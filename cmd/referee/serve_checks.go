package main

import (
	"context"
	"fmt"
	"strings"

	"referee/internal/mail/addr"
	"referee/internal/mail/secret"
)

// checkAddress refuses a --address that is not the referee's own bare mail
// address: the players' replies go to plus-addresses of it, so a typo, a
// display name or a +detail would silently send them elsewhere.
func checkAddress(a string) error {
	c, err := addr.Canonical(a)
	if err != nil {
		return fmt.Errorf("--address %q is not a mail address (%v); give the referee's own address, e.g. referee@example.org", a, err)
	}
	if strings.ContainsAny(a, "<>\"") || strings.TrimSpace(a) != a {
		return fmt.Errorf("--address %q: give the bare address (%s), without a name, quotes or spaces", a, c)
	}
	local := c[:strings.LastIndexByte(c, '@')]
	if strings.Contains(local, "+") {
		return fmt.Errorf("--address %q has a +detail; the referee makes plus-addresses of its own address for every game, so give it without one (%s)", a, addr.Mailbox(c))
	}
	if d := addr.Domain(c); !strings.Contains(d, ".") && d != "localhost" {
		return fmt.Errorf("--address %q: the domain %q has no dot; give the full domain, e.g. referee@example.org", a, d)
	}
	return nil
}

// exampleDomain reports whether d is reserved for examples and tests
// (RFC 2606, RFC 6761): no real mail is delivered there.
func exampleDomain(d string) bool {
	d = strings.ToLower(d)
	for _, e := range []string{"example.test", "example.org", "example.com", "example.net"} {
		if d == e || strings.HasSuffix(d, "."+e) {
			return true
		}
	}
	return d == "example" || strings.HasSuffix(d, ".example") || strings.HasSuffix(d, ".invalid") || strings.HasSuffix(d, ".test")
}

// exampleAddressWarning is the warning for a real --imap server with an
// example --address (the default is one): the referee would read the real
// mailbox but write replies from, and ask for moves at, an address that
// receives no mail. "" when there is nothing to warn about.
func exampleAddressWarning(address, imap string) string {
	if imap == "" || !exampleDomain(addr.Domain(address)) {
		return ""
	}
	if host := strings.Split(imap, ":")[0]; exampleDomain(host) || host == "127.0.0.1" || host == "localhost" || host == "::1" || strings.HasPrefix(imap, "[::1]") {
		return "" // a test server
	}
	return fmt.Sprintf("--address %s is an example address, but --imap %s is a real server: players would be asked to reply to an address that receives no mail; set --address (REFEREE_ADDRESS) to the mailbox's own address", address, imap)
}

// passwordSource is how one login's password is given: at most one of
// --NAME-pass, --NAME-pass-file and --NAME-pass-cmd. It is read once here,
// so that a missing file or a failing command stops serve at once; a file
// or command is read again when the server refuses the password. nil when
// none is given (no password, or OAuth).
func passwordSource(ctx context.Context, name, auth, pass, file, cmd string) (*secret.Source, error) {
	var given []string
	for flag, v := range map[string]string{"--" + name + "-pass": pass, "--" + name + "-pass-file": file, "--" + name + "-pass-cmd": cmd} {
		if v != "" {
			given = append(given, flag)
		}
	}
	if len(given) > 1 {
		return nil, fmt.Errorf("%s are all set; give the %s password one way only", strings.Join(sortedCopy(given), " and "), strings.ToUpper(name))
	}
	if auth != "password" && auth != "" {
		if cmd != "" {
			return nil, fmt.Errorf("--%s-auth %s logs in with a token, but --%s-pass-cmd is set too; drop the password command, or use --%s-auth password", name, auth, name, name)
		}
		return nil, nil // a password given with a token: checkAuthFlags says so
	}
	var src *secret.Source
	switch {
	case pass != "":
		src = secret.Fixed(pass)
	case file != "":
		src = secret.File("--"+name+"-pass-file", file)
	case cmd != "":
		src = secret.Command("--"+name+"-pass-cmd", cmd)
	default:
		return nil, nil
	}
	if _, err := src.Password(ctx); err != nil {
		return nil, err
	}
	return src, nil
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

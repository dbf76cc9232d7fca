package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"os"

	"referee/internal/mail/dkimsign"
)

func runDKIMKeygen(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("dkim-keygen", "--domain DOMAIN --selector NAME --out FILE",
		"Makes a DKIM signing key (RSA 2048) for the referee's outgoing mail, writes it to FILE (mode 0600, never overwritten), "+
			"and prints the DNS TXT record to publish. Then run serve with --dkim-key FILE --dkim-selector NAME.", stderr)
	domain := fs.String("domain", "", "the `domain` of the referee's address, e.g. example.org")
	selector := fs.String("selector", "referee", "the DKIM `selector` (the DNS name is SELECTOR._domainkey.DOMAIN)")
	out := fs.String("out", "", "the key `file` to write")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	if *domain == "" || *out == "" {
		fmt.Fprintln(stderr, "referee dkim-keygen: give --domain (the referee address's domain) and --out (where to write the key), e.g. referee dkim-keygen --domain example.org --out /etc/referee/dkim.pem")
		return exitUsage
	}
	key, record, err := dkimsign.Keygen(*domain, *selector)
	if err != nil {
		fmt.Fprintf(stderr, "referee dkim-keygen: %v\n", err)
		return exitFail
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(stderr, "referee dkim-keygen: %s exists already; it is never overwritten (a published key would stop matching). Choose another --out, or remove it first.\n", *out)
		return exitUsage
	}
	if err == nil {
		_, err = f.Write(key)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "referee dkim-keygen: writing the key: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "; DKIM key written to %s. Publish this record in the DNS of %s:\n%s\n", *out, *domain, record)
	return exitOK
}

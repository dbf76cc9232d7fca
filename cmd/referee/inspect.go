package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"referee/internal/app"
)

func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("inspect", "[--db PATH] FILE.eml", "Prints one JSON object saying how the referee reads that mail: game, player, auth,\naction (canonical, or null), message, reject (the reason, or null). Changes nothing.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	var auth authFlags // as serve has them, to see what --require-auth would decide
	auth.register(fs)
	trusted := fs.String("trusted-authserv", "", "the authserv-id of your own mail server's Authentication-Results header (as serve)")
	if code, ok := parseFlags(fs, joinAuthMode(args)); !ok {
		return code
	}
	if err := auth.check(*trusted); err != nil {
		fmt.Fprintf(stderr, "referee inspect: %v\n", err)
		return exitUsage
	}
	// As serve: the reader finds the game in plus-addresses of this one,
	// which it cannot make of a string with no local part or no "@".
	if err := checkAddress(*address); err != nil {
		fmt.Fprintf(stderr, "referee inspect: %v\n", err)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "referee inspect: give one mail file, e.g. referee inspect move.eml (\"-\" reads standard input)")
		return exitUsage
	}
	var raw []byte
	var err error
	if fs.Arg(0) == "-" {
		raw, err = io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
	} else {
		raw, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "referee inspect: cannot read the mail: %v\n", err)
		return exitUsage
	}
	if noDatabase("inspect", *db, stderr) {
		return exitUsage
	}
	a, err := app.Open(ctx, app.Options{DB: *db, Address: *address, RequireAuth: auth.mode != "", AuthMode: string(auth.mode),
		DNS: auth.dns, TrustedAuthServ: *trusted})
	if err != nil {
		fmt.Fprintf(stderr, "referee inspect: %v\n", err)
		return exitFail
	}
	defer a.Close()
	res, err := a.Inspect(ctx, raw)
	if err != nil {
		fmt.Fprintf(stderr, "referee inspect: %v\n", err)
		return exitFail
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(stderr, "referee inspect: %v\n", err)
		return exitFail
	}
	return exitOK
}

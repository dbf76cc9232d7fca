package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("inspect", "[--db PATH] FILE.eml", "Prints one JSON object saying how the referee reads that mail: game, player, auth,\naction (canonical, or null), message, reject (the reason, or null). Changes nothing.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
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
	a, code := openApp(ctx, *db, *address, stderr)
	if a == nil {
		return code
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

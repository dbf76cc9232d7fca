package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"referee/internal/status"
)

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("status", "[--json]", "Shows what the referee is doing: games by state, mail received and what became of it, "+
		"the outbox and undeliverable mail, and the last contact with the IMAP and SMTP servers. Reads the database, "+
		"so it works beside a running \"referee serve\" (whose --status-addr also serves this as JSON and Prometheus metrics).", stderr)
	db := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON, as serve's /status does")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	st, code := openStore(ctx, "status", *db, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	s, err := st.Status(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "referee status: %v\n", err)
		return exitFail
	}
	rep := status.Collect(s, nil, time.Now())
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "referee status: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	rep.WriteText(stdout)
	return exitOK
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"referee/internal/store"
)

func runOutbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("outbox", "[--failed | --all | --retry ID|all | --retry-failed | --drop ID]",
		`Shows the mail the referee has still to deliver: id, game, recipient, kind
(opening, board, reject, refusal: an answer to a stranger, ...), attempts,
next attempt, state and the server's last answer. States: due (sent at the next
pass), waiting (failed for now, retried at the next attempt), sending (a sender
holds it right now), failed (the server refused it for good, e.g. "550 no such
user": it is not retried until you say so), dropped, sent.

--retry ID makes a failed, waiting or dropped mail due now (fix the address or
the server first); --retry all makes every failed or waiting mail due now (after
you fixed the SMTP login, say: it also lifts "sending is blocked"); --retry-failed
every failed one. --drop ID gives a mail up for good (the row stays, for the
record). All are safe while "referee serve" runs.`, stderr)
	db := dbFlag(fs)
	onlyFailed := fs.Bool("failed", false, "only the mail the server refused for good")
	all := fs.Bool("all", false, "every mail, sent and dropped too")
	retry := fs.String("retry", "", "make mail `ID` due now; \"all\": every failed or waiting mail")
	retryFailed := fs.Bool("retry-failed", false, "make every mail the server refused for good due now")
	drop := fs.String("drop", "", "give mail `ID` up: it is never sent")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "referee outbox: unexpected argument %q; to act on a mail, write --retry %s or --drop %s.\n", fs.Arg(0), fs.Arg(0), fs.Arg(0))
		return exitUsage
	}
	if n := btoi(*retry != "") + btoi(*drop != "") + btoi(*retryFailed); n > 1 {
		fmt.Fprintln(stderr, "referee outbox: more than one of --retry, --retry-failed and --drop was given; give one of them.")
		return exitUsage
	}
	if *onlyFailed && *all {
		fmt.Fprintln(stderr, "referee outbox: --failed and --all were both given; give one of them.")
		return exitUsage
	}
	// --failed and --all choose what the listing shows; an action lists
	// nothing, so with one they would be read and ignored.
	if act := actionFlag(*retry != "", *retryFailed, *drop != ""); act != "" && (*onlyFailed || *all) {
		list := "--failed"
		if *all {
			list = "--all"
		}
		fmt.Fprintf(stderr, "referee outbox: %s chooses which mails the list shows, but %s acts on mail and lists none; "+
			"drop %s, or run \"referee outbox %s\" on its own.\n", list, act, list, list)
		return exitUsage
	}
	s, code := openStore(ctx, "outbox", *db, stderr)
	if s == nil {
		return code
	}
	defer s.Close()

	now := time.Now().UTC()
	switch {
	case *retry == "all" || *retryFailed:
		n, err := s.RetryAll(ctx, now, *retryFailed)
		if err != nil {
			return outboxFailed(stderr, err)
		}
		what := "failed or waiting"
		if *retryFailed {
			what = "failed"
		}
		fmt.Fprintf(stdout, "%d %s mails are due now; a running \"referee serve\" sends them within seconds (or run \"referee serve --once\").\n", n, what)
		return exitOK
	case *retry != "":
		id, ok := mailID(stderr, "retry", *retry)
		if !ok {
			return exitUsage
		}
		if err := s.RetryOutgoing(ctx, id, now); err != nil {
			return outboxFailed(stderr, err)
		}
		fmt.Fprintf(stdout, "mail #%d is due now; a running \"referee serve\" sends it within seconds (or run \"referee serve --once\").\n", id)
		return exitOK
	case *drop != "":
		id, ok := mailID(stderr, "drop", *drop)
		if !ok {
			return exitUsage
		}
		if err := s.DropOutgoing(ctx, id, now); err != nil {
			return outboxFailed(stderr, err)
		}
		fmt.Fprintf(stdout, "mail #%d is dropped: it will not be sent (it stays in \"referee outbox --all\"; --retry %d would send it after all).\n", id, id)
		return exitOK
	}

	filter := store.OutboxQueued
	switch {
	case *onlyFailed:
		filter = store.OutboxFailed
	case *all:
		filter = store.OutboxAll
	}
	mails, err := s.ListOutbox(ctx, filter)
	if err != nil {
		fmt.Fprintf(stderr, "referee outbox: %v\n", err)
		return exitFail
	}
	if len(mails) == 0 {
		switch filter {
		case store.OutboxFailed:
			fmt.Fprintln(stdout, "no mail was refused for good")
		case store.OutboxAll:
			fmt.Fprintln(stdout, "the outbox is empty")
		default:
			fmt.Fprintln(stdout, "nothing to deliver: every mail was sent or dropped")
		}
		return exitOK
	}
	printOutbox(stdout, mails, now)
	return exitOK
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// printOutbox writes one line per mail.
func printOutbox(w io.Writer, mails []store.Outgoing, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGAME\tTO\tKIND\tATTEMPTS\tNEXT ATTEMPT\tSTATE\tLAST ERROR")
	for _, m := range mails {
		game := "-"
		if m.GameID != nil {
			game = "#" + strconv.FormatInt(*m.GameID, 10)
		}
		state := m.State(now)
		next := "-"
		switch state {
		case store.StateDue, store.StateWaiting:
			next = m.NextAttempt.Format("2006-01-02 15:04:05Z")
		}
		last := strings.Join(strings.Fields(m.LastError), " ")
		if last == "" {
			last = "-"
		}
		kind := m.Kind
		if kind == "" {
			kind = "-" // queued before the outbox kept the kind
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", m.ID, game, m.To, kind, m.Attempts, next, state, last)
	}
	tw.Flush()
}

// mailID reads the ID of --retry or --drop (with or without '#').
func mailID(stderr io.Writer, flag, raw string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimPrefix(raw, "#"), 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "referee outbox: --%s %q is not a mail id; ids are the numbers in the ID column of \"referee outbox --all\", e.g. --%s 12 (or --retry all).\n", flag, raw, flag)
		return 0, false
	}
	return id, true
}

// outboxFailed reports an error of --retry or --drop: exit 2 when the mail
// does not exist or its state forbids the action (nothing changed), 1 else.
func outboxFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "referee outbox: %v\n", err)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrOutboxState) {
		return exitUsage
	}
	return exitFail
}

// actionFlag names the outbox action given (--retry, --retry-failed or
// --drop), or "" for none.
func actionFlag(retry, retryFailed, drop bool) string {
	switch {
	case retry:
		return "--retry"
	case retryFailed:
		return "--retry-failed"
	case drop:
		return "--drop"
	}
	return ""
}

package status

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"

	"referee/internal/store"
)

// Options are what NewHandler needs beyond the database and the metrics.
type Options struct {
	Build Build   // labels of referee_build_info
	Ready []Check // what /readyz checks, in order
}

// Build describes the running binary, for referee_build_info.
type Build struct {
	Version, Revision, GoVersion string
}

// Check is one readiness check: Run returns nil when ready, else an error
// that says what is wrong, for the operator reading /readyz.
type Check struct {
	Name string
	Run  func(context.Context) error
}

// Live reports whether the daemon's database answers: the check behind
// /healthz and the systemd watchdog.
func Live(ctx context.Context, st *store.Store) error {
	if _, err := st.Status(ctx); err != nil {
		return fmt.Errorf("the database does not answer: %w", err)
	}
	return nil
}

// runChecks runs every check (each within 10 s) and writes one line each:
// "ok NAME" or "FAIL NAME: why".
func runChecks(ctx context.Context, checks []Check) (failed bool, text string) {
	var b strings.Builder
	for _, c := range checks {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := c.Run(cctx)
		cancel()
		if err != nil {
			failed = true
			fmt.Fprintf(&b, "FAIL %s: %s\n", c.Name, strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		fmt.Fprintf(&b, "ok %s\n", c.Name)
	}
	if len(checks) == 0 {
		b.WriteString("ok (no checks)\n")
	}
	return failed, b.String()
}

// Reachable is a readiness check that a TCP connection to addr (host:port)
// opens: the mail server is up and the network lets the referee reach it.
func Reachable(name, addr string) Check {
	return Check{Name: name, Run: func(ctx context.Context) error {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("cannot connect to %s: %w", addr, err)
		}
		return c.Close()
	}}
}

// OutboxNotStuck is a readiness check that the outbox moves: it fails when
// sending is blocked (the SMTP server refused the login, or no session
// could be opened), or when a mail has waited longer than limit and no
// mail at all was delivered within limit. A long wait while mail goes out
// is not stuck: under --send-limit the outbox paces itself, and mail may
// wait for hours behind more urgent mail, in order.
func OutboxNotStuck(st *store.Store, limit time.Duration, now func() time.Time) Check {
	return Check{Name: "outbox", Run: func(ctx context.Context) error {
		s, err := st.Status(ctx)
		if err != nil {
			return fmt.Errorf("reading the outbox: %w", err)
		}
		if s.SendingBlocked != "" {
			return fmt.Errorf("sending is blocked since %s: %s", s.BlockedSince.UTC().Format(time.RFC3339), s.SendingBlocked)
		}
		if s.OutboxPending == 0 || s.OutboxOldest.IsZero() {
			return nil
		}
		age := now().Sub(s.OutboxOldest)
		if age <= limit {
			return nil
		}
		if !s.LastDelivery.IsZero() && now().Sub(s.LastDelivery) <= limit {
			return nil // moving: paced, or a long queue served in order
		}
		return fmt.Errorf("%d mails waiting, the oldest for %s (more than %s), and none delivered since: see \"referee outbox\" and the log", s.OutboxPending, age.Truncate(time.Second), limit)
	}}
}

// newRegistry holds the metrics the Prometheus client library provides:
// the Go runtime's, the process's, and referee_build_info.
func newRegistry(b Build) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "referee_build_info",
		Help:        "The running referee: always 1, with its version, commit and Go version as labels.",
		ConstLabels: prometheus.Labels{"version": b.Version, "revision": b.Revision, "goversion": b.GoVersion},
	})
	info.Set(1)
	reg.MustRegister(info)
	return reg
}

// writeRegistry writes the registry's metrics in the text format, before
// the report's referee_* metrics (WritePrometheus), which it never names.
func writeRegistry(w io.Writer, reg *prometheus.Registry) error {
	mfs, err := reg.Gather()
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if e := enc.Encode(mf); e != nil {
			return errors.Join(err, e)
		}
	}
	return err
}

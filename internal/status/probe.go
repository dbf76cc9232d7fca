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

// OutboxNotStuck is a readiness check that no mail has waited in the
// outbox longer than limit: a longer wait means the SMTP server has been
// refusing or unreachable for that long, and players are not getting
// their replies.
func OutboxNotStuck(st *store.Store, limit time.Duration, now func() time.Time) Check {
	return Check{Name: "outbox", Run: func(ctx context.Context) error {
		s, err := st.Status(ctx)
		if err != nil {
			return fmt.Errorf("reading the outbox: %w", err)
		}
		if s.OutboxPending > 0 && !s.OutboxOldest.IsZero() {
			if age := now().Sub(s.OutboxOldest); age > limit {
				return fmt.Errorf("%d mails waiting, the oldest for %s (more than %s): see \"referee outbox\" and the log", s.OutboxPending, age.Truncate(time.Second), limit)
			}
		}
		return nil
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

// Package sdnotify speaks systemd's notification protocol (sd_notify(3)):
// a service of Type=notify tells the service manager that it is ready
// (READY=1), that it is still alive (WATCHDOG=1, within WatchdogSec) and
// that it is stopping (STOPPING=1), by sending datagrams to the unixgram
// socket named by $NOTIFY_SOCKET. Outside systemd (no $NOTIFY_SOCKET) every
// call does nothing.
package sdnotify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"
)

// Notifier sends notifications to one socket. The zero value and nil send
// nothing.
type Notifier struct {
	socket string
}

// FromEnv returns a Notifier for $NOTIFY_SOCKET, or nil when it is unset
// (not started by systemd, or not Type=notify).
func FromEnv() *Notifier {
	s := os.Getenv("NOTIFY_SOCKET")
	if s == "" {
		return nil
	}
	return &Notifier{socket: s}
}

// Notify sends one state string, such as "READY=1" or
// "STATUS=waiting for mail", as one datagram. A socket name starting with
// "@" is in the abstract namespace, as sd_notify(3) says.
func (n *Notifier) Notify(state string) error {
	if n == nil || n.socket == "" {
		return nil
	}
	name := n.socket
	if name[0] == '@' {
		name = "\x00" + name[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return fmt.Errorf("notifying systemd at $NOTIFY_SOCKET=%s: %w", n.socket, err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(state)); err != nil {
		return fmt.Errorf("notifying systemd at $NOTIFY_SOCKET=%s: %w", n.socket, err)
	}
	return nil
}

// Ready tells systemd that start-up is finished.
func (n *Notifier) Ready() error { return n.Notify("READY=1") }

// Stopping tells systemd that the service is shutting down.
func (n *Notifier) Stopping() error { return n.Notify("STOPPING=1") }

// WatchdogInterval returns how often systemd wants a WATCHDOG=1 ping
// ($WATCHDOG_USEC, set by WatchdogSec=), or 0 when there is no watchdog, or
// it is meant for another process ($WATCHDOG_PID).
func WatchdogInterval() (time.Duration, error) {
	s := os.Getenv("WATCHDOG_USEC")
	if s == "" {
		return 0, nil
	}
	if p := os.Getenv("WATCHDOG_PID"); p != "" {
		pid, err := strconv.Atoi(p)
		if err != nil {
			return 0, fmt.Errorf("$WATCHDOG_PID=%q is not a process id", p)
		}
		if pid != os.Getpid() {
			return 0, nil
		}
	}
	us, err := strconv.ParseInt(s, 10, 64)
	if err != nil || us <= 0 {
		return 0, fmt.Errorf("$WATCHDOG_USEC=%q is not a positive number of microseconds", s)
	}
	return time.Duration(us) * time.Microsecond, nil
}

// Watchdog pings systemd's watchdog every interval/2 for as long as ctx
// lives, each time healthy returns nil: a process that is wedged (healthy
// blocks or fails) stops pinging, and systemd restarts it after interval.
// A failing check is logged. It returns when ctx is done; with no
// notifier or a zero interval it returns at once.
func (n *Notifier) Watchdog(ctx context.Context, interval time.Duration, healthy func(context.Context) error, log *slog.Logger) {
	if n == nil || interval <= 0 {
		return
	}
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	for {
		cctx, cancel := context.WithTimeout(ctx, interval/2)
		err := healthy(cctx)
		cancel()
		switch {
		case err == nil:
			if err := n.Notify("WATCHDOG=1"); err != nil {
				log.Warn("watchdog ping failed", "err", err)
			}
		case !errors.Is(ctx.Err(), context.Canceled):
			log.Error("health check failed: not pinging the systemd watchdog", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

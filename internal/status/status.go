// Package status tells what the referee is doing: games by state, mail
// received and what became of it, the outbox, dead letters, the last
// contact with the IMAP and SMTP servers, and how long each mail took. It
// reads the lasting numbers from the database (so "referee status" works
// beside a running daemon) and keeps the daemon's timings in memory, and
// writes them as text, JSON or Prometheus metrics.
package status

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"referee/internal/pace"
	"referee/internal/store"
)

// Buckets are the upper bounds, in seconds, of the processing-time
// histogram: from a fast move (a few ms) to a slow disk.
var Buckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics are the daemon's in-memory measurements since it started. The
// zero value is not usable; use NewMetrics. Safe for concurrent use.
type Metrics struct {
	mu      sync.Mutex
	start   time.Time
	counts  []uint64 // per bucket, not cumulative; one more for +Inf
	sum     float64
	n       uint64
	verdict map[string]uint64
}

// NewMetrics starts measuring at start.
func NewMetrics(start time.Time) *Metrics {
	return &Metrics{start: start, counts: make([]uint64, len(Buckets)+1), verdict: map[string]uint64{}}
}

// Observe records one processed mail: its verdict and how long it took.
func (m *Metrics) Observe(verdict string, d time.Duration) {
	s := d.Seconds()
	i, _ := slices.BinarySearch(Buckets, s)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[i]++
	m.sum += s
	m.n++
	m.verdict[verdict]++
}

// Histogram is the processing-time histogram: Cumulative[i] mails took at
// most Buckets[i] seconds; Count took any time, Sum seconds in all.
type Histogram struct {
	Buckets    []float64 `json:"buckets_seconds"`
	Cumulative []uint64  `json:"cumulative"`
	Count      uint64    `json:"count"`
	Sum        float64   `json:"sum_seconds"`
}

func (m *Metrics) snapshot() (Histogram, map[string]uint64, time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := Histogram{Buckets: Buckets, Cumulative: make([]uint64, len(Buckets)), Count: m.n, Sum: m.sum}
	var run uint64
	for i := range Buckets {
		run += m.counts[i]
		h.Cumulative[i] = run
	}
	v := make(map[string]uint64, len(m.verdict))
	for k, n := range m.verdict {
		v[k] = n
	}
	return h, v, m.start
}

// Report is everything status knows at one moment.
type Report struct {
	Time             time.Time      `json:"time"`
	Games            map[string]int `json:"games"`
	Mails            map[string]int `json:"mails_received"` // by outcome, over the database's life
	OutboxPending    int            `json:"outbox_pending"`
	OutboxOldestAge  float64        `json:"outbox_oldest_age_seconds"`
	DeadLetters      int            `json:"dead_letters"`
	Dropped          int            `json:"dropped"`
	LastIMAPContact  *time.Time     `json:"last_imap_contact"`
	LastSMTPDelivery *time.Time     `json:"last_smtp_delivery"`
	// SendingBlocked is set while no mail can go out (the SMTP server
	// refused the login, or no session could be opened).
	SendingBlocked *Blocked `json:"sending_blocked,omitempty"`
	SchemaVersion  int      `json:"schema_version"`
	// Collisions: mails that reused an earlier mail's Message-ID with other
	// content, not read (the newest few listed).
	Collisions       int               `json:"message_id_collisions"`
	RecentCollisions []Collision       `json:"recent_message_id_collisions,omitempty"`
	Started          *time.Time        `json:"daemon_started,omitempty"`
	SinceStart       map[string]uint64 `json:"processed_since_start,omitempty"`
	Processing       *Histogram        `json:"processing_time,omitempty"`
	// OutboxQueue counts the undelivered mail by priority, most urgent
	// first (QueueNames).
	OutboxQueue map[string]int `json:"outbox_queue_by_priority"`
	// Sending is the outbox's pace under the mailbox's sending limits
	// (serve --send-limit); nil when no daemon recorded one.
	Sending *Sending `json:"sending,omitempty"`
}

// QueueNames name the outbox's priorities (store.PriorityGame, ...).
var QueueNames = map[int]string{store.PriorityGame: "move", store.PriorityPlayer: "answer", store.PriorityReminder: "reminder",
	store.PriorityBulk: "bulk", store.PriorityStranger: "stranger"}

// Sending is the outbox's pace under the sending limits.
type Sending struct {
	Limits string  `json:"limits"` // as configured; "" for none
	Factor float64 `json:"pace"`   // the share of the limits in use (halved after each "too many messages")
	// Quota says, per limit in force, how many mails went out in its
	// window ending now.
	Quota []Quota `json:"quota"`
	// PacedSince is when mail began to wait for the limits (nil while
	// none waits); DrainsBy forecasts when the queue will be sent, at
	// the pace in force, if no more mail is queued.
	PacedSince *time.Time `json:"paced_since,omitempty"`
	DrainsBy   *time.Time `json:"drains_by,omitempty"`
}

// Quota is one sending limit and its use.
type Quota struct {
	Window  string  `json:"window"` // "hour", "day", ...
	Seconds float64 `json:"window_seconds"`
	Allowed int     `json:"allowed"`
	Used    int     `json:"used"`
}

// Blocked says since when and why no mail can go out.
type Blocked struct {
	Since time.Time `json:"since"`
	Why   string    `json:"why"`
}

// Collision is one mail that reused an earlier mail's Message-ID.
type Collision struct {
	Received time.Time `json:"received"`
	From     string    `json:"from"`
	Subject  string    `json:"subject"`
	Detail   string    `json:"detail"`
}

// Collect builds a Report from the database's Status and, when the daemon
// runs in this process, its Metrics (nil otherwise).
func Collect(st store.Status, m *Metrics, now time.Time) Report {
	r := Report{Time: now.UTC(), Games: st.Games, Mails: st.Inbound, OutboxPending: st.OutboxPending,
		DeadLetters: st.DeadLetters, Dropped: st.Dropped, SchemaVersion: st.SchemaVersion}
	r.Collisions = st.Collisions
	for _, c := range st.RecentCollisions {
		r.RecentCollisions = append(r.RecentCollisions, Collision{Received: c.Received.UTC(), From: c.From, Subject: c.Subject, Detail: c.Detail})
	}
	for _, s := range []string{"active", "finished", "aborted"} {
		r.Games[s] += 0
	}
	for _, o := range []string{"applied", "answered", "rejected", "ignored"} {
		r.Mails[o] += 0
	}
	if !st.OutboxOldest.IsZero() {
		r.OutboxOldestAge = now.Sub(st.OutboxOldest).Seconds()
	}
	if st.SendingBlocked != "" {
		r.SendingBlocked = &Blocked{Since: st.BlockedSince, Why: st.SendingBlocked}
	}
	if !st.LastIMAP.IsZero() {
		t := st.LastIMAP
		r.LastIMAPContact = &t
	}
	if !st.LastDelivery.IsZero() {
		t := st.LastDelivery
		r.LastSMTPDelivery = &t
	}
	r.OutboxQueue = map[string]int{}
	for p, name := range QueueNames {
		r.OutboxQueue[name] = st.Queue[p]
	}
	if p := st.Pace; p != nil {
		r.Sending = sending(p, st.RecentSent, st.OutboxPending, now.UTC())
	}
	if m != nil {
		h, v, start := m.snapshot()
		r.Processing, r.SinceStart, r.Started = &h, v, &start
	}
	return r
}

// sending describes the pace the daemon recorded, at now.
func sending(p *store.SendPace, sent []time.Time, pending int, now time.Time) *Sending {
	out := &Sending{Limits: p.Limits, Factor: p.Factor}
	base, _ := pace.Parse(p.Limits)
	if len(base) == 0 {
		return out
	}
	factor := p.Factor
	if factor <= 0 {
		factor = 1
	}
	in := pace.Scale(base, factor)
	for _, l := range in {
		w := strings.TrimPrefix(l.String(), fmt.Sprint(l.N, "/"))
		out.Quota = append(out.Quota, Quota{Window: w, Seconds: l.Per.Seconds(), Allowed: l.N, Used: pace.Used(l, sent, now)})
	}
	if !p.Since.IsZero() {
		t := p.Since.UTC()
		out.PacedSince = &t
	}
	if pending > 0 {
		t := pace.Drain(pace.Spread(in), sent, pending, now)
		out.DrainsBy = &t
	}
	return out
}

// WriteText writes the report for a person.
func (r Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Games: %d active, %d finished, %d aborted\n", r.Games["active"], r.Games["finished"], r.Games["aborted"])
	fmt.Fprintf(w, "Mail received: %d applied, %d answered, %d refused, %d not answered\n",
		r.Mails["applied"], r.Mails["answered"], r.Mails["rejected"], r.Mails["ignored"])
	if r.Collisions > 0 {
		fmt.Fprintf(w, "Message-ID collisions: %d (mail reusing an earlier mail's Message-ID with other content, not read):\n", r.Collisions)
		for _, c := range r.RecentCollisions {
			fmt.Fprintf(w, "  %s  from %s  %q: %s\n", c.Received.Format("2006-01-02 15:04"), c.From, c.Subject, c.Detail)
		}
	}
	fmt.Fprintf(w, "Outbox: %d to deliver", r.OutboxPending)
	if r.OutboxPending > 0 {
		fmt.Fprintf(w, ", the oldest waiting %s", age(r.OutboxOldestAge))
	}
	fmt.Fprintf(w, "; %d undeliverable (\"referee outbox --failed\")\n", r.DeadLetters)
	if r.OutboxPending > 0 {
		fmt.Fprintf(w, "  by priority: %d moves, %d answers, %d reminders and notices, %d spectators and events, %d answers to strangers\n",
			r.OutboxQueue["move"], r.OutboxQueue["answer"], r.OutboxQueue["reminder"], r.OutboxQueue["bulk"], r.OutboxQueue["stranger"])
	}
	if sd := r.Sending; sd != nil && sd.Limits != "" {
		fmt.Fprintf(w, "Sending limits: %s", sd.Limits)
		if sd.Factor > 0 && sd.Factor < 1 {
			fmt.Fprintf(w, " (at %g of them, after the server answered \"too many messages\")", sd.Factor)
		}
		var used []string
		for _, q := range sd.Quota {
			used = append(used, fmt.Sprintf("%d of %d in the last %s", q.Used, q.Allowed, q.Window))
		}
		fmt.Fprintf(w, "; sent %s\n", strings.Join(used, ", "))
		if sd.PacedSince != nil {
			fmt.Fprintf(w, "PACED since %s: mail waits for the sending limits, the most urgent first; nothing is dropped\n", when(sd.PacedSince, r.Time))
		}
		if sd.DrainsBy != nil {
			fmt.Fprintf(w, "The outbox drains by %s at this pace, if no more mail comes\n", sd.DrainsBy.Format(time.RFC3339))
		}
	}
	fmt.Fprintf(w, "Last IMAP contact: %s\n", when(r.LastIMAPContact, r.Time))
	fmt.Fprintf(w, "Last SMTP delivery: %s\n", when(r.LastSMTPDelivery, r.Time))
	if b := r.SendingBlocked; b != nil {
		fmt.Fprintf(w, "SENDING IS BLOCKED since %s: %s\nNo mail goes out until this is fixed (the mail waits and is retried; check the SMTP user, password or token, and the server).\n",
			when(&b.Since, r.Time), b.Why)
	}
	if r.Processing != nil && r.Processing.Count > 0 {
		fmt.Fprintf(w, "Processed since %s: %d mails, %.1f ms each on average\n", r.Started.Format(time.RFC3339), r.Processing.Count,
			1000*r.Processing.Sum/float64(r.Processing.Count))
	}
}

func age(s float64) string { return (time.Duration(s) * time.Second).String() }

func when(t *time.Time, now time.Time) string {
	if t == nil {
		return "never"
	}
	return fmt.Sprintf("%s (%s ago)", t.Format(time.RFC3339), now.Sub(*t).Truncate(time.Second))
}

// WritePrometheus writes the report in the Prometheus text format (0.0.4).
func (r Report) WritePrometheus(w io.Writer) {
	gauge := func(name, help string) { fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name) }
	labelled := func(name, label string, m map[string]int) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "%s{%s=%q} %d\n", name, label, k, m[k])
		}
	}
	gauge("referee_games", "Games by status.")
	labelled("referee_games", "status", r.Games)
	fmt.Fprintf(w, "# HELP referee_mails_received_total Mails received, by what became of them.\n# TYPE referee_mails_received_total counter\n")
	labelled("referee_mails_received_total", "outcome", r.Mails)
	gauge("referee_outbox_pending", "Mails waiting to be delivered.")
	fmt.Fprintf(w, "referee_outbox_pending %d\n", r.OutboxPending)
	gauge("referee_outbox_oldest_age_seconds", "How long the oldest undelivered mail has waited.")
	fmt.Fprintf(w, "referee_outbox_oldest_age_seconds %g\n", r.OutboxOldestAge)
	gauge("referee_dead_letters", "Mails the SMTP server refused for good.")
	fmt.Fprintf(w, "referee_dead_letters %d\n", r.DeadLetters)
	gauge("referee_sending_blocked", "1 while no mail can go out (the SMTP server refused the login, or no session could be opened), else 0.")
	blocked, since := 0, 0.0
	if b := r.SendingBlocked; b != nil {
		blocked, since = 1, float64(b.Since.UnixMilli())/1000
	}
	fmt.Fprintf(w, "referee_sending_blocked %d\n", blocked)
	gauge("referee_sending_blocked_since_timestamp_seconds", "Unix time since when sending is blocked (0: it is not).")
	fmt.Fprintf(w, "referee_sending_blocked_since_timestamp_seconds %g\n", since)
	gauge("referee_outbox_queue", "Mails waiting to be delivered, by priority (move first, stranger last).")
	labelled("referee_outbox_queue", "priority", r.OutboxQueue)
	if sd := r.Sending; sd != nil {
		gauge("referee_send_pace", "The share of the sending limits in use: 1, halved after each \"too many messages\" answer of the server.")
		fmt.Fprintf(w, "referee_send_pace %g\n", sd.Factor)
		if len(sd.Quota) > 0 {
			gauge("referee_send_quota_allowed", "Mails the sending limit in force allows per window.")
			for _, q := range sd.Quota {
				fmt.Fprintf(w, "referee_send_quota_allowed{window=%q} %d\n", q.Window, q.Allowed)
			}
			gauge("referee_send_quota_used", "Mails sent in the window ending now.")
			for _, q := range sd.Quota {
				fmt.Fprintf(w, "referee_send_quota_used{window=%q} %d\n", q.Window, q.Used)
			}
		}
		paced := 0
		if sd.PacedSince != nil {
			paced = 1
		}
		gauge("referee_send_paced", "1 while mail waits for the sending limits, else 0.")
		fmt.Fprintf(w, "referee_send_paced %d\n", paced)
		drain := 0.0
		if sd.DrainsBy != nil {
			drain = float64(sd.DrainsBy.UnixMilli()) / 1000
		}
		gauge("referee_outbox_drain_forecast_timestamp_seconds", "Unix time by which the outbox is forecast to be sent at the pace in force (0: nothing waits, or no limit).")
		fmt.Fprintf(w, "referee_outbox_drain_forecast_timestamp_seconds %g\n", drain)
	}
	stamp := func(name, help string, t *time.Time) {
		gauge(name, help)
		v := 0.0
		if t != nil {
			v = float64(t.UnixMilli()) / 1000
		}
		fmt.Fprintf(w, "%s %g\n", name, v)
	}
	stamp("referee_last_imap_contact_timestamp_seconds", "Unix time of the last complete IMAP pass (0: never).", r.LastIMAPContact)
	stamp("referee_last_smtp_delivery_timestamp_seconds", "Unix time of the last mail the SMTP server accepted (0: never).", r.LastSMTPDelivery)
	if h := r.Processing; h != nil {
		fmt.Fprintf(w, "# HELP referee_processing_seconds Time to read, decide and store one inbound mail.\n# TYPE referee_processing_seconds histogram\n")
		for i, b := range h.Buckets {
			fmt.Fprintf(w, "referee_processing_seconds_bucket{le=%q} %d\n", fmt.Sprint(b), h.Cumulative[i])
		}
		fmt.Fprintf(w, "referee_processing_seconds_bucket{le=\"+Inf\"} %d\nreferee_processing_seconds_sum %g\nreferee_processing_seconds_count %d\n", h.Count, h.Sum, h.Count)
	}
}

// Handler serves the report: /status as JSON, /metrics for Prometheus,
// /healthz and /readyz with no readiness checks (see NewHandler).
func Handler(st *store.Store, m *Metrics, now func() time.Time) http.Handler {
	return NewHandler(st, m, now, Options{})
}

// NewHandler serves the report: /status as JSON; /metrics for Prometheus
// (the Go runtime's go_*, the process's process_*, referee_build_info and
// the referee_* metrics of the report); /healthz, which answers 200 while
// the daemon can read its database; and /readyz, which answers 200 only
// when every one of o.Ready passes (and 503 naming the failing ones).
func NewHandler(st *store.Store, m *Metrics, now func() time.Time, o Options) http.Handler {
	mux := http.NewServeMux()
	report := func(w http.ResponseWriter, r *http.Request) (Report, bool) {
		s, err := st.Status(r.Context())
		if err != nil {
			http.Error(w, "reading the database: "+err.Error(), http.StatusServiceUnavailable)
			return Report{}, false
		}
		return Collect(s, m, now()), true
	}
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		if rep, ok := report(w, r); ok {
			w.Header().Set("Content-Type", "application/json")
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			enc.Encode(rep)
		}
	})
	process := newRegistry(o.Build)
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		if rep, ok := report(w, r); ok {
			w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
			if err := writeRegistry(w, process); err != nil {
				fmt.Fprintf(w, "# gathering the process metrics: %v\n", strings.ReplaceAll(err.Error(), "\n", " "))
			}
			rep.WritePrometheus(w)
		}
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := Live(r.Context(), st); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		failed, text := runChecks(r.Context(), o.Ready)
		if failed {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprint(w, text)
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, strings.TrimSpace("referee status: /status (JSON), /metrics (Prometheus), /healthz (live), /readyz (ready)"))
	})
	return mux
}

package imapin_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"referee/internal/mail/imapin"
)

// bigMsg is a message with subject subj and a body of size bytes.
func bigMsg(subj string, body []byte) []byte {
	b := fmt.Appendf(nil, "From: a@example.test\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@example.test>\r\n\r\n", user, subj, subj)
	return append(b, body...)
}

// subjectOf reads the Subject of a message cheaply, however big.
func subjectOf(raw []byte) string {
	_, after, _ := bytes.Cut(raw[:min(len(raw), 1000)], []byte("Subject: "))
	s, _, _ := bytes.Cut(after, []byte("\r\n"))
	return string(s)
}

func TestBigMailFetchedInPart(t *testing.T) {
	// Task 2: 20 mails of 5 MB among small ones, with MaxBytes 1 MiB: the
	// sizes come first, without texts; then each text alone, a big one
	// as its first MaxBytes+1 bytes (BODY.PEEK[]<0.MaxBytes+1>). The
	// handler gets at most MaxBytes+1 bytes, the true Size, and the
	// message's beginning byte-exact; every message is marked done. Even
	// a server that ignores the range cannot make the handler get more.
	const maxBytes = 1 << 20
	const bigSize = 5 << 20
	bigBody := bytes.Repeat([]byte(strings.Repeat("x", 76)+"\r\n"), bigSize/78)
	for _, tt := range []struct {
		name          string
		big           int
		ignorePartial bool
	}{
		{"honest server", 20, false},
		{"server ignores the range", 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newServer(t, capsFull)
			ts.fetches.ignorePartial = tt.ignorePartial
			texts := map[string][]byte{}
			var order []string
			for i := 0; len(order) < tt.big+tt.big/10+1; i++ {
				subj, body := fmt.Sprintf("b%d", i), bigBody
				if i%10 == 0 {
					subj, body = fmt.Sprintf("s%d", i), bigBody[:2000] // small ones at UIDs 1, 11, 21
				}
				raw := bigMsg(subj, body)
				texts[subj] = raw
				order = append(order, subj)
				if _, err := ts.user.Append("INBOX", literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			var handled []string
			h := func(_ context.Context, m imapin.Message) error {
				mu.Lock()
				defer mu.Unlock()
				subj := subjectOf(m.Raw)
				handled = append(handled, subj)
				want := texts[subj]
				if len(m.Raw) > maxBytes+1 {
					t.Errorf("%s: the handler got %d bytes, more than MaxBytes+1 = %d", subj, len(m.Raw), maxBytes+1)
				}
				if m.Size != int64(len(want)) {
					t.Errorf("%s: Size %d, want %d", subj, m.Size, len(want))
				}
				if n := min(len(want), maxBytes+1); !bytes.Equal(m.Raw, want[:n]) {
					t.Errorf("%s: got %d bytes, want the first %d of the message", subj, len(m.Raw), n)
				}
				return nil
			}
			cfg := ts.cfg()
			cfg.MaxBytes = maxBytes
			if err := imapin.Once(context.Background(), cfg, h); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(handled, " "), strings.Join(order, " "); got != want {
				t.Errorf("handled %s\nwant    %s", got, want)
			}
			bodies := 0
			for _, f := range ts.fetches.list() {
				if len(f.sections) == 0 {
					if !f.size {
						t.Errorf("FETCH %s asks for neither sizes nor a text", f.set)
					}
					continue
				}
				bodies++
				uid, err := strconv.Atoi(f.set)
				if err != nil || len(f.sections) != 1 {
					t.Errorf("FETCH %s of %d sections: a text fetch must name one message and one section", f.set, len(f.sections))
					continue
				}
				p := f.sections[0].Partial
				small := (uid-1)%10 == 0
				switch {
				case small && p != nil:
					t.Errorf("FETCH %s: a small message fetched in part %+v", f.set, *p)
				case !small && (p == nil || p.Offset != 0 || p.Size != maxBytes+1):
					t.Errorf("FETCH %s: a big message fetched with range %+v, want <0.%d>", f.set, p, maxBytes+1)
				}
				if !f.sections[0].Peek {
					t.Errorf("FETCH %s without PEEK", f.set)
				}
			}
			if bodies != len(order) {
				t.Errorf("%d text fetches, want one per message (%d)", bodies, len(order))
			}
			c := ts.client(t)
			defer c.Close()
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			left, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imapin.DoneFlag}}, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if uids := left.AllUIDs(); len(uids) != 0 {
				t.Errorf("messages %v are not marked done", uids)
			}
		})
	}
}

// TestMeasurePeakRSS measures the peak RSS of one pass over the mailbox of
// an embedded server another process runs (see cmd: REFEREE_MEASURE_IMAP
// holds its IMAP address). It is a measurement, not a test: it runs only
// when asked.
func TestMeasurePeakRSS(t *testing.T) {
	addr := os.Getenv("REFEREE_MEASURE_IMAP")
	if addr == "" {
		t.Skip("set REFEREE_MEASURE_IMAP to an IMAP address holding big mail for referee@example.test, password referee")
	}
	cfg := imapin.Config{Addr: addr, User: "referee@example.test", Password: "referee", TLS: "none", CommandTimeout: 10 * time.Minute}
	// Through reflection, so that the same file measures the code before
	// MaxBytes existed.
	if f := reflect.ValueOf(&cfg).Elem().FieldByName("MaxBytes"); f.IsValid() {
		f.SetInt(2 << 20)
	}
	n, most := 0, 0
	start := time.Now()
	err := imapin.Once(context.Background(), cfg, func(_ context.Context, m imapin.Message) error {
		n++
		most = max(most, len(m.Raw))
		return fmt.Errorf("left for the next measurement")
	})
	if err != nil {
		t.Fatal(err)
	}
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM") {
			t.Logf("%d messages in %v, largest handed over %d bytes; peak RSS %s", n, time.Since(start).Round(time.Millisecond), most, strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")))
		}
	}
}

package e2e

import (
	"context"
	"fmt"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"referee/internal/app"
	"referee/internal/apptest"
	"referee/internal/daemon"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
)

// Benchmarks against the real servers, each measured against the floor in
// the same run (CI=true go test -run XXX -bench . ./internal/e2e/; see
// docs/performance.md):
//
//   Throughput/10x4, /20x1: games × rounds; in each round one move of every
//     game is sent at once, and the round ends when both replies of every
//     game are in the players' mailboxes.
//   MoveLatency: from the player's SMTP send to both replies in the
//     players' mailboxes, one move at a time; p50 and p99.
//
// The floor is floorBot: the least a program answering mail by mail can do
// through the same servers (IDLE on its own mailbox, fetch, two replies of
// the referee's size over one SMTP session, flag done). The referee and the
// bot run side by side on the same servers and take turns, round by round
// or move by move, so that the load of a shared machine weighs on both
// alike. The last line of each benchmark's output gives referee/floor.

// floorInbox is the floor bot's mailbox (the referee's is referee@).
const floorInbox = "white@example.test"

// benchPlayers are the two players of every benchmark game.
var benchPlayers = [2]string{"alice@example.test", "bob@example.test"}

// benchReferee starts the daemon with the settings of a default `referee
// serve` (IDLE, the default outbox interval).
func (e *env) benchReferee(tb testing.TB) *refereeProc {
	tb.Helper()
	a, err := app.Open(context.Background(), app.Options{DB: filepath.Join(tb.TempDir(), "r.db"), Address: referee})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &refereeProc{app: a, done: make(chan error, 1)}
	go func() {
		r.done <- daemon.Run(ctx, a, daemon.Config{
			IMAP: imapin.Config{Addr: e.mail.imapAddr(), User: referee, Password: password, TLS: "none"},
			SMTP: smtpout.Config{Addr: e.mail.smtpAddr(), TLS: "none"},
		})
	}()
	r.stop = sync.OnceFunc(func() {
		cancel()
		<-r.done
		a.Close()
	})
	tb.Cleanup(r.stop)
	return r
}

// floorBot answers every mail of its mailbox with two replies, one to each
// benchmark player, carrying the mail's subject (without "Re: ") and a body
// that makes the reply about replySize bytes, as the referee's board mails
// are (boardMailSize).
type floorBot struct {
	stop func()
	err  chan error
}

func (e *env) runFloorBot(tb testing.TB, replySize int) *floorBot {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	bot := &floorBot{err: make(chan error, 1)}
	wake := make(chan struct{}, 1)
	c, err := imapclient.DialInsecure(e.mail.imapAddr(), &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		},
	}})
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Login(floorInbox, password).Wait(); err != nil {
		tb.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		tb.Fatal(err)
	}
	// The reply's header (floorReply) is about 300 bytes.
	pad := strings.Repeat(strings.Repeat("x", 75)+"\r\n", max(replySize-300, 0)/77+1)
	go func() { bot.err <- floorLoop(ctx, c, e.mail.smtpAddr(), wake, pad) }()
	bot.stop = sync.OnceFunc(func() {
		cancel()
		if err := <-bot.err; err != nil && ctx.Err() == nil {
			tb.Errorf("floor bot: %v", err)
		}
		c.Close()
	})
	tb.Cleanup(bot.stop)
	return bot
}

func floorLoop(ctx context.Context, c *imapclient.Client, smtpAddr string, wake chan struct{}, pad string) error {
	done := []imap.Flag{imapin.DoneFlag, imap.FlagSeen}
	for n := 0; ; n++ {
		found, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imapin.DoneFlag}}, nil).Wait()
		if err != nil {
			return err
		}
		if uids := found.AllUIDs(); len(uids) > 0 {
			body := &imap.FetchItemBodySection{Peek: true}
			msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
			if err != nil {
				return err
			}
			slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
			for _, m := range msgs {
				if err := floorReply(smtpAddr, m.FindBodySection(body), pad, n); err != nil {
					return err
				}
				if err := c.Store(imap.UIDSetNum(m.UID), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: done}, nil).Close(); err != nil {
					return err
				}
			}
			continue
		}
		idle, err := c.Idle()
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case <-wake:
		}
		if err := idle.Close(); err != nil {
			return err
		}
		if err := idle.Wait(); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// floorReply sends the two replies to raw over one SMTP session.
func floorReply(smtpAddr string, raw []byte, pad string, n int) error {
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		return err
	}
	subject := strings.TrimPrefix(msg.Header.Get("Subject"), "Re: ")
	sc, err := smtp.Dial(smtpAddr)
	if err != nil {
		return err
	}
	defer sc.Close()
	if err := sc.Hello("localhost"); err != nil {
		return err
	}
	for i, to := range benchPlayers {
		if i > 0 {
			if err := sc.Reset(); err != nil {
				return err
			}
		}
		out := fmt.Sprintf("From: %s\r\nTo: %s\r\nReply-To: %s\r\nSubject: %s\r\nMessage-ID: <floor-%d-%d-%d@example.test>\r\n\r\n%s",
			floorInbox, to, floorInbox, subject, time.Now().UnixNano(), n, i, pad)
		if err := sc.SendMail(floorInbox, []string{to}, strings.NewReader(out)); err != nil {
			return err
		}
	}
	return sc.Quit()
}

// benchGame is one game as the benchmark drives it: the last mail each
// player received about it (to reply to).
type benchGame struct{ last [2]*received }

// gameNumber reads the game number from a subject "[chess #N] ...".
func gameNumber(subject string) int {
	var id int
	if i := strings.Index(subject, "#"); i >= 0 {
		fmt.Sscanf(subject[i+1:], "%d", &id)
	}
	return id
}

// collectReplies waits for one mail per game in each player's mailbox, and
// files each as its game's last mail. games is indexed by game number-1.
func (e *env) collectReplies(tb testing.TB, games []*benchGame, first int) {
	tb.Helper()
	for c, who := range benchPlayers {
		for _, m := range e.collect(tb, who, len(games)) {
			id := gameNumber(m.subject) - first
			if id < 0 || id >= len(games) {
				tb.Fatalf("%s: unexpected mail %q", who, m.subject)
			}
			games[id].last[c] = m
		}
	}
}

// playRound sends one move of every game at once (the player to move of
// round r), and waits for both replies of every game.
func (e *env) playRound(tb testing.TB, games []*benchGame, first int, move string, r int) {
	tb.Helper()
	var wg sync.WaitGroup
	for _, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.send(tb, &player{addr: benchPlayers[r%2], last: g.last[r%2]}, move)
		}()
	}
	wg.Wait()
	e.collectReplies(tb, games, first)
}

// botGames are n games of the floor bot, numbered from first.
func botGames(n, first int) []*benchGame {
	games := make([]*benchGame, n)
	for i := range games {
		m := &received{subject: fmt.Sprintf("[chess #%d] floor", first+i), replyTo: floorInbox, messageID: fmt.Sprintf("<floor-open-%d@example.test>", i)}
		games[i] = &benchGame{last: [2]*received{m, m}}
	}
	return games
}

// refereeGames starts n games on the referee and waits for their opening
// mails; it returns them and the number of the first.
func (e *env) refereeGames(tb testing.TB, r *refereeProc, n int) ([]*benchGame, int) {
	tb.Helper()
	first := 0
	for i := range n {
		g, err := r.app.NewGame(context.Background(), "chess", benchPlayers[0], benchPlayers[1], nil)
		if err != nil {
			tb.Fatal(err)
		}
		if i == 0 {
			first = int(g.ID)
		}
	}
	games := make([]*benchGame, n)
	for i := range games {
		games[i] = &benchGame{}
	}
	e.collectReplies(tb, games, first)
	return games, first
}

// boardMailSize starts one game on the referee and returns the mean size
// of its two opening mails: the size of the floor bot's replies, so that
// the floor moves as many bytes through Postfix and Dovecot as the referee
// does (a board mail's text, HTML and picture).
func (e *env) boardMailSize(tb testing.TB, r *refereeProc) int {
	tb.Helper()
	games, _ := e.refereeGames(tb, r, 1)
	return (games[0].last[0].size + games[0].last[1].size) / 2
}

func BenchmarkThroughput(b *testing.B) {
	for _, sz := range []struct{ games, rounds int }{{10, 4}, {20, 1}} {
		b.Run(fmt.Sprintf("%dx%d", sz.games, sz.rounds), func(b *testing.B) {
			e := newEnv(b)
			ref := e.benchReferee(b)
			size := e.boardMailSize(b, ref)
			e.runFloorBot(b, size)
			// One round, not timed, warms the servers up: Postfix starts an
			// smtpd for each of the players' simultaneous connections the
			// first time. Without it, whichever side played first paid for
			// that (0.1-0.2 s): referee first gave 1.25-1.34x in that
			// round, floor first 0.94-1.04x.
			e.playRound(b, botGames(sz.games, 1), 1, "e4", 0)
			moves := apptest.Moves(sz.rounds)
			var refTime, floorTime time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				games, first := e.refereeGames(b, ref, sz.games)
				bot := botGames(sz.games, 1)
				b.StartTimer()
				for r := range sz.rounds {
					start := time.Now()
					e.playRound(b, games, first, moves[r], r)
					refTime += time.Since(start)
					start = time.Now()
					e.playRound(b, bot, 1, "e4", 0)
					floorTime += time.Since(start)
				}
			}
			b.StopTimer()
			n := float64(b.N * sz.games * sz.rounds)
			b.ReportMetric(n/refTime.Seconds(), "moves/s")
			b.ReportMetric(n/floorTime.Seconds(), "floor-moves/s")
			b.ReportMetric(refTime.Seconds()/floorTime.Seconds(), "x-floor")
			b.Logf("throughput %dx%d (mails of %d bytes): referee %.2f s, floor %.2f s per round; ratio %.2fx (target <= 1.25x)",
				sz.games, sz.rounds, size, refTime.Seconds()/float64(b.N*sz.rounds), floorTime.Seconds()/float64(b.N*sz.rounds),
				refTime.Seconds()/floorTime.Seconds())
		})
	}
}

func BenchmarkMoveLatency(b *testing.B) {
	e := newEnv(b)
	ref := e.benchReferee(b)
	size := e.boardMailSize(b, ref)
	e.runFloorBot(b, size)
	e.playRound(b, botGames(1, 1), 1, "e4", 0) // warm-up, as in BenchmarkThroughput
	games, first := e.refereeGames(b, ref, 1)
	bot := botGames(1, 1)
	moves := apptest.Moves(max(b.N, 1))
	var refLat, floorLat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		e.playRound(b, games, first, moves[i], i)
		refLat = append(refLat, time.Since(start))
		start = time.Now()
		e.playRound(b, bot, 1, "e4", 0)
		floorLat = append(floorLat, time.Since(start))
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(refLat)
	slices.Sort(floorLat)
	q := func(l []time.Duration, p int) time.Duration { return l[min(len(l)-1, len(l)*p/100)] }
	b.ReportMetric(ms(q(refLat, 50)), "p50-ms")
	b.ReportMetric(ms(q(refLat, 99)), "p99-ms")
	b.ReportMetric(ms(q(floorLat, 50)), "floor-p50-ms")
	b.ReportMetric(ms(q(floorLat, 99)), "floor-p99-ms")
	b.ReportMetric(ms(q(refLat, 50))/ms(q(floorLat, 50)), "x-floor-p50")
	b.Logf("latency over %d moves (mails of %d bytes): referee p50 %.0f ms p99 %.0f ms, floor p50 %.0f ms p99 %.0f ms; ratio p50 %.2fx p99 %.2fx (target <= 1.1x)",
		b.N, size, ms(q(refLat, 50)), ms(q(refLat, 99)), ms(q(floorLat, 50)), ms(q(floorLat, 99)),
		ms(q(refLat, 50))/ms(q(floorLat, 50)), ms(q(refLat, 99))/ms(q(floorLat, 99)))
}

// The helpers below are the test helpers for benchmarks (testing.TB).

// collect waits until user has received n new mails, polling every few
// milliseconds (a latency measure is as fine as its polling), and returns
// them.
func (e *env) collect(tb testing.TB, user string, n int) []*received {
	var got []*received
	deadline := time.Now().Add(60 * time.Second)
	for len(got) < n {
		got = append(got, e.drain(tb, user)...)
		if time.Now().After(deadline) {
			tb.Fatalf("%s: %d of %d mails", user, len(got), n)
		}
		if len(got) < n {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return got
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/emersion/go-message/charset" // for the mails the demo reads back
	gomail "github.com/emersion/go-message/mail"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/embedded"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
)

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo", "[--variant NAME] [--variant-file FILE] [--moves \"m1 m2 ...\"]",
		"Plays a short scripted game through the embedded mail server: two players mail their\nmoves, the referee answers, and the conversation is printed.", stderr)
	variant := fs.String("variant", "chess", "the game to play")
	variantFile := variantsFlag(fs)
	moves := fs.String("moves", "f3 e5 g4 Qh4#", "the moves, White's first, in any notation the referee reads")
	verbose := fs.Bool("v", false, "also print the referee's log")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	logw := io.Discard
	if *verbose {
		logw = stderr
	}
	log := slog.New(slog.NewTextHandler(logw, nil))
	if err := demo(ctx, *variant, *variantFile, strings.Fields(*moves), stdout, log); err != nil {
		fmt.Fprintf(stderr, "referee demo: %v\n", err)
		return exitFail
	}
	return exitOK
}

// demoPlayer is one side of the demo, reading its mail over IMAP.
type demoPlayer struct {
	name, addr string
}

func demo(ctx context.Context, variant, variantFile string, moves []string, out io.Writer, log *slog.Logger) error {
	const domain = "example.test"
	srv, err := embedded.Start(ctx, embedded.Options{Domain: domain, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: log})
	if err != nil {
		return fmt.Errorf("starting the embedded mail server: %w", err)
	}
	defer srv.Close()
	referee := "referee@" + domain
	players := []demoPlayer{{"Alice", "alice@" + domain}, {"Bob", "bob@" + domain}}
	for _, a := range []string{referee, players[0].addr, players[1].addr} {
		srv.EnsureUser(a)
	}
	dir, err := os.MkdirTemp("", "referee-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(dir, "demo.db"), Address: referee, Logger: log, VariantsFile: variantFile})
	if err != nil {
		return err
	}
	defer a.Close()
	g, err := a.NewGame(ctx, variant, players[0].addr, players[1].addr, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Game #%d of %s: %s (White) v %s (Black), refereed by %s\n\n", g.ID, g.Variant.Title(), players[0].addr, players[1].addr, referee)

	dctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- daemon.Run(dctx, a, daemon.Config{
			IMAP:        imapin.Config{Addr: srv.IMAPAddr(), User: referee, Password: srv.Password(), TLS: "none", Poll: time.Second},
			SMTP:        smtpout.Config{Addr: srv.SMTPAddr(), TLS: "none"},
			OutboxEvery: 200 * time.Millisecond,
			Logger:      log,
		})
	}()
	defer func() { stop(); <-done }()

	smtp := smtpout.New(smtpout.Config{Addr: srv.SMTPAddr(), TLS: "none"})
	inbox := func(p demoPlayer) ([]*demoMail, error) {
		var got []*demoMail
		err := imapin.Once(ctx, imapin.Config{Addr: srv.IMAPAddr(), User: p.addr, Password: srv.Password(), TLS: "none"},
			func(_ context.Context, m imapin.Message) error {
				dm, err := readDemoMail(m.Raw)
				if err != nil {
					return err
				}
				got = append(got, dm)
				return nil
			})
		return got, err
	}
	waitMail := func(p demoPlayer) (*demoMail, error) {
		for {
			ms, err := inbox(p)
			if err != nil {
				return nil, err
			}
			if len(ms) > 0 {
				for _, m := range ms {
					fmt.Fprintf(out, "referee -> %s: %s\n", p.name, m.subject)
				}
				return ms[len(ms)-1], nil
			}
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("no mail for %s: %w", p.name, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	last := make([]*demoMail, 2)
	for i, p := range players {
		if last[i], err = waitMail(p); err != nil {
			return err
		}
	}
	for i, mv := range moves {
		side := i % 2
		p := players[side]
		prev := last[side]
		if prev.replyTo == "" {
			return fmt.Errorf("the game is over before %s's move %q", p.name, mv)
		}
		body := mv + "\n\nYour move!\n\nOn " + prev.date + ", Referee <" + referee + "> wrote:\n> " +
			strings.ReplaceAll(strings.TrimSpace(prev.text), "\n", "\n> ") + "\n"
		raw := fmt.Sprintf("From: %s <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <demo-%d-%d@%s>\r\nIn-Reply-To: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
			p.name, p.addr, prev.replyTo, prev.subject, g.ID, i, domain, prev.messageID, time.Now().UTC().Format(time.RFC1123Z),
			strings.ReplaceAll(body, "\n", "\r\n"))
		fmt.Fprintf(out, "%s -> referee: %s\n", p.name, mv)
		if err := smtp.Send(ctx, p.addr, []string{prev.replyTo}, []byte(raw)); err != nil {
			return fmt.Errorf("%s sending %q: %w", p.name, mv, err)
		}
		for s := range players {
			m, err := waitMail(players[s])
			if err != nil {
				return err
			}
			last[s] = m
		}
	}
	fmt.Fprintf(out, "\nThe last mail %s received:\n\n%s\n", players[(len(moves)+1)%2].name, last[(len(moves)+1)%2].text)
	return nil
}

type demoMail struct {
	subject, replyTo, messageID, date, text string
}

func readDemoMail(raw []byte) (*demoMail, error) {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading a referee mail: %w", err)
	}
	dm := &demoMail{}
	dm.subject, _ = r.Header.Subject()
	dm.messageID = r.Header.Get("Message-ID")
	dm.date = r.Header.Get("Date")
	if rt, err := r.Header.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		dm.replyTo = rt[0].Address
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "text/plain" && dm.text == "" {
				b, _ := io.ReadAll(p.Body)
				dm.text = string(b)
			}
		}
	}
	return dm, nil // a mail after the game has no Reply-To: nobody can act any more
}

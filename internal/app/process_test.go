package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/dkimsign"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

func openTest(t *testing.T) *App {
	t.Helper()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, err := Open(context.Background(), Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test",
		Now: func() time.Time { now = now.Add(time.Minute); return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// moveMail is a player's reply without a Message-ID, as some scripts and
// old clients send it.
func moveMail(a *App, g *referee.Game, c rules.Color, date, body string) []byte {
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: move\r\nDate: %s\r\n\r\n%s\r\n",
		g.Players[c].Address, a.Referee().ReplyAddress(g, c), date, body)
}

func TestProcessNeverAppliesAMailTwice(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	e4 := moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:00:00 +0000", "e4")
	if p, err := a.Process(ctx, e4, 7, 1); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("e4: %+v, %v", p, err)
	}
	// The mailbox is rebuilt: a new UIDVALIDITY, the same mail re-added
	// with delivery fields stamped anew. It has no Message-ID, so only its
	// digest can tell it is the same mail.
	again := append([]byte("Received: from mx by imap with LMTP; Tue, 24 Nov 2026 09:00:00 +0000\r\n"), e4...)
	if p, err := a.Process(ctx, again, 8, 1); err != nil || !p.Duplicate {
		t.Errorf("the rebuilt mailbox's copy of e4: %+v, %v; want a duplicate", p, err)
	}
	g, _ = a.Game(ctx, g.ID)
	if g.Ply() != 1 {
		t.Errorf("game at ply %d after the copy, want 1", g.Ply())
	}
	// A server that forgot its mail gives Black's new reply the UID the
	// old mail had, under the same UIDVALIDITY: it is new all the same.
	e5 := moveMail(a, g, rules.Black, "Mon, 23 Nov 2026 10:05:00 +0000", "e5")
	if p, err := a.Process(ctx, e5, 7, 1); err != nil || p.Duplicate || p.Verdict != referee.Applied {
		t.Errorf("e5 under a reused UID: %+v, %v; want applied", p, err)
	}
}

func TestMessageIDsDifferAcrossDatabases(t *testing.T) {
	// Two fresh referees, the same game at the same time: mail clients and
	// servers must never see one Message-ID for two different mails.
	ctx := context.Background()
	seen := map[string]bool{}
	for range 2 {
		a := openTest(t)
		if _, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil); err != nil {
			t.Fatal(err)
		}
		out, err := renderedOutbox(a)
		if err != nil || len(out) == 0 {
			t.Fatalf("outbox: %d mails, %v", len(out), err)
		}
		for _, m := range out {
			if seen[m.MessageID] {
				t.Errorf("Message-ID %s written by two databases", m.MessageID)
			}
			seen[m.MessageID] = true
		}
	}
}

func TestActivePlayersAreNeverSilenced(t *testing.T) {
	// Twelve moves in an hour send each player thirteen game mails; none of
	// them counts toward the refusal limit, so a mistyped move afterwards
	// is still answered.
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for i := range 12 {
		g, _ = a.Game(ctx, g.ID)
		c := rules.Color(g.Ply() % 2)
		p, err := a.Process(ctx, moveMail(a, g, c, fmt.Sprintf("Mon, 23 Nov 2026 10:%02d:00 +0000", i), moves[i%4]), 0, 0)
		if err != nil || p.Verdict != referee.Applied {
			t.Fatalf("move %d: %+v, %v", i, p, err)
		}
	}
	g, _ = a.Game(ctx, g.ID)
	p, err := a.Process(ctx, moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:30:00 +0000", "Nf5"), 0, 0)
	if err != nil || p.Verdict != referee.Rejected || p.Mails != 1 {
		t.Errorf("an illegal move after twelve moves: %+v, %v; want a refusal", p, err)
	}
}

func TestShowListsUnansweredMail(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	auto := append([]byte("Auto-Submitted: auto-replied\r\n"), moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:00:00 +0000", "I am away")...)
	if p, err := a.Process(ctx, auto, 0, 0); err != nil || p.Verdict != referee.Ignored {
		t.Fatalf("automatic reply: %+v, %v", p, err)
	}
	out, err := a.Show(ctx, g.ID)
	if err != nil || !strings.Contains(out, "Unanswered mail (1)") || !strings.Contains(out, "Auto-Submitted") {
		t.Errorf("show:\n%s", out)
	}
}

func TestQueuedMailIsDKIMSigned(t *testing.T) {
	ctx := context.Background()
	key, _, err := dkimsign.Keygen("example.test", "ref")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dkim.pem")
	os.WriteFile(path, key, 0o600)
	signer, err := dkimsign.Load(path, "example.test", "ref")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test", DKIM: signer})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil); err != nil {
		t.Fatal(err)
	}
	out, _ := renderedOutbox(a)
	for _, m := range out {
		if !strings.HasPrefix(string(m.Raw), "DKIM-Signature: ") || !strings.Contains(string(m.Raw), "d=example.test;") || !strings.Contains(string(m.Raw), "s=ref;") {
			t.Errorf("mail to %s is not signed:\n%.300s", m.To, m.Raw)
		}
	}
}

func TestTokenFromInReplyToNeverFromTheSubject(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := renderedOutbox(a)
	var toAlice string
	for _, m := range out {
		if m.To == "alice@example.org" {
			toAlice = m.MessageID
		}
	}
	tok := a.Referee().ReplyAddress(g, rules.White)
	// A forward shows the subject; a stranger copies it with the old "(ref:)"
	// reference and forges Alice's From. Nothing else names the game.
	forged := fmt.Appendf(nil, "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: Re: [chess #1] Move 1: your turn (White) (ref:%s)\r\n"+
		"Message-ID: <forged@evil.example>\r\n\r\ne4\r\n", strings.TrimSuffix(strings.TrimPrefix(tok, "referee+"), "@example.test"))
	if p, err := a.Process(ctx, forged, 0, 0); err != nil || p.Verdict == referee.Applied {
		t.Errorf("a leaked subject acted: %+v, %v", p, err)
	}
	// Alice's provider dropped the plus-address: her reply reaches the
	// plain address, and In-Reply-To names the referee's mail to her.
	reply := fmt.Appendf(nil, "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: Re: [chess #1] Move 1: your turn (White)\r\n"+
		"Message-ID: <r1@example.org>\r\nIn-Reply-To: %s\r\nReferences: %s\r\n\r\ne4\r\n", toAlice, toAlice)
	if p, err := a.Process(ctx, reply, 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Errorf("a reply naming the referee's Message-ID: %+v, %v; want applied", p, err)
	}
}

func TestOversizedMailGetsAShortRefusal(t *testing.T) {
	// The daemon hands over only the first MaxBytes+1 bytes of a big mail:
	// the header is enough to answer with the limit.
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	big := moveMail(a, g, rules.White, "Mon, 23 Nov 2026 10:00:00 +0000", "e4\r\n"+strings.Repeat("x", 3<<20))
	big = big[:mailreaderDefaultMax()+1]
	p, err := a.Process(ctx, big, 0, 0)
	if err != nil || p.Verdict != referee.Rejected || p.Mails != 1 || !strings.Contains(p.Detail, "too big") {
		t.Fatalf("a 3 MiB mail: %+v, %v; want one refusal", p, err)
	}
	out, _ := renderedOutbox(a)
	last := out[len(out)-1]
	if last.To != "alice@example.org" || !strings.Contains(strings.Join(strings.Fields(bodyText(t, last.Raw)), " "), "limit of 2 MiB") {
		t.Errorf("the refusal:\n%s", last.Raw)
	}
}

func TestQuotedLocalPartPlays(t *testing.T) {
	// "john doe"@example.org is one mailbox; stored and read with its
	// quotes, the player's own mail is recognised as theirs.
	ctx := context.Background()
	a := openTest(t)
	g, err := a.NewGame(ctx, "chess", `"john doe"@example.org`, "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Appendf(nil, "From: John Doe <\"john doe\"@example.org>\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <q1@example.org>\r\n\r\ne4\r\n",
		a.Referee().ReplyAddress(g, rules.White))
	if p, err := a.Process(ctx, raw, 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Errorf("John's move: %+v, %v; want applied", p, err)
	}
	out, _ := renderedOutbox(a)
	if last := out[len(out)-2]; last.To != `"john doe"@example.org` {
		t.Errorf("the reply goes to %s", last.To)
	}
}

func TestInspectDecidesAsProcessDoes(t *testing.T) {
	// One read -> load -> decide path: what inspect says of a mail is what
	// Process then does with it, lobby commands included.
	a, _ := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	ctx := context.Background()
	for i, body := range []string{"variants", "games", "challenge chess bob@example.org", "e4"} {
		raw := fmt.Appendf(nil, "From: carol@example.org\r\nTo: referee@example.test\r\nSubject: x\r\nMessage-ID: <i%d@example.org>\r\n\r\n%s\r\n", i, body)
		insp, err := a.Inspect(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		p, err := a.Process(ctx, raw, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if insp.Verdict != string(p.Verdict) {
			t.Errorf("%q: inspect says %s, Process did %s (%s)", body, insp.Verdict, p.Verdict, p.Detail)
		}
	}
}

// renderedOutbox is the outbox with each mail written as the sender would
// write it (Render) into Raw.
func renderedOutbox(a *App) ([]store.Outgoing, error) {
	out, err := a.Store().Outbox(context.Background())
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Raw, err = a.Render(out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TestInboundLogNamesTheMailNotItsSecret: the log line of an inbound mail
// carries its UID, From and a hash of its Message-ID, so an operator can
// find the mail; never the Message-ID itself, which for the referee's own
// mails (and the In-Reply-To of a reply) holds a player's secret.
func TestInboundLogNamesTheMailNotItsSecret(t *testing.T) {
	ctx := context.Background()
	var logBuf strings.Builder
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test",
		Now: func() time.Time { now = now.Add(time.Minute); return now }, Logger: slog.New(slog.NewTextHandler(&logBuf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	const id = "<e4-from-alice@mail.example.org>"
	raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: %s\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\ne4\r\n",
		g.Players[rules.White].Address, a.Referee().ReplyAddress(g, rules.White), id)
	if _, err := a.Process(ctx, raw, 7, 42); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(id))
	hash := hex.EncodeToString(sum[:])[:12]
	var line string
	for l := range strings.Lines(logBuf.String()) {
		if strings.Contains(l, "msg=inbound") {
			line = l
		}
	}
	for _, want := range []string{"uid=42", "from=alice@example.org", "message_id_sha256=" + hash} {
		if !strings.Contains(line, want) {
			t.Errorf("inbound log line lacks %s:\n%s", want, logBuf.String())
		}
	}
	secret := a.Referee().ReplyAddress(g, rules.White)
	secret = secret[strings.Index(secret, "+")+1 : strings.Index(secret, "@")]
	if strings.Contains(logBuf.String(), "e4-from-alice") || strings.Contains(logBuf.String(), secret) {
		t.Errorf("the log holds a Message-ID or a reply secret:\n%s", logBuf.String())
	}
}

// testCatalog is the embedded catalog, loaded once for the package's
// tests (each load takes tens of milliseconds).
var testCatalog = sync.OnceValue(lang.MustLoad)

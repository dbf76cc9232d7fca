package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/rules"
)

// TestLobbyMailsInEachReadersLanguage (issue 42): a lobby mail goes to
// each reader in their own language, as the app loads it. Bob set German,
// Dave Russian, Carol nothing (English). Carol's invitation reaches Bob in
// German while her confirmation is English; Bob's decline is German to
// him and English to Carol. Dave's invitation is German to Bob and his
// confirmation Russian; his withdrawal is told to Bob in German; Bob's
// acceptance of Dave's next challenge is told to Dave in Russian, and the
// game's opening mails are each in their reader's language.
func TestLobbyMailsInEachReadersLanguage(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	n := 0
	for _, s := range []struct{ who, line string }{{"bob@example.org", "language de"}, {"dave@example.org", "language ru"}} {
		if p := send(t, a, &n, s.who, "", s.line); p.Verdict != referee.Applied {
			t.Fatalf("%s: %s: %+v", s.who, s.line, p)
		}
	}
	subject := func(who string) string {
		t.Helper()
		_, m := lastTo(t, a, who)
		return m.Subject
	}

	// Carol (English) invites Bob (German).
	clk.now = clk.now.Add(time.Minute)
	if p := send(t, a, &n, "carol@example.org", "", "challenge chess bob@example.org 3d white"); p.Verdict != referee.Applied {
		t.Fatalf("carol's challenge: %+v", p)
	}
	inv, invText := lastTo(t, a, "bob@example.org")
	if got, want := invText.Subject, "carol@example.org lädt Sie zu einer Partie Schach ein"; got != want {
		t.Errorf("the invitation's subject: %q, want %q", got, want)
	}
	says(t, "the invitation to bob", invText,
		"carol@example.org lädt Sie zu einer Partie Schach per Mail ein, geleitet vom Schiedsrichter referee@example.test. Bedenkzeit: 3 Tage pro Zug. carol@example.org spielt Weiß.",
		"Zum Annehmen antworten Sie mit \"accept\" in der ersten Zeile;")
	_, conf := lastTo(t, a, "carol@example.org")
	says(t, "carol's confirmation", conf,
		"Your challenge 1 is on its way: bob@example.org is invited to a game of Chess (3 days per move) against you. You play White.")

	// Bob declines: his letter is German, carol's notice English.
	clk.now = clk.now.Add(time.Hour)
	if p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "decline", "In-Reply-To: "+inv.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("bob's decline: %+v", p)
	}
	_, declined := lastTo(t, a, "bob@example.org")
	says(t, "bob's decline", declined, "Sie haben die Einladung von carol@example.org zu einer Partie Schach abgelehnt.")
	_, notice := lastTo(t, a, "carol@example.org")
	says(t, "carol's notice", notice, "bob@example.org declined your challenge 1 to a game of Chess. You can invite them again after")
	if got := notice.Subject; got != "bob@example.org declined your challenge to Chess" {
		t.Errorf("carol's notice's subject: %q", got)
	}

	// Dave (Russian) invites Bob, then withdraws: Bob is told in German.
	if p := send(t, a, &n, "dave@example.org", "", "challenge toto40 bob@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("dave's challenge: %+v", p)
	}
	_, invText = lastTo(t, a, "bob@example.org")
	says(t, "dave's invitation to bob", invText, "dave@example.org lädt Sie zu einer Partie Toto40 per Mail ein")
	sent, sentText := lastTo(t, a, "dave@example.org")
	says(t, "dave's confirmation", sentText, "Ваш вызов 2 отправлен: bob@example.org приглашается на партию Toto40")
	if p := send(t, a, &n, "dave@example.org", replyAddress(t, sent), "withdraw", "In-Reply-To: "+sent.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("dave's withdrawal: %+v", p)
	}
	_, withdrawn := lastTo(t, a, "bob@example.org")
	says(t, "the withdrawal told to bob", withdrawn,
		"dave@example.org hat die Einladung zu einer Partie Toto40 zurückgezogen: Sie müssen nichts beantworten.")
	if got := subject("dave@example.org"); got != "Вызов 2 отозван" {
		t.Errorf("dave's withdrawal's subject: %q", got)
	}

	// Dave invites Bob again; Bob accepts: Dave's notice is Russian, and
	// each opening mail is in its reader's language.
	if p := send(t, a, &n, "dave@example.org", "", "challenge chess bob@example.org black"); p.Verdict != referee.Applied {
		t.Fatalf("dave's second challenge: %+v", p)
	}
	inv, _ = lastTo(t, a, "bob@example.org")
	p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
	if p.Verdict != referee.Applied || p.GameID == 0 {
		t.Fatalf("bob's acceptance: %+v", p)
	}
	var toDave []string
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.To == "dave@example.org" {
			toDave = append(toDave, bodyText(t, o.Raw))
		}
	}
	if len(toDave) < 2 || !strings.Contains(strings.Join(strings.Fields(toDave[len(toDave)-2]), " "),
		fmt.Sprintf("bob@example.org принял ваш вызов 3: партия #%d, Шахматы (без ограничения времени), началась, вы играете чёрными.", p.GameID)) {
		t.Errorf("dave's notice of the acceptance is not Russian:\n%s", strings.Join(toDave, "\n====\n"))
	}
	g, err := a.Game(ctx, p.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[rules.White].Address != "bob@example.org" || g.Players[rules.White].Language != "de" || g.Players[rules.Black].Language != "ru" {
		t.Fatalf("game #%d: %+v", g.ID, g.Players)
	}
	for _, c := range []struct{ who, status string }{
		{"bob@example.org", fmt.Sprintf("Partie #%d - Schach - Zug 1 - Weiß am Zug", g.ID)},
		{"dave@example.org", fmt.Sprintf("Партия #%d - Шахматы - ход 1 - ход белых", g.ID)},
	} {
		o, _ := lastTo(t, a, c.who)
		if text := bodyText(t, o.Raw); o.GameID == nil || *o.GameID != g.ID || !strings.Contains(text, c.status) {
			t.Errorf("the opening mail to %s does not begin %q:\n%s", c.who, c.status, text)
		}
	}
}

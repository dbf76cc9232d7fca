package referee

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/rules"
)

// TestGoldenOpeningPerLanguageAndVariant (issue 42: "the golden mails
// exist per language for one game of each variant"): for each language,
// one timed game of each of the referee's variants, its White player
// reading that language: the opening mail (the headline, the short rules
// in the language where it has them, the time control with its days off,
// the die's commitment where the game has a die) and the board mail after
// White's first action, in testdata/mails/variants-<code>.txt. Black reads
// the next language, and their opening mail says so in its headline. The
// referee's key and the die's seed are fixed, so that the mails are the
// same on every run.
func TestGoldenOpeningPerLanguageAndVariant(t *testing.T) {
	codes := lang.Codes()
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	key, err := dice.KeyFromBytes(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	seed, err := dice.ParseSeed(strings.Repeat("5a", 32))
	if err != nil {
		t.Fatal(err)
	}
	for i, code := range codes {
		t.Run(code, func(t *testing.T) {
			other := codes[(i+1)%len(codes)]
			var mails []Mail
			for _, v := range rules.Variants() {
				r, g := newGame(t, v)
				r.cfg.Key = key
				g.Players[rules.White].Language, g.Players[rules.Black].Language = code, other
				c, err := ParseTimeControl("10/50d off sat,sun")
				if err != nil {
					t.Fatal(err)
				}
				c.TurnStart = start
				g.State.Clock = c
				g.Seed = seed
				if _, ok := v.Start().(rules.Roller); ok {
					g.Commitment = seed.Commitment()
				}
				ng, _, opening, err := r.Start(g, start)
				if err != nil {
					t.Fatalf("%s: %v", v.Name(), err)
				}
				*g = *ng
				black := openingHeadline(r.printer(other), g, rules.Black, g.Players[rules.White].named())
				if !strings.Contains(strings.Join(strings.Fields(textOf(t, opening[1])), " "), black) {
					t.Errorf("%s: Black's opening mail does not start %q (Black reads %s)", v.Name(), black, other)
				}
				rep, err := g.Replay()
				if err != nil {
					t.Fatal(err)
				}
				legal := rep.Final.Legal()
				if len(legal) == 0 {
					t.Fatalf("%s: no legal first action", v.Name())
				}
				// A pawn's move where there is one: a piece letter may
				// be read two ways ("Pc3" in Dutch), and then the referee
				// asks (TestGoldenMailsPerLanguage).
				san := notation.SAN(rep.Final, legal[0])
				for _, m := range legal {
					if s := notation.SAN(rep.Final, m); s[0] >= 'a' && s[0] <= 'z' {
						san = s
						break
					}
				}
				first := notation.WriteIn(v, san, code)
				out := actAt(t, r, g, rules.White, first, start.Add(time.Hour))
				if out.Verdict != Applied {
					t.Fatalf("%s: White's %q: %v %s", v.Name(), first, out.Verdict, out.Detail)
				}
				mails = append(mails, opening[0], out.Mails[0])
			}
			mailGolden(t, "variants-"+code, mails...)
		})
	}
}

// TestSpectatorInTheirLanguage: a spectator who set German gets the board
// mails of a game between a French and an English player in German (the
// status line, the headline, the legend, the footer and the subject),
// each player in their own language; a spectator who set none, English.
func TestSpectatorInTheirLanguage(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "fr"
	g.Watchers = []string{"carol@example.test", "dave@example.test"}
	g.WatcherLanguages = map[string]string{"carol@example.test": "de"}
	out := act(t, r, g, rules.White, "e4")
	if out.Verdict != Applied {
		t.Fatalf("e4: %v %s", out.Verdict, out.Detail)
	}
	to := map[string]Mail{}
	for _, m := range out.Mails {
		to[m.To] = m
	}
	for _, tc := range []struct {
		addr    string
		subject string
		says    []string
	}{
		{"carol@example.test", "(Zuschauer)", []string{"Partie #5 - Schach - Zug 1 - Schwarz am Zug", "Weiß zog e4.",
			"Figuren: K König", `Sie verfolgen die Partie #5 (al…@example.test - bo…@example.test). Zum Abbestellen senden Sie "unobserve 5" an referee@example.test.`}},
		{"dave@example.test", "(watching)", []string{"Game #5 - Chess - move 1 - Black to play", "White played e4.", `You are watching game #5`}},
		{"alice@example.test", "", []string{"Partie #5 - Échecs"}},
		{"bob@example.test", "", []string{"Game #5 - Chess"}},
	} {
		m, ok := to[tc.addr]
		if !ok {
			t.Errorf("no mail to %s", tc.addr)
			continue
		}
		text := strings.Join(strings.Fields(textOf(t, m)), " ")
		if !strings.Contains(m.Subject, tc.subject) {
			t.Errorf("%s: subject %q, want it to say %q", tc.addr, m.Subject, tc.subject)
		}
		for _, s := range tc.says {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the mail does not say %q:\n%s", tc.addr, s, text)
			}
		}
	}
}

// TestDigestInTheReadersLanguage: the daily digest of a player who set
// German is German (its heading, the game's lines, the clock with the
// control in words and the deadline, the reply address's line, the
// subject with the count's plural), and the board's legend too; the
// opponent's move is in German letters.
func TestDigestInTheReadersLanguage(t *testing.T) {
	r, g := seasonGame(t)
	monday := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	act2 := func(c rules.Color, line string) {
		t.Helper()
		if out := actAt(t, r, g, c, line, monday); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", line, out.Verdict, out.Detail)
		}
	}
	act2(rules.White, "Nf3")
	g.Players[rules.Black].Language = "de"
	d, ok := r.Digest(g.Players[rules.Black].Address, "", []*Game{g}, monday.Add(time.Hour))
	if !ok {
		t.Fatal("no digest")
	}
	text := strings.Join(strings.Fields(d.Text), " ")
	if d.Subject != "Sie sind am Zug in 1 Partie (tägliche Übersicht)" {
		t.Errorf("subject %q", d.Subject)
	}
	for _, want := range []string{"Ihre tägliche Übersicht vom Mo, 7. Dez. 13:00 UTC: Sie sind am Zug in 1 Partie.",
		"=== Partie #4 - Schach - Zug 1 ===", "Sie spielen Schwarz gegen alice@example.test.", "alice@example.test zog Sf3.",
		"Figuren: K König", "Ihre Uhr (10 Züge in 50 Tagen, nicht verbrauchte Zeit wird übertragen (10/50d); die Uhr steht samstags und sonntags still",
		"Um in Partie #4 zu spielen, schreiben Sie Ihren Zug in die erste Zeile einer Mail an"} {
		if !strings.Contains(text, want) {
			t.Errorf("the digest does not say %q:\n%s", want, d.Text)
		}
	}
}

// TestInGameAnswersInTheReadersLanguage: a draw offer, a takeback and a
// resignation are told to each player in their language, the result
// sentence too.
func TestInGameAnswersInTheReadersLanguage(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language, g.Players[rules.Black].Language = "de", "fr"
	headline := func(out Outcome, to rules.Color) string {
		t.Helper()
		for _, m := range out.Mails {
			if m.To == g.Players[to].Address && m.Board != nil {
				return norm(m.Board.Headline)
			}
		}
		t.Fatalf("no board mail to %s: %+v", to, out.Mails)
		return ""
	}
	act(t, r, g, rules.White, "e4")
	out := act(t, r, g, rules.Black, "takeback")
	if got, want := headline(out, rules.White), "Schwarz bittet, e4 zurückzunehmen."; !strings.HasPrefix(got, want) {
		t.Errorf("takeback to White: %q, want it to start %q", got, want)
	}
	if got, want := headline(out, rules.Black), `Votre demande de reprendre e4 a été envoyée aux Blancs, qui peuvent accepter en répondant "accept".`; got != want {
		t.Errorf("takeback to Black: %q, want %q", got, want)
	}
	act(t, r, g, rules.Black, "e5")
	out = act(t, r, g, rules.White, "draw")
	if got, want := headline(out, rules.Black), "Les Blancs proposent la nulle."; got != want {
		t.Errorf("draw offer to Black: %q, want %q", got, want)
	}
	act(t, r, g, rules.Black, "resign")
	out = act(t, r, g, rules.Black, "confirm")
	if got, want := headline(out, rules.White), "Schwarz hat aufgegeben. Weiß gewinnt"; !strings.HasPrefix(got, want) {
		t.Errorf("resignation to White: %q, want it to start %q", got, want)
	}
	if got, want := headline(out, rules.Black), "Les Noirs ont abandonné."; !strings.HasPrefix(got, want) {
		t.Errorf("resignation to Black: %q, want it to start %q", got, want)
	}
}

// TestMovesAnswerInTheReadersLetters: "moves" lists the legal moves in
// the reader's letters where they read back as that move (German "Sf3"),
// under a German title and subject.
func TestMovesAnswerInTheReadersLetters(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	out := act(t, r, g, rules.White, "moves")
	if out.Verdict != Answered || len(out.Mails) != 1 {
		t.Fatalf("moves: %v %s", out.Verdict, out.Detail)
	}
	m := out.Mails[0]
	text := norm(textOf(t, m))
	for _, want := range []string{"Hier sind die Züge, die Sie jetzt machen können.", "Regelgemäße Züge (20)", "Sf3", "Sc3", "e4"} {
		if !strings.Contains(text, want) {
			t.Errorf("the moves answer does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Nf3") || !strings.Contains(m.Subject, "Züge") {
		t.Errorf("subject %q; text:\n%s", m.Subject, text)
	}
}

// TestResignAndConditionsInTheReadersLanguage: the resignation's
// confirmation request and the conditional moves' answers in German.
func TestResignAndConditionsInTheReadersLanguage(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	out := act(t, r, g, rules.White, "resign")
	if len(out.Mails) != 1 || !strings.Contains(norm(textOf(t, out.Mails[0])), `Sie wollen aufgeben. Um aufzugeben, antworten Sie "confirm"`) ||
		!strings.Contains(out.Mails[0].Subject, "Bestätigen Sie Ihre Aufgabe") {
		t.Errorf("resign: %s\n%s", out.Mails[0].Subject, textOf(t, out.Mails[0]))
	}
	r, g = newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	out = act(t, r, g, rules.White, "conditions")
	if len(out.Mails) != 1 || !strings.Contains(norm(textOf(t, out.Mails[0])), "Sie haben keine gültigen bedingten Züge.") ||
		!strings.Contains(out.Mails[0].Subject, "Bedingte Züge") {
		t.Errorf("conditions: %s\n%s", out.Mails[0].Subject, textOf(t, out.Mails[0]))
	}
}

// TestSettingsAnswersInTheSendersLanguage: "timezone" and "mail digest"
// answer in the sender's language, with the lobby's footer in it too.
func TestSettingsAnswersInTheSendersLanguage(t *testing.T) {
	for _, tc := range []struct{ line, subject, says string }{
		{"timezone Europe/Berlin", "Ihre Zeitzone: Europe/Berlin", "Ihre Zeitzone ist jetzt Europe/Berlin"},
		{"mail digest 18:00", "Ihre Mail-Einstellung", "Ab jetzt erhalten Sie einmal am Tag um 18:00 (UTC;"},
	} {
		r := lobbyReferee(t, LobbyConfig{})
		m := &reader.Mail{From: "carol@example.org", MessageID: "<s1@example.org>", Subject: "x", Action: tc.line}
		out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{}}, Language: "de"})
		if out.Verdict != Applied || len(out.Mails) != 1 {
			t.Fatalf("%s: %v %s", tc.line, out.Verdict, out.Detail)
		}
		text := strings.Join(strings.Fields(out.Mails[0].Text), " ")
		if !strings.Contains(out.Mails[0].Subject, tc.subject) || !strings.Contains(text, tc.says) || !strings.Contains(text, "Der Schiedsrichter unter") {
			t.Errorf("%s: subject %q\n%s", tc.line, out.Mails[0].Subject, out.Mails[0].Text)
		}
	}
}

// TestChecToeRefusalInTheReadersLanguage: the die's reason for a refused
// Chec Toe action is in the reader's language (TestChecToeRefusalNamesTheDie
// in German).
func TestChecToeRefusalInTheReadersLanguage(t *testing.T) {
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/4/4/4[PNBRpnbr] w 2 - 1"
	g.Players[rules.White].Language = "de"
	out := act(t, r, g, rules.White, "P@a1")
	if out.Verdict != Rejected {
		t.Fatalf("P@a1 after a 2: %v", out.Verdict)
	}
	got := norm(out.Mails[0].Board.Headline)
	if want := "der Würfel zeigt 2: in diesem Zug darf nur die Figur Springer ziehen oder eingesetzt werden"; !strings.Contains(got, want) {
		t.Errorf("headline:\n got %q\nwant it to say %q", got, want)
	}
}

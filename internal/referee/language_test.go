package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// actIn is act with the sender's language as the app loads it into Env.
func actIn(t *testing.T, r *Referee, g *Game, c rules.Color, action, lang string) Outcome {
	t.Helper()
	m := &reader.Mail{From: g.Players[c].Address, MessageID: "<m" + action + "@x>", Action: action,
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: lang})
	if out.Game != nil {
		*g = *out.Game
	}
	return out
}

// TestLanguageCommand: "language de" (or the language's name, in any
// case) records the sender's language for all their games and says which
// letters are read now; "language" alone shows the language set; an
// unknown language is refused with the codes.
func TestLanguageCommand(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	for _, tc := range []struct{ line, code, says string }{
		// The answer is in the language just set (issue 42).
		{"language de", "de", "Ihre Sprache ist jetzt Deutsch (de)"},
		{"language DE", "de", "K D T L S (König, Dame, Turm, Läufer, Springer)"},
		{"language Deutsch", "de", `z. B. "Sf3" für den Springerzug nach f3`},
		{"lang français", "fr", "R D T F C (roi, dame, tour, fou, cavalier)"},
		{"language Russian", "ru", "Кр Ф Л С К (король, ферзь, ладья, слон, конь)"},
		{"language en", "en", "Your language is now English (en)"},
	} {
		out := act(t, r, g, rules.Black, tc.line)
		if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Language == nil ||
			out.Lobby.Language.Code != tc.code || out.Lobby.Language.Address != g.Players[rules.Black].Address {
			t.Fatalf("%s: %v %s %+v", tc.line, out.Verdict, out.Detail, out.Lobby)
		}
		if len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), tc.says) {
			t.Errorf("%s: the answer does not say %q: %+v", tc.line, tc.says, out.Mails)
		}
	}
	out := act(t, r, g, rules.Black, "language klingon")
	if out.Verdict != Rejected || out.Lobby != nil || len(out.Mails) != 1 ||
		!strings.Contains(norm(out.Mails[0].Text), `"klingon" is not a language`) ||
		!strings.Contains(norm(out.Mails[0].Text), "en English, de German, fr French, es Spanish, it Italian, pt Portuguese, nl Dutch, pl Polish, ru Russian") {
		t.Errorf("an unknown language: %v %+v", out.Verdict, out.Mails)
	}
	for lang, says := range map[string]string{"": "Your language: none.",
		"de": "Ihre Sprache: Deutsch (de). Der Schiedsrichter liest in Ihren Zügen die Figurenbuchstaben der Sprache Deutsch: K D T L S"} {
		out := actIn(t, r, g, rules.Black, "language", lang)
		if out.Verdict != Answered || out.Lobby != nil || len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), says) {
			t.Errorf("\"language\" with %q set: %v %+v; want it to say %q", lang, out.Verdict, out.Mails, says)
		}
	}
}

// TestForeignLettersAreConfirmed: a player who set German has "Sf3" read
// as Nf3, and the confirmation says what was understood, in German (how
// the letter was read too) and with the German letters (issue 42: the record stays Nf3); ICCF digits are
// read for anyone in orthodox chess, and confirmed the same way; the
// opponent's mail shows the move as the referee writes it.
func TestForeignLettersAreConfirmed(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	out := act(t, r, g, rules.White, "Sf3")
	if out.Verdict != Applied || g.Actions[0].SAN != "Nf3" {
		t.Fatalf("Sf3: %v %s", out.Verdict, out.Detail)
	}
	if mover := norm(textOf(t, out.Mails[0])); !strings.Contains(mover, `Ihre Zeile "Sf3" wurde als Sf3 gelesen (S steht auf Deutsch für Springer).`) {
		t.Errorf("the mover's confirmation does not say how Sf3 was read:\n%s", mover)
	}
	if opp := textOf(t, out.Mails[1]); strings.Contains(opp, "Sf3") || !strings.Contains(opp, "White played Nf3.") {
		t.Errorf("the opponent's mail:\n%s", opp)
	}
	out = act(t, r, g, rules.Black, "5755")
	if out.Verdict != Applied || g.Actions[1].SAN != "e5" {
		t.Fatalf("5755: %v %s", out.Verdict, out.Detail)
	}
	if mover := norm(textOf(t, out.Mails[0])); !strings.Contains(mover, `Your line "5755" was read as e5 (5755 is ICCF numeric notation for e7-e5).`) {
		t.Errorf("the confirmation does not say how 5755 was read:\n%s", mover)
	}
	// A letter of English that is another piece in the player's language,
	// legal both ways: asked, never guessed, in the player's language.
	g.Players[rules.White].Language = "nl"
	out = act(t, r, g, rules.White, "Pc3")
	if text := norm(textOf(t, out.Mails[0])); out.Verdict != Rejected || g.Ply() != 2 ||
		!strings.Contains(text, "hij past bij meer dan één reglementaire zet (P is in het Nederlands: paard, en P is in het Engels: pion): Nc3 of c3.") {
		t.Errorf("Pc3 for a Dutch player: %v\n%s", out.Verdict, text)
	}
}

// TestConditionalLinesInTheOwnersLanguage: "if" lines are read with the
// letters of the player who sends them, and kept in canonical SAN.
func TestConditionalLinesInTheOwnersLanguage(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	m := &reader.Mail{From: g.Players[rules.White].Address, MessageID: "<c@x>", Action: "Sf3",
		FullMessage: "Sf3\nif Sc6 Sc3\n", Message: "Sf3\nif Sc6 Sc3\n",
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[rules.White].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: "de"})
	if out.Verdict != Applied || out.Game == nil || out.Game.State.Cond == nil || out.Game.State.Cond.Trees[rules.White] == nil {
		t.Fatalf("Sf3 with \"if Sc6 Sc3\": %v %s", out.Verdict, out.Detail)
	}
	if got := out.Game.State.Cond.Trees[rules.White].Lines; len(got) != 1 || strings.Join(got[0], " ") != "Nc6 Nc3" {
		t.Errorf("the lines kept: %q, want [[Nc6 Nc3]]", got)
	}
}

// TestLanguageHintOnce: a player who set no language and writes a move in
// the letters of one or two languages is told once, in English and in
// those languages, how to have them read (issue 42: a hint, not a
// guess); the change records it, so that the app tells no more.
func TestLanguageHintOnce(t *testing.T) {
	section := func(out Outcome) string {
		for _, s := range out.Mails[0].Board.Sections {
			if s.Title == "Your language" {
				return norm(s.Body)
			}
		}
		return ""
	}
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "Sf3")
	hint := section(out)
	if out.Verdict != Applied || out.Lobby == nil || out.Lobby.LanguageHint == nil ||
		strings.Join(out.Lobby.LanguageHint.Codes, " ") != "de pl" || out.Lobby.LanguageHint.Address != g.Players[rules.White].Address {
		t.Fatalf("Sf3 without a language: %v %s %+v", out.Verdict, out.Detail, out.Lobby)
	}
	for _, want := range []string{`reply "language de" (German) or "language pl" (Polish)`, "This note is not sent again.",
		`antworten Sie mit "language de"`, `odpowiedz "language pl"`} {
		if !strings.Contains(hint, want) {
			t.Errorf("the hint does not say %q:\n%s", want, hint)
		}
	}
	if opp := textOf(t, out.Mails[1]); strings.Contains(opp, "Your language") {
		t.Errorf("the opponent is told about the mover's language:\n%s", opp)
	}
	// Told before, a language set, too many languages, or none: no hint.
	for _, tc := range []struct {
		name, line, lang string
		hinted           bool
	}{
		{"told before", "Sf3", "", true},
		{"a language set", "Sf3", "de", false},
		{"six languages write D", "Dh5", "", false},
		{"English letters", "Nf3", "", false},
	} {
		r, g := newGame(t, rules.Chess())
		act(t, r, g, rules.White, "e4")
		act(t, r, g, rules.Black, "e5")
		m := &reader.Mail{From: g.Players[rules.White].Address, MessageID: "<h@x>", Action: tc.line,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[rules.White].Secret, Ply: g.Ply()}}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: tc.lang, LanguageHinted: tc.hinted})
		if out.Verdict != Applied || out.Lobby != nil || section(out) != "" {
			t.Errorf("%s: %q: %v %s %+v; want it played without a hint", tc.name, tc.line, out.Verdict, out.Detail, out.Lobby)
		}
	}
	// One language's letter: that language alone.
	r, g = newGame(t, rules.Chess())
	act(t, r, g, rules.White, "e4")
	act(t, r, g, rules.Black, "e5")
	out = act(t, r, g, rules.White, "Fc4")
	if hint := section(out); !strings.Contains(hint, `reply "language fr" (French).`) || !strings.Contains(hint, `répondez "language fr"`) || strings.Contains(hint, "language es") {
		t.Errorf("Fc4: the hint:\n%s", hint)
	}
}

// TestLanguageHintFromTheMail: a player who set no language, writes the
// English letters, and whose mail shows another of the referee's
// languages (the quote header their client wrote, its Content-Language)
// is told once, in English and in that language, how to set it; English,
// a language the referee has no catalog of, or a language set: no hint.
func TestLanguageHintFromTheMail(t *testing.T) {
	// The quote headers Gmail writes above the quoted mail, by language.
	quoteHeaderIn := map[string]string{
		"en": "On Sun, 22 Nov 2026 at 10:02, Referee <referee@example.test> wrote:",
		"de": "Am So., 22. Nov. 2026 um 10:02 Uhr schrieb Referee <referee@example.test>:",
		"fr": "Le dim. 22 nov. 2026 à 10:02, Referee <referee@example.test> a écrit :",
		"nl": "Op zo 22 nov. 2026 om 10:02 schreef Referee <referee@example.test>:",
	}
	for _, tc := range []struct {
		name, quote, content, set string
		want                      string // the codes hinted, "" for none
		says                      []string
	}{
		{"German quote header", "de", "", "", "de", []string{"Your mail is written in German (the header above the mail you quoted).",
			`reply "language de" (German)`, `Damit der Schiedsrichter Ihnen auf Deutsch schreibt`, `antworten Sie mit "language de"`}},
		{"both say French", "fr", "fr", "", "fr", []string{"(the header above the mail you quoted and the language your mail declares, its Content-Language)",
			`répondez "language fr"`}},
		{"Russian Content-Language", "en", "ru", "", "ru", []string{`Your mail is written in Russian`, `ответьте "language ru"`}},
		{"two languages", "nl", "pl", "", "nl pl", []string{`reply "language nl" (Dutch) or "language pl" (Polish)`}},
		{"English", "en", "en", "", "", nil},
		{"Czech, which has no catalog", "", "cs", "", "", nil},
		{"a language set", "de", "de", "de", "", nil},
	} {
		r, g := newGame(t, rules.Chess())
		g.Players[rules.White].Language = tc.set
		text := "Nf3\n"
		if h := quoteHeaderIn[tc.quote]; h != "" {
			text += "\n" + h + "\n> White played e4.\n"
		}
		m := &reader.Mail{From: g.Players[rules.White].Address, MessageID: "<q@x>", Action: "Nf3", Text: text, ContentLanguage: tc.content,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[rules.White].Secret, Ply: g.Ply()}}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: tc.set})
		if out.Verdict != Applied {
			t.Fatalf("%s: %v %s", tc.name, out.Verdict, out.Detail)
		}
		var hint string
		for _, s := range out.Mails[0].Board.Sections {
			if s.Title == "Your language" {
				hint = norm(s.Body)
			}
		}
		var got string
		if out.Lobby != nil && out.Lobby.LanguageHint != nil {
			got = strings.Join(out.Lobby.LanguageHint.Codes, " ")
		}
		if got != tc.want || (tc.want == "") != (hint == "") {
			t.Errorf("%s: hinted %q (section %q), want %q", tc.name, got, hint, tc.want)
		}
		for _, s := range tc.says {
			if !strings.Contains(hint, s) {
				t.Errorf("%s: the hint does not say %q:\n%s", tc.name, s, hint)
			}
		}
	}
}

// TestFigurinesOnRequest: "figurines on" keeps the player's language and
// asks for figurines (issue 42: figurines "on request" where the language
// writes Latin letters); their mails then write their moves "♘f3", a
// figurine they write is read as its piece, and "language" keeps the
// choice; a Russian reader has figurines either way.
func TestFigurinesOnRequest(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	for _, tc := range []struct{ line, lang, tag, says string }{
		{"figurines on", "de", "de-x-fig", "Ab jetzt schreibt der Schiedsrichter Ihre Züge mit Figurinen, in allen Ihren Partien: ♘f3"},
		{"figurines on", "", "x-fig", "From now on the referee writes your moves with figurines, in all your games: ♘f3"},
		{"figurines off", "fr-x-fig", "fr", "Désormais, l'arbitre écrit de nouveau vos coups avec des lettres (R D T F C)"},
		{"figurines off", "x-fig", "", "with letters again (K Q R B N)"},
		{"figurine yes", "pl", "pl-x-fig", "Od teraz sędzia zapisuje Twoje ruchy figurkami"},
	} {
		out := actIn(t, r, g, rules.Black, tc.line, tc.lang)
		if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Language == nil || out.Lobby.Language.Code != tc.tag {
			t.Fatalf("%s with %q: %v %s %+v; want the setting %q", tc.line, tc.lang, out.Verdict, out.Detail, out.Lobby, tc.tag)
		}
		if len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), tc.says) {
			t.Errorf("%s with %q: the answer does not say %q: %+v", tc.line, tc.lang, tc.says, out.Mails)
		}
	}
	for _, tc := range []struct{ line, lang, says string }{
		{"figurines", "de", "Der Schiedsrichter schreibt Ihre Züge mit Buchstaben (K D T L S)."},
		{"figurines", "de-x-fig", "Der Schiedsrichter schreibt Ihre Züge mit Figurinen (♔ ♕ ♖ ♗ ♘)."},
		{"figurines", "ru", "Судья записывает ваши ходы фигурками (♔ ♕ ♖ ♗ ♘): у языка «русский» буквы не латинские."},
		{"figurines on", "de-x-fig", "Ab jetzt schreibt der Schiedsrichter Ihre Züge mit Figurinen"}, // already: nothing to change
		{"figurines off", "ru", "Судья в любом случае записывает ваши ходы фигурками"},
		{"language", "de-x-fig", "Ihre Sprache: Deutsch (de)."},
	} {
		out := actIn(t, r, g, rules.Black, tc.line, tc.lang)
		if out.Verdict != Answered || out.Lobby != nil || len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), tc.says) {
			t.Errorf("%s with %q: %v %+v %+v; want it to say %q", tc.line, tc.lang, out.Verdict, out.Lobby, out.Mails, tc.says)
		}
	}
	out := actIn(t, r, g, rules.Black, "figurines maybe", "de")
	if out.Verdict != Rejected || out.Lobby != nil || !strings.Contains(norm(out.Mails[0].Text), `"figurines maybe" sagt weder on noch off.`) {
		t.Errorf("figurines maybe: %v %+v", out.Verdict, out.Mails)
	}
	// "language" keeps the figurines.
	out = actIn(t, r, g, rules.Black, "language it", "de-x-fig")
	if out.Lobby == nil || out.Lobby.Language == nil || out.Lobby.Language.Code != "it-x-fig" {
		t.Fatalf("language it with figurines: %+v", out.Lobby)
	}

	// The mails: a German player with figurines is written ♘f3 and may
	// write it; their opponent, English, reads Nf3; the record stays Nf3.
	g.Players[rules.White].Language = "de-x-fig"
	out = act(t, r, g, rules.White, "♘f3")
	if out.Verdict != Applied || g.Actions[0].SAN != "Nf3" {
		t.Fatalf("♘f3: %v %s", out.Verdict, out.Detail)
	}
	if mover := textOf(t, out.Mails[0]); !strings.Contains(mover, "1. ♘f3") || strings.Contains(mover, "gelesen") {
		t.Errorf("the mover's mail does not write ♘f3, or says how a plain figurine was read:\n%s", mover)
	}
	if opp := textOf(t, out.Mails[1]); strings.Contains(opp, "♘") || !strings.Contains(opp, "1. Nf3") {
		t.Errorf("the opponent's mail:\n%s", opp)
	}
	out = act(t, r, g, rules.Black, "Sc6")
	if out.Verdict != Applied {
		t.Fatalf("Sc6: %v %s", out.Verdict, out.Detail)
	}
	if mover := textOf(t, out.Mails[1]); !strings.Contains(mover, "1. ♘f3 ♘c6") {
		t.Errorf("White's mail after Black's Nc6 does not write the record in figurines:\n%s", mover)
	}
	// A French reader of figurines: ♖ is the rook, not the French king.
	r, g = newGame(t, rules.Chess())
	g.Players[rules.White].Language = "fr-x-fig"
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"} {
		if out := act(t, r, g, rules.Color(i%2), mv); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv, out.Verdict, out.Detail)
		}
	}
	if out := act(t, r, g, rules.White, "♔f1"); out.Verdict != Applied || g.Actions[len(g.Actions)-1].SAN != "Kf1" {
		t.Fatalf("♔f1 for a French reader of figurines: %v %s", out.Verdict, out.Detail)
	}
}

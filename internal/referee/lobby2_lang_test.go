package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/rules"
)

// TestReminderInTheReadersLanguage (issue 42): the clock's reminder is
// written in the language of the player it reminds: its headline with
// the time left and the deadline in their words, and its subject.
func TestReminderInTheReadersLanguage(t *testing.T) {
	tests := []struct {
		code, headline, subject string
	}{
		{"en", "Reminder: it is your move in game #5, and your time runs out in 18h (Wed 4 Nov 12:00 UTC).", "[chess #5] Reminder: your move"},
		{"de", "Erinnerung: In Partie #5 sind Sie am Zug, und Ihre Bedenkzeit läuft in 18 Std. ab (Mi, 4. Nov. 12:00 UTC).", "[chess #5] Erinnerung: Sie sind am Zug"},
		{"ru", "Напоминание: в партии #5 ваш ход, и ваше время истекает через 18 ч (ср, 4 нояб. 12:00 UTC).", "[chess #5] Напоминание: ваш ход"},
		{"pl", "Przypomnienie: w partii #5 jest Twój ruch, a Twój czas upływa za 18 godz. (śr. 4 lis 12:00 UTC).", "[chess #5] Przypomnienie: Twój ruch"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language = tt.code
			t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			c, err := ParseTimeControl("3d")
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = t0
			g.State.Clock = c
			out := r.Tick(g, t0.Add(54*time.Hour))
			if len(out.Mails) != 1 || out.Mails[0].Board == nil {
				t.Fatalf("%d mails (%s)", len(out.Mails), out.Detail)
			}
			ml := out.Mails[0]
			if ml.Board.Headline != tt.headline || ml.Subject != tt.subject {
				t.Errorf("got %q, subject %q\nwant %q, subject %q", ml.Board.Headline, ml.Subject, tt.headline, tt.subject)
			}
		})
	}
}

// TestConditionalNoticesInTheReadersLanguage (issue 42): what a player
// is told of conditional lines, theirs or the opponent's, is in their
// language, the moves in their letters: an answer played at once (the
// opponent's headline), lines used up, lines a move did not foresee, and
// lines cleared by a draw offer.
func TestConditionalNoticesInTheReadersLanguage(t *testing.T) {
	type want struct{ answered, usedUp, deviation, offer string }
	tests := map[string]want{
		"en": {"White answered Nf3 at once (a conditional move).", "Your conditional lines are used up.",
			"Black played d5, which none of your conditional lines foresaw: they are cleared.",
			"White offered a draw with Nf3: your conditional lines are cleared, so that you answer the offer yourself."},
		"de": {"Weiß antwortete sofort mit Sf3 (ein bedingter Zug).", "Ihre bedingten Zeilen sind aufgebraucht.",
			"Schwarz zog d5, was keine Ihrer bedingten Zeilen vorsah: Diese sind nun gelöscht.",
			"Weiß bot mit Sf3 Remis an: Ihre bedingten Zeilen sind gelöscht, damit Sie selbst auf das Angebot antworten."},
		"ru": {"Белые сразу ответили ♘f3 (условный ход).", "Ваши условные строки исчерпаны.",
			"Чёрные сыграли d5, чего не предусматривала ни одна из ваших условных строк: они удалены.",
			"Белые предложили ничью ходом ♘f3: ваши условные строки удалены, чтобы вы сами ответили на предложение."},
	}
	for code, w := range tests {
		t.Run(code, func(t *testing.T) {
			check := func(what, got, want string) {
				t.Helper()
				if !strings.Contains(norm(got), want) {
					t.Errorf("%s: want %q in\n%s", what, want, got)
				}
			}
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			alice, bob := g.Players[rules.White].Address, g.Players[rules.Black].Address
			actMsg(t, r, g, rules.White, "e4", "if e5 Nf3", -1)
			out := actMsg(t, r, g, rules.Black, "e5", "", -1)
			if g.Ply() != 3 {
				t.Fatalf("the conditional answer was not played: %s", out.Detail)
			}
			check("the answer to Black", mailTo(t, out, bob), w.answered)
			check("used up", mailTo(t, out, alice), w.usedUp)

			r, g = newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			actMsg(t, r, g, rules.White, "e4", "if e5 Nf3", -1)
			out = actMsg(t, r, g, rules.Black, "d5", "", -1)
			check("a deviation", mailTo(t, out, alice), w.deviation)

			r, g = newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			actMsg(t, r, g, rules.White, "e4", "", -1)
			actMsg(t, r, g, rules.Black, "e5", "if Nf3 Nc6", -1)
			out = actMsg(t, r, g, rules.White, "Nf3 draw", "", -1)
			if g.DrawOffer == nil {
				t.Fatalf("no draw offer: %s", out.Detail)
			}
			check("a draw offer", mailTo(t, out, bob), w.offer)
		})
	}
}

package app

import (
	"context"
	"strings"
	"testing"

	"referee/internal/dice"
	"referee/internal/referee"
	"referee/internal/store"
)

// TestEventPlayersLanguages (issue 42): the event the app loads holds
// each player's language as they set it, and a substitute's; the start
// mail reaches a German player in German and an English one in English.
func TestEventPlayersLanguages(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if err := a.Store().Update(ctx, func(tx *store.Tx) error {
		if err := tx.SetLanguage("ann@example.org", "de", a.opts.Now()); err != nil {
			return err
		}
		return tx.SetLanguage("zoe@example.org", "ru", a.opts.Now())
	}); err != nil {
		t.Fatal(err)
	}
	e := newRR(t, a, "lang", "ann@example.org", "ben@example.org", "cat@example.org")
	starts := map[string]string{"ann@example.org": "Das Turnier lang (Schach, Rundenturnier, ",
		"ben@example.org": "lang (Chess, round robin, "}
	for to, want := range starts {
		var found bool
		for _, o := range outboxTo(t, a, to) {
			if o.Kind == string(referee.KindEventStart) {
				found = true
				says(t, to+"'s start mail", readMail(t, o), want)
			}
		}
		if !found {
			t.Errorf("no start mail to %s", to)
		}
	}
	if _, err := a.ReplaceInEvent(ctx, "lang", "cat@example.org", "zoe@example.org"); err != nil {
		t.Fatal(err)
	}
	e, err := a.Event(ctx, "lang")
	if err != nil {
		t.Fatal(err)
	}
	got := [][2]string{}
	for _, p := range e.Players {
		got = append(got, [2]string{p.Language, p.SubLanguage})
	}
	want := [][2]string{{"de", ""}, {"", ""}, {"", "ru"}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("seat %d: languages %q, want %q", i+1, got[i], want[i])
		}
	}
}

// TestKnockoutMatchNoteInThePlayersLanguage (issue 42): the section on
// the match that the end of a knockout game adds to its board mails is
// in each reader's language, its title too: the match goes on, then is
// tied after two games; an English player's stays English (the golden
// files of TestTiedKnockoutMatchMails).
func TestKnockoutMatchNoteInThePlayersLanguage(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if err := a.Store().Update(ctx, func(tx *store.Tx) error {
		if err := tx.SetLanguage("p01@example.org", "de", a.opts.Now()); err != nil {
			return err
		}
		return tx.SetLanguage("p04@example.org", "ru", a.opts.Now())
	}); err != nil {
		t.Fatal(err)
	}
	seed := dice.Seed{7}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "chess", Format: "ko", Players: entrants(4), Decider: "match", Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	var match1 []referee.EventGame // seeds 1 and 4: p01 and p04
	for _, g := range e.Games {
		if g.Board == 1 {
			match1 = append(match1, g)
		}
	}
	steps := []struct {
		result string
		says   map[string][]string
	}{
		{"1-0", map[string][]string{
			"p01@example.org": {"Der Wettkampf", "Runde 1, Wettkampf 1 von cup: p01@example.org 1, p04@example.org 0. Der Wettkampf geht weiter: 1 Partie läuft noch."},
			"p04@example.org": {"Матч", "Тур 1, матч 1 турнира cup: p01@example.org 1, p04@example.org 0. Матч продолжается: ещё идёт 1 партия."},
		}},
		{"1-0", map[string][]string{
			"p01@example.org": {"Der Wettkampf ist nach 2 Partien unentschieden: Zwei weitere Partien mit getauschten Farben entscheiden ihn."},
			"p04@example.org": {"После 2 партий в матче ничья: его решат ещё две партии со сменой цвета."},
		}},
	}
	for i, st := range steps {
		before := mailCount(t, a)
		finish(t, a, match1[i].GameID, st.result)
		sent := sentSince(t, a, before)
		for to, says := range st.says {
			text := mailText(t, firstTo(t, sent, to, string(referee.KindGameEnd)))
			flat := strings.Join(strings.Fields(text), " ")
			for _, s := range says {
				if !strings.Contains(flat, s) {
					t.Errorf("game %d: the mail to %s lacks %q:\n%s", i+1, to, s, text)
				}
			}
		}
	}
}

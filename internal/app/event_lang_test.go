package app

import (
	"context"
	"testing"

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

package web_test

import (
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"referee/internal/app"
	"referee/internal/event"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/web"
)

// eventFixture is the games' fixture with events: autumn, a round robin of
// three (its games in IDs order: the first won by White on resignation,
// the second drawn... or running, see openEventFixture), cup, a knockout
// of two still running, and a rated game of alice and bob.
type eventFixture struct {
	*fixture
	autumn, cup *referee.Event
	rated       *referee.Game
}

// openEventFixture adds the events; with over, every game of autumn ends,
// and so does autumn.
func openEventFixture(t testing.TB, over bool) *eventFixture {
	t.Helper()
	ctx := context.Background()
	f := &eventFixture{fixture: openFixture(t)}
	a := f.a
	if _, err := a.CreateEvent(ctx, app.EventSpec{Name: "autumn", Variant: "chess", Format: "rr", Casual: true,
		Players: []string{"hana@example.org", "ivan@example.net", "jo@example.com"}}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "autumn")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 3 {
		t.Fatalf("autumn has %d games, want 3", len(e.Games))
	}
	g := func(i int) *referee.Game {
		g, err := a.Game(ctx, e.Games[i].GameID)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	f.finish(t, f.send(t, g(0), "e4"))          // White resigns after 1. e4: 0-1
	f.playSAN(t, g(1), "f3", "e5", "g4", "Qh4") // fool's mate: 0-1
	f.playSAN(t, g(2), "d4", "d5")
	if over {
		f.finish(t, g(2))
	}
	if _, err := a.CreateEvent(ctx, app.EventSpec{Name: "cup", Variant: "chess", Format: "ko", Casual: true,
		Players: []string{"kai@example.org", "lea@example.org"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartEvent(ctx, "cup"); err != nil {
		t.Fatal(err)
	}
	r, err := a.NewGameWith(ctx, "chess", "alice@example.org", "bob@example.net", nil, "", app.GameOptions{Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	f.playSAN(t, r, "e4", "e5")
	f.finish(t, r)
	if f.rated, err = a.Game(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if f.autumn, err = a.Event(ctx, "autumn"); err != nil {
		t.Fatal(err)
	}
	if f.cup, err = a.Event(ctx, "cup"); err != nil {
		t.Fatal(err)
	}
	return f
}

// eventSecrets are the strings no page may hold, with the events' players'.
func (f *eventFixture) eventSecrets(t testing.TB) []string {
	t.Helper()
	out := f.secrets(f.toe1)
	for _, e := range []*referee.Event{f.autumn, f.cup} {
		for _, eg := range e.Games {
			g, err := f.a.Game(context.Background(), eg.GameID)
			if err != nil {
				t.Fatal(err)
			}
			for c, p := range g.Players {
				local, _, _ := strings.Cut(p.Address, "@")
				out = append(out, p.Address, p.Secret, f.a.Referee().ReplyAddress(g, rules.Color(c)), local+"@")
			}
		}
	}
	return out
}

func get(t *testing.T, s *web.Site, name string) *web.Page {
	t.Helper()
	p, err := s.Page(context.Background(), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// TestEventPage: a running round robin's page has its format, variant,
// time and state, and the crosstable with the numbers of "standings",
// each result linking to its game's page; each game's page links back; the
// index lists the event. Under --public finished a running game's cell
// links nowhere.
func TestEventPage(t *testing.T) {
	f := openEventFixture(t, false)
	e := f.autumn
	s := site(t, f.fixture, web.PublicAll)
	body := string(get(t, s, "event-autumn.html").Body)
	for _, want := range []string{"<h1>Event autumn</h1>", "Chess, round robin, no time limit, casual; running", "<h2>Crosstable</h2>",
		"ha…@example.org", "iv…@example.net", "j…@example.com", "Ranked by points, then the number of wins"} {
		if !strings.Contains(body, want) {
			t.Errorf("the event page does not hold %q", want)
		}
	}
	for _, g := range e.Games {
		if !strings.Contains(body, fmt.Sprintf(`<a href="game-%d.html" title="game #%d`, g.GameID, g.GameID)) {
			t.Errorf("the crosstable does not link game #%d (%s)", g.GameID, g.Status)
		}
		game := string(get(t, s, fmt.Sprintf("game-%d.html", g.GameID)).Body)
		if !strings.Contains(game, `<a href="event-autumn.html">autumn</a>, round `+fmt.Sprint(g.Round)) {
			t.Errorf("game #%d's page does not link its event", g.GameID)
		}
	}
	// The rows are in the order of the event's own table, each with its
	// points, then the columns of the chain (wins, SB), then one column
	// a player, numbered by row.
	rows := regexp.MustCompile(`<tr><td>(\d+)=?</td><th scope="row" class="name">.*?</th><td class="pts">([0-9.]+)</td><td>(\d+)</td><td>([0-9.]+)</td>`).FindAllStringSubmatch(body, -1)
	if len(rows) != len(e.Players) {
		t.Fatalf("%d crosstable rows, want %d:\n%s", len(rows), len(e.Players), body)
	}
	table := e.Table()
	for i, st := range table.Standings {
		want := []string{fmt.Sprint(i + 1), event.Points(st.Points), fmt.Sprint(st.Wins), event.Points(st.SB)}
		if !slices.Equal(rows[i][1:], want) {
			t.Errorf("row %d: rank, points, wins, SB %q; want %q", i+1, rows[i][1:], want)
		}
	}
	for _, h := range []string{`<th scope="col">Rank</th>`, `<th scope="col">Wins</th>`, `title="Sonneborn-Berger">SB</abbr>`} {
		if !strings.Contains(body, h) {
			t.Errorf("the crosstable has no column %s", h)
		}
	}
	if !strings.Contains(string(get(t, s, "index.html").Body), `<a href="event-autumn.html">autumn</a>`) {
		t.Error("the index does not list the event")
	}
	if _, err := s.Page(context.Background(), "event-nosuch.html"); err != web.ErrNotFound {
		t.Errorf("an unknown event's page: %v, want not found", err)
	}

	// Under --public finished, the running game is not linked.
	fin := site(t, f.fixture, web.PublicFinished)
	body = string(get(t, fin, "event-autumn.html").Body)
	for _, g := range e.Games {
		linked := strings.Contains(body, fmt.Sprintf(`href="game-%d.html"`, g.GameID))
		if want := g.Status == referee.StatusFinished; linked != want {
			t.Errorf("--public finished: game #%d (%s) linked %v, want %v", g.GameID, g.Status, linked, want)
		}
	}
	if _, err := site(t, f.fixture, web.PublicNone).Page(context.Background(), "event-autumn.html"); err != web.ErrNotFound {
		t.Errorf("--public none: the event page: %v, want not found", err)
	}
}

// TestKnockoutPage: a knockout's page shows its rounds and matches, each
// game linked.
func TestKnockoutPage(t *testing.T) {
	f := openEventFixture(t, false)
	s := site(t, f.fixture, web.PublicAll)
	body := string(get(t, s, "event-cup.html").Body)
	for _, want := range []string{"Chess, knockout", "<h2>Round 1</h2>", "Match 1: ", "ka…@example.org", "le…@example.org", "<b>0–0</b>", " running"} {
		if !strings.Contains(body, want) {
			t.Errorf("the knockout page does not hold %q:\n%s", want, body)
		}
	}
	for _, g := range f.cup.Games {
		if !strings.Contains(body, fmt.Sprintf(`href="game-%d.html"`, g.GameID)) {
			t.Errorf("the knockout page does not link game #%d", g.GameID)
		}
	}
}

// TestFinishedEventInFeedAndExport: a finished event's page says who came
// first and is final; the feed lists it; the static export holds it, is
// what the server serves, and keeps every address and secret off its pages.
func TestFinishedEventInFeedAndExport(t *testing.T) {
	f := openEventFixture(t, true)
	if f.autumn.Status != referee.EventFinished {
		t.Fatalf("fixture: autumn is %s after its last game", f.autumn.Status)
	}
	s := site(t, f.fixture, web.PublicFinished)
	p := get(t, s, "event-autumn.html")
	if !p.Final || !strings.Contains(string(p.Body), "First: ") || !strings.Contains(string(p.Body), "; finished") {
		t.Errorf("the finished event's page (final %v):\n%s", p.Final, p.Body)
	}
	var feed struct {
		Entries []struct {
			ID string `xml:"id"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(get(t, s, "feed.atom").Body, &feed); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(feed.Entries, func(e struct {
		ID string `xml:"id"`
	}) bool {
		return strings.HasSuffix(e.ID, ":event-autumn")
	}) {
		t.Errorf("the feed does not list the finished event: %+v", feed.Entries)
	}
	for _, public := range []string{web.PublicAll, web.PublicFinished, web.PublicNone} {
		t.Run(public, func(t *testing.T) {
			s := site(t, f.fixture, public)
			dir := t.TempDir()
			if _, err := s.Export(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
			_, err := os.Stat(filepath.Join(dir, "event-autumn.html"))
			if (err == nil) != (public != web.PublicNone) {
				t.Errorf("--public %s: event-autumn.html written: %v", public, err == nil)
			}
			scanForSecrets(t, dir, f.eventSecrets(t))
			checkServesExport(t, s, dir)
		})
	}
}

// TestPlayerPageRatings: a player with a rated game has a table of their
// ratings: rating ("?" while provisional), RD, games, W/D/L; a player
// without one has none.
func TestPlayerPageRatings(t *testing.T) {
	f := openEventFixture(t, false)
	s := site(t, f.fixture, web.PublicAll)
	ratings, err := f.a.Ratings(context.Background(), "chess")
	if err != nil {
		t.Fatal(err)
	}
	game := string(get(t, s, fmt.Sprintf("game-%d.html", f.rated.ID)).Body)
	keys := regexp.MustCompile(`<a href="(player-[0-9a-f]+\.html)">`).FindAllStringSubmatch(game, -1)
	if len(keys) != 2 {
		t.Fatalf("the rated game's page links %d players", len(keys))
	}
	for i, who := range []string{"alice@example.org", "bob@example.net"} {
		var want string
		for _, r := range ratings {
			if r.Address == who {
				want = fmt.Sprintf("<tr><td>Chess</td><td>%s</td><td>%.0f</td><td>%d</td><td>%d/%d/%d</td></tr>", r.Rating.String(), r.RD, r.Games, r.Wins, r.Draws, r.Losses)
			}
		}
		if want == "" || !strings.Contains(want, "?") {
			t.Fatalf("%s has no provisional chess rating: %+v", who, ratings)
		}
		if body := string(get(t, s, keys[i][1]).Body); !strings.Contains(body, want) {
			t.Errorf("%s's page does not hold %q:\n%s", who, want, body)
		}
	}
	// Hana plays only in the event: no rated game, no ratings table.
	e := string(get(t, s, "event-autumn.html").Body)
	m := regexp.MustCompile(`<a href="(player-[0-9a-f]+\.html)">ha…@example.org</a>`).FindStringSubmatch(e)
	if m == nil {
		t.Fatal("the event page does not link hana's page")
	}
	if body := string(get(t, s, m[1]).Body); strings.Contains(body, "<h2>Ratings</h2>") {
		t.Errorf("hana's page shows ratings without a rated game:\n%s", body)
	}
}

package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"referee/internal/app"
	"referee/internal/apptest"
	"referee/internal/web"
)

// openArchive opens a database of a games made directly in the store.
func openArchive(t *testing.T, a apptest.Archive) *app.App {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	if err := apptest.CreateArchive(ctx, path, a); err != nil {
		t.Fatal(err)
	}
	ra, err := app.Open(ctx, app.Options{DB: path, Address: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ra.Close() })
	return ra
}

var (
	itemLink  = regexp.MustCompile(`<li><a href="game-(\d+)\.html">`)
	olderLink = regexp.MustCompile(`<a href="([^"]+)">Older games</a>`)
)

// walkList follows a list's "Older games" links from its first page and
// returns the games listed, in order, and the pages' names.
func walkList(t *testing.T, s *web.Site, first string) (ids []string, pages []string) {
	t.Helper()
	for name := first; name != ""; {
		p, err := s.Page(context.Background(), strings.ReplaceAll(name, "&amp;", "&"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pages = append(pages, name)
		body := string(p.Body)
		for _, m := range itemLink.FindAllStringSubmatch(body, -1) {
			ids = append(ids, m[1])
		}
		name = ""
		if m := olderLink.FindStringSubmatch(body); m != nil {
			name = m[1]
		}
		if len(pages) > 20 {
			t.Fatalf("%s: more than 20 pages", first)
		}
	}
	return ids, pages
}

// TestListsArePaged: with 250 public games the index shows the newest
// 100 and links to the older ones a hundred at a time, newest first,
// each game once; the filters work as file names and as query
// parameters, and a player's page pages the same way (issue 39).
func TestListsArePaged(t *testing.T) {
	arch := apptest.Archive{Games: 250, Players: 3, RunningEvery: 4}
	ra := openArchive(t, arch)
	s, err := web.NewSite(ra, web.Options{Public: web.PublicAll, Referee: ra.Referee()})
	if err != nil {
		t.Fatal(err)
	}
	want := func(keep func(n int) bool) []string {
		var out []string
		for n := arch.Games - 1; n >= 0; n-- {
			if keep(n) {
				out = append(out, fmt.Sprint(n+1))
			}
		}
		return out
	}
	running := func(n int) bool { _, _, _, r := arch.ArchiveGame(n); return r }
	player0 := func(n int) bool { w, b, _, _ := arch.ArchiveGame(n); return w == 0 || b == 0 }
	for _, tt := range []struct {
		first string
		want  []string
		pages int
	}{
		{"index.html", want(func(int) bool { return true }), 3},
		{"state-finished.html", want(func(n int) bool { return !running(n) }), 2},
		{"state-active.html", want(running), 1},
		{"variant-chess.html", want(func(int) bool { return true }), 3},
		{"index.html?variant=chess&state=finished", want(func(n int) bool { return !running(n) }), 2},
	} {
		ids, pages := walkList(t, s, tt.first)
		if !slices.Equal(ids, tt.want) || len(pages) != tt.pages {
			t.Errorf("%s: %d games on %d pages %q, want %d on %d", tt.first, len(ids), len(pages), pages, len(tt.want), tt.pages)
		}
		for _, p := range pages[1:] {
			if strings.HasPrefix(tt.first, "index.html?") != strings.HasPrefix(p, "index.html?") {
				t.Errorf("%s links to %s", tt.first, p)
			}
		}
	}
	// The player's page: the first player's link on a game page.
	g, err := s.Page(context.Background(), "game-3.html") // game n=2: player 2 v player 0
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`href="(player-[0-9a-f]+\.html)">Player 2|href="(player-[0-9a-f]+\.html)"`).FindAllStringSubmatch(string(g.Body), -1)
	if len(m) != 2 {
		t.Fatalf("game-3.html links %d players", len(m))
	}
	black := m[1][2]
	ids, pages := walkList(t, s, black)
	if w := want(player0); !slices.Equal(ids, w) || len(pages) != 2 {
		t.Errorf("%s: %d games on %d pages, want %d", black, len(ids), len(pages), len(w))
	}
	p, err := s.Page(context.Background(), black)
	if err != nil {
		t.Fatal(err)
	}
	if sum := fmt.Sprintf("%d public games here", len(want(player0))); !strings.Contains(string(p.Body), sum) {
		t.Errorf("%s does not say %q", black, sum)
	}
	// Over HTTP, the filters as query parameters.
	srv := httptest.NewServer(s.Handler(nil))
	defer srv.Close()
	for q, want := range map[string]int{"/?state=active": 200, "/index.html?variant=chess&state=finished&before=200": 200,
		"/?state=aborted": 404, "/?before=1": 404, "/game-3.html?x=1": 200} {
		resp, err := http.Get(srv.URL + q)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", q, resp.StatusCode, want)
		}
		if q == "/?state=active" && (!strings.Contains(string(body), "<h1>Running games</h1>") || strings.Contains(string(body), `href="game-2.html"`)) {
			t.Errorf("GET %s does not list the running games alone", q)
		}
	}
	for _, name := range []string{"index-before-1.html", "index-before-0.html", "index-before-01.html", "index.html?before=x",
		"index.html?state=aborted", "variant-go.html", "index.html?variant=go", "index-x.html", "player-nobody-before-5.html"} {
		if _, err := s.Page(context.Background(), name); err != web.ErrNotFound {
			t.Errorf("%s: %v, want not found", name, err)
		}
	}
}

// TestGamePagesAreKeptUntilTheGameChanges: a finished game's page is made
// once and then served as kept; a running game's page changes as soon as
// a move is made.
func TestGamePagesAreKeptUntilTheGameChanges(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ctx := context.Background()
	get := func(name string) *web.Page {
		p, err := s.Page(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return p
	}
	done := fmt.Sprintf("game-%d.html", f.chess1.ID)
	if a, b := get(done), get(done); a != b {
		t.Errorf("%s was made twice", done)
	}
	running := fmt.Sprintf("game-%d.html", f.toe1.ID)
	before := get(running)
	if again := get(running); again != before {
		t.Errorf("%s was made again without a move", running)
	}
	f.playFirst(t, f.toe1, 1)
	after := get(running)
	if after == before || string(after.Body) == string(before.Body) || !strings.Contains(string(after.Body), "7 moves") && !strings.Contains(string(after.Body), fmt.Sprintf("game-%d-7.html", f.toe1.ID)) {
		t.Errorf("the running game's page did not change with its 7th move")
	}
	if _, err := s.Page(ctx, fmt.Sprintf("game-%d-7.html", f.toe1.ID)); err != nil {
		t.Errorf("the new ply's page: %v", err)
	}
}

// TestExportWritesOnlyWhatChanged: exported again without a change, no
// file is written; after a move in one game, that game's files and the
// lists that show it are written, and no other game's.
func TestExportWritesOnlyWhatChanged(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ctx := context.Background()
	dir := t.TempDir()
	first, err := s.ExportChanges(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if first.Written != first.Files || first.Files < 10 {
		t.Fatalf("the first export wrote %d of %d files", first.Written, first.Files)
	}
	again, err := s.ExportChanges(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if again.Written != 0 || again.Files != first.Files || again.Removed != 0 {
		t.Errorf("the export again without a change: %+v, want nothing written of %d", again, first.Files)
	}
	stamp := func(name string) int64 {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return st.ModTime().UnixNano()
	}
	other := fmt.Sprintf("game-%d-2.html", f.chess1.ID)
	otherTime := stamp(other)
	f.playFirst(t, f.toe1, 1)
	moved, err := s.ExportChanges(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	// toe1 had 6 actions, now 7: its 2 pages + 2×8 per ply, and the
	// lists that count its moves (index, state-active, its variant,
	// both players).
	if moved.Files != first.Files+2 || moved.Written < 18 || moved.Written > 18+6 {
		t.Errorf("after one move: %+v (first export: %d files)", moved, first.Files)
	}
	if stamp(other) != otherTime {
		t.Errorf("%s was written again though its game did not change", other)
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("game-%d-7.png", f.toe1.ID))); err != nil {
		t.Errorf("the new ply's picture: %v", err)
	}
	checkServesExport(t, s, dir)
}

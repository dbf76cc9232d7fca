package web_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/dice"
	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/web"
)

// fixture is a database with games in every state the pages know.
type fixture struct {
	a *app.App
	// chess1 is a finished chess game, chess2 a running one shown two moves
	// late, toe1 a running Chec Toe game, toe2 a finished one, priv a
	// finished private game.
	chess1, chess2, toe1, toe2, priv *referee.Game
}

// seedHex is the seed of the finished Chec Toe game, runningSeed the
// running one's.
var seedHex, runningSeed = strings.Repeat("5a", 32), strings.Repeat("c3", 32)

func openFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test",
		Now: func() time.Time { now = now.Add(time.Hour); return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	seed, err := dice.ParseSeed(seedHex)
	if err != nil {
		t.Fatal(err)
	}
	seed2, err := dice.ParseSeed(runningSeed)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{a: a}
	newGame := func(variant, w, b string, sp app.GameOptions, s *dice.Seed) *referee.Game {
		g, err := a.NewGameWith(ctx, variant, w, b, s, "", sp)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	f.chess1 = newGame("chess", "alice@example.org", "bob@example.net", app.GameOptions{}, nil)
	f.playSAN(t, f.chess1, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7")
	f.chess2 = newGame("chess", "carol@example.org", "alice@example.org", app.GameOptions{WatchDelay: 2}, nil)
	f.playSAN(t, f.chess2, "d4", "d5", "c4", "e6")
	f.toe1 = newGame("chectoe", "dave@example.com", "erin@example.com", app.GameOptions{}, &seed2)
	f.playFirst(t, f.toe1, 6)
	f.toe2 = newGame("chectoe", "erin@example.com", "alice@example.org", app.GameOptions{}, &seed)
	f.playFirst(t, f.toe2, 5)
	f.finish(t, f.toe2)
	f.priv = newGame("chess", "frank@example.org", "gina@example.org", app.GameOptions{Private: true}, nil)
	f.playSAN(t, f.priv, "f3", "e5", "g4", "Qh4")
	if err := a.Watch(ctx, f.chess2.ID, "watcher@example.org", false); err != nil {
		t.Fatal(err)
	}
	for _, g := range []**referee.Game{&f.chess1, &f.chess2, &f.toe1, &f.toe2, &f.priv} {
		if *g, err = a.Game(ctx, (*g).ID); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) send(t testing.TB, g *referee.Game, line string) *referee.Game {
	t.Helper()
	ctx := context.Background()
	g, err := f.a.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	c := pos.Turn()
	if line == "resign" || line == "confirm" {
		c = rules.White
	}
	raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <%d.%d.%s@t>\r\n\r\n%s\r\n",
		g.Players[c].Address, f.a.Referee().ReplyAddress(g, c), g.ID, g.Ply(), strings.ReplaceAll(line, " ", "_"), line)
	p, err := f.a.Process(ctx, raw, 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("game #%d: %q: %+v %v", g.ID, line, p, err)
	}
	g, err = f.a.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (f *fixture) playSAN(t testing.TB, g *referee.Game, moves ...string) {
	t.Helper()
	for _, m := range moves {
		g = f.send(t, g, m)
	}
}

// playFirst plays n actions, each the first legal one (Chec Toe: what the
// die allows).
func (f *fixture) playFirst(t testing.TB, g *referee.Game, n int) {
	t.Helper()
	for range n {
		pos, err := g.Position()
		if err != nil {
			t.Fatal(err)
		}
		legal := pos.Legal()
		if len(legal) == 0 {
			t.Fatalf("game #%d: no legal move after %d", g.ID, g.Ply())
		}
		g = f.send(t, g, notation.SAN(pos, legal[0]))
	}
}

func (f *fixture) finish(t testing.TB, g *referee.Game) {
	t.Helper()
	g = f.send(t, g, "resign")
	f.send(t, g, "confirm")
}

func site(t testing.TB, f *fixture, public string) *web.Site {
	t.Helper()
	s, err := web.NewSite(f.a, web.Options{Public: public, Referee: f.a.Referee(), Title: "Test club"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// secrets are the strings no page may hold: every player's and watcher's
// address, every secret and reply address, the die seed of a running
// game.
func (f *fixture) secrets(running ...*referee.Game) []string {
	var out []string
	for _, g := range []*referee.Game{f.chess1, f.chess2, f.toe1, f.toe2, f.priv} {
		for c, p := range g.Players {
			out = append(out, p.Address, p.Secret, f.a.Referee().ReplyAddress(g, rules.Color(c)))
			local, _, _ := strings.Cut(p.Address, "@")
			out = append(out, local+"@") // any address of theirs, however spelt after the @
		}
		out = append(out, g.Watchers...)
	}
	for _, g := range running {
		out = append(out, g.Seed.Hex(), strings.ToUpper(g.Seed.Hex()))
	}
	return out
}

// TestEveryPageKeepsSecrets generates every page of a database with
// running and finished games of chess and Chec Toe, under each policy, and
// scans every byte for each player's address, secret and reply address,
// and for the die seed of a running game (issue 31). The seed of the
// finished Chec Toe game is shown, as it must be.
func TestEveryPageKeepsSecrets(t *testing.T) {
	f := openFixture(t)
	if f.toe1.Seed.Hex() != runningSeed || f.toe1.Status != referee.StatusActive || f.toe2.Status != referee.StatusFinished || !f.toe2.SeedRevealed {
		t.Fatalf("fixture: toe1 %s seed %s, toe2 %s revealed %v", f.toe1.Status, f.toe1.Seed.Hex(), f.toe2.Status, f.toe2.SeedRevealed)
	}
	ctx := context.Background()
	for _, public := range []string{web.PublicAll, web.PublicFinished, web.PublicNone} {
		t.Run(public, func(t *testing.T) {
			s := site(t, f, public)
			dir := t.TempDir()
			n, err := s.Export(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			files, _ := os.ReadDir(dir)
			if len(files) != n+1 || n < 4 { // and the manifest
				t.Fatalf("%d files written, %d in the directory", n, len(files))
			}
			scanForSecrets(t, dir, f.secrets(f.toe1))
			has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
			wantGames := map[string][]*referee.Game{
				web.PublicAll:      {f.chess1, f.chess2, f.toe1, f.toe2},
				web.PublicFinished: {f.chess1, f.toe2},
			}[public]
			for _, g := range []*referee.Game{f.chess1, f.chess2, f.toe1, f.toe2, f.priv} {
				name := fmt.Sprintf("game-%d.html", g.ID)
				if want := slices.Contains(wantGames, g); has(name) != want {
					t.Errorf("--public %s: %s written %v, want %v (status %s, private %v)", public, name, has(name), want, g.Status, g.State.Private)
				}
			}
		})
	}
}

// scanForSecrets reads every file in dir and fails for each secret one
// holds, in any case.
func scanForSecrets(t *testing.T, dir string, secrets []string) {
	t.Helper()
	files, _ := os.ReadDir(dir)
	for _, e := range files {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range secrets {
			if sec != "" && bytes.Contains(bytes.ToLower(b), []byte(strings.ToLower(sec))) {
				t.Errorf("%s holds %q", e.Name(), sec)
			}
		}
	}
}

// TestRunningSeedNeverShown: the pages of a running Chec Toe game show the
// commitment and the signed rolls, never the seed; once it is finished
// they show the seed and how to check it.
func TestRunningSeedNeverShown(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ctx := context.Background()
	page := func(name string) string {
		p, err := s.Page(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(p.Body)
	}
	running := page(fmt.Sprintf("game-%d.html", f.toe1.ID))
	if strings.Contains(running, runningSeed) || !strings.Contains(running, f.toe1.Commitment) || !strings.Contains(running, "The seed stays secret") {
		t.Errorf("the running Chec Toe game's page shows the seed, or not the commitment:\n%s", running)
	}
	for _, r := range f.toe1.Rolls {
		if sig := hex.EncodeToString(r.Sig); !strings.Contains(running, sig) {
			t.Errorf("roll %d's signature is not on the page", r.N)
		}
	}
	pgn := page(fmt.Sprintf("game-%d.pgn", f.toe1.ID))
	if strings.Contains(pgn, runningSeed) || strings.Contains(pgn, "DieSeed") {
		t.Errorf("the running game's PGN holds the seed:\n%s", pgn)
	}
	over := page(fmt.Sprintf("game-%d.html", f.toe2.ID))
	if !strings.Contains(over, seedHex) || !strings.Contains(over, "HMAC-SHA256") {
		t.Errorf("the finished Chec Toe game's page does not show the seed and how to check it")
	}
}

// TestDelayAppliesToPages: a game shown two moves late has pages up to
// two actions before its last, and no page or picture beyond.
func TestDelayAppliesToPages(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ctx := context.Background()
	g := f.chess2 // four actions, delay 2
	if _, err := s.Page(ctx, fmt.Sprintf("game-%d-2.png", g.ID)); err != nil {
		t.Errorf("ply 2 of a game shown 2 late with 4 actions: %v", err)
	}
	for _, name := range []string{fmt.Sprintf("game-%d-3.html", g.ID), fmt.Sprintf("game-%d-3.png", g.ID), fmt.Sprintf("game-%d-4.png", g.ID)} {
		if _, err := s.Page(ctx, name); err != web.ErrNotFound {
			t.Errorf("%s: %v, want not found (beyond the delay)", name, err)
		}
	}
	p, err := s.Page(ctx, fmt.Sprintf("game-%d.html", g.ID))
	if err != nil {
		t.Fatal(err)
	}
	body := string(p.Body)
	if strings.Contains(body, "2. c4") || strings.Contains(body, "2... e6") || !strings.Contains(body, "1... d5") || !strings.Contains(body, "shown 2 moves late") {
		t.Errorf("the delayed game's page names a move beyond the delay:\n%s", body)
	}
}

// TestFinishedChessGamePage: the page of a finished chess game has the
// picture with its alt text, previous and next links, the moves with
// their dates, the result and the PGN; the PGN names no address.
func TestFinishedChessGamePage(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicFinished)
	ctx := context.Background()
	g := f.chess1
	p, err := s.Page(ctx, fmt.Sprintf("game-%d-3.html", g.ID))
	if err != nil {
		t.Fatal(err)
	}
	body := string(p.Body)
	for _, want := range []string{
		fmt.Sprintf(`<img src="game-%d-3.png"`, g.ID), `alt="Chess board of game #1 after 2. Qh5, Black to play.`,
		fmt.Sprintf(`href="game-%d-2.html" rel="prev"`, g.ID), fmt.Sprintf(`href="game-%d-4.html" rel="next"`, g.ID),
		"4. Qxf7", g.Actions[0].Time.UTC().Format("2 Jan 2006"), "1-0 (", "game-1.pgn", "al…@example.org",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not hold %q", want)
		}
	}
	pgn, err := s.Page(ctx, fmt.Sprintf("game-%d.pgn", g.ID))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pgn.Body), `[White "al…@example.org"]`) || !strings.Contains(string(pgn.Body), "4. Qxf7#") {
		t.Errorf("the PGN:\n%s", pgn.Body)
	}
	png, err := s.Page(ctx, fmt.Sprintf("game-%d-3.png", g.ID))
	if err != nil || !bytes.HasPrefix(png.Body, []byte("\x89PNG")) || png.ContentType != "image/png" {
		t.Errorf("the picture: %v %q", err, png.ContentType)
	}
}

// TestServerServesTheExport: every file of the static export is what the
// server serves under its name, with its content type.
func TestServerServesTheExport(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	dir := t.TempDir()
	if _, err := s.Export(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	checkServesExport(t, s, dir)
}

// checkServesExport fails for each file of the export in dir that the
// server does not serve byte for byte, with its content type.
func checkServesExport(t *testing.T, s *web.Site, dir string) {
	t.Helper()
	srv := httptest.NewServer(s.Handler(nil))
	defer srv.Close()
	files, _ := os.ReadDir(dir)
	types := map[string]string{".html": "text/html; charset=utf-8", ".png": "image/png", ".pgn": "application/x-chess-pgn; charset=utf-8",
		".atom": "application/atom+xml; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".svg": "image/svg+xml", ".ico": "image/vnd.microsoft.icon"}
	for _, e := range files {
		if strings.HasPrefix(e.Name(), ".") {
			continue // the export's manifest
		}
		want, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		resp, err := http.Get(srv.URL + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		got.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: %d, %d bytes served, %d in the export", e.Name(), resp.StatusCode, got.Len(), len(want))
		}
		if ct := resp.Header.Get("Content-Type"); ct != types[filepath.Ext(e.Name())] {
			t.Errorf("%s: Content-Type %q", e.Name(), ct)
		}
	}
}

// TestServerIsReadOnlyAndCaches: only GET and HEAD; an ETag that a
// revalidation answers with 304; a body is refused; unknown names are 404.
func TestServerIsReadOnlyAndCaches(t *testing.T) {
	f := openFixture(t)
	srv := httptest.NewServer(site(t, f, web.PublicAll).Handler(nil))
	defer srv.Close()
	do := func(method, path string, body string, hdr ...string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		if r := do(m, "/", ""); r.StatusCode != 405 || r.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /: %d, Allow %q", m, r.StatusCode, r.Header.Get("Allow"))
		}
	}
	r := do("GET", "/game-1.html", "")
	etag := r.Header.Get("ETag")
	if r.StatusCode != 200 || etag == "" || !strings.Contains(r.Header.Get("Cache-Control"), "max-age") ||
		!strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'none'") || r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("GET /game-1.html: %d, headers %v", r.StatusCode, r.Header)
	}
	if r := do("GET", "/game-1.html", "", "If-None-Match", etag); r.StatusCode != 304 {
		t.Errorf("revalidation with the ETag: %d, want 304", r.StatusCode)
	}
	// Go's client asks for gzip on a GET, never on a HEAD: ask for it here,
	// so that the HEAD names the same body (static.go, compress).
	if r := do("HEAD", "/game-1.html", "", "Accept-Encoding", "gzip"); r.StatusCode != 200 || r.Header.Get("ETag") != etag {
		t.Errorf("HEAD: %d, ETag %q", r.StatusCode, r.Header.Get("ETag"))
	}
	if r := do("GET", "/", strings.Repeat("x", 4096)); r.StatusCode != 413 {
		t.Errorf("a GET with a 4 KB body: %d, want 413", r.StatusCode)
	}
	for _, p := range []string{"/game-99.html", "/game-1-99.html", "/game-01.html", "/../r.db", "/player-nobody.html", "/game-1.pgn.html", "/variant-go.html"} {
		if r := do("GET", p, ""); r.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
	if r := do("GET", fmt.Sprintf("/game-%d.html", f.priv.ID), ""); r.StatusCode != 404 {
		t.Errorf("the private game's page: %d, want 404", r.StatusCode)
	}
}

// TestIndexFiltersAndPlayerPages: the index's filters by variant and state
// and a player's page list the right games.
func TestIndexFiltersAndPlayerPages(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ctx := context.Background()
	get := func(name string) string {
		p, err := s.Page(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(p.Body)
	}
	link := func(g *referee.Game) string { return fmt.Sprintf(`href="game-%d.html"`, g.ID) }
	for _, tt := range []struct {
		page    string
		in, out []*referee.Game
	}{
		{"index.html", []*referee.Game{f.chess1, f.chess2, f.toe1, f.toe2}, []*referee.Game{f.priv}},
		{"variant-chess.html", []*referee.Game{f.chess1, f.chess2}, []*referee.Game{f.toe1, f.toe2, f.priv}},
		{"state-finished.html", []*referee.Game{f.chess1, f.toe2}, []*referee.Game{f.chess2, f.toe1}},
		{"state-active.html", []*referee.Game{f.chess2, f.toe1}, []*referee.Game{f.chess1, f.toe2}},
	} {
		body := get(tt.page)
		for _, g := range tt.in {
			if !strings.Contains(body, link(g)) {
				t.Errorf("%s does not list game #%d", tt.page, g.ID)
			}
		}
		for _, g := range tt.out {
			if strings.Contains(body, link(g)) {
				t.Errorf("%s lists game #%d", tt.page, g.ID)
			}
		}
	}
	// Alice plays in chess1 (White), chess2 (Black) and toe2 (Black).
	game := get(fmt.Sprintf("game-%d.html", f.chess1.ID))
	i := strings.Index(game, `<a href="player-`)
	if i < 0 {
		t.Fatal("the game page links no player")
	}
	name := game[i+len(`<a href="`):]
	name = name[:strings.IndexByte(name, '"')]
	body := get(name)
	for _, g := range []*referee.Game{f.chess1, f.chess2, f.toe2} {
		if !strings.Contains(body, link(g)) {
			t.Errorf("alice's page %s does not list game #%d", name, g.ID)
		}
	}
	if !strings.Contains(body, "3 public games here: 2 won, 0 lost, 0 drawn.") {
		t.Errorf("alice's page:\n%s", body)
	}
}

// TestScriptMatchesThePolicy: the game page's one inline script is the
// one the Content-Security-Policy allows (its SHA-256, as browsers hash
// the text between <script> and </script>), and the index has none.
func TestScriptMatchesThePolicy(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	p, err := s.Page(context.Background(), "game-1.html")
	if err != nil {
		t.Fatal(err)
	}
	body := string(p.Body)
	i, j := strings.Index(body, "<script>"), strings.Index(body, "</script>")
	if i < 0 || j < i || strings.Count(body, "<script") != 1 {
		t.Fatalf("want one inline script on the game page")
	}
	sum := sha256.Sum256([]byte(body[i+len("<script>") : j]))
	if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(web.ContentSecurityPolicy, want) {
		t.Errorf("the policy %q does not allow the page's script (%s)", web.ContentSecurityPolicy, want)
	}
	idx, _ := s.Page(context.Background(), "index.html")
	if strings.Contains(string(idx.Body), "<script") {
		t.Error("the index has a script")
	}
}

// TestExportRemovesWhatTheSiteNoLongerHas: exported again under a stricter
// policy, the pages of running games go from the directory; a file the
// export did not write stays.
func TestExportRemovesWhatTheSiteNoLongerHas(t *testing.T) {
	f := openFixture(t)
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "robots.txt"), []byte("User-agent: *\n"), 0o644)
	if _, err := site(t, f, web.PublicAll).Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	running := filepath.Join(dir, fmt.Sprintf("game-%d.html", f.toe1.ID))
	if _, err := os.Stat(running); err != nil {
		t.Fatalf("--public all: %v", err)
	}
	if _, err := site(t, f, web.PublicFinished).Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(running); !os.IsNotExist(err) {
		t.Errorf("after an export under --public finished the running game's page is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("game-%d.html", f.chess1.ID))); err != nil {
		t.Errorf("the finished game's page: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "robots.txt")); err != nil {
		t.Errorf("a file the export did not write was removed: %v", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}

// TestFeedListsFinishedGames: the Atom feed reads as XML and has one entry
// per finished public game, linking its page; --base-url makes the links
// absolute.
func TestFeedListsFinishedGames(t *testing.T) {
	f := openFixture(t)
	s, err := web.NewSite(f.a, web.Options{Public: web.PublicAll, Referee: f.a.Referee(), BaseURL: "https://games.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Page(context.Background(), "feed.atom")
	if err != nil {
		t.Fatal(err)
	}
	var feed struct {
		Entries []struct {
			ID   string `xml:"id"`
			Link struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(p.Body, &feed); err != nil {
		t.Fatalf("the feed does not read as XML: %v\n%s", err, p.Body)
	}
	var links []string
	for _, e := range feed.Entries {
		links = append(links, e.Link.Href)
	}
	want := []string{fmt.Sprintf("https://games.example.org/game-%d.html", f.toe2.ID), fmt.Sprintf("https://games.example.org/game-%d.html", f.chess1.ID)}
	if !slices.Equal(links, want) {
		t.Errorf("the feed links %q, want the finished games %q", links, want)
	}
}

package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/app"
	"referee/internal/browsertest"
	"referee/internal/referee"
	"referee/internal/web"
)

var update = flag.Bool("update", false, "rewrite the screenshots in testdata/screens")

// layout is what the harness measured of one page in one frame.
type layout struct {
	ScrollW, ClientW, Height int
	Images, Loaded           int      // <img> elements, and those whose picture loaded
	NoAlt                    []string // the src of every <img> without alt text
	Outside                  []string // the src of every <img> that reaches past the screen
	// Pts, PtsShown: a crosstable's points cells, and those on the screen
	// without scrolling the table (issue 37: they scrolled off a phone).
	Pts, PtsShown int
}

var widths = []int{360, 1280}

// TestPagesInChromium lays out the index, a finished chess game at a
// middle ply, a running and a finished Chec Toe game (long hex words:
// commitment, signatures, seed) and a player's page in headless Chromium
// at 360 and 1280 pixels, and checks that no page scrolls sideways, every
// picture loads, has alt text and stays on the screen. Two negative
// controls must overflow at 360 pixels: the chess page without the
// picture's max-width, the finished Chec Toe page without the hex words'
// wrapping. A round robin's and a knockout's event pages too (issue 31),
// the round robin's with every row's points on the screen (issue 37).
// With -update it writes screenshots to testdata/screens.
func TestPagesInChromium(t *testing.T) {
	bin := browsertest.Bin(t)
	f := openEventFixture(t, false)
	hidden := addNewFormats(t, f) // issue 41: a league, a team match, a ladder
	s := site(t, f.fixture, web.PublicAll)
	dir := t.TempDir()
	if _, err := s.Export(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	pages := map[string]string{
		"index":         "index.html",
		"chess":         fmt.Sprintf("game-%d-3.html", f.chess1.ID),
		"chectoe-run":   fmt.Sprintf("game-%d.html", f.toe1.ID),
		"chectoe-over":  fmt.Sprintf("game-%d.html", f.toe2.ID),
		"chess-delayed": fmt.Sprintf("game-%d.html", f.chess2.ID),
		"event":         "event-autumn.html",
		"knockout":      "event-cup.html",
		"league":        "event-league6.html",
		"team":          "event-derby.html",
		"ladder":        "event-ladder4.html",
	}
	for _, key := range []string{"league", "team", "ladder"} {
		page := read(pages[key])
		for _, h := range hidden {
			if strings.Contains(page, h) {
				t.Errorf("the %s page shows %q: a player's address", key, h)
			}
		}
		if !strings.Contains(page, "…@example.org") {
			t.Errorf("the %s page shows no player (masked):\n%.1500s", key, page)
		}
	}
	// A player's page: the first player link of the chess game.
	chess := read(pages["chess"])
	i := strings.Index(chess, `href="player-`)
	pages["player"] = chess[i+len(`href="`) : i+len(`href="`)+strings.IndexByte(chess[i+len(`href="`):], '"')]

	var harness strings.Builder
	harness.WriteString(`<!DOCTYPE html><html><body style="margin:0">`)
	frame := func(id string, w int, page string) {
		fmt.Fprintf(&harness, `<iframe id="%s" style="border:0;display:block" width="%d" height="700" srcdoc="%s"></iframe>`, id, w, html.EscapeString(page))
	}
	for key, name := range pages {
		for _, w := range widths {
			frame(fmt.Sprintf("%s-%d", key, w), w, read(name))
		}
	}
	noMaxWidth := strings.Replace(read(pages["chess"]), ".board img{display:block;max-width:100%;height:auto}", ".board img{display:block}", 1)
	noWrap := strings.Replace(read(pages["chectoe-over"]), "overflow-wrap:anywhere;word-break:break-all", "", 1)
	if noMaxWidth == read(pages["chess"]) || noWrap == read(pages["chectoe-over"]) {
		t.Fatal("a negative control is the page itself: the pages' styles changed, update the controls")
	}
	frame("control-img", 360, noMaxWidth)
	frame("control-hex", 360, noWrap)
	harness.WriteString(`<pre id="result"></pre><script>
window.addEventListener("load", function () {
  var out = {};
  document.querySelectorAll("iframe").forEach(function (f) {
    var d = f.contentDocument, cw = d.documentElement.clientWidth, m = {ScrollW: d.documentElement.scrollWidth, ClientW: cw,
      Height: d.documentElement.scrollHeight, Images: 0, Loaded: 0, NoAlt: [], Outside: [], Pts: 0, PtsShown: 0};
    d.querySelectorAll("img").forEach(function (img) {
      m.Images++;
      if (img.naturalWidth > 0) m.Loaded++;
      if (!(img.getAttribute("alt") || "").trim()) m.NoAlt.push(img.getAttribute("src"));
      var r = img.getBoundingClientRect();
      if (r.left < 0 || r.right > cw) m.Outside.push(img.getAttribute("src"));
    });
    d.querySelectorAll("td.pts").forEach(function (td) {
      m.Pts++;
      var r = td.getBoundingClientRect();
      if (r.left >= 0 && r.right <= cw) m.PtsShown++;
    });
    out[f.id] = m;
  });
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>`)
	hpath := filepath.Join(dir, "harness.html")
	if err := os.WriteFile(hpath, []byte(harness.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(browsertest.Run(t, bin, "--dump-dom", "--virtual-time-budget=10000", "--window-size=1300,900", "file://"+hpath))
	a, b := strings.Index(dom, `<pre id="result">`), strings.Index(dom, "</pre><script>")
	if a < 0 || b < a {
		t.Fatalf("no measurements in the page:\n%.2000s", dom)
	}
	var got map[string]layout
	if err := json.Unmarshal([]byte(html.UnescapeString(dom[a+len(`<pre id="result">`):b])), &got); err != nil {
		t.Fatalf("reading the measurements: %v", err)
	}
	for key := range pages {
		for _, w := range widths {
			id := fmt.Sprintf("%s-%d", key, w)
			t.Run(id, func(t *testing.T) {
				g, ok := got[id]
				switch {
				case !ok:
					t.Fatal("not measured")
				case g.ScrollW > w || g.ClientW > w:
					t.Errorf("the page is %d pixels wide on a %d-pixel screen: it scrolls sideways", g.ScrollW, w)
				case g.Loaded != g.Images:
					t.Errorf("%d of %d pictures loaded", g.Loaded, g.Images)
				case len(g.NoAlt) > 0:
					t.Errorf("pictures without alt text: %q", g.NoAlt)
				case len(g.Outside) > 0:
					t.Errorf("pictures past the screen's edge: %q", g.Outside)
				}
				if key == "event" && (g.Pts == 0 || g.PtsShown != g.Pts) {
					t.Errorf("the points of %d of %d crosstable rows are on screen; want all", g.PtsShown, g.Pts)
				}
				if strings.HasPrefix(key, "chess") || strings.HasPrefix(key, "chectoe") {
					if g.Images != 1 {
						t.Errorf("a game page with %d pictures, want the board", g.Images)
					}
				}
			})
		}
	}
	for _, c := range []string{"control-img", "control-hex"} {
		if g := got[c]; g.ScrollW <= 360 {
			t.Errorf("the negative control %s fits in 360 pixels (%d): the check proves nothing", c, g.ScrollW)
		}
	}

	// The arrow keys: → on ply 3 of the chess game leads to ply 4.
	key := strings.Replace(read(pages["chess"]), "</body>", `<script>window.addEventListener("load",function(){document.dispatchEvent(new KeyboardEvent("keydown",{key:"ArrowRight"}))})</script></body>`, 1)
	kpath := filepath.Join(dir, "keytest.html")
	os.WriteFile(kpath, []byte(key), 0o644)
	after := string(browsertest.Run(t, bin, "--dump-dom", "--virtual-time-budget=5000", "file://"+kpath))
	if want := fmt.Sprintf(`<img src="game-%d-4.png"`, f.chess1.ID); !strings.Contains(after, want) {
		t.Errorf("after → on ply 3 the browser shows no %s:\n%.600s", want, after)
	}

	if *update {
		out := filepath.Join("testdata", "screens")
		os.RemoveAll(out)
		os.MkdirAll(out, 0o755)
		for key, name := range pages {
			for _, w := range widths {
				h := min(max(got[fmt.Sprintf("%s-%d", key, w)].Height, 400), 3000)
				shot, _ := filepath.Abs(filepath.Join(out, fmt.Sprintf("%s-%d.png", key, w)))
				browsertest.Run(t, bin, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h), "file://"+filepath.Join(dir, name))
			}
		}
	}
}

// TestPagesAreValidHTML runs every HTML page of the site through tidy
// (Debian's package "tidy"), which reports errors and warnings of HTML5
// markup; skipped where tidy is missing, except under CI=true.
func TestPagesAreValidHTML(t *testing.T) {
	bin, err := exec.LookPath("tidy")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tidy is not installed, but CI must run this test (.ci/run installs it)")
		}
		t.Skip("tidy is not installed (apt-get install tidy)")
	}
	f := openEventFixture(t, false)
	addNewFormats(t, f)
	dir := t.TempDir()
	if _, err := site(t, f.fixture, web.PublicAll).Export(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	// The negative control: an unclosed element must be reported.
	bad := filepath.Join(t.TempDir(), "bad.html")
	os.WriteFile(bad, []byte("<!DOCTYPE html><html lang=en><head><title>x</title></head><body><p><b>x</p></body></html>"), 0o644)
	for _, name := range append(files, bad) {
		out, err := exec.Command(bin, "-q", "-e", name).CombinedOutput()
		if name == bad {
			if err == nil {
				t.Error("tidy finds nothing wrong with the negative control: the check proves nothing")
			}
			continue
		}
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("%s: tidy says (%v):\n%s", filepath.Base(name), err, out)
		}
	}
}

// addNewFormats adds a league of six in two divisions (one game over), a
// match of two teams of two and a ladder of four with a challenge in play
// to f; it returns the players' local parts with "@", which no page may
// show.
func addNewFormats(t *testing.T, f *eventFixture) []string {
	t.Helper()
	ctx := context.Background()
	a := f.a
	var hidden []string
	list := func(prefix string, n int) []string {
		var out []string
		for i := 1; i <= n; i++ {
			out = append(out, fmt.Sprintf("%s%d@example.org", prefix, i))
			hidden = append(hidden, fmt.Sprintf("%s%d@", prefix, i))
		}
		return out
	}
	specs := []app.EventSpec{
		{Name: "league6", Variant: "chess", Format: "league", Casual: true, Players: list("leaguer", 6), DivisionSize: 3, Promote: 1},
		{Name: "derby", Variant: "chess", Format: "team", Casual: true,
			Teams: []app.Team{{Name: "Kings", Players: list("king", 2)}, {Name: "Queens", Players: list("queen", 2)}}},
		{Name: "ladder4", Variant: "chess", Format: "ladder", Casual: true, Players: list("climber", 4)},
	}
	for _, sp := range specs {
		if _, err := a.CreateEvent(ctx, sp); err != nil {
			t.Fatal(err)
		}
		e, err := a.StartEvent(ctx, sp.Name)
		if err != nil {
			t.Fatal(err)
		}
		switch sp.Name {
		case "league6":
			g, err := a.Game(ctx, e.Games[0].GameID)
			if err != nil {
				t.Fatal(err)
			}
			f.finish(t, f.send(t, g, "e4"))
		case "ladder4": // climber4 challenges climber2, who accepts: a game in play
			for i, m := range []struct{ from, body string }{{"climber4", "ladder ladder4 climber2@example.org"}, {"climber2", "ladder ladder4 accept"}} {
				raw := fmt.Sprintf("From: %s@example.org\r\nTo: referee@example.test\r\nSubject: ladder\r\nMessage-ID: <ladder%d@example.org>\r\n\r\n%s\r\n", m.from, i, m.body)
				if p, err := a.Process(ctx, []byte(raw), 0, 0); err != nil || p.Verdict != referee.Applied {
					t.Fatalf("%s: %q: %+v, %v", m.from, m.body, p, err)
				}
			}
		}
	}
	return hidden
}

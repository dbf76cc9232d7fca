package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"referee/internal/web"
)

// TestRobotsFollowsThePolicy: robots.txt says what crawlers may do under
// each --public policy: nothing under none; the lists, games, records and
// players otherwise, but not the page and picture of every ply. Under a
// base path the rules start there.
func TestRobotsFollowsThePolicy(t *testing.T) {
	f := openFixture(t)
	tests := []struct {
		public, base string
		want, not    []string
	}{
		{web.PublicNone, "", []string{"User-agent: *\n", "Disallow: /\n"}, []string{"Allow:"}},
		{web.PublicFinished, "", []string{"User-agent: *\n", "Disallow: /game-*-*.html\n", "Disallow: /game-*-*.png\n", "Allow: /\n", "--public finished"},
			[]string{"Disallow: /\n"}},
		{web.PublicAll, "https://example.org/club/", []string{"Disallow: /club/game-*-*.html\n", "Allow: /club/\n", "--public all"},
			[]string{"Disallow: /\n", "Allow: /\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.public, func(t *testing.T) {
			s, err := web.NewSite(f.a, web.Options{Public: tt.public, Referee: f.a.Referee(), Title: "Test club", BaseURL: tt.base})
			if err != nil {
				t.Fatal(err)
			}
			p := get(t, s, "robots.txt")
			body := string(p.Body)
			if p.ContentType != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type %q", p.ContentType)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("robots.txt lacks %q:\n%s", w, body)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(body, w) {
					t.Errorf("robots.txt has %q:\n%s", w, body)
				}
			}
			// Every line is a comment, a blank or a field RFC 9309 knows.
			for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
				if !regexp.MustCompile(`^(#.*|User-agent: \*|(Allow|Disallow): /[^ ]*)$`).MatchString(line) {
					t.Errorf("robots.txt line %q is not RFC 9309", line)
				}
			}
		})
	}
}

// TestFavicon: every page links the icon; the SVG is well-formed XML, and
// /favicon.ico (which browsers ask for whatever the page links) is an ICO
// holding a 32×32 PNG with the square's blue in its middle row's edge.
func TestFavicon(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	for _, name := range []string{"index.html", "game-1.html", "game-1-2.html"} {
		if !strings.Contains(string(get(t, s, name).Body), `<link rel="icon" href="favicon.svg" type="image/svg+xml">`) {
			t.Errorf("%s does not link the icon", name)
		}
	}
	svg := get(t, s, "favicon.svg")
	if svg.ContentType != "image/svg+xml" {
		t.Errorf("favicon.svg: Content-Type %q", svg.ContentType)
	}
	if err := xml.Unmarshal(svg.Body, new(struct{})); err != nil {
		t.Errorf("favicon.svg is not XML: %v", err)
	}
	ico := get(t, s, "favicon.ico")
	b := ico.Body
	le := binary.LittleEndian
	if len(b) < 22 || le.Uint16(b[0:]) != 0 || le.Uint16(b[2:]) != 1 || le.Uint16(b[4:]) != 1 || b[6] != 32 || b[7] != 32 {
		t.Fatalf("favicon.ico has no ICO header for one 32×32 image: % x", b[:min(len(b), 22)])
	}
	size, off := le.Uint32(b[14:]), le.Uint32(b[18:])
	if int(off)+int(size) != len(b) {
		t.Fatalf("favicon.ico: the image is %d bytes at %d, the file %d", size, off, len(b))
	}
	img, err := png.Decode(bytes.NewReader(b[off:]))
	if err != nil {
		t.Fatalf("favicon.ico does not hold a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 32 || r.Dy() != 32 {
		t.Errorf("the icon is %v, want 32×32", r)
	}
	// At (2, 16), inside the square and left of the pawn: the link blue.
	if r, g, bl, a := img.At(2, 16).RGBA(); r>>8 != 0x0b || g>>8 != 0x57 || bl>>8 != 0xa4 || a>>8 != 0xff {
		t.Errorf("the icon at (2,16) is %x %x %x %x, want the square's blue", r>>8, g>>8, bl>>8, a>>8)
	}
	// At the head's centre (16, 10): the pawn's white.
	if r, _, _, _ := img.At(16, 10).RGBA(); r>>8 != 0xfa {
		t.Errorf("the icon at the pawn's head is not white: %x", r>>8)
	}
}

// TestMetaDescriptions: the index, a filter, a game at its end and at a
// ply, a player's page and an event's page each carry a description of
// what they show, at most 160 characters, with no address or secret (the
// players by their public names).
func TestMetaDescriptions(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	re := regexp.MustCompile(`<meta name="description" content="([^"]+)">`)
	dir := t.TempDir()
	if _, err := s.Export(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sn []string
	for _, e := range files {
		sn = append(sn, e.Name())
	}
	secrets := f.secrets(f.chess2, f.toe1)
	seen := map[string]string{}
	for _, name := range sn {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		m := re.FindSubmatch(get(t, s, name).Body)
		if m == nil {
			t.Errorf("%s has no meta description", name)
			continue
		}
		d := string(m[1])
		if n := len([]rune(d)); n > 160 {
			t.Errorf("%s: a description of %d characters: %q", name, n, d)
		}
		for _, secret := range secrets {
			if strings.Contains(d, secret) {
				t.Errorf("%s: the description shows %q: %q", name, secret, d)
			}
		}
		seen[name] = d
	}
	for name, want := range map[string]string{
		"index.html":          "Test club: Games of correspondence chess",
		"state-finished.html": "Finished games of correspondence chess",
		"game-1.html":         "Chess game #1,",
		"game-1-2.html":       "The position after 2 moves.",
		"game-1-0.html":       "The start position.",
	} {
		if !strings.Contains(seen[name], want) {
			t.Errorf("%s: description %q, want it to say %q", name, seen[name], want)
		}
	}
	if strings.Contains(seen["game-1.html"], "The position after") {
		t.Errorf("the game's own page describes a ply: %q", seen["game-1.html"])
	}
}

// TestGzip: text is gzipped for a client that accepts it, to the same
// bytes once unpacked, with its own ETag that revalidates; pictures, range
// requests and clients that do not ask are served as they are.
func TestGzip(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	srv := httptest.NewServer(s.Handler(nil))
	defer srv.Close()
	// DisableCompression: the client neither asks for gzip nor unpacks
	// it, so the test sees what the server sends.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	do := func(method, path string, hdr ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	plain, plainBody := do("GET", "/game-1.html")
	if plain.Header.Get("Content-Encoding") != "" || !strings.Contains(plain.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("no Accept-Encoding: Content-Encoding %q, Vary %q", plain.Header.Get("Content-Encoding"), plain.Header.Get("Vary"))
	}
	for _, ae := range []string{"gzip", "br, gzip;q=0.8", "deflate, *"} {
		zipped, body := do("GET", "/game-1.html", "Accept-Encoding", ae)
		if zipped.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", ae, zipped.Header.Get("Content-Encoding"))
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		unpacked, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unpacked, plainBody) {
			t.Errorf("Accept-Encoding %q: unpacked %d bytes (%v), want the plain %d", ae, len(unpacked), err, len(plainBody))
		}
		if len(body) >= len(plainBody)/2 {
			t.Errorf("gzip made %d bytes of %d", len(body), len(plainBody))
		}
		etag := zipped.Header.Get("ETag")
		if etag == "" || etag == plain.Header.Get("ETag") {
			t.Errorf("the gzipped body's ETag %q, the plain one's %q: they must differ", etag, plain.Header.Get("ETag"))
		}
		if r, _ := do("GET", "/game-1.html", "Accept-Encoding", ae, "If-None-Match", etag); r.StatusCode != 304 || r.Header.Get("ETag") != etag {
			t.Errorf("revalidation with the gzipped ETag: %d, ETag %q", r.StatusCode, r.Header.Get("ETag"))
		}
	}
	for _, ae := range []string{"identity", "gzip;q=0", "br"} {
		if r, _ := do("GET", "/game-1.html", "Accept-Encoding", ae); r.Header.Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", ae, r.Header.Get("Content-Encoding"))
		}
	}
	if r, _ := do("GET", "/game-1-2.png", "Accept-Encoding", "gzip"); r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "" {
		t.Errorf("a PNG: %d, Content-Encoding %q", r.StatusCode, r.Header.Get("Content-Encoding"))
	}
	if r, b := do("GET", "/game-1.html", "Accept-Encoding", "gzip", "Range", "bytes=0-9"); r.StatusCode != 206 || r.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, plainBody[:10]) {
		t.Errorf("a range: %d, Content-Encoding %q, %q", r.StatusCode, r.Header.Get("Content-Encoding"), b)
	}
	if r, b := do("HEAD", "/game-1.html", "Accept-Encoding", "gzip"); r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "gzip" || len(b) != 0 {
		t.Errorf("HEAD: %d, Content-Encoding %q, %d bytes", r.StatusCode, r.Header.Get("Content-Encoding"), len(b))
	}
	// The index is several kilobytes of HTML: measured, not asserted
	// beyond "smaller by half" above.
	_, idx := do("GET", "/index.html")
	_, idxZ := do("GET", "/index.html", "Accept-Encoding", "gzip")
	t.Logf("index.html: %d bytes, %d gzipped; game-1.html: %d bytes", len(idx), len(idxZ), len(plainBody))
}

// TestTextContrast: every colour the pages write text in reads at 4.5:1
// or more on the page's background (WCAG 2.2, 1.4.3), the greyed "Next"
// of the last position included (it was #999, 2.7:1).
func TestTextContrast(t *testing.T) {
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	page := string(get(t, s, "game-1.html").Body)
	css := page[strings.Index(page, "<style>"):strings.Index(page, "</style>")]
	bg := regexp.MustCompile(`body\{[^}]*background:(#[0-9a-f]{6})`).FindStringSubmatch(css)
	if bg == nil {
		t.Fatalf("no page background in the style:\n%s", css)
	}
	rules := regexp.MustCompile(`([^{}]+)\{([^}]*)\}`).FindAllStringSubmatch(css, -1)
	n := 0
	for _, r := range rules {
		for _, m := range regexp.MustCompile(`(?:^|;)color:(#[0-9a-f]{3,6})`).FindAllStringSubmatch(r[2], -1) {
			n++
			if c := contrast(m[1], bg[1]); c < 4.5 {
				t.Errorf("%s: text %s on %s is %.2f:1, below 4.5:1", strings.TrimSpace(r[1]), m[1], bg[1], c)
			}
		}
	}
	if n < 3 {
		t.Errorf("only %d text colours found in the style", n)
	}
	if !strings.Contains(page, "<span>Next &gt;</span>") {
		t.Errorf("the last position's page has no greyed Next")
	}
}

// contrast is WCAG's contrast ratio of two #rgb or #rrggbb colours.
func contrast(a, b string) float64 {
	lum := func(hex string) float64 {
		hex = strings.TrimPrefix(hex, "#")
		if len(hex) == 3 {
			hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
		}
		var l [3]float64
		for i := range 3 {
			v, _ := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
			c := float64(v) / 255
			if c <= 0.04045 {
				l[i] = c / 12.92
			} else {
				l[i] = math.Pow((c+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	x, y := lum(a), lum(b)
	return (math.Max(x, y) + 0.05) / (math.Min(x, y) + 0.05)
}

// TestEventPagesDescribeAndRecord: an event's page has its description,
// and the record of one of its games on the web names the event and the
// round, as `referee export` does (one game, one record).
func TestEventPagesDescribeAndRecord(t *testing.T) {
	f := openEventFixture(t, false)
	s := site(t, f.fixture, web.PublicAll)
	page := string(get(t, s, "event-autumn.html").Body)
	if !strings.Contains(page, `<meta name="description" content="Event autumn at Test club: a round robin of Chess for 3 players`) {
		t.Errorf("the event page's description:\n%s", page[:min(len(page), 800)])
	}
	g := f.autumn.Games[0]
	pgn := string(get(t, s, "game-"+strconv.FormatInt(g.GameID, 10)+".pgn").Body)
	for _, want := range []string{`[Event "autumn"]`, `[Round "` + strconv.Itoa(g.Round) + `"]`, `[Board "` + strconv.Itoa(g.Board) + `"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("the web's record lacks %s:\n%s", want, pgn)
		}
	}
}

// BenchmarkGamePage serves a game's page as it is and gzipped, through
// the whole handler (ETag, headers, and the gzip writer for the second).
func BenchmarkGamePage(b *testing.B) {
	f := openFixture(b)
	h := site(b, f, web.PublicAll).Handler(nil)
	for _, ae := range []string{"", "gzip"} {
		b.Run("accept="+ae, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				req := httptest.NewRequest("GET", "/game-1.html", nil)
				if ae != "" {
					req.Header.Set("Accept-Encoding", ae)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				n = w.Body.Len()
			}
			b.ReportMetric(float64(n), "bytes/page")
		})
	}
}

package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"referee/internal/notation"
	"referee/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files and screenshots")

// midGame plays a fixed walk of n actions (die values fixed for Chec Toe).
func midGame(t *testing.T, v rules.Variant, n int) (rules.Position, []string) {
	t.Helper()
	p := v.Start()
	var sans []string
	die := 0
	for i := 0; i < n; i++ {
		for {
			r, ok := p.(rules.Roller)
			if !ok || !r.NeedsRoll() {
				break
			}
			die++
			next, err := r.Roll([]int{2, 3, 1, 4, 5}[die%5])
			if err != nil {
				t.Fatal(err)
			}
			p = next
		}
		legal := p.Legal()
		if len(legal) == 0 {
			break
		}
		m := legal[(i*11+5)%len(legal)]
		if r, ok := p.(rules.Roller); ok && r.DieState() != "-" && len(legal) > 1 {
			for _, x := range legal { // prefer a drop or move over pass/reroll so the board fills
				if x.Kind == rules.Drop || x.Kind == rules.Normal {
					m = x
					break
				}
			}
		}
		sans = append(sans, notation.SAN(p, m))
		next, err := p.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		p = next
	}
	for {
		r, ok := p.(rules.Roller)
		if !ok || !r.NeedsRoll() {
			break
		}
		p, _ = r.Roll(3)
	}
	return p, sans
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render -update, then review the file)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from its golden file; run with -update if the change is intended\n--- got\n%s", name, got)
	}
}

func mailFor(v rules.Variant, p rules.Position, sans []string, viewer rules.Color) Mail {
	return Mail{GameID: 17, Variant: v, Pos: p, Viewer: viewer,
		Status:   fmt.Sprintf("Game #17 - %s - move %d - %s to play", v.Title(), p.MoveNumber(), p.Turn()),
		Headline: fmt.Sprintf("%s played %s.", p.Turn().Other(), lastOr(sans, "nothing yet")), LastMove: lastOr(sans, ""), MoveList: sans, Relay: "Your move, friend.", RelayFrom: "Bob",
		Prompt: "It is your move.", Commands: []string{"draw", "resign", "board", "moves", "help"}, Example: firstLegal(p),
		Sections: []Section{{Title: "The rules in short", Body: Summary(v)}}, Footer: "Referee for game #17."}
}

func lastOr(s []string, d string) string {
	if len(s) == 0 {
		return d
	}
	return s[len(s)-1]
}

func firstLegal(p rules.Position) string {
	if l := p.Legal(); len(l) > 0 {
		return notation.SAN(p, l[0])
	}
	return ""
}

// TestGoldenBoards pins the text and HTML of every variant's start and of a
// mid-game position, for both viewers, and a whole board mail.
func TestGoldenBoards(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			start := v.Start()
			mid, sans := midGame(t, v, 12)
			golden(t, v.Name()+"-start.txt", Text(start, rules.White))
			golden(t, v.Name()+"-mid-white.txt", Text(mid, rules.White))
			golden(t, v.Name()+"-mid-black.txt", Text(mid, rules.Black))
			golden(t, v.Name()+"-mid.html", HTML(mid, rules.White))
			m := mailFor(v, mid, sans, mid.Turn())
			golden(t, v.Name()+"-mail.txt", m.Text())
			golden(t, v.Name()+"-mail.html", m.HTML())
			for _, text := range []string{Text(start, rules.White), Text(mid, rules.Black), m.Text()} {
				for _, line := range strings.Split(text, "\n") {
					if utf8.RuneCountInString(line) >= 78 {
						t.Errorf("line of %d characters: %q", utf8.RuneCountInString(line), line)
					}
					if v.Name() != "chectoe" {
						for _, r := range line {
							if r > 126 {
								t.Errorf("non-ASCII %q in %q", r, line)
								break
							}
						}
					}
				}
			}
		})
	}
}

func TestOrientation(t *testing.T) {
	// White sees rank 8 at the top and file a on the left; Black the
	// reverse: rank 1 at the top, file h on the left.
	p := rules.Chess().Start()
	w, b := strings.Split(Text(p, rules.White), "\n"), strings.Split(Text(p, rules.Black), "\n")
	if !strings.HasPrefix(strings.TrimSpace(w[0]), "a") || !strings.HasPrefix(strings.TrimSpace(w[2]), "8 |") {
		t.Errorf("White's view starts %q / %q", w[0], w[2])
	}
	if !strings.HasPrefix(strings.TrimSpace(b[0]), "h") || !strings.HasPrefix(strings.TrimSpace(b[2]), "1 |") {
		t.Errorf("Black's view starts %q / %q", b[0], b[2])
	}
	if !strings.Contains(b[2], "| R | N | B | K | Q |") {
		t.Errorf("Black's top rank reads %q (h1 first)", b[2])
	}
}

func TestHolesAndMarks(t *testing.T) {
	c := Text(rules.Cuarenta().Start(), rules.White)
	if !strings.Contains(c, "###") || !strings.Contains(c, "### squares are not part of the board") {
		t.Error("Cuarenta's dark squares are not drawn as holes")
	}
	tt := Text(rules.Toto40().Start(), rules.White)
	if !strings.Contains(tt, "*") || !strings.Contains(tt, "fighting line") {
		t.Error("Toto40's fighting line is not marked")
	}
	k := Text(rules.KleinChess().Start(), rules.White)
	if !strings.Contains(k, "twisted seam") || !strings.Contains(k, "P'") {
		t.Error("Klein's seam or the downward pawns are not shown")
	}
}

func TestPNG(t *testing.T) {
	for _, v := range rules.Variants() {
		p, _ := midGame(t, v, 8)
		b, err := PNG(p, rules.White)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", v.Name(), err)
		}
		w, h := PNGSize(p)
		if img.Bounds() != image.Rect(0, 0, w, h) {
			t.Errorf("%s: %v, want %dx%d", v.Name(), img.Bounds(), w, h)
		}
		again, _ := PNG(p, rules.White)
		if !bytes.Equal(b, again) {
			t.Errorf("%s: the PNG is not deterministic", v.Name())
		}
		if *update {
			os.MkdirAll("testdata/png", 0o755)
			os.WriteFile(filepath.Join("testdata", "png", v.Name()+".png"), b, 0o644)
		}
	}
}

// TestHTMLMailInChromium opens each variant's HTML mail in headless
// Chromium and checks that the board's column separators line up: in the
// screenshot, the '|' glyphs of different ranks share x positions only if
// the <pre> is drawn in a monospace font.
func TestHTMLMailInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, but CI must run this test (.ci/run installs it)")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser per variant")
	}
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			p, sans := midGame(t, v, 6)
			m := mailFor(v, p, sans, rules.White)
			dir := t.TempDir()
			shoot := func(name, style string) []int {
				page := filepath.Join(dir, name+".html")
				html := strings.Replace(HTML(p, rules.White), "<pre style=\"", "<pre style=\""+style, 1)
				os.WriteFile(page, []byte("<!DOCTYPE html><html><body style='margin:0;background:#fff'>"+html+"</body></html>"), 0o644)
				shot := filepath.Join(dir, name+".png")
				cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
					"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
					"--user-data-dir="+filepath.Join(dir, "profile-"+name), "--screenshot="+shot, "--window-size=900,1000", "file://"+page)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("chromium: %v\n%s", err, out)
				}
				f, err := os.Open(shot)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				img, err := png.Decode(f)
				if err != nil {
					t.Fatal(err)
				}
				return verticalRuns(img, 8*v.Board().Height())
			}
			mono := shoot("mono", "")
			// Negative control: the same board forced into a proportional font.
			prop := shoot("prop", "font-family: serif !important; ")
			if len(mono) < v.Board().Width()+1 || len(mono) <= len(prop) {
				t.Errorf("aligned columns: %d in the mail's <pre>, %d with a proportional font; want at least %d, and more than the proportional font", len(mono), len(prop), v.Board().Width()+1)
			}
			if *update {
				os.MkdirAll("testdata/screenshots", 0o755)
				full := filepath.Join(dir, "full.html")
				os.WriteFile(full, []byte(m.HTML()), 0o644)
				exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
					"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
					"--user-data-dir="+filepath.Join(dir, "profile2"), "--screenshot="+filepath.Join("testdata", "screenshots", v.Name()+".png"),
					"--window-size=800,1400", "file://"+full).Run()
			}
		})
	}
}

// verticalRuns returns the x positions where at least min dark pixels pile
// up: the '|' separators of the board's rows, which stand at the same x in
// every row only when the <pre> is drawn in a monospace font.
func verticalRuns(img image.Image, min int) []int {
	b := img.Bounds()
	var out []int
	for x := b.Min.X; x < b.Max.X; x++ {
		n := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0xA000 {
				n++
			}
		}
		if n >= min && (len(out) == 0 || x-out[len(out)-1] > 3) {
			out = append(out, x)
		}
	}
	return out
}

func TestMoveListText(t *testing.T) {
	// Issue 10: moves are numbered "1. e4 e5  2. Nf3", White and Black
	// alternating, and the list wraps at 72 characters between move pairs.
	long := make([]string, 40)
	for i := range long {
		long[i] = fmt.Sprintf("Nx%c%d", 'a'+i%8, i%8+1)
	}
	cases := []struct {
		name  string
		moves []string
		want  string
	}{
		{"none", nil, "Moves: none yet."},
		{"one ply", []string{"e4"}, "Moves: 1. e4"},
		{"pairs", []string{"e4", "e5", "Nf3"}, "Moves: 1. e4 e5  2. Nf3"},
	}
	for _, c := range cases {
		if got := MoveListText(c.moves); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	got := MoveListText(long)
	lines := strings.Split(got, "\n")
	if len(lines) < 3 {
		t.Fatalf("40 plies fit on %d lines; want wrapping:\n%s", len(lines), got)
	}
	for _, l := range lines {
		if len(l) > 72 || strings.HasSuffix(l, ".") || strings.HasPrefix(l, " ") {
			t.Errorf("badly wrapped line %q", l)
		}
	}
	if !strings.Contains(got, "20. Nxg7 Nxh8") {
		t.Errorf("move pair 20 is split or missing:\n%s", got)
	}
}

func TestRelayQuote(t *testing.T) {
	// STYLE.md: the opponent's message is relayed as `Bob writes: "..."`;
	// long or multi-line messages are indented under the name instead.
	cases := []struct{ relay, want string }{
		{"Nice move.", `Bob writes: "Nice move."`},
		{"Line one\nline two", "Bob writes:\n  Line one\n  line two"},
		{"   ", ""},
	}
	for _, c := range cases {
		if got := (Mail{Relay: c.relay, RelayFrom: "Bob"}).relayText(); got != c.want {
			t.Errorf("relay %q: got %q, want %q", c.relay, got, c.want)
		}
	}
}

// BenchmarkPNG draws every variant's mid-game board (12 plies in), as
// Black sees it, and reports the PNG's size in bytes.
func BenchmarkPNG(b *testing.B) {
	for _, v := range rules.Variants() {
		b.Run(v.Name(), func(b *testing.B) {
			t := &testing.T{}
			p, _ := midGame(t, v, 12)
			var n int
			for b.Loop() {
				out, err := PNG(p, rules.Black)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(n), "bytes/board")
		})
	}
}

func BenchmarkMailText(b *testing.B) {
	p := rules.Cuarenta().Start()
	m := Mail{Variant: p.Variant(), Pos: p, Status: "Game #1", Commands: []string{"help"}}
	for b.Loop() {
		_ = m.Text()
		_ = m.HTML()
	}
}

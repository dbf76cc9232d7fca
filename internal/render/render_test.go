package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"referee/internal/browsertest"
	"referee/internal/notation"
	"referee/internal/rules"
	"referee/internal/variantfile"
)

var update = flag.Bool("update", false, "rewrite the golden files and screenshots")

// fileVariantsSrc are variants of an organiser's file (issue 43) that the
// mail must show as well as the referee's own: a 10x8 board whose new
// pieces have no drawing (letters on discs), the largest board a file may
// ask for, and hands.
const fileVariantsSrc = `
[capa:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = qrbnac
castlingKingsideFile = i
castlingQueensideFile = c

[big16:chess]
maxFile = 16
maxRank = 16
archbishop = a
chancellor = c
amazon = m
castling = false
startFen = rnbqkbnrmmrnbcar/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/RNBQKBNRMMRNBCAR w - - 0 1
promotionRank = 16
promotionPieceTypes = qrbnacm

[zh:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
pieceDrops = true
capturesToHand = true
`

// mailVariants are the referee's own variants and those of fileVariantsSrc.
func mailVariants(t *testing.T) []rules.Variant {
	t.Helper()
	vs, errs := variantfile.Parse([]byte(fileVariantsSrc)).Variants()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return append(rules.Variants(), vs...)
}

// midGame plays a fixed walk of n actions (die values fixed for Chec Toe).
func midGame(t *testing.T, v rules.Variant, n int) (rules.Position, []string) {
	p, sans, _ := midGameLast(t, v, n)
	return p, sans
}

// midGameLast is midGame that also returns the last action played.
func midGameLast(t *testing.T, v rules.Variant, n int) (rules.Position, []string, rules.Move) {
	t.Helper()
	p := v.Start()
	var sans []string
	var last rules.Move
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
		last = m
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
	return p, sans, last
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
		Headline: fmt.Sprintf("%s played %s.", p.Turn().Other(), lastOr(sans, "nothing yet")), LastMove: lastOr(sans, ""), MoveList: Alternating(sans), Relay: "Your move, friend.", RelayFrom: "Bob",
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

// TestPNG draws every variant's board 8 actions in, with the last
// action's squares highlighted, for each viewer, and compares the pictures
// with testdata/png (a few pixels may differ: anti-aliasing is floating
// point). Run with -update and look at the files to accept a change.
func TestPNG(t *testing.T) {
	for _, v := range rules.Variants() {
		for _, viewer := range []rules.Color{rules.White, rules.Black} {
			name := fmt.Sprintf("%s-%s.png", v.Name(), strings.ToLower(viewer.String()))
			t.Run(name, func(t *testing.T) {
				p, _, last := midGameLast(t, v, 8)
				opt := Options{LastMove: MoveSquares(last)}
				b, err := PNGWith(p, viewer, opt)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				w, h := PNGSize(p)
				if img.Bounds() != image.Rect(0, 0, w, h) {
					t.Errorf("%v, want %dx%d", img.Bounds(), w, h)
				}
				again, _ := PNGWith(p, viewer, opt)
				if !bytes.Equal(b, again) {
					t.Error("the PNG is not deterministic")
				}
				goldenPNG(t, name, b)
			})
		}
		if v.Name() == "chectoe" { // a re-roll, then a void six
			t.Run("chectoe-die.png", func(t *testing.T) {
				p, err := v.ParsePosition("4/1N2/1b2/4[PBRpnr] w r63 - 3")
				if err != nil {
					t.Fatal(err)
				}
				b, err := PNG(p, rules.Black)
				if err != nil {
					t.Fatal(err)
				}
				goldenPNG(t, "chectoe-die.png", b)
			})
		}
		if handVariant(v.Start()) { // the hands are full only at the start
			t.Run(v.Name()+"-start.png", func(t *testing.T) {
				b, err := PNG(v.Start(), rules.White)
				if err != nil {
					t.Fatal(err)
				}
				goldenPNG(t, v.Name()+"-start.png", b)
			})
		}
	}
}

// goldenPNG compares a picture with testdata/png/name: at most 0.2% of the
// pixels may differ, by at most 48 in a channel.
func goldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "png", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render -update, then look at the picture)", err)
	}
	want, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(got))
	if img.Bounds() != want.Bounds() {
		t.Fatalf("%s is %v, its golden file %v", name, img.Bounds(), want.Bounds())
	}
	bad := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if colorDist(img.At(x, y), want.At(x, y)) > 48 {
				bad++
			}
		}
	}
	if bad*500 > b.Dx()*b.Dy() {
		out := filepath.Join(t.TempDir(), name)
		os.WriteFile(out, got, 0o644)
		t.Errorf("%s: %d pixels differ from its golden file (new picture: %s); run with -update if the change is intended", name, bad, out)
	}
}

// colorDist is the largest difference of two colours in one channel, 0..255.
func colorDist(a, b color.Color) int {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := 0
	for _, p := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}} {
		d = max(d, abs(int(p[0]>>8)-int(p[1]>>8)))
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPNGSquares checks the colours of single squares in the picture: the
// last move's squares are tinted (and only with the option), holes are grey
// and hatched rather than a board colour, and Toto40's line is red.
func TestPNGSquares(t *testing.T) {
	chess := rules.Chess().Start()
	e4 := movePlayed(t, chess, "e4")
	after, _ := chess.Play(e4)
	cuarenta := rules.Cuarenta().Start()
	toto := rules.Toto40().Start()
	line := func(moves ...string) rules.Position {
		p := rules.Chess().Start()
		for _, san := range moves {
			p, _ = p.Play(movePlayed(t, p, san))
		}
		return p
	}
	mated := line("f3", "e5", "g4", "Qh4")
	checked := line("e4", "f5", "Qh5")
	sq := func(p rules.Position, s string) rules.Square {
		q, ok := p.Variant().Board().ParseSquare(s)
		if !ok && len(s) == 2 { // a hole: ParseSquare refuses it
			q = p.Variant().Board().Sq(int(s[0]-'a'), int(s[1]-'1'))
		}
		return q
	}
	cases := []struct {
		name   string
		p      rules.Position
		viewer rules.Color
		opt    Options
		square string
		want   color.Color
	}{
		{"e2 after e4, highlighted", after, rules.White, Options{LastMove: MoveSquares(e4)}, "e2", blend(lightSq, lastMove, 0.5)},
		{"e4 after e4, highlighted", after, rules.White, Options{LastMove: MoveSquares(e4)}, "e4", blend(lightSq, lastMove, 0.5)},
		{"e4 after e4, Black's view", after, rules.Black, Options{LastMove: MoveSquares(e4)}, "e4", blend(lightSq, lastMove, 0.5)},
		{"d4 is not part of e4", after, rules.White, Options{LastMove: MoveSquares(e4)}, "d4", darkSq},
		{"e2 without options", after, rules.White, Options{}, "e2", lightSq},
		{"a1 is a light square in Cuarenta? no, a hole", cuarenta, rules.White, Options{}, "a1", holeSq},
		{"b1 is a Cuarenta square", cuarenta, rules.White, Options{}, "b1", lightSq},
		{"Toto40's a1 is a hole", toto, rules.White, Options{}, "a1", holeSq},
		{"Toto40's fighting line is framed in red", toto, rules.White, Options{}, "a10", markSq},
		{"a king in check", checked, rules.Black, Options{}, "e8", blend(lightSq, checkSq, 0.7)},
		{"a mated king", mated, rules.White, Options{}, "e1", mateSq},
		{"the mating queen's square is not marked", mated, rules.White, Options{}, "h4", darkSq},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := PNGWith(c.p, c.viewer, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			img, _ := png.Decode(bytes.NewReader(raw))
			x, y := squarePixel(c.p, c.viewer, sq(c.p, c.square))
			if got := img.At(x, y); colorDist(got, c.want) > 2 {
				t.Errorf("%s at (%d,%d) is %v, want %v", c.square, x, y, got, c.want)
			}
		})
	}
}

func TestToto40LineKeepsTheChequer(t *testing.T) {
	// Issue 33: the Toto40 picture read as bands by distance from the line.
	// The squares are a light/dark chequer like any board (orthogonal
	// neighbours differ); the line's squares keep their chequer colour
	// inside a red frame.
	p := rules.Toto40().Start()
	b := p.Variant().Board()
	raw, err := PNG(p, rules.White)
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(raw))
	l := layoutOf(p)
	for _, name := range []string{"a10", "b9", "c8", "e6", "h3", "a11", "b10", "d8"} {
		sq, _ := b.ParseSquare(name)
		if p.At(sq) != rules.NoPiece {
			continue
		}
		x, y := squarePixel(p, rules.White, sq)
		inner := img.At(x+l.cell/2-3, y+l.cell/2) // the middle of the empty square
		want := color.Color(darkSq)
		if (b.File(sq)+b.Rank(sq))%2 == 1 {
			want = lightSq
		}
		if colorDist(inner, want) > 2 {
			t.Errorf("%s's middle is %v, want the chequer's %v", name, inner, want)
		}
	}
}

// squarePixel is a pixel near the top-left corner of sq's cell, where no
// piece reaches and the hatching of a hole leaves the grey.
func squarePixel(p rules.Position, viewer rules.Color, sq rules.Square) (int, int) {
	b := p.Variant().Board()
	files, ranks := order(b, viewer)
	col, row := 0, 0
	for i, f := range files {
		if f == b.File(sq) {
			col = i
		}
	}
	for i, r := range ranks {
		if r == b.Rank(sq) {
			row = i
		}
	}
	l := layoutOf(p)
	x, y := l.margin+col*l.cell+3, l.board+l.margin+row*l.cell+1
	if (x+y)%8 < 2 {
		x += 3
	}
	return x, y
}

func movePlayed(t *testing.T, p rules.Position, san string) rules.Move {
	t.Helper()
	m, err := notation.Parse(p, san)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGlyphs checks that every piece of every variant is drawn as a
// drawing of its own rather than the lettered disc kept for unknown
// pieces, and that no two pieces of one game look alike: their bodies
// differ in at least 4% of the cell.
func TestGlyphs(t *testing.T) {
	for _, v := range rules.Variants() {
		n := v.(pieceNamer)
		masks := map[byte]*image.Alpha{}
		for _, c := range n.PieceLetters() {
			g, ok := glyphFor(n.PieceName(c), c)
			if !ok {
				t.Errorf("%s: the %s (%c) has no drawing", v.Name(), n.PieceName(c), c)
				continue
			}
			masks[c] = rasterGlyph(g, cellPx).body
		}
		for a, ma := range masks {
			for b, mb := range masks {
				if a >= b {
					continue
				}
				diff := 0
				for i := range ma.Pix {
					if abs(int(ma.Pix[i])-int(mb.Pix[i])) > 128 {
						diff++
					}
				}
				if diff*25 < len(ma.Pix) {
					t.Errorf("%s: %c and %c look alike (%d pixels differ)", v.Name(), a, b, diff)
				}
			}
		}
	}
	if _, ok := glyphFor("dragon", 'D'); ok {
		t.Error("an unknown piece has a drawing")
	}
}

// TestPieceSheet draws every drawing at two sizes, White and Black on both
// square colours, into testdata/png/pieces.png, for review.
func TestPieceSheet(t *testing.T) {
	var names []string
	for name, g := range glyphs {
		if len(g.Body) > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	const big, small = 96, 48
	img := image.NewRGBA(image.Rect(0, 0, big*len(names), 2*big+2*small))
	for i, name := range names {
		g, _ := glyphFor(name, 0)
		for row, size := range []int{big, big, small, small} {
			y := []int{0, big, 2 * big, 2*big + small}[row]
			for k := 0; k < big/size; k++ {
				r := image.Rect(i*big+k*size, y, i*big+(k+1)*size, y+size)
				c := lightSq
				if (i+row+k)%2 == 0 {
					c = darkSq
				}
				draw.Draw(img, r, &image.Uniform{c}, image.Point{}, draw.Src)
				drawGlyph(img, r.Min, rasterGlyph(g, size), (row+k)%2 == 1)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	goldenPNG(t, "pieces.png", buf.Bytes())
}

// mailLayout is what the page measured in one mail's frame.
type mailLayout struct {
	ScrollW, ClientW, Height int     // the document's scrolling width, the viewport's width, the height
	ImgLeft, ImgRight        float64 // the picture's edges
	ImgW, ImgH               float64 // as shown
	NatW, NatH               int     // as drawn (0: the picture did not load)
	PreShown                 int     // 1 when the text diagram is visible
	Columns                  int     // in a board's <pre>: x positions of '|' shared by every rank
}

// screenWidths are the widths the HTML mail is checked at: a small phone
// and a desktop mail client's reading pane.
var screenWidths = []int{360, 900}

// TestHTMLMailInChromium lays out every variant's HTML mail in headless
// Chromium at 360 and 900 pixels wide, the picture in place of
// cid:board.png and a section of long hex words (a signature, a
// commitment), and checks that the mail is phone-ready: nothing is wider
// than the screen (no sideways scrolling), the picture keeps its
// proportions and is shrunk only when the screen is narrower than it, and
// only one board shows (the text diagram is collapsed; opened, it scrolls
// within itself), and the text diagram's columns line up, which they do only
// in a monospace font (the same board in a serif font is the negative
// control of that). A negative control,
// the same mail without its max-width and overflow-wrap styles, must
// overflow at 360 pixels. With -update it keeps screenshots of both widths
// in testdata/screens for review.
func TestHTMLMailInChromium(t *testing.T) {
	bin := browsertest.Bin(t)
	dir := t.TempDir()
	variants := mailVariants(t)
	hex := strings.Repeat("3f9a0c57e1d2b48a", 8)
	pages := map[string]string{} // by variant
	var harness strings.Builder
	harness.WriteString(`<!DOCTYPE html><html><body style="margin:0">`)
	frame := func(id string, w int, page string) {
		fmt.Fprintf(&harness, `<iframe id="%s" style="border:0;display:block" width="%d" height="600" srcdoc="%s"></iframe>`, id, w, html.EscapeString(page))
	}
	for _, v := range variants {
		p, sans, last := midGameLast(t, v, 6)
		m := mailFor(v, p, sans, rules.White)
		m.Sections = append(m.Sections, Section{Title: "The die witness",
			Body: "Commitment: sha256:" + hex[:64] + "\nSignature: " + hex})
		pic, err := PNGWith(p, rules.White, Options{LastMove: MoveSquares(last)})
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, v.Name()+".png"), pic, 0o644)
		page := strings.Replace(m.HTML(), "cid:board.png", v.Name()+".png", 1)
		pages[v.Name()] = page
		for _, w := range screenWidths {
			frame(fmt.Sprintf("%s-%d", v.Name(), w), w, page)
		}
		control := strings.NewReplacer("max-width:100%; height:auto;", "", "overflow-wrap: anywhere; word-break: break-word;", "").Replace(page)
		if control == page {
			t.Fatal("the negative control is the mail itself: the mail's styles changed, update the control")
		}
		frame(v.Name()+"-control", 360, control)
		frame(v.Name()+"-open", 360, strings.Replace(page, "<details ", "<details open ", 1))
		board := "<!DOCTYPE html><html><body style='margin:0;background:#fff'>" + HTML(p, rules.White) + "</body></html>"
		frame(v.Name()+"-pre", 900, board)
		// Negative control: the same board forced into a proportional font.
		frame(v.Name()+"-pre-serif", 900, strings.Replace(board, "<pre style=\"", "<pre style=\"font-family: serif !important; ", 1))
	}
	harness.WriteString(`<pre id="result"></pre><script>
// columns counts the x positions of '|' that every rank of the board shares.
function columns(d) {
  var text = d.querySelector("pre").firstChild, off = 0, rows = [];
  text.data.split("\n").forEach(function (l) {
    if (/^ *\d+ \|/.test(l)) {
      var xs = [];
      for (var i = 0; i < l.length; i++) {
        if (l[i] !== "|") continue;
        var r = d.createRange();
        r.setStart(text, off + i);
        r.setEnd(text, off + i + 1);
        xs.push(Math.round(r.getBoundingClientRect().left));
      }
      rows.push(xs);
    }
    off += l.length + 1;
  });
  return rows[0].filter(function (x) { return rows.every(function (r) { return r.indexOf(x) >= 0; }); }).length;
}
window.addEventListener("load", function () {
  var out = {};
  document.querySelectorAll("iframe").forEach(function (f) {
    if (/-pre(-serif)?$/.test(f.id)) {
      out[f.id] = {Columns: columns(f.contentDocument)};
      return;
    }
    var d = f.contentDocument, img = d.querySelector("img"), r = img.getBoundingClientRect();
    out[f.id] = {ScrollW: d.documentElement.scrollWidth, ClientW: d.documentElement.clientWidth,
      Height: d.documentElement.scrollHeight, ImgLeft: r.left, ImgRight: r.right, ImgW: r.width, ImgH: r.height,
      NatW: img.naturalWidth, NatH: img.naturalHeight, PreShown: d.querySelector("pre").checkVisibility() ? 1 : 0};
  });
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>`)
	hpath := filepath.Join(dir, "harness.html")
	os.WriteFile(hpath, []byte(harness.String()), 0o644)
	dom := string(browsertest.Run(t, bin, "--dump-dom", "--virtual-time-budget=10000", "--window-size=1200,900", "file://"+hpath))
	i, j := strings.Index(dom, `<pre id="result">`), strings.Index(dom, "</pre><script>")
	if i < 0 || j < i {
		t.Fatalf("no measurements in the page:\n%.2000s", dom)
	}
	var got map[string]mailLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(dom[i+len(`<pre id="result">`):j])), &got); err != nil {
		t.Fatalf("reading the measurements: %v", err)
	}
	for _, v := range variants {
		for _, w := range screenWidths {
			id := fmt.Sprintf("%s-%d", v.Name(), w)
			t.Run(id, func(t *testing.T) {
				g, ok := got[id]
				if !ok {
					t.Fatal("not measured")
				}
				if g.NatW == 0 {
					t.Fatal("the picture did not load")
				}
				if g.ScrollW > w || g.ClientW > w {
					t.Errorf("the mail is %d pixels wide on a %d-pixel screen: it scrolls sideways", g.ScrollW, w)
				}
				if g.ImgLeft < 0 || g.ImgRight > float64(g.ClientW) {
					t.Errorf("the picture spans x %.0f..%.0f, outside the screen's 0..%d: files are cut off", g.ImgLeft, g.ImgRight, g.ClientW)
				}
				if ratio, want := g.ImgH/g.ImgW, float64(g.NatH)/float64(g.NatW); ratio < want*0.99 || ratio > want*1.01 {
					t.Errorf("the picture is shown %.0fx%.0f, drawn %dx%d: it is stretched", g.ImgW, g.ImgH, g.NatW, g.NatH)
				}
				if room := float64(min(g.ClientW-16, mailMaxWidth)); g.ImgW < min(float64(g.NatW), room)-1 {
					t.Errorf("the picture is shown %.0f pixels wide, drawn %d, with %.0f available: shrunk for nothing", g.ImgW, g.NatW, room)
				}
				if g.PreShown != 0 {
					t.Error("the text diagram shows as well as the picture: two boards")
				}
			})
		}
		if o := got[v.Name()+"-open"]; o.PreShown != 1 || o.ScrollW > 360 {
			t.Errorf("%s: with the text diagram opened at 360 pixels, shown %d, page width %d; want it shown and the page no wider (the <pre> scrolls by itself)", v.Name(), o.PreShown, o.ScrollW)
		}
		// The text diagram lines up only in a monospace font.
		mono, prop := got[v.Name()+"-pre"].Columns, got[v.Name()+"-pre-serif"].Columns
		if mono < v.Board().Width()+1 || mono <= prop {
			t.Errorf("%s: aligned columns: %d in the mail's <pre>, %d with a proportional font; want at least %d, and more than the proportional font", v.Name(), mono, prop, v.Board().Width()+1)
		}
		if c := got[v.Name()+"-control"]; c.ScrollW <= 360 {
			t.Errorf("%s: the negative control (no max-width, no overflow-wrap) fits in 360 pixels (%d): the check proves nothing", v.Name(), c.ScrollW)
		}
	}
	if *update {
		os.RemoveAll(filepath.Join("testdata", "screens"))
		os.MkdirAll(filepath.Join("testdata", "screens"), 0o755)
		for _, v := range variants {
			page := filepath.Join(dir, v.Name()+".html")
			os.WriteFile(page, []byte(pages[v.Name()]), 0o644)
			for _, w := range screenWidths {
				h := min(got[fmt.Sprintf("%s-%d", v.Name(), w)].Height, 3000)
				shot, _ := filepath.Abs(filepath.Join("testdata", "screens", fmt.Sprintf("%s-%d.png", v.Name(), w)))
				browsertest.Run(t, bin, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h), "file://"+page)
			}
		}
	}
}

func TestMoveListText(t *testing.T) {
	// Issue 10: moves are numbered "1. e4 e5  2. Nf3", White and Black
	// alternating, and the list wraps at 72 characters between move pairs.
	// The numbers are the turns' own (docs/rules/chectoe.md: Chec Toe's move number
	// goes up after Black's turn, and a re-roll and the move after it are
	// one turn), so a turn is never split across numbers or players.
	long := make([]string, 40)
	for i := range long {
		long[i] = fmt.Sprintf("Nx%c%d", 'a'+i%8, i%8+1)
	}
	w, b := rules.White, rules.Black
	cases := []struct {
		name  string
		moves []Played
		want  string
	}{
		{"none", nil, "Moves: none yet."},
		{"one ply", Alternating([]string{"e4"}), "Moves: 1. e4"},
		{"pairs", Alternating([]string{"e4", "e5", "Nf3"}), "Moves: 1. e4 e5  2. Nf3"},
		{"Black re-rolls", []Played{{"P@b2", w, 1}, {"reroll", b, 1}, {"N@c3", b, 1}, {"B@a1", w, 2}},
			"Moves: 1. P@b2 1... reroll N@c3  2. B@a1"},
		{"White re-rolls", []Played{{"reroll", w, 1}, {"N@c3", w, 1}, {"P@b2", b, 1}, {"pass", w, 2}, {"pass", b, 2}},
			"Moves: 1. reroll N@c3 1... P@b2  2. pass pass"},
		{"the apocalypse roll and the move after it", []Played{{"pass", w, 4}, {"roll", b, 4}, {"Rd4", b, 4}},
			"Moves: 4. pass 4... roll Rd4"},
		{"a game set up with Black to move", []Played{{"e5", b, 30}, {"Nf3", w, 31}}, "Moves: 30... e5  31. Nf3"},
	}
	for _, c := range cases {
		if got := MoveListText(c.moves); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	got := MoveListText(Alternating(long))
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
// BenchmarkPNG draws a mid-game picture of every variant, as the referee
// does: with one Painter kept from picture to picture ("kept"), and, for
// comparison, with a new Painter for each picture ("fresh").
func BenchmarkPNG(b *testing.B) {
	for _, v := range rules.Variants() {
		for _, kept := range []bool{true, false} {
			name := v.Name() + "/fresh"
			if kept {
				name = v.Name() + "/kept"
			}
			b.Run(name, func(b *testing.B) {
				benchPNG(b, v, kept)
			})
		}
	}
}

func benchPNG(b *testing.B, v rules.Variant, kept bool) {
	t := &testing.T{}
	p, _ := midGame(t, v, 12)
	var n int
	var pt Painter
	for b.Loop() {
		if !kept {
			pt = Painter{}
		}
		out, err := pt.PNG(p, rules.Black, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes/board")
}

func BenchmarkMailText(b *testing.B) {
	p := rules.Cuarenta().Start()
	m := Mail{Variant: p.Variant(), Pos: p, Status: "Game #1", Commands: []string{"help"}}
	for b.Loop() {
		_ = m.Text()
		_ = m.HTML()
	}
}

func TestHTMLMoveListFlows(t *testing.T) {
	// Issue 33: the HTML move list kept the text part's hard line breaks
	// and read badly at 360 px. It flows with the screen; a move never
	// parts from its number.
	var sans []string
	for range 20 {
		sans = append(sans, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	m := Mail{Pos: rules.Chess().Start(), MoveList: Alternating(sans)}
	h := m.moveListHTML()
	if strings.Contains(h, "\n") || strings.Contains(h, "<br") || strings.Contains(h, "pre-wrap") {
		t.Errorf("the HTML move list has hard line breaks:\n%s", h)
	}
	if !strings.Contains(h, `<span style="white-space:nowrap; margin-right:0.5em">40. Ng1 Ng8</span>`) {
		t.Errorf("a full move is not kept on one line:\n%s", h)
	}
	if !strings.Contains(MoveListText(m.MoveList), "\n") {
		t.Errorf("the text part's list should still wrap at 72")
	}
}

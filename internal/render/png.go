package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"referee/internal/rules"
)

// Picture geometry, in pixels.
const (
	cellPx   = 48 // a square; small boards get bigger ones (see layout)
	marginPx = 28
	// marginNarrow is the margin of a board with one-digit ranks that
	// needs the width for its squares (Cuarenta).
	marginNarrow = 20
	captionPx    = 17 // one caption line under the board
	handPx       = 38 // one hand: a row of small pieces
	handPiece    = 34 // a piece in hand
	diePx        = 40 // the die's row
	dieFace      = 30 // one face of the die
)

// Colours, as 0xRRGGBB.
const (
	bg         rgb = 0xfaf8f2
	lightSq    rgb = 0xeedcb4
	darkSq     rgb = 0xb58863
	markSq     rgb = 0xd96c4a
	holeSq     rgb = 0xc9c9c9 // not part of the board: grey, hatched
	holeHatch  rgb = 0xb0b0b0
	lastMove   rgb = 0xf2d43a // blended over the last move's squares
	checkSq    rgb = 0xe8413a // blended over the square of a king in check
	mateSq     rgb = 0xb3121f // the square of a mated king
	ink        rgb = 0x222222
	whitePiece rgb = 0xfbfaf6
	whiteLine  rgb = 0x1c1c1c
	blackPiece rgb = 0x2a2a2a
	blackLine  rgb = 0xf3efe4
	seamInk    rgb = 0x2a6fdb
	downInk    rgb = 0xd02020
	dieInk     rgb = 0xffffff
)

// rgb is a colour written 0xRRGGBB.
type rgb uint32

// RGBA implements color.Color.
func (c rgb) RGBA() (r, g, b, a uint32) {
	return color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff}.RGBA()
}

// Options are what a picture shows beyond the position.
type Options struct {
	// LastMove lists the squares the last action touched (see
	// MoveSquares); they are tinted yellow. Squares not on the board are
	// ignored.
	LastMove []rules.Square
}

// MoveSquares returns the squares a move touches, to highlight: its origin
// and destination, a drop's square, a deployment's squares, or none for a
// command (pass, re-roll).
func MoveSquares(m rules.Move) []rules.Square {
	switch m.Kind {
	case rules.Deploy:
		var out []rules.Square
		for _, pl := range m.Place[:m.NPlace] {
			out = append(out, pl.To)
		}
		return out
	case rules.Reroll, rules.Roll, rules.Pass:
		return nil
	}
	var out []rules.Square
	if m.From != rules.NoSquare && m.From != m.To {
		out = append(out, m.From)
	}
	return append(out, m.To)
}

// layout places the picture's rows: the opponent's hand above the board,
// the viewer's hand and the die under it, then the captions.
type layout struct {
	w, h      int
	cell      int // a square's side
	margin    int // the room for the coordinates on each side of the board
	topHand   int // y of the hand row above the board, or -1
	board     int // y of the board's frame (coordinates included)
	boardH    int // the frame's height
	lowHand   int // y of the hand row under the board, or -1
	die       int // y of the die's row, or -1
	captions  int // y of the first caption line
	nCaptions int
}

func layoutOf(p rules.Position) layout {
	b := p.Variant().Board()
	l := layout{topHand: -1, lowHand: -1, die: -1}
	l.cell = max(cellPx, min(72, 360/b.Width())) // Chec Toe's 4x4 board: 72
	if 2*len(b.Squares()) <= b.Size() {
		// Boards that are half holes (Cuarenta's 40 light squares of 81,
		// Toto40's staircase): the picture is shrunk to a phone's width
		// all the same, so its squares get more pixels, to stay sharp
		// on the screens that have them.
		l.cell = max(l.cell, 64)
	}
	l.margin = marginPx
	if 2*len(b.Squares()) <= b.Size() && b.Height() <= 9 && b.Width() >= 9 {
		// Cuarenta's nine files: every pixel of width the coordinates do
		// not need goes to the squares (one-digit ranks need less room).
		l.margin = marginNarrow
	}
	l.w = 2*l.margin + b.Width()*l.cell
	y := 0
	if hands(p) {
		l.topHand = y
		y += handPx
	}
	l.board = y
	l.boardH = 2*l.margin + b.Height()*l.cell
	y += l.boardH
	if hands(p) {
		l.lowHand = y
		y += handPx
		most := max(len(p.Hand(rules.White)), len(p.Hand(rules.Black)), 4)
		l.w = max(l.w, handLabelPx+most*handPiece+6)
	}
	if _, ok := p.(rules.Roller); ok {
		l.die = y
		y += diePx
	}
	l.captions = y
	l.nCaptions = len(captions(p))
	l.h = y + captionPx*l.nCaptions
	if l.nCaptions > 0 {
		l.h += 4
	}
	return l
}

// handLabelPx is the room for "Black's hand" before the pieces.
const handLabelPx = 116

// hands reports whether the picture shows the hands: in games with drops,
// or whenever a hand holds a piece.
func hands(p rules.Position) bool {
	return handVariant(p) || len(p.Hand(rules.White)) > 0 || len(p.Hand(rules.Black)) > 0
}

// PNGSize returns the picture's width and height for position p: the
// board with a margin for coordinates on every side, a row for each hand
// in games with drops, a row for the die in games with one, and one line
// per caption (wrap hints, seam, downward pawns, holes, marked squares).
func PNGSize(p rules.Position) (int, int) {
	l := layoutOf(p)
	return l.w, l.h
}

// captions are the short hints drawn under the picture, from the board's
// properties (never from the variant's name).
func captions(p rules.Position) []string {
	b := p.Variant().Board()
	last := string(rune('a' + b.Width() - 1))
	var out []string
	switch {
	case b.WrapsFiles() && b.WrapsRanks():
		out = append(out, fmt.Sprintf("wraps: rank %d<->1, file %s<->a", b.Height(), last))
	case b.WrapsRanks():
		out = append(out, fmt.Sprintf("wraps: rank %d<->1", b.Height()))
	case b.WrapsFiles():
		out = append(out, fmt.Sprintf("wraps: file %s<->a", last))
	}
	if s := b.KleinSeam(); s > 0 {
		out = append(out, fmt.Sprintf("blue seam %d|%d mirrors files", s, s+1))
	}
	if len(b.Squares()) < b.Size() {
		out = append(out, "grey hatched: not part of the board")
	}
	for _, sq := range b.Squares() {
		if p.At(sq).Down() {
			out = append(out, "red tab: pawn moving down")
			break
		}
	}
	if _, ok := p.Variant().(Marker); ok {
		out = append(out, "red frames: "+markName(p.Variant()))
	}
	if _, mate, ok := royalInCheck(p); ok {
		if mate {
			out = append(out, "dark red: the king is checkmated")
		} else {
			out = append(out, "red: the king is in check")
		}
	}
	return out
}

// royalInCheck returns the square of the side to move's king when it is
// in check, and whether it is mated, in games with check.
func royalInCheck(p rules.Position) (rules.Square, bool, bool) {
	if !p.Variant().HasCheck() || !p.InCheck() {
		return rules.NoSquare, false, false
	}
	for _, sq := range p.Variant().Board().Squares() {
		if pc := p.At(sq); pc != rules.NoPiece && pc.Color() == p.Turn() && pc.Letter() == 'K' {
			res := p.Result()
			return sq, res.Over && !res.Draw && res.Winner != p.Turn(), true
		}
	}
	return rules.NoSquare, false, false
}

// markName is a short name for the marked squares, taken from the first
// words of the variant's mark legend ("* marks the fighting line (...)").
func markName(v rules.Variant) string {
	m, ok := v.(Marker)
	if !ok {
		return ""
	}
	s := m.MarkLegend()
	if i := strings.Index(s, "marks the "); i >= 0 {
		s = s[i+len("marks the "):]
	}
	if i := strings.IndexAny(s, "(:.,"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// PNG draws the board for viewer with no options: see PNGWith.
func PNG(p rules.Position, viewer rules.Color) ([]byte, error) {
	return PNGWith(p, viewer, Options{})
}

// PNGWith draws one picture with a Painter of its own: see Painter.PNG.
// A program that draws many pictures keeps one Painter instead.
func PNGWith(p rules.Position, viewer rules.Color, o Options) ([]byte, error) {
	return new(Painter).PNG(p, viewer, o)
}

// Painter draws board pictures. It keeps what one picture can lend the
// next: the pieces already rasterised at each size, and the pixel and
// encoder buffers; with Keep, the finished pictures too. It is safe for
// concurrent use, and the zero value is ready to use.
type Painter struct {
	// Keep is how many bytes of finished pictures the Painter keeps, to
	// give a picture it drew before again without drawing it (see
	// pictures.go for what a picture is kept under); 0 keeps none.
	Keep int

	mu     sync.Mutex
	kept   pictures
	glyphs map[glyphKey]glyphMasks
	tiles  map[tileKey]*image.RGBA
	tileB  int // the bytes the tiles take, at most tileBudget
	// tileMax, when not 0, replaces tileBudget (for tests).
	tileMax int
	rgba    sync.Pool // *[]byte: the pixels of the full-colour drawing
	pal     sync.Pool // *[]byte: the pixels of the paletted picture
	runs    sync.Pool // *[]colourRun: the picture's runs of one colour
	enc     encoderBuffers
}

// glyphKey names a rasterised piece: its drawing's name (or letter) and size.
type glyphKey struct {
	name   string
	letter byte
	size   int
}

// glyph returns g rasterised at size, from the cache when it was before.
func (pt *Painter) glyph(k glyphKey, g glyph) glyphMasks {
	pt.mu.Lock()
	gm, ok := pt.glyphs[k]
	pt.mu.Unlock()
	if ok {
		return gm
	}
	gm = rasterGlyph(g, k.size) // outside the lock: the masks are never changed once made
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.glyphs == nil {
		pt.glyphs = map[glyphKey]glyphMasks{}
	}
	pt.glyphs[k] = gm
	return gm
}

// tileKey names a piece drawn over a colour.
type tileKey struct {
	glyphKey
	black bool
	under color.RGBA
}

// tileBudget bounds the memory the kept tiles take. One variant's pieces
// over its square colours are about a hundred tiles of 9 KB (20 KB on the
// small boards' larger squares); with every variant in play the tiles
// would take about 10 MB, so past the budget a tile is drawn for the
// picture and not kept. The picture is the same either way.
const tileBudget = 4 << 20

// tile returns the piece k names, made by build the first time; tiles are
// never changed once made.
func (pt *Painter) tile(k tileKey, build func() *image.RGBA) *image.RGBA {
	pt.mu.Lock()
	t, ok := pt.tiles[k]
	pt.mu.Unlock()
	if ok {
		return t
	}
	t = build()
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.tiles == nil {
		pt.tiles = map[tileKey]*image.RGBA{}
	}
	budget := tileBudget
	if pt.tileMax != 0 {
		budget = pt.tileMax
	}
	if _, ok := pt.tiles[k]; !ok && pt.tileB+len(t.Pix) <= budget {
		pt.tiles[k] = t
		pt.tileB += len(t.Pix)
	}
	return t
}

// encoderBuffers lends image/png's encoder its buffers (png.EncoderBufferPool).
type encoderBuffers struct{ p sync.Pool }

func (e *encoderBuffers) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderBuffers) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// pixels returns a slice of n bytes from pool, to be given back with Put;
// its content is whatever the last picture left there.
func pixels(pool *sync.Pool, n int) *[]byte {
	if b, ok := pool.Get().(*[]byte); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n)
	return &b
}

// PNG draws the board for viewer: squares (holes grey and hatched),
// coordinates, the pieces as outlined silhouettes (light for White, dark
// for Black), the last move's squares tinted, a red tab under downward
// pawns, the marked squares in red, the Klein seam in blue, the hands (the
// opponent's above the board, the viewer's below), the die, and caption
// lines for holes, wrapping and marks. The same position and options always
// give the same bytes, whether drawn or kept.
func (pt *Painter) PNG(p rules.Position, viewer rules.Color, o Options) ([]byte, error) {
	if pt.Keep <= 0 {
		return pt.draw(p, viewer, o)
	}
	k := keyOf(p, viewer, o)
	if b, ok := pt.keptPicture(k); ok {
		return b, nil
	}
	b, err := pt.draw(p, viewer, o)
	if err == nil {
		pt.keep(k, b)
	}
	return b, err
}

// draw draws and encodes the picture PNG gives.
func (pt *Painter) draw(p rules.Position, viewer rules.Color, o Options) ([]byte, error) {
	l := layoutOf(p)
	pix := pixels(&pt.rgba, 4*l.w*l.h)
	defer pt.rgba.Put(pix)
	img := &image.RGBA{Pix: *pix, Stride: 4 * l.w, Rect: image.Rect(0, 0, l.w, l.h)}
	if err := pt.paint(img, l, p, viewer, o); err != nil {
		return nil, err
	}
	ppix := pixels(&pt.pal, l.w*l.h)
	defer pt.pal.Put(ppix)
	var buf bytes.Buffer
	// Fastest compression: about a third of the time of the default for
	// a fifth more bytes, and the encoding was most of a move's cost
	// (docs/performance.md).
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pt.enc}
	runs, _ := pt.runs.Get().(*[]colourRun)
	if runs == nil {
		runs = new([]colourRun)
	}
	defer pt.runs.Put(runs)
	var pal *image.Paletted
	pal, *runs = paletted(img, *ppix, *runs)
	if err := enc.Encode(&buf, pal); err != nil {
		return nil, fmt.Errorf("encoding the board picture: %w", err)
	}
	return buf.Bytes(), nil
}

// paint draws the picture of p for viewer, laid out as l, on img (of l's
// size), in full colour.
func (pt *Painter) paint(img *image.RGBA, l layout, p rules.Position, viewer rules.Color, o Options) error {
	b := p.Variant().Board()
	marker, _ := p.Variant().(Marker)
	cell := l.cell
	// The background is painted over every pixel, so a lent buffer need
	// not be cleared first.
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	fnt, err := boardFont()
	if err != nil {
		return fmt.Errorf("loading the board font: %w", err)
	}
	small, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return fmt.Errorf("loading the board font: %w", err)
	}
	pc := newPainter(pt, p.Variant())
	last := map[rules.Square]bool{}
	for _, sq := range o.LastMove {
		last[sq] = true
	}
	king, mated, check := royalInCheck(p)
	files, ranks := order(b, viewer)
	margin := l.margin
	top := l.board + margin
	right := margin + b.Width()*cell
	for row, r := range ranks {
		for col, f := range files {
			sq := b.Sq(f, r)
			x0, y0 := margin+col*cell, top+row*cell
			cellR := image.Rect(x0, y0, x0+cell, y0+cell)
			if !b.Exists(sq) {
				hatch(img, cellR)
				continue
			}
			var c color.Color = lightSq
			if (f+r)%2 == 0 {
				c = darkSq
			}
			if last[sq] {
				c = blend(c, lastMove, 0.5)
			}
			if check && sq == king {
				c = blend(c, checkSq, 0.7)
				if mated {
					c = mateSq
				}
			}
			draw.Draw(img, cellR, &image.Uniform{c}, image.Point{}, draw.Src)
			if piece := p.At(sq); piece != rules.NoPiece {
				pc.draw(img, image.Pt(x0, y0), cell, piece, c)
				if piece.Down() {
					downTab(img, x0+cell/2, y0+cell-1)
				}
			}
			if marker != nil && marker.MarkedSquare(sq) {
				// A marked square (Toto40's fighting line) keeps the
				// chequer's colour, so the board reads as a board, and
				// gets a red frame.
				frame(img, cellR, max(3, cell/14), markSq)
			}
		}
		y := top + row*cell + cell/2 + 5
		label := fmt.Sprint(r + 1)
		drawText(img, small, ink, margin-6-font.MeasureString(small, label).Ceil(), y, label)
		drawText(img, small, ink, right+5, y, label)
	}
	for col, f := range files {
		x := margin + col*cell + cell/2 - 4
		drawText(img, small, ink, x, top-9, string(rune('a'+f)))
		drawText(img, small, ink, x, top+b.Height()*cell+margin-10, string(rune('a'+f)))
	}
	if s := b.KleinSeam(); s > 0 {
		for row, r := range ranks {
			if row+1 < len(ranks) && ((r == s && ranks[row+1] == s-1) || (r == s-1 && ranks[row+1] == s)) {
				y := top + (row+1)*cell
				draw.Draw(img, image.Rect(margin, y-2, right, y+2), &image.Uniform{seamInk}, image.Point{}, draw.Src)
			}
		}
	}
	if l.topHand >= 0 {
		drawHand(img, small, pc, l.topHand, viewer.Other(), p.Hand(viewer.Other()))
		drawHand(img, small, pc, l.lowHand, viewer, p.Hand(viewer))
	}
	if r, ok := p.(rules.Roller); ok {
		drawDie(img, small, l.die, r.DieState())
	}
	for i, c := range captions(p) {
		drawText(img, small, ink, 6, l.captions+i*captionPx+13, c)
	}
	return nil
}

// painter draws a variant's pieces, each glyph rasterised once per size
// by the Painter.
type painter struct {
	pt    *Painter
	names map[byte]string
}

func newPainter(pt *Painter, v rules.Variant) *painter {
	pc := &painter{pt: pt, names: map[byte]string{}}
	if n, ok := v.(pieceNamer); ok {
		for _, c := range n.PieceLetters() {
			pc.names[c] = n.PieceName(c)
		}
	}
	return pc
}

// draw paints piece in the size×size box at at, whose pixels are all the
// colour under (a square, or the background of a hand): a copy of the
// piece drawn once over that colour, kept by the Painter.
func (pc *painter) draw(dst *image.RGBA, at image.Point, size int, piece rules.Piece, under color.Color) {
	name := pc.names[piece.Letter()]
	k := tileKey{glyphKey{name, piece.Letter(), size}, piece.Color() == rules.Black, color.RGBAModel.Convert(under).(color.RGBA)}
	tile := pc.pt.tile(k, func() *image.RGBA {
		t := image.NewRGBA(image.Rect(0, 0, size, size))
		draw.Draw(t, t.Bounds(), &image.Uniform{k.under}, image.Point{}, draw.Src)
		g, found := glyphFor(name, piece.Letter())
		if !found {
			g = letterGlyph
		}
		drawGlyph(t, image.Point{}, pc.pt.glyph(k.glyphKey, g), k.black)
		if !found {
			// A piece with no drawing of its own: its letter on a disc.
			f, err := letterFace(size)
			if err == nil {
				s := string(piece.Letter())
				_, line := pieceInk(k.black)
				drawText(t, f, line, (size-font.MeasureString(f, s).Ceil())/2, size*62/100, s)
			}
		}
		return t
	})
	draw.Draw(dst, tile.Bounds().Add(at), tile, image.Point{}, draw.Src)
}

// letterGlyph is the disc under the letter of a piece without a drawing.
var letterGlyph = glyph{Body: []string{"O 50 50 36"}}

// boardFont is the parsed board font, parsed once: it never changes.
var boardFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gomonobold.TTF) })

func letterFace(size int) (font.Face, error) {
	f, err := boardFont()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: float64(size) * 0.5, DPI: 72, Hinting: font.HintingFull})
}

// drawHand draws side's hand in the row at y: a label, then the pieces.
func drawHand(img *image.RGBA, f font.Face, pc *painter, y int, side rules.Color, hand []byte) {
	drawText(img, f, ink, 6, y+handPx/2+5, side.String()+"'s hand")
	if len(hand) == 0 {
		drawText(img, f, ink, handLabelPx, y+handPx/2+5, "(empty)")
		return
	}
	for i, c := range hand {
		pc.draw(img, image.Pt(handLabelPx+i*handPiece, y+(handPx-handPiece)/2), handPiece, rules.MakePiece(c, side), bg)
	}
}

// drawDie draws the die state (docs/rules/chectoe.md: the turn's rolls in order, r
// first when the first roll was replaced, ? while a roll is owed, - before
// the first roll) as faces with pips.
func drawDie(img *image.RGBA, f font.Face, y int, state string) {
	drawText(img, f, ink, 6, y+diePx/2+5, "Die")
	x := 6 + 5*8
	fy := y + (diePx-dieFace)/2
	note := ""
	for _, r := range state {
		switch {
		case r >= '1' && r <= '6':
			dieFaceAt(img, x, fy, int(r-'0'))
			x += dieFace + 6
		case r == '?':
			dieFaceAt(img, x, fy, 0)
			drawText(img, f, ink, x+dieFace/2-4, fy+dieFace/2+5, "?")
			x += dieFace + 6
		case r == 'r':
			note = "re-rolled"
		case r == '-':
			note = "not rolled yet"
		}
	}
	if note != "" {
		drawText(img, f, ink, x+2, y+diePx/2+5, note)
	}
}

// dieFaceAt draws a die face showing n pips (none for 0) at x, y.
func dieFaceAt(img *image.RGBA, x, y, n int) {
	s := float64(dieFace)
	var paths []string
	paths = append(paths, "M12 2 L88 2 Q98 2 98 12 L98 88 Q98 98 88 98 L12 98 Q2 98 2 88 L2 12 Q2 2 12 2 Z")
	face := glyph{Body: paths}
	gm := rasterGlyph(face, dieFace)
	r := image.Rect(x, y, x+dieFace, y+dieFace)
	draw.DrawMask(img, r, &image.Uniform{ink}, image.Point{}, gm.outline, image.Point{}, draw.Over)
	draw.DrawMask(img, r, &image.Uniform{dieInk}, image.Point{}, gm.body, image.Point{}, draw.Over)
	pips := map[int][][2]float64{
		1: {{50, 50}},
		2: {{27, 27}, {73, 73}},
		3: {{25, 25}, {50, 50}, {75, 75}},
		4: {{27, 27}, {73, 27}, {27, 73}, {73, 73}},
		5: {{25, 25}, {75, 25}, {50, 50}, {25, 75}, {75, 75}},
		6: {{28, 23}, {72, 23}, {28, 50}, {72, 50}, {28, 77}, {72, 77}},
	}[n]
	var dots []string
	for _, d := range pips {
		dots = append(dots, fmt.Sprintf("O %g %g 9", d[0], d[1]))
	}
	if len(dots) > 0 {
		gm := rasterGlyph(glyph{Body: dots}, int(s))
		draw.DrawMask(img, r, &image.Uniform{ink}, image.Point{}, gm.body, image.Point{}, draw.Over)
	}
}

// hatch fills r, a square that is not part of the board, grey with
// diagonal lines.
func hatch(img *image.RGBA, r image.Rectangle) {
	draw.Draw(img, r, &image.Uniform{holeSq}, image.Point{}, draw.Src)
	line := color.RGBAModel.Convert(holeHatch).(color.RGBA)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (x+y)%8 < 2 {
				img.SetRGBA(x, y, line)
			}
		}
	}
}

// frame draws a border of width w inside r.
func frame(img *image.RGBA, r image.Rectangle, w int, c color.Color) {
	u := &image.Uniform{c}
	draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), u, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), u, image.Point{}, draw.Src)
}

// blend mixes c toward d by t (0..1).
func blend(c, d color.Color, t float64) color.Color {
	r1, g1, b1, _ := c.RGBA()
	r2, g2, b2, _ := d.RGBA()
	mix := func(a, b uint32) uint8 { return uint8((float64(a)*(1-t) + float64(b)*t) / 257) }
	return color.RGBA{mix(r1, r2), mix(g1, g2), mix(b1, b2), 0xff}
}

func drawText(img draw.Image, f font.Face, c color.Color, x, y int, s string) {
	d := &font.Drawer{Dst: img, Src: &image.Uniform{c}, Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// downTab draws a small red triangle pointing down, its tip at (cx, tip):
// the mark of a pawn that moves toward rank 1.
func downTab(img *image.RGBA, cx, tip int) {
	z := vector.NewRasterizer(18, 10)
	z.MoveTo(1, 1)
	z.LineTo(17, 1)
	z.LineTo(9, 9)
	z.ClosePath()
	z.DrawOp = draw.Over
	z.Draw(img, image.Rect(cx-9, tip-9, cx+9, tip+1), &image.Uniform{downInk}, image.Point{})
}

package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"referee/internal/rules"
)

// Picture geometry, in pixels.
const (
	cellPx   = 48
	marginPx = 28
)

// Colours, as 0xRRGGBB.
const (
	bg        rgb = 0xfaf8f2
	lightSq   rgb = 0xeedcb4
	darkSq    rgb = 0xb58863
	markSq    rgb = 0xd96c4a
	ink       rgb = 0x222222
	whiteDisc rgb = 0xffffff
	blackDisc rgb = 0x202020
	seamInk   rgb = 0x2a6fdb
	downInk   rgb = 0xd02020
)

// rgb is a colour written 0xRRGGBB.
type rgb uint32

// RGBA implements color.Color.
func (c rgb) RGBA() (r, g, b, a uint32) {
	return color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff}.RGBA()
}

// captionPx is the height of one caption line under the board.
const captionPx = 17

// PNGSize returns the picture's width and height for position p: the
// board, a margin for coordinates on every side, and one line per caption
// (wrap hints, seam, downward pawns, marked squares).
func PNGSize(p rules.Position) (int, int) {
	b := p.Variant().Board()
	return 2*marginPx + b.Width()*cellPx, 2*marginPx + b.Height()*cellPx + captionPx*len(captions(p))
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
	for _, sq := range b.Squares() {
		if p.At(sq).Down() {
			out = append(out, "red tab: pawn moving down")
			break
		}
	}
	if _, ok := p.Variant().(Marker); ok {
		out = append(out, "red squares: "+markName(p.Variant()))
	}
	return out
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

// PNG draws the board for viewer: squares (holes left as background),
// coordinates, pieces as letters in discs (white discs for White, black for
// Black), a red tab under downward pawns, the marked squares in red, the
// Klein seam in blue, and caption lines for wrapping and marks. The same
// position always gives the same bytes.
func PNG(p rules.Position, viewer rules.Color) ([]byte, error) {
	b := p.Variant().Board()
	marker, _ := p.Variant().(Marker)
	w, h := PNGSize(p)
	bh := 2*marginPx + b.Height()*cellPx // the board without captions
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	big, err := face(26)
	if err != nil {
		return nil, err
	}
	small, err := face(13)
	if err != nil {
		return nil, err
	}
	files, ranks := order(b, viewer)
	for row, r := range ranks {
		for col, f := range files {
			sq := b.Sq(f, r)
			if !b.Exists(sq) {
				continue
			}
			x0, y0 := marginPx+col*cellPx, marginPx+row*cellPx
			c := lightSq
			if (f+r)%2 == 0 {
				c = darkSq
			}
			if marker != nil && marker.MarkedSquare(sq) {
				c = markSq
			}
			draw.Draw(img, image.Rect(x0, y0, x0+cellPx, y0+cellPx), &image.Uniform{c}, image.Point{}, draw.Src)
			pc := p.At(sq)
			if pc == rules.NoPiece {
				continue
			}
			fill, text := whiteDisc, ink
			if pc.Color() == rules.Black {
				fill, text = blackDisc, whiteDisc
			}
			disc(img, x0+cellPx/2, y0+cellPx/2, cellPx/2-5, ink)
			disc(img, x0+cellPx/2, y0+cellPx/2, cellPx/2-7, fill)
			letter := string(pc.Letter())
			adv := font.MeasureString(big, letter).Ceil()
			drawText(img, big, text, x0+(cellPx-adv)/2, y0+cellPx/2+9, letter)
			if pc.Down() {
				downTab(img, x0+cellPx/2, y0+cellPx-2)
			}
		}
		drawText(img, small, ink, 6, marginPx+row*cellPx+cellPx/2+5, fmt.Sprint(r+1))
		drawText(img, small, ink, w-marginPx+4, marginPx+row*cellPx+cellPx/2+5, fmt.Sprint(r+1))
	}
	for col, f := range files {
		x := marginPx + col*cellPx + cellPx/2 - 4
		drawText(img, small, ink, x, marginPx-9, string(rune('a'+f)))
		drawText(img, small, ink, x, bh-9, string(rune('a'+f)))
	}
	if s := b.KleinSeam(); s > 0 {
		for row, r := range ranks {
			if row+1 < len(ranks) && ((r == s && ranks[row+1] == s-1) || (r == s-1 && ranks[row+1] == s)) {
				y := marginPx + (row+1)*cellPx
				draw.Draw(img, image.Rect(marginPx, y-2, w-marginPx, y+2), &image.Uniform{seamInk}, image.Point{}, draw.Src)
			}
		}
	}
	for i, c := range captions(p) {
		drawText(img, small, ink, 6, bh+i*captionPx+8, c)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding the board picture: %w", err)
	}
	return buf.Bytes(), nil
}

func face(size float64) (font.Face, error) {
	f, err := opentype.Parse(gomonobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("loading the board font: %w", err)
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

func drawText(img draw.Image, f font.Face, c color.Color, x, y int, s string) {
	d := &font.Drawer{Dst: img, Src: &image.Uniform{c}, Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// downTab draws a small red triangle pointing down, its tip at (cx, tip):
// the mark of a pawn that moves toward rank 1.
func downTab(img *image.RGBA, cx, tip int) {
	for dy := 0; dy < 9; dy++ {
		half := dy
		for x := cx - half; x <= cx+half; x++ {
			img.Set(x, tip-dy, downInk)
		}
	}
}

func disc(img *image.RGBA, cx, cy, r int, c color.Color) {
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if x*x+y*y <= r*r {
				img.Set(cx+x, cy+y, c)
			}
		}
	}
}

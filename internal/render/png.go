package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

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

var (
	bg        = color.RGBA{0xfa, 0xf8, 0xf2, 0xff}
	lightSq   = color.RGBA{0xee, 0xdc, 0xb4, 0xff}
	darkSq    = color.RGBA{0xb5, 0x88, 0x63, 0xff}
	markSq    = color.RGBA{0xd9, 0x6c, 0x4a, 0xff}
	ink       = color.RGBA{0x22, 0x22, 0x22, 0xff}
	whiteDisc = color.RGBA{0xff, 0xff, 0xff, 0xff}
	blackDisc = color.RGBA{0x20, 0x20, 0x20, 0xff}
	seamInk   = color.RGBA{0x2a, 0x6f, 0xdb, 0xff}
)

// PNGSize returns the picture's width and height for board b.
func PNGSize(b *rules.Board) (int, int) {
	return 2*marginPx + b.Width()*cellPx, 2*marginPx + b.Height()*cellPx
}

// PNG draws the board for viewer: squares (holes left as background),
// coordinates, pieces as letters in discs (white discs for White, black for
// Black), a small arrow under downward pawns, the marked squares in red,
// and the Klein seam in blue. The same position always gives the same bytes.
func PNG(p rules.Position, viewer rules.Color) ([]byte, error) {
	b := p.Variant().Board()
	marker, _ := p.Variant().(Marker)
	w, h := PNGSize(b)
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
				drawText(img, small, text, x0+cellPx/2-4, y0+cellPx-9, "v")
			}
		}
		drawText(img, small, ink, 6, marginPx+row*cellPx+cellPx/2+5, fmt.Sprint(r+1))
		drawText(img, small, ink, w-marginPx+4, marginPx+row*cellPx+cellPx/2+5, fmt.Sprint(r+1))
	}
	for col, f := range files {
		x := marginPx + col*cellPx + cellPx/2 - 4
		drawText(img, small, ink, x, marginPx-9, string(rune('a'+f)))
		drawText(img, small, ink, x, h-9, string(rune('a'+f)))
	}
	if s := b.KleinSeam(); s > 0 {
		for row, r := range ranks {
			if row+1 < len(ranks) && ((r == s && ranks[row+1] == s-1) || (r == s-1 && ranks[row+1] == s)) {
				y := marginPx + (row+1)*cellPx
				draw.Draw(img, image.Rect(marginPx, y-2, w-marginPx, y+2), &image.Uniform{seamInk}, image.Point{}, draw.Src)
			}
		}
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

func disc(img *image.RGBA, cx, cy, r int, c color.Color) {
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if x*x+y*y <= r*r {
				img.Set(cx+x, cy+y, c)
			}
		}
	}
}

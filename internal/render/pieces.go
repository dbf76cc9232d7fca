package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/vector"
)

// A glyph is a piece drawn as a vector silhouette on a 100×100 design grid
// (x to the right, y down, the base standing on y = 91). Body is filled in
// the piece's colour and outlined in the contrasting one; Marks (eyes, slits,
// bands) are drawn over it in the contrasting colour.
//
// Paths are written in a small SVG-like language, absolute coordinates:
//
//	M x y, L x y, Q cx cy x y, C c1x c1y c2x c2y x y, Z   an outline
//	O cx cy r                                           a disc
//	E cx cy rx ry                                       an ellipse
//	R cx cy r w                                         a ring of width w
//	S w x1 y1 x2 y2 ...                                 a stroked polyline
//	T cx cy r n                                         an n-pointed star
//
// A path that starts with "|" is the right half of a shape that is symmetric
// about x = 50: it starts and ends on the axis, and its mirror image closes
// it. A path that starts with "~" is drawn as written and mirrored.
type glyph struct {
	Body  []string
	Marks []string
}

// base is the pedestal most pieces stand on.
const base = "|M50 79 L71 79 Q76 79 76 84 L76 87 Q76 91 71 91 L50 91"

// baseLine separates the pedestal from the piece above it.
const baseLine = "S 2.6 27 79 73 79"

// glyphs maps a piece name (as the variants name their pieces) to its
// drawing. Pieces that share a movement share a silhouette across variants
// (a Toe-to-Toe horse is a knight); a chariot is a rook with a wheel.
var glyphs = map[string]glyph{
	"pawn": {Body: []string{
		"O 50 27 12",
		"|M50 38 L57 38 Q62 39 62 43 Q62 47 57 48 Q57 63 68 73 Q71 76 71 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.2 41 48 59 48"}},
	"rook": {Body: []string{
		"|M50 13 L56 13 L56 21 L62 21 L62 13 L71 13 L71 28 L65 33 L65 66 L69 71 L71 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.4 35 33 65 33", "S 2.4 35 66 65 66"}},
	"chariot": {Body: []string{
		"|M50 13 L56 13 L56 21 L62 21 L62 13 L71 13 L71 28 L65 33 L65 66 L69 71 L71 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.4 35 33 65 33", "S 2.4 35 66 65 66",
		"R 50 50 10 3", "S 2 50 40 50 60", "S 2 40 50 60 50"}},
	"bishop": {Body: []string{
		"O 50 14 5.5",
		"|M50 19 C58 25 67 35 67 46 C67 54 62 59 58 61 L61 63 L61 68 L57 69 Q59 75 70 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.4 40 64 60 64", "S 3 56 31 47 44"}},
	"queen": {Body: []string{
		"O 50 13 4.5", "O 64 17 4", "O 36 17 4", "O 78 23 4", "O 22 23 4",
		"|M50 16 L56 42 L63 19 L66 44 L77 25 L67 57 Q65 61 62 62 L62 67 Q65 73 70 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.4 38 62 62 62", "S 2.2 36 67 64 67"}},
	"king": {Body: []string{
		"M47 5 L53 5 L53 11 L59 11 L59 17 L53 17 L53 23 L47 23 L47 17 L41 17 L41 11 L47 11 Z",
		"|M50 23 C62 21 73 29 71 40 C70 48 64 54 62 58 L64 60 L64 65 L61 66 Q63 73 70 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.4 37 59 63 59", "S 2.2 38 65 62 65"}},
	"knight": {Body: []string{
		"M71 79 C74 60 76 38 63 24 L61 12 L54 19 Q42 19 34 29 L21 45 Q17 51 21 56 Q26 61 32 58 " +
			"L43 52 Q47 51 48 54 C40 61 33 70 31 79 Z",
		base,
	}, Marks: []string{baseLine, "O 41 32 2.8", "O 24 51 1.6", "S 2.4 64 30 67 46 67 60"}},
	"vao": {Body: []string{ // a cannon: it moves like a bishop, takes by hopping
		"M31 60 L66 19 Q71 14 76 19 L83 26 Q88 31 83 36 L47 76 Z",
		"O 42 64 13",
		base,
	}, Marks: []string{baseLine, "R 42 64 6 2.4", "O 42 64 2", "S 2.4 66 28 74 36"}},
	"guard": {Body: []string{ // a shield; the X says it goes diagonally
		"|M50 12 Q60 19 72 17 L72 40 C72 58 62 68 50 77",
		base,
	}, Marks: []string{baseLine, "S 4 39 29 61 57", "S 4 61 29 39 57"}},
	"camel": {Body: []string{
		"M70 79 L72 63 Q76 54 70 48 C66 30 52 30 48 44 Q45 49 41 46 L33 27 Q30 19 23 20 " +
			"L14 24 Q11 28 16 31 L24 31 L34 54 Q36 61 40 63 L40 79 L47 79 L47 69 Q56 67 63 69 L63 79 Z",
		base,
	}, Marks: []string{baseLine, "O 23 24 1.8"}},
	"frog": {Body: []string{
		"E 50 60 20 19",
		"E 50 40 15 12",
		"O 39 29 7", "O 61 29 7",
		"~M62 62 L79 63 Q85 66 81 72 L77 81 L86 88 L70 88 L67 76 L58 73 Z",
		"~M62 47 L75 45 L79 36 L82 45 L75 53 L62 55 Z",
	}, Marks: []string{"O 39 28 2.6", "O 61 28 2.6", "S 2.2 42 45 50 47 58 45"}},
	"hawk": {Body: []string{
		"|M50 13 Q57 13 57 21 L58 29 L70 19 L85 12 L79 26 L73 39 L66 46 L60 51 Q60 63 56 70 L63 79 L50 79",
		base,
	}, Marks: []string{baseLine, "M47 22 L53 22 L50 28 Z", "O 46 18 1.6", "O 54 18 1.6"}},
	"general": {Body: []string{ // a star on epaulettes: it goes one or two squares any way
		"T 50 22 17 5",
		"|M50 37 L67 37 Q72 37 72 42 L72 45 Q72 49 67 49 L60 49 Q61 66 68 74 L70 79 L50 79",
		base,
	}, Marks: []string{baseLine, "S 2.2 37 43 63 43"}},
	"horse": {}, // filled in by glyphFor: the knight
	"elephant": {Body: []string{
		"~M38 31 Q21 17 13 34 Q10 53 31 58 L41 48 Z",
		"O 50 38 15",
		"M44 46 L56 46 Q56 62 62 68 Q67 74 61 77 Q54 77 50 68 Q45 60 44 46 Z",
		"~M43 48 Q40 60 32 64 Q37 56 38 46 Z",
		base,
	}, Marks: []string{baseLine, "O 44 36 2.2", "O 56 36 2.2"}},
}

// glyphFor returns the drawing for a piece: by its name when the variant
// names its pieces, else by its letter in chess's meaning. A piece with no
// drawing of its own is a disc with its letter, so a new piece is never
// drawn as nothing.
func glyphFor(name string, letter byte) (glyph, bool) {
	if name == "horse" {
		name = "knight"
	}
	if g, ok := glyphs[name]; ok && len(g.Body) > 0 {
		return g, true
	}
	byLetter := map[byte]string{'K': "king", 'Q': "queen", 'R': "rook", 'B': "bishop", 'N': "knight", 'P': "pawn"}
	if name == "" {
		if g, ok := glyphs[byLetter[letter]]; ok {
			return g, true
		}
	}
	return glyph{}, false
}

// pt is a point on the design grid.
type pt struct{ x, y float64 }

// seg is one drawing command: 'M', 'L', 'Q', 'C' with its points (the
// controls, then the end), or 'Z'.
type seg struct {
	op  byte
	pts []pt
}

// parsePath reads one path of the glyph language into closed subpaths of
// segments; strokes, discs and stars are turned into outlines. Every
// subpath is turned clockwise (on screen) except the inner edge of a ring,
// so overlapping parts add up instead of cancelling.
func parsePath(s string) [][]seg {
	mirror, half := false, false
	switch {
	case strings.HasPrefix(s, "|"):
		half, s = true, s[1:]
	case strings.HasPrefix(s, "~"):
		mirror, s = true, s[1:]
	}
	f := strings.Fields(strings.Map(func(r rune) rune {
		if r == ',' {
			return ' '
		}
		return r
	}, spaced(s)))
	num := func(i int) float64 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			panic("render: bad glyph number " + f[i]) // the table is fixed; a test draws every glyph
		}
		return v
	}
	var subs [][]seg
	var cur []seg
	var holes [][]seg // inner edges of rings: they stay anticlockwise
	for i := 0; i < len(f); {
		op := f[i]
		switch op {
		case "M":
			if len(cur) > 0 {
				subs = append(subs, cur)
			}
			cur = []seg{{'M', []pt{{num(i + 1), num(i + 2)}}}}
			i += 3
		case "L":
			cur = append(cur, seg{'L', []pt{{num(i + 1), num(i + 2)}}})
			i += 3
		case "Q":
			cur = append(cur, seg{'Q', []pt{{num(i + 1), num(i + 2)}, {num(i + 3), num(i + 4)}}})
			i += 5
		case "C":
			cur = append(cur, seg{'C', []pt{{num(i + 1), num(i + 2)}, {num(i + 3), num(i + 4)}, {num(i + 5), num(i + 6)}}})
			i += 7
		case "Z":
			i++
		case "O":
			subs = append(subs, ellipse(num(i+1), num(i+2), num(i+3), num(i+3)))
			i += 4
		case "E":
			subs = append(subs, ellipse(num(i+1), num(i+2), num(i+3), num(i+4)))
			i += 5
		case "R":
			cx, cy, r, w := num(i+1), num(i+2), num(i+3), num(i+4)
			subs = append(subs, ellipse(cx, cy, r+w/2, r+w/2))
			holes = append(holes, reverse(ellipse(cx, cy, r-w/2, r-w/2)))
			i += 5
		case "T":
			subs = append(subs, star(num(i+1), num(i+2), num(i+3), int(num(i+4))))
			i += 5
		case "S":
			w := num(i + 1)
			j := i + 2
			var line []pt
			for ; j+1 < len(f) && isNum(f[j]); j += 2 {
				line = append(line, pt{num(j), num(j + 1)})
			}
			subs = append(subs, stroke(line, w)...)
			i = j
		default:
			panic("render: bad glyph command " + op)
		}
	}
	if len(cur) > 0 {
		subs = append(subs, cur)
	}
	if half {
		for k, sp := range subs {
			subs[k] = append(sp, reverse(mirrored(sp))[1:]...)
		}
	}
	if mirror {
		n := len(subs)
		for k := 0; k < n; k++ {
			subs = append(subs, mirrored(subs[k]))
		}
	}
	for k, sp := range subs {
		if area(sp) < 0 {
			subs[k] = reverse(sp)
		}
	}
	return append(subs, holes...)
}

// spaced puts a space after every command letter ("M47" reads "M 47").
func spaced(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
		if r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func isNum(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// ellipse is four cubic arcs, clockwise on screen.
func ellipse(cx, cy, rx, ry float64) []seg {
	const k = 0.5522847498
	return []seg{
		{'M', []pt{{cx + rx, cy}}},
		{'C', []pt{{cx + rx, cy + k*ry}, {cx + k*rx, cy + ry}, {cx, cy + ry}}},
		{'C', []pt{{cx - k*rx, cy + ry}, {cx - rx, cy + k*ry}, {cx - rx, cy}}},
		{'C', []pt{{cx - rx, cy - k*ry}, {cx - k*rx, cy - ry}, {cx, cy - ry}}},
		{'C', []pt{{cx + k*rx, cy - ry}, {cx + rx, cy - k*ry}, {cx + rx, cy}}},
	}
}

// star is an n-pointed star of outer radius r, a point upward.
func star(cx, cy, r float64, n int) []seg {
	var out []seg
	for k := 0; k < 2*n; k++ {
		rr := r
		if k%2 == 1 {
			rr = r * 0.45
		}
		a := -math.Pi/2 + float64(k)*math.Pi/float64(n)
		p := pt{cx + rr*math.Cos(a), cy + rr*math.Sin(a)}
		op := byte('L')
		if k == 0 {
			op = 'M'
		}
		out = append(out, seg{op, []pt{p}})
	}
	return out
}

// stroke outlines a polyline of width w with round joins and ends: a
// rectangle per segment and a disc per vertex.
func stroke(line []pt, w float64) [][]seg {
	var out [][]seg
	for i, p := range line {
		out = append(out, ellipse(p.x, p.y, w/2, w/2))
		if i == 0 {
			continue
		}
		q := line[i-1]
		dx, dy := p.x-q.x, p.y-q.y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*w/2, dx/l*w/2
		out = append(out, []seg{
			{'M', []pt{{q.x + nx, q.y + ny}}},
			{'L', []pt{{p.x + nx, p.y + ny}}},
			{'L', []pt{{p.x - nx, p.y - ny}}},
			{'L', []pt{{q.x - nx, q.y - ny}}},
		})
	}
	return out
}

// end is where a subpath's segment k ends.
func end(s seg) pt { return s.pts[len(s.pts)-1] }

// reverse runs a subpath the other way round.
func reverse(sp []seg) []seg {
	out := []seg{{'M', []pt{end(sp[len(sp)-1])}}}
	for k := len(sp) - 1; k > 0; k-- {
		s := sp[k]
		to := end(sp[k-1])
		ctl := make([]pt, 0, len(s.pts))
		for j := len(s.pts) - 2; j >= 0; j-- {
			ctl = append(ctl, s.pts[j])
		}
		out = append(out, seg{s.op, append(ctl, to)})
	}
	return out
}

// mirrored reflects a subpath about x = 50.
func mirrored(sp []seg) []seg {
	out := make([]seg, len(sp))
	for k, s := range sp {
		p := make([]pt, len(s.pts))
		for j, q := range s.pts {
			p[j] = pt{100 - q.x, q.y}
		}
		out[k] = seg{s.op, p}
	}
	return out
}

// area is the signed area of the subpath's control polygon: positive when
// it runs clockwise on screen.
func area(sp []seg) float64 {
	var pts []pt
	for _, s := range sp {
		pts = append(pts, s.pts...)
	}
	a := 0.0
	for i := range pts {
		p, q := pts[i], pts[(i+1)%len(pts)]
		a += p.x*q.y - q.x*p.y
	}
	return a / 2
}

// glyphMasks rasterises a glyph at size px: the body's coverage, the
// outline's (the body grown by a pen of about 2 px at 48 px), and the marks'.
type glyphMasks struct {
	body, outline, marks *image.Alpha
}

// rasterGlyph draws g into masks of size×size pixels.
func rasterGlyph(g glyph, size int) glyphMasks {
	scale := float32(size) / 100
	fill := func(paths []string) *image.Alpha {
		m := image.NewAlpha(image.Rect(0, 0, size, size))
		z := vector.NewRasterizer(size, size)
		for _, p := range paths {
			for _, sp := range parsePath(p) {
				for _, s := range sp {
					q := s.pts
					switch s.op {
					case 'M':
						z.MoveTo(float32(q[0].x)*scale, float32(q[0].y)*scale)
					case 'L':
						z.LineTo(float32(q[0].x)*scale, float32(q[0].y)*scale)
					case 'Q':
						z.QuadTo(float32(q[0].x)*scale, float32(q[0].y)*scale, float32(q[1].x)*scale, float32(q[1].y)*scale)
					case 'C':
						z.CubeTo(float32(q[0].x)*scale, float32(q[0].y)*scale, float32(q[1].x)*scale, float32(q[1].y)*scale,
							float32(q[2].x)*scale, float32(q[2].y)*scale)
					}
				}
				z.ClosePath()
			}
		}
		z.Draw(m, m.Bounds(), image.Opaque, image.Point{})
		return m
	}
	body := fill(g.Body)
	return glyphMasks{body: body, outline: dilate(body, float64(size)*0.042), marks: fill(g.Marks)}
}

// dilate grows a coverage mask by a round pen of radius r, keeping the
// edge anti-aliased.
func dilate(m *image.Alpha, r float64) *image.Alpha {
	type off struct {
		dx, dy int
		w      float64
	}
	var offs []off
	n := int(math.Ceil(r + 0.5))
	for dy := -n; dy <= n; dy++ {
		for dx := -n; dx <= n; dx++ {
			w := math.Min(1, r+0.5-math.Hypot(float64(dx), float64(dy)))
			if w > 0 {
				offs = append(offs, off{dx, dy, w})
			}
		}
	}
	b := m.Bounds()
	out := image.NewAlpha(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			best := 0.0
			for _, o := range offs {
				xx, yy := x+o.dx, y+o.dy
				if xx < b.Min.X || yy < b.Min.Y || xx >= b.Max.X || yy >= b.Max.Y {
					continue
				}
				if v := float64(m.Pix[m.PixOffset(xx, yy)]) * o.w; v > best {
					best = v
				}
			}
			out.Pix[out.PixOffset(x, y)] = uint8(best + 0.5)
		}
	}
	return out
}

// pieceInk is the fill and the outline of a side's pieces: White light
// with a dark outline, Black dark with a light one.
func pieceInk(black bool) (fill, line color.Color) {
	if black {
		return blackPiece, blackLine
	}
	return whitePiece, whiteLine
}

// drawGlyph paints masks at (x, y) in the side's colours.
func drawGlyph(dst draw.Image, at image.Point, gm glyphMasks, black bool) {
	fill, line := pieceInk(black)
	r := gm.body.Bounds().Add(at)
	draw.DrawMask(dst, r, &image.Uniform{line}, image.Point{}, gm.outline, image.Point{}, draw.Over)
	draw.DrawMask(dst, r, &image.Uniform{fill}, image.Point{}, gm.body, image.Point{}, draw.Over)
	draw.DrawMask(dst, r, &image.Uniform{line}, image.Point{}, gm.marks, image.Point{}, draw.Over)
}

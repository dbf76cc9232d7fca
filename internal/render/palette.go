package render

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"slices"
)

// paletted returns img (opaque, its rows one after another) as an image of
// at most 256 colours whose pixels are pix (one byte a pixel). A paletted
// PNG carries one byte a pixel instead of three and skips the per-row
// filters, so it is several times faster to encode and about half the
// size; the encoding was most of a move's cost (docs/performance.md).
//
// A board has a few flat colours and the anti-aliased blends along the
// edges of pieces and letters. When all of them fit in 256 the picture is
// exact. Otherwise the 256 most frequent colours are kept (every flat
// colour among them) and each other pixel takes the nearest of those: on a
// chess board about 1,300 colours, of which the rarest 1,000 cover 3% of
// the pixels, all on edges. The result depends only on img, so the same
// position still gives the same bytes.
//
// runs is a buffer to reuse (it may be nil); the grown one is returned for
// the next picture.
func paletted(img *image.RGBA, pix []byte, runs []colourRun) (*image.Paletted, []colourRun) {
	b := img.Bounds()
	src := img.Pix[:4*b.Dx()*b.Dy()]
	// The picture as runs of one colour: a board is mostly flat, so there
	// are about a tenth as many runs as pixels. Each colour gets a dense
	// id, and its pixels are counted.
	var (
		ids    colourIDs
		counts []int
	)
	runs = runs[:0]
	eachRun(src, func(c uint32, n int) {
		id, fresh := ids.get(c)
		if fresh {
			counts = append(counts, 0)
		}
		counts[id] += n
		runs = append(runs, colourRun{int32(id), int32(n)})
	})
	byCount := make([]int32, len(counts))
	for i := range byCount {
		byCount[i] = int32(i)
	}
	// Most frequent first; equal counts in colour order, so that the
	// palette never depends on the order colours were met in.
	slices.SortFunc(byCount, func(a, b int32) int {
		if n := cmp.Compare(counts[b], counts[a]); n != 0 {
			return n
		}
		return cmp.Compare(ids.colour[a], ids.colour[b])
	})
	keep := byCount[:min(256, len(byCount))]
	pal := make(color.Palette, len(keep))
	kept := make([]uint32, len(keep))
	index := make([]uint8, len(counts)) // by colour id
	for i, id := range keep {
		c := ids.colour[id]
		kept[i] = c
		pal[i] = color.RGBA{uint8(red(c)), uint8(green(c)), uint8(blue(c)), 0xff}
		index[id] = uint8(i)
	}
	if rest := byCount[len(keep):]; len(rest) > 0 {
		near := newNearest(kept)
		for _, id := range rest {
			index[id] = near.find(ids.colour[id])
		}
	}
	out := &image.Paletted{Pix: pix, Stride: b.Dx(), Rect: b, Palette: pal}
	at := 0
	for _, r := range runs {
		v := index[r.id]
		seg := pix[at : at+int(r.n)]
		for k := range seg {
			seg[k] = v
		}
		at += int(r.n)
	}
	return out, runs
}

// colourRun is a run of pixels of one colour: its colour id and length.
type colourRun struct{ id, n int32 }

// eachRun calls f for each run of pixels of one colour in src (RGBA
// bytes), in order, with the colour and the run's length in pixels.
func eachRun(src []byte, f func(c uint32, n int)) {
	for i := 0; i < len(src); {
		w := binary.LittleEndian.Uint32(src[i:])
		j := i + 4
		// Two pixels at a time, then the last one.
		for w2 := uint64(w) | uint64(w)<<32; j+8 <= len(src) && binary.LittleEndian.Uint64(src[j:]) == w2; {
			j += 8
		}
		for j < len(src) && binary.LittleEndian.Uint32(src[j:]) == w {
			j += 4
		}
		f(w&0xffffff, (j-i)/4)
		i = j
	}
}

// A colour is kept as the RGBA pixel's bytes read as one little-endian
// word without its alpha (every pixel is opaque): 0xBBGGRR.
func rgbAt(p []byte, i int) uint32 {
	return binary.LittleEndian.Uint32(p[i:]) & 0xffffff
}

func red(c uint32) int   { return int(c & 0xff) }
func green(c uint32) int { return int(c >> 8 & 0xff) }
func blue(c uint32) int  { return int(c >> 16 & 0xff) }

// colourIDs numbers colours densely in the order they are met: an
// open-addressing hash table, far cheaper here than a map.
type colourIDs struct {
	slots  []int32 // id+1, or 0 for empty
	colour []uint32
}

func (t *colourIDs) get(c uint32) (id int, fresh bool) {
	if 2*(len(t.colour)+1) > len(t.slots) {
		t.grow()
	}
	mask := uint32(len(t.slots) - 1)
	for h := (c * 0x9E3779B1) >> 7 & mask; ; h = (h + 1) & mask {
		switch s := t.slots[h]; {
		case s == 0:
			t.colour = append(t.colour, c)
			t.slots[h] = int32(len(t.colour))
			return len(t.colour) - 1, true
		case t.colour[s-1] == c:
			return int(s - 1), false
		}
	}
}

func (t *colourIDs) grow() {
	n := max(1024, 2*len(t.slots))
	t.slots = make([]int32, n)
	mask := uint32(n - 1)
	for i, c := range t.colour {
		h := (c * 0x9E3779B1) >> 7 & mask
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = int32(i + 1)
	}
}

// nearestIn finds the closest palette colour (squared distance in RGB,
// weighted as the eye weighs the channels: 3, 4, 2). The palette is
// searched in order of green outward from the colour's own green, and the
// search stops once green alone is farther than the best found.
type nearestIn struct {
	pal   []uint32
	order []uint8 // palette indexes by green
}

func newNearest(pal []uint32) nearestIn {
	n := nearestIn{pal: pal, order: make([]uint8, len(pal))}
	for i := range n.order {
		n.order[i] = uint8(i)
	}
	slices.SortFunc(n.order, func(a, b uint8) int {
		if c := cmp.Compare(green(pal[a]), green(pal[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return n
}

func (n nearestIn) find(c uint32) uint8 {
	g := green(c)
	start, _ := slices.BinarySearchFunc(n.order, g, func(i uint8, g int) int { return cmp.Compare(green(n.pal[i]), g) })
	best, bestD := -1, int(^uint(0)>>1)
	try := func(k int) bool {
		i := n.order[k]
		p := n.pal[i]
		dg := green(p) - g
		if 4*dg*dg > bestD {
			return false
		}
		dr := red(p) - red(c)
		db := blue(p) - blue(c)
		// Ties go to the lower palette index, whichever side found it.
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD || (d == bestD && int(i) < best) {
			best, bestD = int(i), d
		}
		return true
	}
	for lo, hi := start-1, start; lo >= 0 || hi < len(n.order); lo, hi = lo-1, hi+1 {
		if lo >= 0 && !try(lo) {
			lo = -1
		}
		if hi < len(n.order) && !try(hi) {
			hi = len(n.order)
		}
	}
	return uint8(best)
}

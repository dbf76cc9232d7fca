package render

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"sync"
	"testing"

	"referee/internal/rules"
)

// TestPalettedFaithful draws every variant's start and a mid-game position
// from both sides in full colour, and checks what the paletted picture
// (what the mails carry) does to it: every flat colour of the board kept
// exactly (those the picture uses), and the pixels that had to take a near colour few and near.
func TestPalettedFaithful(t *testing.T) {
	flat := []rgb{bg, lightSq, darkSq, ink, whitePiece, blackPiece}
	for _, v := range rules.Variants() {
		mid, _, last := midGameLast(t, v, 12)
		for _, c := range []struct {
			name string
			p    rules.Position
			o    Options
		}{{"start", v.Start(), Options{}}, {"mid", mid, Options{LastMove: MoveSquares(last)}}} {
			for _, viewer := range []rules.Color{rules.White, rules.Black} {
				t.Run(fmt.Sprintf("%s/%s/%v", v.Name(), c.name, viewer), func(t *testing.T) {
					var pt Painter
					l := layoutOf(c.p)
					img := image.NewRGBA(image.Rect(0, 0, l.w, l.h))
					if err := pt.paint(img, l, c.p, viewer, c.o); err != nil {
						t.Fatal(err)
					}
					pal, _ := paletted(img, make([]byte, l.w*l.h), nil)
					if len(pal.Palette) > 256 {
						t.Fatalf("palette of %d colours", len(pal.Palette))
					}
					moved, worst := 0, 0
					used, inPalette := map[color.RGBA]bool{}, map[color.RGBA]bool{}
					for _, pc := range pal.Palette {
						inPalette[pc.(color.RGBA)] = true
					}
					for y := 0; y < l.h; y++ {
						for x := 0; x < l.w; x++ {
							want, got := img.RGBAAt(x, y), pal.At(x, y)
							used[want] = true
							if d := colorDist(want, got); d > 0 {
								moved++
								worst = max(worst, d)
							}
						}
					}
					for _, f := range flat {
						if c := color.RGBAModel.Convert(f).(color.RGBA); used[c] && !inPalette[c] {
							t.Errorf("flat colour %06x is not in the palette", uint32(f))
						}
					}
					// Measured: at most 3.3% of the pixels, by at most 44
					// in a channel.
					if moved*100 > 6*l.w*l.h || worst > 48 {
						t.Errorf("%d of %d pixels changed colour (%.1f%%), the worst by %d in a channel", moved, l.w*l.h, 100*float64(moved)/float64(l.w*l.h), worst)
					}
					t.Logf("%d colours; %d pixels (%.1f%%) moved, worst by %d", len(pal.Palette), moved, 100*float64(moved)/float64(l.w*l.h), worst)
				})
			}
		}
	}
}

// TestPalettedExact: a picture of at most 256 colours comes out exactly,
// and the palette does not depend on the order colours were met in.
func TestPalettedExact(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 8))
	for x := 0; x < 64; x++ {
		for y := 0; y < 8; y++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 4), uint8(y * 30), 7, 0xff})
		}
	}
	pal, _ := paletted(img, make([]byte, 64*8), nil)
	if len(pal.Palette) != 64*8 && len(pal.Palette) != 256 {
		t.Fatalf("palette of %d colours", len(pal.Palette))
	}
	small := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range 256 {
		small.SetRGBA(i%16, i/16, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 0xff})
	}
	flipped := image.NewRGBA(small.Bounds())
	for i := range 256 {
		flipped.SetRGBA(15-i%16, 15-i/16, small.RGBAAt(i%16, i/16))
	}
	a, _ := paletted(small, make([]byte, 256), nil)
	b, _ := paletted(flipped, make([]byte, 256), nil)
	for i := range 256 {
		x, y := i%16, i/16
		if a.At(x, y) != color.Color(small.RGBAAt(x, y)) {
			t.Fatalf("pixel %d,%d: %v, want %v exactly", x, y, a.At(x, y), small.RGBAAt(x, y))
		}
	}
	for i, c := range a.Palette {
		if b.Palette[i] != c {
			t.Fatalf("palette entry %d: %v from one order, %v from the other", i, c, b.Palette[i])
		}
	}
}

// TestPainterKeptMatchesFresh: one Painter drawing every variant's pictures
// from many goroutines at once (its caches and lent buffers shared, sizes
// mixed) gives the same bytes as a fresh Painter for each picture.
func TestPainterKeptMatchesFresh(t *testing.T) {
	var jobs []paintJob
	for _, v := range rules.Variants() {
		mid, _, last := midGameLast(t, v, 12)
		for _, viewer := range []rules.Color{rules.White, rules.Black} {
			for _, c := range []struct {
				p rules.Position
				o Options
			}{{v.Start(), Options{}}, {mid, Options{LastMove: MoveSquares(last)}}} {
				want, err := PNGWith(c.p, viewer, c.o)
				if err != nil {
					t.Fatal(err)
				}
				jobs = append(jobs, paintJob{fmt.Sprintf("%s/%v/%d", v.Name(), viewer, len(jobs)), c.p, viewer, c.o, want})
			}
		}
	}
	// Twice: with the tiles' budget, and with a budget that fills after a
	// few tiles, so that most tiles are drawn for their picture only.
	for _, max := range []int{0, 100 << 10} {
		pt := Painter{tileMax: max}
		drawAll(t, &pt, jobs)
		if budget := cmp.Or(max, tileBudget); pt.tileB > budget {
			t.Errorf("budget %d: the kept tiles take %d bytes", budget, pt.tileB)
		}
		t.Logf("budget %d: %d tiles kept, %d bytes", cmp.Or(max, tileBudget), len(pt.tiles), pt.tileB)
	}
}

type paintJob struct {
	name   string
	p      rules.Position
	viewer rules.Color
	o      Options
	want   []byte
}

// drawAll draws every job four times over, from one goroutine each, with
// pt, and reports the pictures that differ from what they want.
func drawAll(t *testing.T, pt *Painter, jobs []paintJob) {
	errs := make(chan error, 4*len(jobs))
	var wg sync.WaitGroup
	for round := range 4 {
		for i := range jobs {
			j := jobs[(i*7+round*3)%len(jobs)]
			wg.Go(func() {
				got, err := pt.PNG(j.p, j.viewer, j.o)
				if err != nil {
					errs <- err
				} else if !bytes.Equal(got, j.want) {
					errs <- fmt.Errorf("%s: %d bytes from the kept Painter differ from the fresh one's %d", j.name, len(got), len(j.want))
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

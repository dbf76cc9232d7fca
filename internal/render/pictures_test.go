package render

import (
	"bytes"
	"fmt"
	"testing"

	"referee/internal/rules"
)

// keptJobs are the pictures of the first plies of a game of every variant,
// from both sides, with the last move tinted and without: many pictures
// that differ in one square, one tint or the viewer only, which a key
// that missed one of them would give each other's bytes for.
func keptJobs(t *testing.T, plies int) []paintJob {
	var jobs []paintJob
	for _, v := range rules.Variants() {
		for n := range plies {
			p, _, last := midGameLast(t, v, n)
			for _, viewer := range []rules.Color{rules.White, rules.Black} {
				for _, o := range []Options{{}, {LastMove: MoveSquares(last)}} {
					if n == 0 && len(o.LastMove) > 0 {
						continue
					}
					want, err := PNGWith(p, viewer, o)
					if err != nil {
						t.Fatal(err)
					}
					jobs = append(jobs, paintJob{fmt.Sprintf("%s/ply %d/%v/%v", v.Name(), n, viewer, o.LastMove), p, viewer, o, want})
				}
			}
		}
	}
	return jobs
}

// TestKeptPicturesMatchFresh: a Painter that keeps its pictures gives, for
// every picture asked again (from many goroutines, kept or drawn), the
// bytes a fresh Painter draws; with a small Keep, pictures are dropped and
// drawn again, and the kept ones never take more than Keep.
func TestKeptPicturesMatchFresh(t *testing.T) {
	jobs := keptJobs(t, 6)
	for _, keep := range []int{64 << 20, 100 << 10} {
		pt := Painter{Keep: keep}
		drawAll(t, &pt, jobs)
		if pt.kept.bytes > keep {
			t.Errorf("Keep %d: the kept pictures take %d bytes", keep, pt.kept.bytes)
		}
		if keep == 64<<20 && len(pt.kept.byKey) != len(jobs) {
			// Every job is a different picture: one kept for each.
			t.Errorf("Keep %d: %d pictures kept for %d different ones", keep, len(pt.kept.byKey), len(jobs))
		}
		t.Logf("Keep %d: %d pictures kept, %d bytes", keep, len(pt.kept.byKey), pt.kept.bytes)
	}
}

// TestKeptPictureIsACopy: what PNG returns is the caller's; changing it
// does not change the next copy of the same picture.
func TestKeptPictureIsACopy(t *testing.T) {
	pt := Painter{Keep: 1 << 20}
	p := rules.Chess().Start()
	first, err := pt.PNG(p, rules.White, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Clone(first)
	clear(first)
	again, err := pt.PNG(p, rules.White, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, want) {
		t.Error("the kept picture changed with the copy the first caller got")
	}
}

// TestKeptPicturesLeastRecentlyUsedOut: past Keep, the picture asked for
// least recently goes first.
func TestKeptPicturesLeastRecentlyUsedOut(t *testing.T) {
	start := rules.Chess().Start()
	one, err := PNGWith(start, rules.White, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Room for two start pictures (the three below are about the same size).
	pt := Painter{Keep: 2*len(one) + len(one)/2}
	white := keyOf(start, rules.White, Options{})
	black := keyOf(start, rules.Black, Options{})
	tinted := keyOf(start, rules.White, Options{LastMove: []rules.Square{12}})
	for _, k := range []struct {
		viewer rules.Color
		o      Options
	}{{rules.White, Options{}}, {rules.Black, Options{}}, {rules.White, Options{}}, {rules.White, Options{LastMove: []rules.Square{12}}}} {
		if _, err := pt.PNG(start, k.viewer, k.o); err != nil {
			t.Fatal(err)
		}
	}
	// White's was asked again after Black's, so Black's went.
	for k, want := range map[pictureKey]bool{white: true, black: false, tinted: true} {
		if _, kept := pt.kept.byKey[k]; kept != want {
			t.Errorf("%+v kept: %v, want %v", k, kept, want)
		}
	}
}

// BenchmarkPNGKept is BenchmarkPNG's chess picture asked again of a
// Painter that keeps it: the cost of a kept picture.
func BenchmarkPNGKept(b *testing.B) {
	p, _ := midGame(&testing.T{}, rules.Chess(), 12)
	pt := Painter{Keep: 1 << 20}
	for b.Loop() {
		if _, err := pt.PNG(p, rules.Black, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

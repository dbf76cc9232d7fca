package rules

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPerftStopsWhenTheContextIsDone(t *testing.T) {
	// A long count stops when asked (Ctrl-C in `referee perft`) and says
	// what it had counted. Chess takes perft's fast path, Toto40 and
	// Toe-to-Toe the generic one. The context is cancelled as soon as the
	// first root move is counted, so the rest must be skipped.
	tests := []struct {
		name      string
		pos       Position
		depth     int
		deep      int   // a depth whose whole count takes minutes or more
		deepCount int64 // a bound above that count
	}{
		{"chess", Chess().Start(), 5, 6, 119060324},
		{"toto40", Toto40().Start(), 5, 8, 1 << 40},
		{"toetotoe", ToeToToe().Start(), 3, 4, 1 << 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var reported []DivideEntry
			entries, err := DivideContext(ctx, tt.pos, 2, func(done, total int, e DivideEntry) {
				reported = append(reported, e)
				if done != len(reported) || total != len(tt.pos.Legal()) {
					t.Errorf("report(%d, %d), want (%d, %d)", done, total, len(reported), len(tt.pos.Legal()))
				}
			})
			if err != nil || len(entries) != len(tt.pos.Legal()) || len(reported) != len(entries) {
				t.Fatalf("an uncancelled divide at depth 2: %d entries, %d reported, %v", len(entries), len(reported), err)
			}

			reported = nil
			entries, err = DivideContext(ctx, tt.pos, tt.depth, func(done, total int, e DivideEntry) {
				reported = append(reported, e)
				cancel()
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if len(entries) != 2 || entries[0].Partial || !entries[1].Partial {
				t.Fatalf("entries %+v, want the first root move counted and the second one cut short", entries)
			}
			c, err := tt.pos.Play(entries[0].Move)
			if err != nil {
				t.Fatal(err)
			}
			if want := Perft(c, tt.depth-1); entries[0].Count != want {
				t.Errorf("the first root move counted %d leaves, perft(%d) of the child is %d", entries[0].Count, tt.depth-1, want)
			}
			if len(reported) != 1 {
				t.Errorf("%d entries reported, want 1 (the interrupted one is returned, not reported)", len(reported))
			}

			// Already cancelled: nothing is counted, however deep (whole
			// counts this deep take hours).
			n, err := PerftContext(ctx, tt.pos, tt.depth+4)
			if !errors.Is(err, context.Canceled) || n != 0 {
				t.Errorf("PerftContext with a cancelled context = %d, %v; want 0, context.Canceled", n, err)
			}

			// Cancelled while counting: the count looks at the context
			// inside the tree, not only where it starts.
			ctx2, cancel2 := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel2)
			n, err = PerftContext(ctx2, tt.pos, tt.deep)
			if !errors.Is(err, context.Canceled) || n >= tt.deepCount {
				t.Errorf("PerftContext(depth %d) cancelled after 20ms = %d, %v; want less than %d and context.Canceled", tt.deep, n, err, tt.deepCount)
			}
		})
	}
}

func TestDivideCountsMatchPerft(t *testing.T) {
	// Divide's counts under the root moves add up to perft, and each is
	// perft of the child one level shallower.
	for _, p := range []Position{Chess().Start(), Toto40().Start(), Cuarenta().Start()} {
		entries, err := DivideContext(context.Background(), p, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, e := range entries {
			c, err := p.Play(e.Move)
			if err != nil {
				t.Fatal(err)
			}
			if want := Perft(c, 2); e.Count != want || e.Partial {
				t.Errorf("%s: divide says %d under a root move, perft(2) of the child is %d", p.Variant().Name(), e.Count, want)
			}
			sum += e.Count
		}
		if want := Perft(p, 3); sum != want {
			t.Errorf("%s: divide adds up to %d, perft(3) is %d", p.Variant().Name(), sum, want)
		}
	}
}

func TestPerftRefusesDepthsThatCannotFinish(t *testing.T) {
	// perft.go: a count is refused when its estimated leaves, n2·(n2/n1)^(d−2)
	// from the exact counts n1 and n2 at depths 1 and 2, exceed the
	// variant's limit (PerftLimit), or when the depth exceeds MaxPerftDepth.
	mate, err := Chess().ParsePosition("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		pos     Position
		depth   int
		refused bool
		deepest int // the deepest accepted depth the refusal suggests
	}{
		// chess from the start: 20 and 400, so about 400·20^(d-2).
		{"chess depth 2 is counted exactly", Chess().Start(), 2, false, 0},
		{"chess depth 8: 2.6e10 estimated, under 1e11", Chess().Start(), 8, false, 0},
		{"chess depth 9: 5.1e11 estimated", Chess().Start(), 9, true, 8},
		{"chess depth 65: deeper than MaxPerftDepth", Chess().Start(), MaxPerftDepth + 1, true, 8},
		// toto40: 15 and 227, limit 1e10.
		{"toto40 depth 8: 2.7e9 estimated", Toto40().Start(), 8, false, 0},
		{"toto40 depth 9: 4.1e10 estimated", Toto40().Start(), 9, true, 8},
		// toetotoe: 552 and 304704 (deployments), limit 5e9.
		{"toetotoe depth 3: 1.7e8 estimated", ToeToToe().Start(), 3, false, 0},
		{"toetotoe depth 4: 9.3e10 estimated", ToeToToe().Start(), 4, true, 3},
		{"a finished game counts nothing at any depth", mate, MaxPerftDepth, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPerftDepth(tt.pos, tt.depth)
			if !tt.refused {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			var deep *PerftTooDeepError
			if !errors.As(err, &deep) {
				t.Fatalf("CheckPerftDepth = %v, want a *PerftTooDeepError", err)
			}
			if deep.Deepest != tt.deepest {
				t.Errorf("the refusal suggests depth %d, want %d", deep.Deepest, tt.deepest)
			}
			for _, want := range []string{"depth", "or less"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal %q does not say %q", err, want)
				}
			}
		})
	}
}

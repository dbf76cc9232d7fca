package rules

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// walk returns the moves of a fixed line of play of n actions from v's
// start (Chec Toe's die values cycle through 1-5; the k-th action is
// Legal()[k*7 % len]), stopping early if the game ends.
func walk(t *testing.T, v Variant, n int) (moves []Move, rolls [][]int) {
	t.Helper()
	p := v.Start()
	die := 0
	for k := range n {
		var used []int
		for {
			r, ok := p.(Roller)
			if !ok || !r.NeedsRoll() {
				break
			}
			die = die%5 + 1
			q, err := r.Roll(die)
			if err != nil {
				t.Fatal(err)
			}
			used, p = append(used, die), q
		}
		legal := p.Legal()
		if len(legal) == 0 {
			break
		}
		m := legal[k*7%len(legal)]
		q, err := p.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		moves, rolls, p = append(moves, m), append(rolls, used), q
	}
	return moves, rolls
}

// replay plays the first n moves of a walk from a fresh start, so the
// position returned has never been asked for its moves or result.
func replay(t *testing.T, v Variant, moves []Move, rolls [][]int, n int) Position {
	t.Helper()
	p := v.Start()
	for i := range n {
		for _, d := range rolls[i] {
			q, err := p.(Roller).Roll(d)
			if err != nil {
				t.Fatal(err)
			}
			p = q
		}
		q, err := p.Play(moves[i])
		if err != nil {
			t.Fatal(err)
		}
		p = q
	}
	return p
}

// reading is everything a reader can learn from a position and its
// children, as text, to compare what concurrent readers saw.
func reading(p Position) string {
	s := fmt.Sprintf("%s|%v|%q|%v|%d", p, p.Result(), p.Claimable(), p.InCheck(), p.MoveNumber())
	if r, ok := p.(Roller); ok && r.NeedsRoll() {
		for v := 1; v <= 6; v++ {
			if c, err := r.Roll(v); err == nil {
				s += fmt.Sprintf("|roll %d: %s %d", v, c, len(c.Legal()))
			}
		}
	}
	for i, m := range p.Legal() {
		c, err := p.Play(m)
		if err != nil {
			return s + "|refused a listed move: " + err.Error()
		}
		s += "|" + c.String()
		if i < 5 { // children are each reader's own; a few suffice (Toe-to-Toe's are costly)
			s += fmt.Sprintf(" %d %v", len(c.Legal()), c.Result())
		}
	}
	return s
}

func TestPositionsAreSafeToShareBetweenGoroutines(t *testing.T) {
	// api.go: positions are immutable and safe for concurrent use. Every
	// variant, at the start and a few plies in, read by 8 goroutines at
	// once from a position nobody has read before (so the goroutines race
	// to fill any cache): run with -race. All must see the same thing.
	for _, v := range Variants() {
		moves, rolls := walk(t, v, 6)
		for _, ply := range []int{0, 3, len(moves)} {
			t.Run(fmt.Sprintf("%s after %d actions", v.Name(), ply), func(t *testing.T) {
				p := replay(t, v, moves, rolls, ply)
				const readers = 8
				got := make([]string, readers)
				var wg sync.WaitGroup
				for i := range readers {
					wg.Go(func() { got[i] = reading(p) })
				}
				wg.Wait()
				for i := 1; i < readers; i++ {
					if got[i] != got[0] {
						t.Fatalf("reader %d saw\n%s\nbut reader 0 saw\n%s", i, got[i], got[0])
					}
				}
				if want := reading(replay(t, v, moves, rolls, ply)); got[0] != want {
					t.Errorf("concurrent readers saw\n%s\nbut a lone reader of the same position sees\n%s", got[0], want)
				}
			})
		}
	}
}

func TestLegalReturnsAFreshSlice(t *testing.T) {
	// api.go: Legal's caller owns the slice. Overwriting or appending to
	// it must not change what the position lists next time, or what it
	// accepts.
	for _, v := range Variants() {
		moves, rolls := walk(t, v, 3)
		p := replay(t, v, moves, rolls, len(moves))
		if r, ok := p.(Roller); ok && r.NeedsRoll() {
			q, err := r.Roll(2)
			if err != nil {
				t.Fatal(err)
			}
			p = q
		}
		first := p.Legal()
		if len(first) == 0 {
			t.Fatalf("%s: no legal move in %s", v.Name(), p)
		}
		want := slices.Clone(first)
		for i := range first {
			first[i] = Move{Kind: Pass}
		}
		_ = append(first[:0], Move{Kind: Roll})
		if got := p.Legal(); !slices.Equal(got, want) {
			t.Errorf("%s: after the caller overwrote its slice, Legal lists %v, want %v", v.Name(), got, want)
		}
		if _, err := p.Play(want[0]); err != nil {
			t.Errorf("%s: after the caller overwrote its slice, Play(first move) = %v", v.Name(), err)
		}
	}
}

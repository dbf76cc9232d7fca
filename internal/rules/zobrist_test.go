package rules

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
)

// The keys repetition used before they were kept incrementally: an FNV
// hash of the whole position, recomputed for every earlier position at
// every ask. They stay here as the check that the incremental keys find
// exactly the same repetitions.

// fnvKey is the former stdPos.key: pieces, side, castling rights, and the
// en passant square only when a capture there is legal (FIDE).
func (p *stdPos) fnvKey() uint64 {
	h := fnv.New64a()
	var b [2]byte
	for _, pc := range p.sq {
		b[0], b[1] = byte(pc), byte(pc>>8)
		h.Write(b[:])
	}
	ep := NoSquare
	if p.ep != NoSquare {
		for _, m := range p.legalMoves(nil, nil) {
			if m.To == p.ep && p.sq[m.From].Letter() == p.r.pawn {
				ep = p.ep
			}
		}
	}
	fmt.Fprintf(h, "|%d|%d|%d", p.turn, p.castle, ep)
	return h.Sum64()
}

// fnvRepetitions is the former stdPos.repetitions.
func (p *stdPos) fnvRepetitions() int {
	k := p.fnvKey()
	n := 1
	q := p.prev
	for back := 1; q != nil && back <= p.half; back++ {
		if back%2 == 0 && q.fnvKey() == k {
			n++
		}
		q = q.prev
	}
	return n
}

// fnvKey is the former ttPos.key.
func (p *ttPos) fnvKey() uint64 {
	h := fnv.New64a()
	for _, pc := range p.sq {
		h.Write([]byte{byte(pc), byte(pc >> 8)})
	}
	fmt.Fprintf(h, "|%d|%d|%v", p.turn, p.phase, p.hand)
	return h.Sum64()
}

// fnvRepetitions counts p's occurrences in the play phase as the former
// ttPos.Claimable did.
func (p *ttPos) fnvRepetitions() int {
	k, n := p.fnvKey(), 1
	for q := p.prev; q != nil && q.phase == ttPlay; q = q.prev {
		if q.fnvKey() == k {
			n++
		}
	}
	return n
}

// repetitions counts p's occurrences in the play phase with the
// incremental keys, as Claimable now does.
func (p *ttPos) repetitions() int {
	n := 1
	for q := p.prev; q != nil && q.phase == ttPlay; q = q.prev {
		if q.zkey == p.zkey {
			n++
		}
	}
	return n
}

// TestIncrementalKeysEqualRecomputed plays many random games of every
// variant, with a bias toward moving a piece back where it came from so
// that positions repeat, and checks at every position that the key kept
// move by move equals the key recomputed from the whole position, and
// that repetition (chess family: threefold claim, fivefold end;
// Toe-to-Toe: threefold claim; Toto40: superko) counts exactly what the
// former full recomputation counted.
func TestIncrementalKeysEqualRecomputed(t *testing.T) {
	games, plies := 24, 220
	if testing.Short() || raceEnabled { // the former keys' check is quadratic in the game's length
		games, plies = 6, 120
	}
	for _, v := range Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(v.Name()))))
			positions, repeated := 0, 0
			for g := range games {
				pos := v.Start()
				var last [2]Move // each side's previous move
				for ply := 0; ply < plies; ply++ {
					if r, ok := pos.(Roller); ok && r.NeedsRoll() {
						next, err := r.Roll(1 + rng.IntN(6))
						if err != nil {
							t.Fatalf("game %d ply %d: roll: %v", g, ply, err)
						}
						pos = next
						continue
					}
					positions++
					if checkKeys(t, pos, g, ply) {
						repeated++
					}
					legal := pos.Legal()
					if len(legal) == 0 {
						break
					}
					m := legal[rng.IntN(len(legal))]
					back := last[pos.Turn()]
					if rng.IntN(4) > 0 {
						for _, x := range legal {
							if x.Kind == Normal && back.Kind == Normal && x.From == back.To && x.To == back.From {
								m = x
							}
						}
					}
					last[pos.Turn()] = m
					next, err := pos.Play(m)
					if err != nil {
						t.Fatalf("game %d ply %d: %v", g, ply, err)
					}
					pos = next
				}
			}
			t.Logf("%d positions, %d of them repeated an earlier one", positions, repeated)
			switch pos := v.Start().(type) {
			case *stdPos:
				if pos.r.repetition && repeated == 0 {
					t.Error("no position repeated: the games test nothing")
				}
			case *ttPos:
				if repeated == 0 {
					t.Error("no position repeated: the games test nothing")
				}
			}
		})
	}
}

// checkKeys checks pos's incremental key against the recomputed one and
// its repetition count against the former one; it reports whether pos
// repeats an earlier position.
func checkKeys(t *testing.T, pos Position, g, ply int) bool {
	t.Helper()
	switch p := pos.(type) {
	case *stdPos:
		if p.zkey != p.fullKey() {
			t.Fatalf("game %d ply %d %s: incremental key %x, recomputed %x", g, ply, p, p.zkey, p.fullKey())
		}
		got, want := p.repetitions(), p.fnvRepetitions()
		if got != want {
			t.Fatalf("game %d ply %d %s: %d repetitions, the former keys count %d", g, ply, p, got, want)
		}
		return got > 1
	case *ttPos:
		if p.zkey != p.fullKey() {
			t.Fatalf("game %d ply %d %s: incremental key %x, recomputed %x", g, ply, p, p.zkey, p.fullKey())
		}
		if p.phase != ttPlay {
			return false
		}
		got, want := p.repetitions(), p.fnvRepetitions()
		if got != want {
			t.Fatalf("game %d ply %d %s: %d repetitions, the former keys count %d", g, ply, p, got, want)
		}
		return got > 1
	case *totoPos:
		if p.hash != p.fullKey() {
			t.Fatalf("game %d ply %d %s: incremental key %x, recomputed %x", g, ply, p, p.hash, p.fullKey())
		}
		// Superko: no legal move may lead to an arrangement seen before,
		// by a comparison of every square of every earlier position.
		for _, m := range p.Legal() {
			n := p.play(m)
			for q := n.prev; q != nil; q = q.prev {
				if slices.Equal(q.sq, n.sq) {
					t.Fatalf("game %d ply %d: legal move %v repeats an arrangement", g, ply, m)
				}
			}
		}
		return false
	}
	return false
}

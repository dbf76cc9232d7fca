package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// FuzzPositionStringRoundTrip plays random legal actions (and die rolls)
// from the start of a variant, and after each one reads the position
// string back (docs/rules/chess.md#position-string): the position read has the same String, the
// same legal actions and the same Result. What a position string cannot
// hold is the history before it: a position read from its string starts
// its own, so it may allow an action the played one refuses for history
// alone (Toto40's superko, fivefold repetition), and then the result may
// differ too. A finished position reads back finished (RULES.md §10: a
// finished position has perft 0), unless it ended by repetition, which no
// position string can hold; Toto40's captured king is read from the
// string (the side to move has none). Anything else is a bug in writing
// or reading the string.
//
// choices drives the line: each byte picks the next action among the
// legal ones (or the die's value while a roll is due).
func FuzzPositionStringRoundTrip(f *testing.F) {
	for i := range Variants() {
		f.Add(uint8(i), []byte("the quick brown fox jumps over the lazy dog, then the dog bites back: 0123456789"))
		f.Add(uint8(i), []byte(strings.Repeat("\x00\x07\x03\xff\x10", 40)))
		f.Add(uint8(i), []byte(strings.Repeat("\x01\x02", 100)))
	}
	f.Fuzz(func(t *testing.T, which uint8, choices []byte) {
		vs := Variants()
		v := vs[int(which)%len(vs)]
		p := v.Start()
		checkRoundTrip(t, v, p)
		for i, c := range choices {
			if i == 300 {
				break
			}
			if r, ok := p.(Roller); ok && r.NeedsRoll() {
				q, err := r.Roll(int(c)%6 + 1)
				if err != nil {
					t.Fatalf("%s: roll %d refused at %s: %v", v.Name(), int(c)%6+1, p, err)
				}
				p = q
			} else {
				legal := p.Legal()
				if len(legal) == 0 {
					return
				}
				q, err := p.Play(legal[int(c)%len(legal)])
				if err != nil {
					t.Fatalf("%s: a legal action was refused at %s: %v", v.Name(), p, err)
				}
				p = q
			}
			checkRoundTrip(t, v, p)
		}
	})
}

// checkRoundTrip reads p's position string back and compares (see
// FuzzPositionStringRoundTrip).
func checkRoundTrip(t *testing.T, v Variant, p Position) {
	t.Helper()
	s := p.String()
	q, err := v.ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: %q does not read back: %v", v.Name(), s, err)
	}
	if q.String() != s {
		t.Fatalf("%s: %q reads back as %q", v.Name(), s, q.String())
	}
	if res := p.Result(); res.Over && !strings.Contains(res.Reason, "repetition") {
		if q.Result() != res || len(q.Legal()) != 0 || Perft(q, 1) != 0 {
			t.Fatalf("%s: the finished position %q (%v) reads back as %v with %d legal actions (perft 1 = %d), want it finished",
				v.Name(), s, res, q.Result(), len(q.Legal()), Perft(q, 1))
		}
		return
	}
	pl, ql := p.Legal(), q.Legal()
	for _, m := range pl {
		if !slices.Contains(ql, m) {
			t.Fatalf("%s: at %q the action %+v is legal, but not once the string is read back", v.Name(), s, m)
		}
	}
	history := false // q allows an action p refuses for its history alone
	for _, m := range ql {
		if slices.Contains(pl, m) {
			continue
		}
		_, err := p.Play(m)
		if err == nil || !(strings.Contains(err.Error(), "superko") || strings.Contains(err.Error(), "repetition")) {
			t.Fatalf("%s: at %q the action %+v is legal once the string is read back, but the position played refuses it: %v", v.Name(), s, m, err)
		}
		history = true
	}
	if !history && q.Result() != p.Result() {
		t.Fatalf("%s: at %q the result is %v, but %v once the string is read back", v.Name(), s, p.Result(), q.Result())
	}
}

// TestFinishedPositionsReadBackFinished plays seeded random games of every
// variant to their end (or 400 actions) and reads every position, the
// finished ones above all, back from its string (checkRoundTrip): a
// finished position must read back finished, with the same result and no
// legal action (RULES.md §10). The seeds are fixed: the same games every
// run.
func TestFinishedPositionsReadBackFinished(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, v := range Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			finished := 0
			for g := range games {
				rng := rand.New(rand.NewPCG(uint64(g), 0x5eed))
				p := v.Start()
				for range 400 {
					if r, ok := p.(Roller); ok && r.NeedsRoll() {
						q, err := r.Roll(rng.IntN(6) + 1)
						if err != nil {
							t.Fatal(err)
						}
						p = q
						continue
					}
					legal := p.Legal()
					if len(legal) == 0 {
						break
					}
					// Prefer captures, so that games end within the limit.
					m := legal[rng.IntN(len(legal))]
					for _, c := range legal {
						if p.IsCapture(c) && rng.IntN(2) == 0 {
							m = c
							break
						}
					}
					q, err := p.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					p = q
					checkRoundTrip(t, v, p)
				}
				if p.Result().Over {
					finished++
				}
			}
			if finished == 0 {
				t.Errorf("none of %d random games of %s finished: the test checked no finished position", games, v.Name())
			}
			t.Logf("%s: %d of %d games finished", v.Name(), finished, games)
		})
	}
}

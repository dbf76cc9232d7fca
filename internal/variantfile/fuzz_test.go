package variantfile

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// FuzzParse: no input makes the reader panic or hang; what it accepts can
// be described and turned into primitives; a section is either defined or
// refused.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[mychess:chess]\n"))
	f.Add([]byte(explicitChess))
	f.Add([]byte("[v:chess]\ncustomPiece1 = v:mBcpB\nmaxFile = 10\nstartFen = 10/10/10/10/10/10/10/10 w - - 0 1\n"))
	f.Add([]byte("[a:b]\n[b:a]\n"))
	f.Add([]byte("[x:crazyhouse]\nreferee_holes = a1 *2 c*\nking = k:KN\n"))
	f.Add([]byte("fmWfcFifmnDjDgBpRNN3"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Parse(data)
		for _, s := range file.Sections {
			if (s.Def == nil) == (s.Err == nil) {
				t.Fatalf("[%s]: definition %v and error %v", s.Name, s.Def != nil, s.Err)
			}
			if s.Def == nil {
				continue
			}
			if s.Def.Width < 1 || s.Def.Width > MaxBoardSide || s.Def.Height < 1 || s.Def.Height > MaxBoardSide {
				t.Fatalf("[%s]: a %dx%d board was accepted", s.Name, s.Def.Width, s.Def.Height)
			}
			for _, p := range s.Def.Pieces {
				_ = p.Betza.Words()
				p.Betza.Prims()
			}
			if v, err := Build(s.Def); err == nil {
				rules.Perft(v.Start(), 1)
			}
		}
		// The same bytes as one Betza string.
		if len(data) <= MaxBetzaBytes {
			b, err := ParseBetza(string(data))
			if err == nil {
				_ = b.Words()
				prims, _ := b.Prims()
				for _, p := range prims {
					for _, v := range p.Vecs {
						if v.DX > 3 || v.DX < -3 || v.DY > 3 || v.DY < -3 {
							t.Fatalf("%q: a vector %v beyond 3", data, v)
						}
					}
				}
			} else if !strings.Contains(err.Error(), "Betza") {
				t.Fatalf("%q: an error that does not name the Betza string: %v", data, err)
			}
		}
	})
}

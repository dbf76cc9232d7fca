package notation

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestStandardSAN: records and exports write standard SAN (PGN §8.2.3),
// whose letters are read with their case, while mails keep the long form
// where the case-insensitive reader would take the text for another move
// too (docs/rules/README.md#notation).
func TestStandardSAN(t *testing.T) {
	tests := []struct {
		name, variant, fen, coord string
		mail, standard            string
	}{
		// "bxc4" in a mail could be the bishop's capture: the mail
		// writes b3xc4, the record bxc4.
		{"chess pawn beside a bishop", "chess", "4k3/8/8/8/2p5/1P6/4B3/4K3 w - - 0 1", "b3c4", "b3xc4", "bxc4"},
		{"chess bishop beside a pawn", "chess", "4k3/8/8/8/2p5/1P6/4B3/4K3 w - - 0 1", "e2c4", "Bxc4", "Bxc4"},
		{"chess knights", "chess", "4k3/8/8/N1N5/8/8/8/N3K3 w - - 0 1", "a5b3", "Na5b3", "Na5b3"},
		// Two pawns of different files take on d5: the file, written
		// anyway, tells them apart.
		{"chess two pawns take", "chess", "rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "exd5", "exd5"},
		{"chess two pawns take, the other", "chess", "rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq d6 0 2", "c4d5", "cxd5", "cxd5"},
		// Cuarenta's pawn steps diagonally: "fg4" names the f-pawn
		// (the pawn on h3 may step there too); in a mail "fg4" could be
		// a frog's move.
		{"cuarenta pawn beside a frog", "cuarenta", "", "f3g4", "f3-g4", "fg4"},
		// Toe-to-Toe's elephant (E) and the e-pawn.
		{"toetotoe pawn beside an elephant", "toetotoe", "8/e2g2r1/k1p1n1ep/ppppprpn/PPNPPPEP/1P2PR2/8/KE1NG1R1[] w p 0 8", "e4f5", "e4xf5", "exf5"},
		// Toe-to-Toe's pawn on g5 jumps its own pawn to g3, as the g4 pawn
		// steps there: only the whole square tells them apart.
		{"toetotoe two pawns of one file", "toetotoe", "8/3r3r/kengp2e/npppp1pp/NPPPPPpP/5E2/2R3R1/KPGNE3[] b p 1 9", "g4g3", "g4g3", "g4g3"},
		// The wrapped boards' pawns carry their direction: two pawns of
		// the e-file take on f5, one upward, one downward.
		{"toroidal pawns of one file", "toroidal", "8/8/8/8/8/k7/8/8/4P'3/5p2/4P3/8/8/4K3 w - - 0 1", "e6f5", "e6xf5", "e6xf5"},
		{"toroidal across the edge", "toroidal", "pB1P'2P'1/7R/1p2P'QbP'/2P'1pP'2/3p3p/p6N/8/1n2k2r/p'1rp'3p'/1p'6/PP3p'P1/4p'P1P/K4b2/8 b - - 1 83", "b5a4", "b5xa4", "bxa4"},
		// Toto40: the g-pawn steps sideways to h3 beside the h-pawn's
		// step.
		{"toto40 sideways step", "toto40", "p/2/3/Pp2/2K1k/2R2/5/5/N1pp/3/P1/P b L 16", "g4h3", "gh3", "gh3"},
		{"toto40 straight step", "toto40", "p/2/3/Pp2/2K1k/2R2/5/5/N1pp/3/P1/P b L 16", "h4h3", "h4h3", "h4h3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := rules.Lookup(tt.variant)
			if err != nil {
				t.Fatal(err)
			}
			p := v.Start()
			if tt.fen != "" {
				if p, err = v.ParsePosition(tt.fen); err != nil {
					t.Fatal(err)
				}
			}
			m, err := ParseCoord(p, tt.coord)
			if err != nil {
				t.Fatal(err)
			}
			if got := SAN(p, m); got != tt.mail {
				t.Errorf("SAN = %q, want %q", got, tt.mail)
			}
			if got := StandardSAN(p, m); got != tt.standard {
				t.Errorf("StandardSAN = %q, want %q", got, tt.standard)
			}
			if got, err := ParseSAN(p, tt.standard); err != nil || got != m {
				t.Errorf("ParseSAN(%q) = %v, %v; want %s", tt.standard, got, err, tt.coord)
			}
			if tt.mail != tt.standard {
				// The reason the mail differs: read without regard to
				// case, the standard form fits another move too.
				var perr *Error
				if _, err := Parse(p, tt.standard); !errors.As(err, &perr) || len(perr.Candidates) < 2 {
					t.Errorf("Parse(%q) = %v, want an ambiguity", tt.standard, err)
				}
			}
		})
	}
}

// TestStandardSANEveryVariant: in 40 positions of every variant, each legal
// move's StandardSAN reads back (ParseSAN) as that move, and it is never
// the long form (no "-" but in castling).
func TestStandardSANEveryVariant(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			for _, p := range positions(t, v, 40) {
				for _, m := range p.Legal() {
					s := StandardSAN(p, m)
					if got, err := ParseSAN(p, s); err != nil || got != m {
						t.Fatalf("%s: %q read back as %+v, %v (want %s)", p, s, got, err, Coord(p, m))
					}
					if strings.Contains(strings.TrimPrefix(strings.TrimPrefix(s, "O-O-O"), "O-O"), "-") {
						t.Errorf("%s: %s written %q, a long form", p, Coord(p, m), s)
					}
				}
			}
		})
	}
}

func BenchmarkStandardSAN(b *testing.B) {
	p := rules.Chess().Start()
	legal := p.Legal()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		StandardSAN(p, legal[i%len(legal)])
	}
}

// TestParseSANMarksAlone: a record's token that is only marks ("!!", "+",
// an annotation written apart from its move) is no move: ParseSAN refuses
// it, quoting it, as Parse does.
func TestParseSANMarksAlone(t *testing.T) {
	p := rules.Chess().Start()
	for _, in := range []string{"!!", "!?", "+", "#", ""} {
		m, err := ParseSAN(p, in)
		if err == nil {
			t.Errorf("ParseSAN(%q) = %s, want a refusal", in, Coord(p, m))
			continue
		}
		if want := fmt.Sprintf("%q is empty", in); !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSAN(%q): %v, want it to say %s", in, err, want)
		}
	}
}

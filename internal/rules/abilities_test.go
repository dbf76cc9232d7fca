package rules

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVariantAbilities(t *testing.T) {
	// api.go: what differs between games is an ability the variant (or
	// its positions) has; nothing outside rules switches on a name. This
	// table is which variant has which, from RULES.md.
	type abilities struct {
		hands, marks, castling, pawnLetter, perft bool // of the variant
		explain, roller, prompter                 bool // of its positions
		whyNot, effect                            bool
	}
	// The chess family's positions explain drops (WhyNot), which only
	// variant files give them (crazyhouse): "" for the built-in ones.
	chessLike := abilities{castling: true, perft: true, explain: true, whyNot: true}
	tests := map[string]abilities{
		"chess":       chessLike,
		"toroidal":    chessLike,
		"cylindrical": chessLike,
		"klein":       chessLike,
		"cuarenta":    chessLike,
		"toto40":      {marks: true, perft: true, explain: true, prompter: true},
		"toetotoe":    {hands: true, perft: true, explain: true, prompter: true, whyNot: true},
		"chectoe":     {hands: true, pawnLetter: true, roller: true, prompter: true, explain: true, whyNot: true, effect: true},
	}
	for _, v := range Variants() {
		want, ok := tests[v.Name()]
		if !ok {
			t.Errorf("%s: no row in this table", v.Name())
			continue
		}
		var got abilities
		if _, ok := v.(VariantPieces); !ok {
			t.Errorf("%s does not list its pieces (VariantPieces)", v.Name())
		}
		if r, ok := v.(VariantRulesText); !ok || len(r.RulesText()) < 200 {
			t.Errorf("%s has no paragraph of rules for players (VariantRulesText)", v.Name())
		}
		h, ok := v.(VariantHands)
		got.hands = ok && h.HasHands()
		_, got.marks = v.(VariantMarks)
		_, got.castling = v.(VariantCastling)
		pl, ok := v.(VariantPawnLetter)
		got.pawnLetter = ok && pl.PawnLetterRequired()
		got.perft = PerftLimit(v) > 0
		p := v.Start()
		_, got.explain = p.(PositionExplain)
		_, got.roller = p.(Roller)
		_, got.prompter = p.(Prompter)
		_, got.whyNot = p.(ActionExplain)
		_, got.effect = p.(ActionEffect)
		if got != want {
			t.Errorf("%s: abilities %+v, want %+v", v.Name(), got, want)
		}
	}
}

func TestCastlingSAN(t *testing.T) {
	// docs/rules/chess.md: O-O toward the h-file, O-O-O toward the a-file. §5:
	// Cuarenta's one castling is O-O for both sides, though Black's king
	// goes e8-b9, toward the a-file.
	tests := []struct {
		v        Variant
		from, to string
		want     string
	}{
		{Chess(), "e1", "g1", "O-O"},
		{Chess(), "e1", "c1", "O-O-O"},
		{Chess(), "e8", "c8", "O-O-O"},
		{Toroidal(), "e8", "g8", "O-O"},
		{Cuarenta(), "e2", "h1", "O-O"},
		{Cuarenta(), "e8", "b9", "O-O"},
	}
	for _, tt := range tests {
		b := tt.v.Board()
		from, _ := b.ParseSquare(tt.from)
		to, _ := b.ParseSquare(tt.to)
		got := tt.v.(VariantCastling).CastlingSAN(Move{Kind: Castle, From: from, To: to})
		if got != tt.want {
			t.Errorf("%s %s-%s: %s, want %s", tt.v.Name(), tt.from, tt.to, got, tt.want)
		}
	}
}

// quotedVariantName returns the first variant name line holds in double
// quotes, or "" (comment lines are not code and are skipped).
func quotedVariantName(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "//") {
		return ""
	}
	for _, v := range Variants() {
		if strings.Contains(line, `"`+v.Name()+`"`) {
			return v.Name()
		}
	}
	return ""
}

func TestNoPackageOutsideRulesNamesAVariant(t *testing.T) {
	// api.go: a variant is its own file in this package plus one registry
	// line; code elsewhere asks the variant (its abilities, Orthodox) and
	// never compares its name. So no non-test Go file of another internal
	// package holds a variant's name in quotes.
	for line, want := range map[string]string{
		`	if v.Name() == "cuarenta" {`: "cuarenta",
		`	case "toroidal", "klein":`:   "toroidal",
		`	//	[Variant "chectoe"]`:      "",
		`	name = rules.Orthodox`:       "",
		`	s := "chessboard"`:           "",
	} {
		if got := quotedVariantName(line); got != want {
			t.Errorf("quotedVariantName(%q) = %q, want %q", line, got, want)
		}
	}
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "rules" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if name := quotedVariantName(sc.Text()); name != "" {
				t.Errorf("%s:%d names the variant %q: ask the variant instead (rules' abilities)", path, n, name)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("only %d Go files found outside internal/rules: the walk looked in the wrong place", files)
	}
}

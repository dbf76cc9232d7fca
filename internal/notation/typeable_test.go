package notation

import (
	"testing"

	"referee/internal/rules"
)

func TestTypeableFormsReadAsTheSameMove(t *testing.T) {
	// Every Chec Toe move listed with a Unicode mark must read back, typed
	// with ASCII marks, as the very same move. Walk a game with a die that
	// cycles 1..5 and check every position on the way.
	v, err := rules.Lookup("chectoe")
	if err != nil {
		t.Fatal(err)
	}
	pos, n, die := v.Start(), 0, 0
	for ply := 0; ply < 60 && !pos.Result().Over; ply++ {
		if r, ok := pos.(rules.Roller); ok && r.NeedsRoll() {
			die = die%5 + 1
			if pos, err = r.Roll(die); err != nil {
				t.Fatal(err)
			}
			continue
		}
		legal := pos.Legal()
		for _, m := range legal {
			san := SAN(pos, m)
			if typed := Typeable(san); typed != san {
				n++
				if got, err := Parse(pos, typed); err != nil || got != m {
					t.Errorf("%s typed as %s reads as %v, %v", san, typed, got, err)
				}
			}
		}
		next := legal[(ply*7)%len(legal)]
		if pos, err = pos.Play(next); err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Error("no move with a Unicode mark was listed: the test checks nothing")
	}
}

func TestMarksNote(t *testing.T) {
	// docs/rules/README.md#notation: a move list shows ⌃ and °; the note under it says how
	// to type them, and only for the marks the list holds.
	tests := []struct {
		sans []string
		want string
	}{
		{[]string{"e4", "e5"}, ""},
		{[]string{"P@b2", "Nc3°"}, "Marks: ° a Wizard move (type o)."},
		{[]string{"Nb4⌃", "Bxc3°"}, "Marks: ° a Wizard move (type o); ⌃ a Checker move (type ^)."},
	}
	for _, tt := range tests {
		if got := MarksNote(tt.sans); got != tt.want {
			t.Errorf("MarksNote(%q) = %q, want %q", tt.sans, got, tt.want)
		}
	}
}

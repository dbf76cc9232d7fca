package event

import "testing"

func TestBracketSeeding(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{2, "1-2"},
		{4, "1-4 2-3"},
		{8, "1-8 4-5 2-7 3-6"},
		{16, "1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11"},
	}
	for _, tt := range tests {
		got, err := Bracket(tt.n)
		if err != nil {
			t.Fatal(err)
		}
		if show(got) != tt.want {
			t.Errorf("Bracket(%d) = %s, want %s", tt.n, show(got), tt.want)
		}
	}
}

// TestBestSeedsMeetLast: if the better seed always wins, the last round of
// a 32-entrant knockout is 1 against 2 and the semi-finals are 1-4 and 2-3.
func TestBestSeedsMeetLast(t *testing.T) {
	round, err := Bracket(32)
	if err != nil {
		t.Fatal(err)
	}
	rounds := []string{}
	for len(round) > 0 {
		rounds = append(rounds, show(round))
		if len(round) == 1 {
			break
		}
		var winners []int
		for _, m := range round {
			winners = append(winners, min(m.White, m.Black))
		}
		if round, err = NextRound(winners); err != nil {
			t.Fatal(err)
		}
	}
	if len(rounds) != 5 {
		t.Fatalf("%d rounds, want 5", len(rounds))
	}
	if rounds[3] != "1-4 2-3" || rounds[4] != "1-2" {
		t.Fatalf("semi-finals %s, final %s; want 1-4 2-3 and 1-2", rounds[3], rounds[4])
	}
}

func TestBracketRefusesOtherSizes(t *testing.T) {
	for _, n := range []int{0, 1, 3, 6, 64} {
		if _, err := Bracket(n); err == nil {
			t.Errorf("Bracket(%d) accepted", n)
		}
	}
}

// TestNextRoundPairsWinnersInOrder: the winners of matches 1 and 2 meet,
// then those of 3 and 4, the earlier match's winner White; a round cannot
// be paired from an odd number of winners or from none (a bracket always
// halves, so that would be a broken event record, not a bye).
func TestNextRoundPairsWinnersInOrder(t *testing.T) {
	tests := []struct {
		winners []int
		want    string // "" when refused
	}{
		{[]int{1, 4, 2, 3}, "1-4 2-3"},
		{[]int{5, 1}, "5-1"},
		{nil, ""},
		{[]int{1}, ""},
		{[]int{1, 2, 3}, ""},
		{[]int{1, 8, 4, 5, 2}, ""},
	}
	for _, tt := range tests {
		got, err := NextRound(tt.winners)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("NextRound(%v) = %s, want it refused", tt.winners, show(got))
		case tt.want != "" && err != nil:
			t.Errorf("NextRound(%v): %v", tt.winners, err)
		case tt.want != "" && show(got) != tt.want:
			t.Errorf("NextRound(%v) = %s, want %s", tt.winners, show(got), tt.want)
		}
	}
}

package referee

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

func TestRefusalsSayWhatWasMeant(t *testing.T) {
	// Issue 33: a greeting paragraph is not "your move"; an ambiguous move
	// names its candidates once; an impossible pawn move names a pawn the
	// player could have meant (the one on the target's file), or none.
	tests := []struct {
		name, start string // "" for the start position
		before      []string
		side        rules.Color
		in          string
		want        []string
		not         []string
	}{
		{name: "a greeting paragraph", side: rules.White, in: "Thanks for the game, it was great fun and I hope we play again soon",
			want: []string{`The first line of your mail, "Thanks for the game, it was great fun ...", is not a move or a command`,
				"put the move there alone", "greetings and messages on the lines below it"},
			not: []string{"Your move"}},
		{name: "ambiguous", start: "4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1", side: rules.White, in: "Nb5",
			want: []string{`it fits more than one legal move: Ncb5 or Ndb5. Reply with the one you mean`},
			not:  []string{"more than one legal move fits", "fits more than one move:"}},
		{name: "Black's c4 at move 1", before: []string{"e4"}, side: rules.Black, in: "c4",
			want: []string{"your pawn on c7 cannot go to c4: a pawn does not move that way"}, not: []string{"a7"}},
		{name: "no pawn on the file", start: "4k3/p7/8/8/8/8/8/4K3 b - - 0 1", side: rules.Black, in: "c4",
			want: []string{"none of your pawns can go to c4"}, not: []string{"a7"}},
		{name: "two knights, neither moves that way", before: []string{"e4"}, side: rules.Black, in: "Nb5",
			want: []string{"none of your knights can go to b5: a knight does not move that way"}, not: []string{"b8", "g8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			if tt.start != "" {
				g.Start = tt.start
			}
			for _, m := range tt.before {
				if out := act(t, r, g, rules.Color(g.Ply()%2), m); out.Verdict != Applied {
					t.Fatalf("%s: %v", m, out.Verdict)
				}
			}
			out := act(t, r, g, tt.side, tt.in)
			if out.Verdict != Rejected || len(out.Mails) != 1 {
				t.Fatalf("%s: %v, %d mails", tt.in, out.Verdict, len(out.Mails))
			}
			got := strings.Join(strings.Fields(out.Mails[0].Board.Headline), " ")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("headline %q\nlacks %q", got, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("headline %q\nsays %q", got, w)
				}
			}
		})
	}
}

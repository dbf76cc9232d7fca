package rules

import (
	"errors"
	"testing"

	"referee/internal/lang"
)

func TestToto40LineSteps(t *testing.T) {
	// A rook on c8 (on the line) slides within White's section (c7, c6, b8,
	// a8; d8 and c9 are Black's) and steps along the line to b9 and d7.
	p := setup(t, Toto40(), map[string]string{"c8": "R", "h1": "K", "a12": "k"}, "w - 1")
	if got, want := movesFrom(p, "c8"), []string{"c8a8", "c8b8", "c8b9", "c8c6", "c8c7", "c8d7"}; !same(got, want) {
		t.Errorf("rook c8: %v, want %v", got, want)
	}
	// A pawn on the line only steps along it.
	q := setup(t, Toto40(), map[string]string{"d7": "P", "h1": "K", "a12": "k"}, "w - 1")
	if got, want := movesFrom(q, "d7"), []string{"d7c8", "d7e6"}; !same(got, want) {
		t.Errorf("pawn d7 on the line: %v, want %v", got, want)
	}
}

func TestToto40KingCaptureWins(t *testing.T) {
	p := setup(t, Toto40(), map[string]string{"c8": "R", "h1": "K", "b9": "k"}, "w L 1")
	n := play(t, p, "c8", "b9")
	if res := n.Result(); !res.Over || res.Winner != White || res.Reason != "White captured Black's king" {
		t.Errorf("after Rxb9: %v, want White wins by capturing the king", res)
	}
}

func TestToto40LeavingTheLineLoses(t *testing.T) {
	// Once the line has been entered, a player who ends a turn with no piece
	// on it loses — the move is legal and listed, it simply loses.
	p := setup(t, Toto40(), map[string]string{"c8": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1")
	if !hasMove(p, "c8", "c7") {
		t.Fatal("leaving the line is not listed")
	}
	n := play(t, p, "c8", "c7")
	if res := n.Result(); !res.Over || res.Winner != Black {
		t.Errorf("after leaving the line: %v, want Black wins", res)
	}
}

func TestToto40NoLegalMoveLoses(t *testing.T) {
	// White's only piece, a pawn on a9, is blocked by Black on a10 and
	// cannot capture into Black's section: White loses.
	p := setup(t, Toto40(), map[string]string{"a9": "P", "a10": "k"}, "w - 1")
	if res := p.Result(); !res.Over || res.Winner != Black {
		t.Errorf("%v, want Black wins (White has no legal move)", res)
	}
}

func TestToto40Superko(t *testing.T) {
	// c6-c7, f7-e8, c7-c6: now e8-f7 would repeat the first arrangement.
	p := setup(t, Toto40(), map[string]string{"c6": "K", "f7": "k"}, "w - 1")
	p = play(t, p, "c6", "c7")
	p = play(t, p, "f7", "e8")
	p = play(t, p, "c7", "c6")
	if hasMove(p, "e8", "f7") {
		t.Fatal("e8-f7 is offered though it repeats the start")
	}
	b := p.Variant().Board()
	e8, _ := b.ParseSquare("e8")
	f7, _ := b.ParseSquare("f7")
	_, err := p.Play(Move{Kind: Normal, From: e8, To: f7})
	if !errors.Is(err, ErrIllegal) || !contains(err.Error(), "superko") {
		t.Errorf("playing it: %v, want an illegal-move error naming superko", err)
	}
}

func TestToto40LineLeftIsReadFromTheString(t *testing.T) {
	// docs/rules/toto40.md: once the line has been entered, the mover who ends the
	// turn with no piece on it loses. The position string holds all of
	// it (the flag L, and White, who just moved, has nothing on the
	// line), so the position read from the string is over too.
	p := setup(t, Toto40(), map[string]string{"c8": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1")
	q := play(t, p, "c8", "c7")
	if res := q.Result(); !res.Over || res.Winner != Black {
		t.Fatalf("after c8-c7: %v, want Black wins (White ended a turn with no piece on the fighting line)", res)
	}
	r, err := Toto40().ParsePosition(q.String())
	if err != nil {
		t.Fatal(err)
	}
	if r.Result() != q.Result() || len(r.Legal()) != 0 {
		t.Errorf("%s read from its string: %v with %d legal moves, want %v and none", q, r.Result(), len(r.Legal()), q.Result())
	}
}

func TestToto40EndingsSayWhatHappened(t *testing.T) {
	// docs/rules/toto40.md's endings, in its order, each with a reason that says
	// what happened. The line rule binds once ANY piece has stood on the
	// line: a side that was never on it loses too, and its reason must not
	// say it "left" the line.
	tests := []struct {
		name   string
		pieces map[string]string
		rest   string
		from   string // White's move, "" for none
		to     string
		winner Color
		reason string
	}{
		{"king captured", map[string]string{"c8": "R", "h1": "K", "b9": "k"}, "w L 1", "c8", "b9", White, "White captured Black's king"},
		{"a side moves its line piece off", map[string]string{"c8": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1", "c8", "c7", Black,
			"White ended a turn with no piece on the fighting line"},
		{"a side that was never on the line", map[string]string{"c6": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1", "c6", "c7", Black,
			"White ended a turn with no piece on the fighting line"},
		// Without kings (composed: a game never loses one without ending),
		// so that only the third ending applies.
		{"no legal move", map[string]string{"a9": "P", "a10": "p"}, "w L 1", "", "", Black, "White has no legal move"},
		{"a string without the mover's king", map[string]string{"a9": "P", "a10": "k"}, "w - 1", "", "", Black, "Black captured White's king"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t, Toto40(), tt.pieces, tt.rest)
			if tt.from != "" {
				p = play(t, p, tt.from, tt.to)
			}
			res := p.Result()
			if !res.Over || res.Draw || res.Winner != tt.winner || res.Reason != tt.reason {
				t.Errorf("%v, want %s wins (%s)", res, tt.winner, tt.reason)
			}
			if contains(res.Reason, "left") {
				t.Errorf("the reason %q says a side left the line", res.Reason)
			}
		})
	}
}

func TestToto40PromptSaysWhenTheLineRuleBinds(t *testing.T) {
	// docs/rules/toto40.md: once the line has been entered, a player who ends the
	// turn with no piece on it loses. The prompt says so when this turn
	// can lose that way: no piece of the mover's on the line, or one.
	tests := []struct {
		name   string
		pieces map[string]string
		rest   string
		want   string // "" : the plain prompt
	}{
		{"line not entered yet", map[string]string{"c6": "R", "h1": "K", "a12": "k"}, "w - 1", ""},
		{"two pieces on the line", map[string]string{"c8": "R", "d7": "P", "h1": "K", "a12": "k", "e6": "p"}, "w L 1", ""},
		{"one piece on the line", map[string]string{"c8": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1",
			"Your rook on c8 is your only piece on the fighting line"},
		{"none on the line", map[string]string{"c6": "R", "h1": "K", "a12": "k", "e6": "p"}, "w L 1",
			"You have no piece on the fighting line (marked *): put one on it this turn, or you lose."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t, Toto40(), tt.pieces, tt.rest)
			pr, ok := p.(Prompter)
			if !ok {
				t.Fatal("a Toto40 position has no Prompt")
			}
			got := pr.Prompt()
			switch {
			case tt.want == "" && got != "It is your move.":
				t.Errorf("Prompt = %q, want the plain %q", got, "It is your move.")
			case tt.want != "" && !contains(got, tt.want):
				t.Errorf("Prompt = %q, want it to say %q", got, tt.want)
			}
		})
	}
}

// TestToto40ReasonsInTheReadersLanguage: a move into the enemy section is
// refused with a reason written in the reader's language (the catalog's
// German), and in English by WhyIllegal.
func TestToto40ReasonsInTheReadersLanguage(t *testing.T) {
	p := Toto40().Start().(*totoPos)
	c, err := lang.Load()
	if err != nil {
		t.Fatal(err)
	}
	var from, to Square = NoSquare, NoSquare
	for _, s := range p.v.board.squares {
		if pc := p.sq[s]; pc != NoPiece && pc.Color() == White && from == NoSquare {
			from = s
		}
		if p.v.section(s) == 1 && to == NoSquare {
			to = s
		}
	}
	why := p.WhyIllegalText(from, to)
	if why == nil {
		t.Fatal("no reason for a move into the enemy section")
	}
	if got, want := why.In(c.Printer("de")), "keine Figur darf den gegnerischen Teil betreten (geschlagen wird nur auf der Kampflinie)"; got != want {
		t.Errorf("German: %q, want %q", got, want)
	}
	if got, want := p.WhyIllegal(from, to), "no piece may enter the enemy section (captures happen only on the fighting line)"; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
}

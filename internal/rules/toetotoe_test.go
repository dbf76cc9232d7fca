package rules

import (
	"strings"
	"testing"

	"referee/internal/lang"
)

const ttDeployed = "K@e1,G@d2 K@e8,G@d7 E@c3,E@f3 E@c6,E@f6 N@b2,N@g2 N@b7,N@g7 R@a1,R@h1 R@a8,R@h8"

// playCoords plays moves written in coordinate form (deployments K@e1,G@d1,
// swaps a4<>b4, moves e2e4) without the notation package.
func playCoords(t *testing.T, p Position, moves string) Position {
	t.Helper()
	b := p.Variant().Board()
	for _, mv := range strings.Fields(moves) {
		var found *Move
		for _, m := range p.Legal() {
			if coordOf(b, m) == mv {
				m := m
				found = &m
			}
		}
		if found == nil {
			t.Fatalf("%s is not legal in %s", mv, p)
		}
		n, err := p.Play(*found)
		if err != nil {
			t.Fatal(err)
		}
		p = n
	}
	return p
}

func coordOf(b *Board, m Move) string {
	switch m.Kind {
	case Deploy:
		var parts []string
		for _, pl := range m.Place[:m.NPlace] {
			parts = append(parts, string(pl.Piece)+"@"+b.SquareName(pl.To))
		}
		return strings.Join(parts, ",")
	case Swap:
		return b.SquareName(m.From) + "<>" + b.SquareName(m.To)
	case PromoteInPlace:
		return b.SquareName(m.From) + "=" + strings.ToLower(string(m.Promo))
	case Drop:
		return string(m.Piece) + "@" + b.SquareName(m.To)
	case Reroll:
		return "reroll"
	case Roll:
		return "roll"
	case Pass:
		return "pass"
	case Checker:
		return b.SquareName(m.From) + b.SquareName(m.To) + "^"
	case Wizard:
		return b.SquareName(m.From) + b.SquareName(m.To) + "o"
	}
	s := b.SquareName(m.From) + b.SquareName(m.To)
	if m.Promo != 0 {
		s += strings.ToLower(string(m.Promo))
	}
	return s
}

func TestToeToToeDeploymentCounts(t *testing.T) {
	// Each deployment turn places its two pieces on empty squares of the
	// deployer's 24-square zone: K+G distinct, so ordered pairs 24×23 = 552;
	// then alike pairs, unordered: E+E on 22 empty squares C(22,2) = 231,
	// N+N on 20: 190, R+R on 18: 153 (the pawn walls keep every king safe).
	want := []int{552, 552, 231, 231, 190, 190, 153, 153}
	p := ToeToToe().Start()
	steps := strings.Fields(ttDeployed)
	for i, w := range want {
		if got := len(p.Legal()); got != w {
			t.Errorf("deployment turn %d: %d actions, want %d", i+1, got, w)
		}
		p = playCoords(t, p, steps[i])
	}
	if !strings.Contains(p.String(), "[] w s1 0 5") {
		t.Errorf("after deployment: %s, want empty hands, White to swap (s1), move 5", p)
	}
}

func TestToeToToePerftSuitePositions(t *testing.T) {
	// testdata/toetotoe.perft counts from two positions docs/rules/README.md#checking-an-implementation
	// reaches by play: the deployments, then six pass-swaps. Its position
	// strings are the ones that play reaches.
	p := playCoords(t, ToeToToe().Start(), ttDeployed)
	if got, want := p.String(), "r3k2r/1n1g2n1/2e2e2/pppppppp/PPPPPPPP/2E2E2/1N1G2N1/R3K2R[] w s1 0 5"; got != want {
		t.Errorf("after the deployments: %s, want %s (the \"first swap\" of the suite)", got, want)
	}
	q := playCoords(t, p, "a4<>b4 a5<>b5 a4<>b4 a5<>b5 a4<>b4 a5<>b5")
	if got, want := q.String(), "r3k2r/1n1g2n1/2e2e2/pppppppp/PPPPPPPP/2E2E2/1N1G2N1/R3K2R[] w p 0 8"; got != want {
		t.Errorf("after six swaps: %s, want %s (the \"first play move\" of the suite)", got, want)
	}
	for _, c := range []struct {
		pos   Position
		depth int
	}{{p, 2}, {q, 2}} {
		fresh, err := ToeToToe().ParsePosition(c.pos.String())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Perft(fresh, c.depth), Perft(c.pos, c.depth); got != want {
			t.Errorf("%s: perft(%d) = %d read from its string, %d reached by play", c.pos, c.depth, got, want)
		}
	}
}

func TestToeToToeSwapExposingKingRefused(t *testing.T) {
	// docs/rules/toetotoe.md: a swap is illegal if afterwards either king is attacked.
	// Black's horse on b5 attacks a3, so swapping the king e1 with the horse
	// a3 is refused; swapping the king with the chariot h1 is fine.
	p := setup(t, ToeToToe(), map[string]string{"e1": "K", "a3": "N", "e8": "k", "b5": "n", "h1": "R"}, "s1")
	for _, m := range p.Legal() {
		if coordOf(p.Variant().Board(), m) == "a3<>e1" {
			t.Fatal("a swap that puts the king on a3, attacked by the horse on b5, is allowed")
		}
	}
	found := false
	for _, m := range p.Legal() {
		if coordOf(p.Variant().Board(), m) == "e1<>h1" {
			found = true
		}
	}
	if !found {
		t.Error("the safe swap e1<>h1 is not offered")
	}
}

func TestToeToToePawnLeap(t *testing.T) {
	// A pawn leaps over the piece straight ahead onto an empty square; not
	// when the landing square is occupied, and never capturing.
	p := setup(t, ToeToToe(), map[string]string{"e4": "P", "e5": "p", "a1": "K", "h8": "k"}, "p")
	if got, want := movesFrom(p, "e4"), []string{"e4e6"}; !same(got, want) {
		t.Errorf("pawn e4 facing e5: %v, want %v", got, want)
	}
	q := setup(t, ToeToToe(), map[string]string{"e4": "P", "e5": "p", "e6": "n", "a1": "K", "h8": "k"}, "p")
	if got := movesFrom(q, "e4"); len(got) != 0 {
		t.Errorf("pawn e4 with e6 occupied: %v, want no move", got)
	}
}

func TestToeToToePromotionFromPool(t *testing.T) {
	// A pawn on the last rank becomes one of its side's captured pieces, a
	// whole turn; each captured piece can come back once.
	p := setup(t, ToeToToe(), map[string]string{"e8": "P", "a1": "K", "h6": "k", "c5": "p"}, "p")
	if got := movesFrom(p, "e8"); len(got) != 0 {
		t.Errorf("promotion with an empty pool: %v", got)
	}
	pool := setupHands(t, map[string]string{"e8": "P", "a1": "K", "h6": "k", "c5": "p"}, "GN", "p")
	if got := movesFrom(pool, "e8"); len(got) != 2 {
		t.Errorf("pool G N: %d promotions %v, want 2 (to G and to N)", len(got), got)
	}
	n := playCoords(t, pool, "e8=g")
	if h := string(n.Hand(White)); h != "N" {
		t.Errorf("after e8=G the pool holds %q, want N", h)
	}
}

func TestToeToToeStalemateIllegal(t *testing.T) {
	// docs/rules/toetotoe.md: Gb6 would leave the black king on a8 (Black's only
	// piece) without a safe move while not in check: a7, b7 and b8 all
	// attacked by the general. Such a move is illegal; Gb5 is not.
	p := setup(t, ToeToToe(), map[string]string{"a8": "k", "c1": "K", "b4": "G"}, "p")
	for _, m := range movesFrom(p, "b4") {
		if m == "b4b6" {
			t.Error("Gb6, which stalemates the black king on a8, is allowed")
		}
	}
	if !hasMove(p, "b4", "b5") {
		t.Errorf("Gb5 (the king keeps a7 and b8) is missing: %v", movesFrom(p, "b4"))
	}
}

// setupHands is setup for Toe-to-Toe with White's capture pool.
func setupHands(t *testing.T, pieces map[string]string, whitePool string, phase string) Position {
	t.Helper()
	p := setup(t, ToeToToe(), pieces, phase)
	s := p.String()
	i := strings.Index(s, "[]")
	q, err := ToeToToe().ParsePosition(s[:i] + "[" + whitePool + "]" + s[i+2:])
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestToeToToePassIsASwapOfAlikePieces(t *testing.T) {
	// docs/rules/toetotoe.md: there is no pass command; during the swaps a player
	// passes by swapping two alike pieces. "pass" is answered with the
	// exact swap to send, one that is legal now (the two rooks, a1<>h1).
	p := playCoords(t, ToeToToe().Start(), ttDeployed)
	why := p.(ActionExplain).WhyNot(Move{Kind: Pass, From: NoSquare, To: NoSquare})
	if !strings.Contains(why, "swap two alike pieces, e.g. \"a1<>h1\"") {
		t.Fatalf("WhyNot(pass) during the swaps = %q", why)
	}
	if q := playCoords(t, p, "a1<>h1"); q.Turn() == p.Turn() {
		t.Error("the suggested pass swap was not played")
	}
	if got := p.(Prompter).Prompt(); !strings.Contains(got, "to pass, swap two alike pieces, e.g. \"a1<>h1\"") {
		t.Errorf("the swap prompt does not say how to pass: %q", got)
	}
	// While deploying, the answer says what to place.
	if got := ToeToToe().Start().(ActionExplain).WhyNot(Move{Kind: Pass, From: NoSquare, To: NoSquare}); !strings.Contains(got, "Deployment 1 of 8") {
		t.Errorf("WhyNot(pass) while deploying = %q", got)
	}
}

// TestToeToToeReasonsInTheReadersLanguage: the deployment's and the
// swaps' reasons (WhyNotText) are written in the reader's language, and
// in English by WhyNot, the same words.
func TestToeToToeReasonsInTheReadersLanguage(t *testing.T) {
	c, err := lang.Load()
	if err != nil {
		t.Fatal(err)
	}
	start := ToeToToe().Start()
	e1, _ := ToeToToe().Board().ParseSquare("e1")
	swaps := playCoords(t, start, ttDeployed)
	third := playCoords(t, start, "K@e1,G@d1 K@e8,G@d8") // deployment 3 places two elephants
	pass := Move{Kind: Pass, From: NoSquare, To: NoSquare}
	for _, tc := range []struct {
		name   string
		p      Position
		m      Move
		de, en string
	}{
		{"one piece of two", start, Move{Kind: Drop, Piece: 'K', From: NoSquare, To: e1},
			"ein Aufstellungszug setzt beide Figuren in einer Antwort: in diesem Zug Ihre Figuren König und General",
			"a deployment turn places both pieces in one reply: this turn your king and your general"},
		{"alike pieces", third, Move{Kind: Drop, Piece: 'R', From: NoSquare, To: e1},
			"Aufstellung 3 von 8 setzt Ihre beiden Elefanten, nicht die Figur Streitwagen",
			"deployment 3 of 8 places both your elephants, not a chariot"},
		{"pass while deploying", start, pass, "während der Aufstellung wird nicht gepasst. Aufstellung 1 von 8",
			"there is no passing during the deployment. Deployment 1 of 8"},
		{"pass while swapping", swaps, pass, "es gibt keinen Befehl \"pass\": um einen Tauschzug zu passen, tauschen Sie zwei gleiche Figuren, z. B. \"a1<>h1\"",
			"there is no \"pass\" command: to pass a swap turn, swap two alike pieces, e.g. \"a1<>h1\""},
	} {
		x := tc.p.(ActionExplainText)
		why := x.WhyNotText(tc.m)
		if why == nil {
			t.Errorf("%s: no reason", tc.name)
			continue
		}
		if got := why.In(c.Printer("de")); !strings.Contains(got, tc.de) {
			t.Errorf("%s: German %q, want it to say %q", tc.name, got, tc.de)
		}
		if got := tc.p.(ActionExplain).WhyNot(tc.m); !strings.Contains(got, tc.en) {
			t.Errorf("%s: English %q, want it to say %q", tc.name, got, tc.en)
		}
	}
}

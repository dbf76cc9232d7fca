package game

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"referee/internal/rules"
)

func TestRecordRoundTrip(t *testing.T) {
	// A record written by WriteTo reads back to the same tags, moves, rolls
	// and the positions of the rolls among the moves.
	rec := &Record{
		Tags:        []Tag{{"Event", "Correspondence game #3"}, {"Variant", "chectoe"}, {"GameId", "3"}, {"Note", `a "quoted" word`}},
		Moves:       []string{"P@b2", "reroll", "N@c3", "K@e1,G@d1", "K@e8 G@d8"},
		Rolls:       []RecordRoll{{1, 1, "aa"}, {2, 6, "bb"}, {3, 4, "cc"}, {4, 2, ""}, {5, 3, "dd"}},
		RollsBefore: []int{1, 1, 4, 4, 5},
		Dates:       []string{"2026.11.20", "", "2026.11.21", "2026.11.21", "2026.11.25"},
		Comment:     "Aborted by the organiser: a {braced} reason.",
		Result:      "*",
	}
	var b strings.Builder
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	got, err := ParseRecord(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("ParseRecord: %v\n%s", err, b.String())
	}
	want := *rec
	// One token per move: the canonical deployment as it is, the space
	// form of older records joined with a comma.
	want.Moves = []string{"P@b2", "reroll", "N@c3", "K@e1,G@d1", "K@e8,G@d8"}
	if !reflect.DeepEqual(got.Tags, want.Tags) || !reflect.DeepEqual(got.Moves, want.Moves) ||
		!reflect.DeepEqual(got.Rolls, want.Rolls) || !reflect.DeepEqual(got.RollsBefore, want.RollsBefore) || got.Result != "*" ||
		!reflect.DeepEqual(got.Dates, want.Dates) {
		t.Errorf("round trip:\n got %+v\nwant %+v\ntext:\n%s", got, want, b.String())
	}
}

func TestRecordNumbersByTurn(t *testing.T) {
	// docs/rules/chectoe.md: a Chec Toe turn may hold several actions (a re-roll and
	// the move after it), and the move number goes up after Black's turn.
	// The record numbers by turn, as the status line does: one number per
	// turn, Black's turn marked "N..." where it follows rolls or several
	// actions, so no turn is split and none is taken for the other side's.
	w, b := rules.White, rules.Black
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"chess, no rolls", Record{Moves: []string{"e4", "e5", "Nf3"}, Sides: []rules.Color{w, b, w}, Numbers: []int{1, 1, 2}},
			"1. e4 e5 2. Nf3 *"},
		{"Black re-rolls", Record{
			Moves:   []string{"P@b2", "reroll", "N@c3", "B@a1"},
			Sides:   []rules.Color{w, b, b, w},
			Numbers: []int{1, 1, 1, 2},
			Rolls:   []RecordRoll{{1, 3, ""}, {2, 5, ""}, {3, 2, ""}, {4, 3, ""}}, RollsBefore: []int{1, 2, 3, 4}},
			"1. {die 1 = 3} P@b2 1... {die 2 = 5} reroll {die 3 = 2} N@c3 2. {die 4 = 3} B@a1 *"},
		{"White re-rolls", Record{
			Moves:   []string{"reroll", "N@c3", "pass"},
			Sides:   []rules.Color{w, w, b},
			Numbers: []int{1, 1, 1},
			Rolls:   []RecordRoll{{1, 3, ""}, {2, 2, ""}, {3, 4, ""}}, RollsBefore: []int{1, 2, 3}},
			"1. {die 1 = 3} reroll {die 2 = 2} N@c3 1... {die 3 = 4} pass *"},
		{"set up with Black to move", Record{Moves: []string{"e5", "Nf3"}, Sides: []rules.Color{b, w}, Numbers: []int{30, 31}},
			"30... e5 31. Nf3 *"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sb strings.Builder
			tt.rec.Result = "*"
			tt.rec.WriteTo(&sb)
			if got := strings.Join(strings.Fields(sb.String()), " "); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			back, err := ParseRecord(strings.NewReader(sb.String()))
			if err != nil || !reflect.DeepEqual(back.Moves, tt.rec.Moves) {
				t.Errorf("read back: %q, %v", back.Moves, err)
			}
		})
	}
}

func TestParseRecordTolerance(t *testing.T) {
	tests := []struct {
		name, text string
		moves      []string
		result     string
	}{
		{"plain PGN", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 $1 3.Bb5 1-0\n", []string{"e4", "e5", "Nf3", "Nc6", "Bb5"}, "1-0"},
		{"black to move first number", "1... e5 2. Nf3 *", []string{"e5", "Nf3"}, "*"},
		{"semicolon comment", "1. e4 ; rest of line ignored e5\ne5 1/2-1/2", []string{"e4", "e5"}, "1/2-1/2"},
		{"no result token uses the tag", "[Result \"0-1\"]\n\n1. f3 e5", []string{"f3", "e5"}, "0-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseRecord(strings.NewReader(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Moves, tt.moves) || r.Result != tt.result {
				t.Errorf("got moves %q result %q, want %q %q", r.Moves, r.Result, tt.moves, tt.result)
			}
		})
	}
}

func TestParseRecordErrors(t *testing.T) {
	for _, text := range []string{
		"[Event]\n",                  // a tag without a value
		"[Event unquoted]\n",         // an unquoted value
		"1. e4 {never closed",        // an open comment
		"1. e4 {die x = 3 sig aa} *", // a die comment that is not one
	} {
		if _, err := ParseRecord(strings.NewReader(text)); err == nil {
			t.Errorf("ParseRecord(%q) = nil error, want one", text)
		}
	}
}

func TestRecordWrapsOnlyBetweenFullMoves(t *testing.T) {
	// Issue 33: a record in a mail was folded as "8. Be3" / "O-O 9. Qd2".
	// WriteTo breaks lines only between full moves (number, White's and
	// Black's action, their comments), at the width asked for.
	sans := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6")
	for _, width := range []int{0, 72} {
		rec := &Record{Moves: sans, Result: "*", Width: width}
		for i := range sans {
			rec.Dates = append(rec.Dates, fmt.Sprintf("2026.11.%02d", i%28+1))
		}
		var b strings.Builder
		rec.WriteTo(&b)
		max := width
		if max == 0 {
			max = 79
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		for i, line := range lines {
			if len(line) > max {
				t.Errorf("width %d: line %d is %d long: %q", width, i+1, len(line), line)
			}
			first := strings.Fields(line)[0]
			if !regexp.MustCompile(`^[0-9]+\.`).MatchString(first) && first != "*" {
				t.Errorf("width %d: line %d starts inside a move: %q", width, i+1, line)
			}
		}
		back, err := ParseRecord(strings.NewReader(b.String()))
		if err != nil || !reflect.DeepEqual(back.Moves, sans) || !reflect.DeepEqual(back.Dates, rec.Dates) {
			t.Errorf("width %d: read back %q, %v", width, back.Moves, err)
		}
	}
}

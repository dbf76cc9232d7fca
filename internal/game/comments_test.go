package game

import (
	"reflect"
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestRecordOneCommentAfterAMove: chess.js refuses two comments in a row
// ("e5 {[%date 2026.11.22]} {White resigned.} 0-1"), so comments that
// follow one another are written as one, and read back: the date of the
// move, a note, the rolls, the closing words.
func TestRecordOneCommentAfterAMove(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"date and closing words", Record{Moves: []string{"e4", "e5"}, Dates: []string{"2026.11.21", "2026.11.22"},
			Comment: "White resigned.", Result: "0-1"},
			"1. e4 {[%date 2026.11.21]} e5 {[%date 2026.11.22] White resigned.} 0-1"},
		{"date and a conditional move's note", Record{Moves: []string{"e4", "e5"}, Dates: []string{"2026.11.21", "2026.11.22"},
			Notes: []string{"", "cond"}, Result: "*"},
			"1. e4 {[%date 2026.11.21]} e5 {[%date 2026.11.22] cond} *"},
		{"date, rolls and closing words", Record{Moves: []string{"P@b2", "N@c3"}, Dates: []string{"2026.11.21", "2026.11.22"},
			Rolls: []RecordRoll{{1, 3, ""}, {2, 6, "aa"}, {3, 2, "bb"}}, RollsBefore: []int{1, 1},
			Comment: "Aborted by the organiser.", Result: "*"},
			"1. {die 1 = 3} P@b2 {[%date 2026.11.21]} N@c3 {[%date 2026.11.22] die 2 = 6 sig aa die 3 = 2 sig bb Aborted by the organiser.} *"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if _, err := tt.rec.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(b.String()), " ")
			if flat != tt.want {
				t.Errorf("got  %q\nwant %q", flat, tt.want)
			}
			if strings.Contains(flat, "} {") {
				t.Errorf("two comments in a row: %q", flat)
			}
			back, err := ParseRecord(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Moves, tt.rec.Moves) || !reflect.DeepEqual(back.Dates, tt.rec.Dates) ||
				len(back.Rolls) != len(tt.rec.Rolls) || (len(tt.rec.Rolls) > 0 && !reflect.DeepEqual(back.Rolls, tt.rec.Rolls)) ||
				back.Result != tt.rec.Result {
				t.Errorf("read back moves %q dates %q rolls %+v result %q", back.Moves, back.Dates, back.Rolls, back.Result)
			}
		})
	}
}

// TestRecordLongCommentWraps: a closing comment longer than the width
// (a Fischer control spelled out) breaks between its words inside its
// braces, and a date command is never split.
func TestRecordLongCommentWraps(t *testing.T) {
	rec := Record{Moves: []string{"d4"}, Dates: []string{"2026.11.21"}, Result: "1-0", Width: 40,
		Comment: "Black lost on time. Time control 10d+1d: 10d 0h, 1d 0h added after each move, never more than 10d 0h."}
	var b strings.Builder
	rec.WriteTo(&b)
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if len(line) > 40 {
			t.Errorf("line %q is longer than 40", line)
		}
		if strings.HasSuffix(line, "[%date") {
			t.Errorf("the date command is split: %q", line)
		}
	}
	if strings.Count(b.String(), "{") != 1 {
		t.Errorf("want one comment:\n%s", b.String())
	}
	back, err := ParseRecord(strings.NewReader(b.String()))
	if err != nil || back.Dates[0] != "2026.11.21" || back.Result != "1-0" {
		t.Errorf("read back %+v, %v\n%s", back, err, b.String())
	}
}

// TestPlayReadsStandardSAN: a record is PGN, whose letters have their case:
// "bxc4" is the b-pawn's capture even where a bishop could take on c4 too
// (a mail's reader would ask which).
func TestPlayReadsStandardSAN(t *testing.T) {
	start, err := rules.Chess().ParsePosition("4k3/8/8/8/2p5/1P6/4B3/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Play(start, []string{"bxc4", "Kd7", "Bd3"}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Final.String(); got != "8/3k4/8/8/2P5/3B4/8/4K3 b - - 2 2" {
		t.Errorf("final position %s", got)
	}
}

// TestRecordRollStaysWhole: a long comment that breaks over lines never
// parts a die roll from its signature ("die 2 = 6 sig HEX" on one line),
// as readers (and the tests that tamper with a signature) look for it.
func TestRecordRollStaysWhole(t *testing.T) {
	sig := strings.Repeat("ab", 64)
	rec := Record{Moves: []string{"P@b2", "N@c3"}, Dates: []string{"2026.11.21", "2026.11.22"},
		Rolls: []RecordRoll{{1, 3, sig}, {2, 6, sig}, {3, 2, sig}}, RollsBefore: []int{1, 1}, Result: "*"}
	var b strings.Builder
	rec.WriteTo(&b)
	if n := strings.Count(b.String(), " sig "+sig); n != 3 {
		t.Errorf("%d rolls stand whole with their signature, want 3:\n%s", n, b.String())
	}
}

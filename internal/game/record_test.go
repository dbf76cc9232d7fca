package game

import (
	"reflect"
	"strings"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	// A record written by WriteTo reads back to the same tags, moves, rolls
	// and the positions of the rolls among the moves.
	rec := &Record{
		Tags:        []Tag{{"Event", "Correspondence game #3"}, {"Variant", "chectoe"}, {"GameId", "3"}, {"Note", `a "quoted" word`}},
		Moves:       []string{"P@b2", "reroll", "N@c3", "K@e1,G@d1", "K@e8 G@d8"},
		Rolls:       []RecordRoll{{1, 1, "aa"}, {2, 6, "bb"}, {3, 4, "cc"}, {4, 2, ""}, {5, 3, "dd"}},
		RollsBefore: []int{1, 1, 4, 4, 5},
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
		!reflect.DeepEqual(got.Rolls, want.Rolls) || !reflect.DeepEqual(got.RollsBefore, want.RollsBefore) || got.Result != "*" {
		t.Errorf("round trip:\n got %+v\nwant %+v\ntext:\n%s", got, want, b.String())
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

package referee

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestClockStateJSONUnchanged: games keep their clock in the database as
// JSON. These are states as the clock wrote them before the time control
// moved to its own package (issue 40): each reads back to the clock it
// was, and is written again with the same names and values (the order of
// the keys may differ: days_off now follows the control's other fields).
func TestClockStateJSONUnchanged(t *testing.T) {
	turn := time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC)
	vacation := [2]time.Time{{}, time.Date(2026, 10, 30, 12, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		control string
		stored  string
	}{
		{"3d", `{"control":"3d","per_move":259200000000000,"moved":[3,0],"left":[0,-3600000000000],"turn_start":"2026-10-23T12:00:00Z","vacation_until":["0001-01-01T00:00:00Z","2026-10-30T12:00:00Z"],"vacation_used":[0,0]}`},
		{"10d+1d", `{"control":"10d+1d","initial":864000000000000,"increment":86400000000000,"moved":[3,0],"left":[864000000000000,860400000000000],"turn_start":"2026-10-23T12:00:00Z","vacation_until":["0001-01-01T00:00:00Z","2026-10-30T12:00:00Z"],"vacation_used":[0,0]}`},
		{"30d+1d/45d", `{"control":"30d+1d/45d","initial":2592000000000000,"increment":86400000000000,"cap":3888000000000000,"moved":[3,0],"left":[2592000000000000,2588400000000000],"turn_start":"2026-10-23T12:00:00Z","vacation_until":["0001-01-01T00:00:00Z","2026-10-30T12:00:00Z"],"vacation_used":[0,0]}`},
		{"10/50d off sat,sun", `{"control":"10/50d off sat,sun","initial":4320000000000000,"block":10,"moved":[3,0],"left":[4320000000000000,4316400000000000],"turn_start":"2026-10-23T12:00:00Z","vacation_until":["0001-01-01T00:00:00Z","2026-10-30T12:00:00Z"],"vacation_used":[0,0],"days_off":[6,0]}`},
	} {
		want, err := ParseTimeControl(tc.control)
		if err != nil {
			t.Fatal(err)
		}
		want.TurnStart, want.Vacation = turn, vacation
		want.Moved[0] = 3
		want.Left[1] -= time.Hour
		var got Clock
		if err := json.Unmarshal([]byte(tc.stored), &got); err != nil {
			t.Fatalf("%s: %v", tc.control, err)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("%s: the stored state reads as\n%#v\nwant\n%#v", tc.control, got, *want)
		}
		written, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var old, now map[string]any
		if err := json.Unmarshal([]byte(tc.stored), &old); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(written, &now); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(old, now) {
			t.Errorf("%s: written as\n%s\nwant the names and values of\n%s", tc.control, written, tc.stored)
		}
	}
}

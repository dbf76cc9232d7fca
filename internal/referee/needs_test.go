package referee

import (
	"reflect"
	"testing"
)

// TestEveryLoadBitIsLoaded: each Load bit has one entry in loadKinds, and
// every bit but LoadRatings sets a field of Needs of its own, so that the
// app's loader for that field runs (internal/app checks that every field
// has one loader); the rows with LoadRatings say with their needs function
// what they want. A new bit without an entry, or two bits setting the same
// field, fail here.
func TestEveryLoadBitIsLoaded(t *testing.T) {
	kinds := loadKinds()
	seen := map[Load]bool{}
	fields := map[string]Load{}
	for _, k := range kinds {
		if seen[k.bit] {
			t.Errorf("Load bit %b has two entries", k.bit)
		}
		seen[k.bit] = true
		var n Needs
		k.set(&n, []string{"17"})
		if !n.Lobby {
			t.Errorf("Load bit %b: a loaded command needs the lobby view", k.bit)
		}
		n.Lobby = false
		v := reflect.ValueOf(n)
		set := 0
		for i := range v.NumField() {
			if !v.Field(i).IsZero() {
				set++
				name := v.Type().Field(i).Name
				if other, ok := fields[name]; ok {
					t.Errorf("Load bits %b and %b both set Needs.%s", other, k.bit, name)
				}
				fields[name] = k.bit
			}
		}
		switch {
		case k.bit == LoadLobby || k.bit == LoadRatings:
			if set != 0 {
				t.Errorf("Load bit %b sets %d fields beyond Lobby, want none", k.bit, set)
			}
		case set != 1:
			t.Errorf("Load bit %b sets %d fields of Needs, want 1", k.bit, set)
		}
	}
	for b := Load(1); b != 0 && b <= LoadEvent; b <<= 1 {
		if !seen[b] {
			t.Errorf("Load bit %b has no entry in loadKinds", b)
		}
	}
	for _, c := range commandTable() {
		if c.load&LoadRatings != 0 && c.needs == nil {
			t.Errorf("%q loads ratings without saying whose (needs)", c.Name())
		}
		if c.opponent != nil && c.load&LoadChallenge == 0 {
			t.Errorf("%q names an opponent without LoadChallenge: their counts would not be loaded", c.Name())
		}
	}
}

package app

import (
	"reflect"
	"testing"

	"referee/internal/referee"
)

// nonZero sets field i of the struct v points to a value that is not its
// zero: true, "x", 1, a new value behind a pointer, a one-element slice.
func nonZero(t *testing.T, v reflect.Value, i int) {
	t.Helper()
	f := v.Elem().Field(i)
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.String:
		f.SetString("x")
	case reflect.Int, reflect.Int64:
		f.SetInt(1)
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
	default:
		t.Fatalf("%s.%s: a field of kind %s; teach nonZero to set it", v.Elem().Type(), v.Elem().Type().Field(i).Name, f.Kind())
	}
}

// TestEveryNeedHasOneLoader: each field of referee.Needs (what a command
// row asks the app to load) has exactly one loader, named after it, and
// that loader runs when the field alone is set; a new field without a
// loader fails here, as go-imap checks advertised capabilities against the
// session. Opponent comes with Challenge (a challenge's opponent).
func TestEveryNeedHasOneLoader(t *testing.T) {
	typ := reflect.TypeFor[referee.Needs]()
	byField := map[string]int{}
	for _, ld := range loaders() {
		byField[ld.field]++
		if _, ok := typ.FieldByName(ld.field); !ok {
			t.Errorf("loader %q names no field of referee.Needs", ld.field)
		}
	}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if byField[name] != 1 {
			t.Errorf("referee.Needs.%s has %d loaders, want 1", name, byField[name])
			continue
		}
		n := reflect.New(typ)
		nonZero(t, n, i)
		if name == "Opponent" {
			n.Elem().FieldByName("Challenge").SetBool(true)
		}
		needs := n.Elem().Interface().(referee.Needs)
		for _, ld := range loaders() {
			if ld.field == name && !ld.wanted(needs) {
				t.Errorf("the loader of Needs.%s does not run when the field is set", name)
			}
			if ld.field != name && ld.field != "Lobby" && ld.wanted(needs) && !(name == "Opponent" && ld.field == "Challenge") {
				t.Errorf("the loader of Needs.%s runs when only Needs.%s is set", ld.field, name)
			}
		}
	}
}

// TestEveryChangeHasOneApplier: each field of referee.LobbyChange (what a
// lobby command changed) has exactly one applier, named after it, that
// takes the change when the field alone is set, and no other does.
func TestEveryChangeHasOneApplier(t *testing.T) {
	typ := reflect.TypeFor[referee.LobbyChange]()
	byField := map[string]int{}
	for _, ap := range appliers() {
		byField[ap.field]++
		if _, ok := typ.FieldByName(ap.field); !ok {
			t.Errorf("applier %q names no field of referee.LobbyChange", ap.field)
		}
	}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if byField[name] != 1 {
			t.Errorf("referee.LobbyChange.%s has %d appliers, want 1", name, byField[name])
			continue
		}
		lc := reflect.New(typ)
		nonZero(t, lc, i)
		change := lc.Interface().(*referee.LobbyChange)
		for _, ap := range appliers() {
			if got := ap.has(change); got != (ap.field == name) {
				t.Errorf("with only LobbyChange.%s set, the applier of %s says %v", name, ap.field, got)
			}
		}
	}
}

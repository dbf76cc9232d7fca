package rules

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// registry is every game the referee hosts, in a fixed order: adding a
// variant is its own file plus one line here. The values are built once,
// on first use (sync.OnceValue, so concurrent first callers wait for the
// one build), and shared from then on: variants are immutable, and what
// they compute lazily (the attack index) is guarded by its own sync.Once.
var registry = sync.OnceValue(func() []Variant {
	return []Variant{
		Chess(),       // chess.go
		Toroidal(),    // wrapped.go
		Cylindrical(), // wrapped.go
		KleinChess(),  // wrapped.go
		Cuarenta(),    // cuarenta.go
		Toto40(),      // toto40.go
		ToeToToe(),    // toetotoe.go
		ChecToe(),     // chectoe.go
	}
})

// Variants returns every game the referee hosts, in a fixed order. The
// variants are the shared values Lookup returns; the slice is the
// caller's.
func Variants() []Variant { return slices.Clone(registry()) }

// Lookup finds a variant by name (case-insensitive). It returns the one
// shared value of the variant, built once.
func Lookup(name string) (Variant, error) {
	want := strings.TrimSpace(name)
	for _, v := range registry() {
		if strings.EqualFold(v.Name(), want) {
			return v, nil
		}
	}
	names := make([]string, 0, len(registry()))
	for _, v := range registry() {
		names = append(names, v.Name())
	}
	return nil, fmt.Errorf("%q is not a variant the referee knows; choose one of %s", name, strings.Join(names, ", "))
}

package rules

import (
	"fmt"
	"strings"
)

// Variants returns every game the referee hosts, in a fixed order.
func Variants() []Variant {
	return []Variant{Chess(), Toroidal(), Cylindrical(), KleinChess(), Cuarenta(), Toto40(), ToeToToe(), ChecToe()}
}

// Lookup finds a variant by name (case-insensitive).
func Lookup(name string) (Variant, error) {
	var names []string
	for _, v := range Variants() {
		if strings.EqualFold(v.Name(), strings.TrimSpace(name)) {
			return v, nil
		}
		names = append(names, v.Name())
	}
	return nil, fmt.Errorf("%q is not a variant the referee knows; choose one of %s", name, strings.Join(names, ", "))
}

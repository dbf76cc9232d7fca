package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Catalog is the set of variants one referee hosts: its own (Variants) and
// those an organiser defined in a file (internal/variantfile). The nil
// *Catalog is the referee's own alone, so code that takes a catalog works
// unchanged where no file was given.
type Catalog struct {
	extra []Variant
}

// NewCatalog adds extra variants to the referee's own. A name already
// taken (by the referee's own or an earlier extra, case-insensitively) is
// refused.
func NewCatalog(extra ...Variant) (*Catalog, error) {
	c := &Catalog{}
	for _, v := range extra {
		if _, err := c.Lookup(v.Name()); err == nil {
			return nil, fmt.Errorf("the variant name %q is taken (by %s); name the file's variant otherwise", v.Name(), c.mustTitle(v.Name()))
		}
		c.extra = append(c.extra, v)
	}
	return c, nil
}

func (c *Catalog) mustTitle(name string) string {
	v, _ := c.Lookup(name)
	if v == nil {
		return name
	}
	return v.Title()
}

// Variants lists the referee's own variants, then the extra ones in the
// order given. The slice is the caller's.
func (c *Catalog) Variants() []Variant {
	out := Variants()
	if c != nil {
		out = append(out, c.extra...)
	}
	return out
}

// Extra lists the variants added to the referee's own. The slice is the
// caller's.
func (c *Catalog) Extra() []Variant {
	if c == nil {
		return nil
	}
	return slices.Clone(c.extra)
}

// Lookup finds a variant by name (case-insensitive), as the package's
// Lookup does, among the catalog's variants.
func (c *Catalog) Lookup(name string) (Variant, error) {
	if c == nil || len(c.extra) == 0 {
		return Lookup(name)
	}
	want := strings.TrimSpace(name)
	all := c.Variants()
	for _, v := range all {
		if strings.EqualFold(v.Name(), want) {
			return v, nil
		}
	}
	names := make([]string, 0, len(all))
	for _, v := range all {
		names = append(names, v.Name())
	}
	return nil, fmt.Errorf("%q is not a variant the referee knows; choose one of %s", name, strings.Join(names, ", "))
}

package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"referee/internal/rules"
	"referee/internal/store"
	"referee/internal/variantfile"
)

// variantSetting is the prefix of the settings that keep the definitions
// of the file variants this database has known, by lower-case name: the
// text of the variant's section and its parents (variantfile.File.Source),
// so that its games are rebuilt without the file.
const variantSetting = "variant-file:"

// loadCatalog returns the variants this database hosts beyond the
// referee's own: those it keeps, and those of the file at path (when
// given), which it keeps from now on. A file with a variant that is
// refused or cannot be played yet is refused as a whole (`referee variant
// check` says why); so is a changed definition of a variant that already
// has games.
func loadCatalog(ctx context.Context, st *store.Store, path string) (*rules.Catalog, error) {
	var kept map[string][]byte
	if err := st.View(ctx, func(tx *store.Tx) (err error) {
		kept, err = tx.SettingsWithPrefix(variantSetting)
		return err
	}); err != nil {
		return nil, err
	}
	sources := map[string]string{} // lower-case name -> source
	names := map[string]string{}   // lower-case name -> name
	for k, v := range kept {
		key := strings.TrimPrefix(k, variantSetting)
		sources[key] = string(v)
	}
	var fresh []string // lower-case names of the file, in its order
	if path != "" {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%w: --variant-file: %v", ErrInput, err)
		}
		f := variantfile.Parse(src)
		vs, why := f.Variants()
		for _, v := range vs {
			name := v.Name()
			text, err := f.Source(name)
			if err != nil {
				why = append(why, err)
				continue
			}
			key := strings.ToLower(name)
			if old, ok := sources[key]; ok && old != text {
				n := 0
				if err := st.View(ctx, func(tx *store.Tx) (err error) { n, err = tx.GamesOfVariant(name); return err }); err != nil {
					return nil, err
				}
				if n > 0 {
					why = append(why, fmt.Errorf("variant %s differs from the definition its %d game(s) in this database were played with; keep the old section as it was and give the changed one a new name", name, n))
					continue
				}
			}
			sources[key], names[key] = text, name
			fresh = append(fresh, key)
		}
		if len(why) > 0 {
			return nil, fmt.Errorf("%w: --variant-file %s: %w (\"referee variant check %s\" says what was understood)", ErrInput, path, errors.Join(why...), path)
		}
		if err := st.Update(ctx, func(tx *store.Tx) error {
			for _, key := range fresh {
				if string(kept[variantSetting+key]) == sources[key] {
					continue
				}
				if err := tx.SetSetting(variantSetting+key, []byte(sources[key])); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return nil, fmt.Errorf("keeping the variants of %s: %w", path, err)
		}
	}
	// The file's variants in its order, then those only kept, by name.
	order := slices.Clone(fresh)
	var rest []string
	for key := range sources {
		if !slices.Contains(fresh, key) {
			rest = append(rest, key)
		}
	}
	slices.Sort(rest)
	order = append(order, rest...)
	var vs []rules.Variant
	for _, key := range order {
		f := variantfile.Parse([]byte(sources[key]))
		name := names[key]
		if name == "" { // kept: the last section of its source is the variant
			if len(f.Sections) == 0 {
				return nil, fmt.Errorf("the variant definition kept as %s%s is damaged: it has no section", variantSetting, key)
			}
			name = f.Sections[len(f.Sections)-1].Name
		}
		d, err := f.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("the variant %s this database keeps: %w", name, err)
		}
		v, err := variantfile.Build(d)
		if err != nil {
			return nil, fmt.Errorf("the variant %s this database keeps cannot be played by this version of the referee: %w", name, err)
		}
		vs = append(vs, v)
	}
	c, err := rules.NewCatalog(vs...)
	if err != nil {
		return nil, fmt.Errorf("%w: --variant-file %s: %w", ErrInput, path, err)
	}
	return c, nil
}

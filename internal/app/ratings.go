package app

import (
	"context"
	"fmt"

	"referee/internal/store"
)

// Ratings lists the ratings of variant ("" for all variants), best first.
func (a *App) Ratings(ctx context.Context, variant string) ([]store.PlayerRating, error) {
	if variant != "" {
		v, err := a.Variants().Lookup(variant)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a variant; use one of %s", ErrInput, variant, a.names())
		}
		variant = v.Name()
	}
	var out []store.PlayerRating
	err := a.st.View(ctx, func(tx *store.Tx) (err error) {
		out, err = tx.Ratings(variant)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the ratings: %w", err)
	}
	return out, nil
}

// RebuildRatings recomputes every rating from the game records, in one
// transaction, and says which stored values differed.
func (a *App) RebuildRatings(ctx context.Context) (store.RebuildReport, error) {
	var rep store.RebuildReport
	err := a.st.Update(ctx, func(tx *store.Tx) (err error) {
		if rep, err = tx.RebuildRatings(); err != nil {
			return err
		}
		return tx.Audit(nil, "ratings-rebuilt", fmt.Sprintf("%d rated games, %d ratings, %d differed", rep.Games, rep.Players, len(rep.Differ)))
	})
	if err != nil {
		return rep, fmt.Errorf("rebuilding the ratings: %w", err)
	}
	return rep, nil
}

package store

import (
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"referee/internal/game"
	"referee/internal/rating"
)

// Schema version 11 (schema_11_ratings.sql) added the ratings: games.rated,
// games.rating_seq, and the tables ratings and rating_changes.

// PlayerRating is one player's standing in one variant.
type PlayerRating = rating.Standing

// RatingChange is what one rated game did to one player's rating.
type RatingChange struct {
	Color         int
	Address       string
	Before, After rating.Rating
}

// Diff is the change of the rating, rounded as the ratings are shown: the
// difference of the rounded values, so that "1500 +12" reads "1512".
func (c RatingChange) Diff() int { return rating.Diff(c.Before, c.After) }

// Rating returns addr's rating in variant; a player without a rated game
// in it gets the initial rating and ok false.
func (t *Tx) Rating(addr, variant string) (p PlayerRating, ok bool, err error) {
	p = PlayerRating{Address: addr, Variant: variant, Rating: rating.Default().Initial}
	err = t.tx.QueryRowContext(t.ctx, `SELECT rating, rd, volatility, games, wins, draws, losses, lost_on_time, abandoned
		FROM ratings WHERE address = ? AND variant = ?`, addr, variant).Scan(&p.R, &p.RD, &p.Sigma, &p.Games, &p.Wins,
		&p.Draws, &p.Losses, &p.LostOnTime, &p.Abandoned)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("loading the %s rating of %s: %w", variant, addr, err)
	}
	return p, true, nil
}

// RatingsOf lists addr's ratings, one per variant with a rated game.
func (t *Tx) RatingsOf(addr string) ([]PlayerRating, error) {
	all, err := t.ratings(`WHERE address = ?`, addr)
	if err != nil {
		return nil, fmt.Errorf("listing the ratings of %s: %w", addr, err)
	}
	return all, nil
}

// Ratings lists the ratings in variant ("" for every variant), best first
// (by variant first when all are listed).
func (t *Tx) Ratings(variant string) ([]PlayerRating, error) {
	where, args := "", []any(nil)
	if variant != "" {
		where, args = `WHERE variant = ?`, []any{variant}
	}
	out, err := t.ratings(where, args...)
	if err != nil {
		return nil, fmt.Errorf("listing the ratings: %w", err)
	}
	return out, nil
}

func (t *Tx) ratings(where string, args ...any) ([]PlayerRating, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, variant, rating, rd, volatility, games, wins, draws, losses,
		lost_on_time, abandoned FROM ratings `+where+` ORDER BY variant, rating DESC, address`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PlayerRating
	for rows.Next() {
		var p PlayerRating
		if err := rows.Scan(&p.Address, &p.Variant, &p.R, &p.RD, &p.Sigma, &p.Games, &p.Wins, &p.Draws, &p.Losses,
			&p.LostOnTime, &p.Abandoned); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// RatingChanges returns what game id did to each player's rating, indexed
// by colour; nil entries when the game was not rated (or not yet over).
func (t *Tx) RatingChanges(id int64) ([2]*RatingChange, error) {
	var out [2]*RatingChange
	rows, err := t.tx.QueryContext(t.ctx, `SELECT color, address, before_rating, before_rd, before_vol, after_rating,
		after_rd, after_vol FROM rating_changes WHERE game_id = ? ORDER BY color`, id)
	if err != nil {
		return out, fmt.Errorf("loading the rating changes of game #%d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var c RatingChange
		if err := rows.Scan(&c.Color, &c.Address, &c.Before.R, &c.Before.RD, &c.Before.Sigma, &c.After.R, &c.After.RD,
			&c.After.Sigma); err != nil {
			return out, fmt.Errorf("loading the rating changes of game #%d: %w", id, err)
		}
		if c.Color == 0 || c.Color == 1 {
			out[c.Color] = &c
		}
	}
	return out, rows.Err()
}

// rate counts finished game id for its players' ratings if it is rated and
// not counted yet, as the next rating period of each (seq 0: the next
// number; the rebuild passes the game's own).
func (t *Tx) rate(id int64, seq int64) error {
	var (
		rated                   bool
		counted                 sql.NullInt64
		variant, result, status string
		ending                  game.Ending
	)
	err := t.tx.QueryRowContext(t.ctx, `SELECT rated, rating_seq, variant, status, COALESCE(result, ''), ending
		FROM games WHERE id = ?`, id).Scan(&rated, &counted, &variant, &status, &result, &ending)
	if err != nil {
		return fmt.Errorf("rating game #%d: %w", id, err)
	}
	if !rated || status != "finished" || (counted.Valid && seq == 0) {
		return nil
	}
	var score float64
	switch result {
	case "1-0":
		score = 1
	case "0-1":
		score = 0
	case "1/2-1/2":
		score = 0.5
	default:
		return fmt.Errorf("rating game #%d: its result %q is none of 1-0, 0-1, 1/2-1/2", id, result)
	}
	g := &Game{ID: id}
	if err := t.players(g); err != nil {
		return err
	}
	var before [2]PlayerRating
	for c := range before {
		if before[c], _, err = t.Rating(g.Players[c].Address, variant); err != nil {
			return err
		}
	}
	after := before
	after[0].Rating, after[1].Rating = rating.Default().Pair(before[0].Rating, before[1].Rating, score)
	for c := range after {
		p := &after[c]
		p.Games++
		mine := score
		if c == 1 {
			mine = 1 - score
		}
		switch mine {
		case 1:
			p.Wins++
		case 0.5:
			p.Draws++
		default:
			p.Losses++
			if ending == game.EndTime {
				var moved int
				if err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM actions WHERE game_id = ? AND color = ?`,
					id, c).Scan(&moved); err != nil {
					return fmt.Errorf("rating game #%d: %w", id, err)
				}
				if moved > 0 {
					p.LostOnTime++
				} else {
					p.Abandoned++
				}
			}
		}
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO ratings (address, variant, rating, rd, volatility, games, wins,
			draws, losses, lost_on_time, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (address, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
			volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, draws = excluded.draws,
			losses = excluded.losses, lost_on_time = excluded.lost_on_time, abandoned = excluded.abandoned`,
			p.Address, variant, p.R, p.RD, p.Sigma, p.Games, p.Wins, p.Draws, p.Losses, p.LostOnTime, p.Abandoned); err != nil {
			return fmt.Errorf("rating game #%d: storing the rating of %s: %w", id, p.Address, err)
		}
		b := before[c].Rating
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO rating_changes (game_id, color, address, before_rating, before_rd,
			before_vol, after_rating, after_rd, after_vol) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, c, p.Address, b.R, b.RD, b.Sigma, p.R, p.RD, p.Sigma); err != nil {
			return fmt.Errorf("rating game #%d: storing the change for %s: %w", id, p.Address, err)
		}
	}
	if seq == 0 {
		if _, err := t.tx.ExecContext(t.ctx, `UPDATE games SET rating_seq = (SELECT COALESCE(MAX(rating_seq), 0) + 1
			FROM games) WHERE id = ?`, id); err != nil {
			return fmt.Errorf("rating game #%d: numbering it: %w", id, err)
		}
	}
	return nil
}

// RebuildReport says what RebuildRatings found.
type RebuildReport struct {
	Games   int // rated games replayed
	Players int // player-variant ratings written
	// Differ lists the ratings that the rebuild changed (address and
	// variant with the stored and the recomputed values): empty when the
	// stored ratings were exactly the record's.
	Differ []string
}

// RebuildRatings recomputes every rating from the game records: it forgets
// the stored ratings and counts the rated games again in the order their
// results were counted (rating_seq). The result must equal the stored
// ratings exactly; Differ lists those that did not.
func (t *Tx) RebuildRatings() (RebuildReport, error) {
	var rep RebuildReport
	old, err := t.Ratings("")
	if err != nil {
		return rep, err
	}
	for _, q := range []string{`DELETE FROM ratings`, `DELETE FROM rating_changes`} {
		if _, err := t.tx.ExecContext(t.ctx, q); err != nil {
			return rep, fmt.Errorf("rebuilding the ratings: %w", err)
		}
	}
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id, rating_seq FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq`)
	if err != nil {
		return rep, fmt.Errorf("rebuilding the ratings: listing the rated games: %w", err)
	}
	type game struct{ id, seq int64 }
	var games []game
	for rows.Next() {
		var g game
		if err := rows.Scan(&g.id, &g.seq); err != nil {
			rows.Close()
			return rep, fmt.Errorf("rebuilding the ratings: %w", err)
		}
		games = append(games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return rep, fmt.Errorf("rebuilding the ratings: %w", err)
	}
	for _, g := range games {
		if err := t.rate(g.id, g.seq); err != nil {
			return rep, err
		}
	}
	rep.Games = len(games)
	fresh, err := t.Ratings("")
	if err != nil {
		return rep, err
	}
	rep.Players = len(fresh)
	key := func(p PlayerRating) string { return p.Address + " " + p.Variant }
	was := map[string]PlayerRating{}
	for _, p := range old {
		was[key(p)] = p
	}
	for _, p := range fresh {
		o, ok := was[key(p)]
		delete(was, key(p))
		if !ok || o != p {
			rep.Differ = append(rep.Differ, fmt.Sprintf("%s %s: stored %s, recomputed %s", p.Address, p.Variant, describe(o, ok), describe(p, true)))
		}
	}
	for _, o := range was {
		rep.Differ = append(rep.Differ, fmt.Sprintf("%s %s: stored %s, recomputed none", o.Address, o.Variant, describe(o, true)))
	}
	sort.Strings(rep.Differ)
	return rep, nil
}

func describe(p PlayerRating, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%.17g/%.17g/%.17g after %d games (%d-%d-%d, %d on time, %d abandoned)", p.R, p.RD, p.Sigma, p.Games,
		p.Wins, p.Draws, p.Losses, p.LostOnTime, p.Abandoned)
}

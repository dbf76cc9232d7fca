package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebListsWalkAnIndex: the queries of the web pages' lists (issue 39)
// read the games through an index, in the order they are shown, and never
// scan the games or sort them, however many there are: SQLite's plan for
// each names an index and no temporary B-tree.
func TestWebListsWalkAnIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range []struct {
		name  string
		q     WebQuery
		index string
	}{
		{"the index", WebQuery{Limit: 100}, "games_status"},
		{"an older page", WebQuery{Limit: 100, Before: 1234}, "games_status"},
		{"a variant", WebQuery{Limit: 100, Variant: "chess", Before: 1234}, "games_web_variant"},
		{"a player", WebQuery{Limit: 100, Addresses: []string{"alice@example.org"}, Before: 1234}, "players_address_game"},
	} {
		query, args := webGamesSQL(tt.q, "finished")
		var plan []string
		err := s.View(ctx, func(tx *Tx) error {
			rows, err := tx.tx.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					return err
				}
				plan = append(plan, detail)
			}
			return rows.Err()
		})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		all := strings.Join(plan, "; ")
		if !strings.Contains(all, "INDEX "+tt.index) || strings.Contains(all, "TEMP B-TREE") || strings.Contains(all, "SCAN ") {
			t.Errorf("%s: the plan is %q, want a walk of %s without a scan or a sort", tt.name, all, tt.index)
		}
	}
}

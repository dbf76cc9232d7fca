// Package apptest holds what the referee's tests and benchmarks share and
// the binary never needs: games made directly in the store (the database
// of a busy organiser, without a mail sent), their fixed reply secrets,
// and one fixed line of chess moves. Only _test.go files import it, so
// `go build ./cmd/referee` leaves it out.
package apptest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"referee/internal/dice"
	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// Secret is the reply secret of player color (0 White, 1 Black) in the
// n-th game (from 0) made by CreateGames: fixed, so that a benchmark can
// write the players' replies without reading mail.
func Secret(n int, color int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	h := sha256.Sum256(fmt.Appendf(nil, "bench %d %d", n, color))
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[h[i]%32]
	}
	return string(b)
}

// Moves returns n moves of one chess game from the start, in SAN: the
// moves the benchmarks play in every game made by CreateGames.
func Moves(n int) []string {
	pos := rules.Chess().Start()
	var out []string
	for i := range n {
		legal := pos.Legal()
		m := legal[(i*7+2)%len(legal)]
		out = append(out, notation.SAN(pos, m))
		pos, _ = pos.Play(m)
	}
	return out
}

// CreateGames adds n active, untimed chess games of white against black
// directly to st, in one transaction, without mails, created at created
// (to the second). The i-th game's secrets are Secret(i, 0) and
// Secret(i, 1) and its die seed is fixed. It returns the new games' ids.
func CreateGames(ctx context.Context, st *store.Store, created time.Time, n int, white, black string) ([]int64, error) {
	start := rules.Chess().Start().String()
	state, err := json.Marshal(referee.State{})
	if err != nil {
		return nil, fmt.Errorf("writing a new game's state: %w", err)
	}
	ids := make([]int64, 0, n)
	err = st.Update(ctx, func(tx *store.Tx) error {
		for i := range n {
			var seed dice.Seed
			copy(seed[:], fmt.Appendf(nil, "bench seed %d", i))
			g := &store.Game{Variant: rules.Chess().Name(), Status: string(referee.StatusActive), StartPosition: start, Position: start,
				DieSeed: seed[:], State: string(state), Created: created.UTC().Truncate(time.Second)}
			g.Players[0] = store.Player{Color: 0, Address: white, Secret: Secret(i, 0)}
			g.Players[1] = store.Player{Color: 1, Address: black, Secret: Secret(i, 1)}
			id, err := tx.CreateGame(g)
			if err != nil {
				return fmt.Errorf("game %d of %d: %w", i+1, n, err)
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("creating %d games for a test: %w", n, err)
	}
	return ids, nil
}

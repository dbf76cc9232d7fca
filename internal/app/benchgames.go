package app

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"

	"referee/internal/dice"
	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// BenchSecret is the reply secret of player color (0 White, 1 Black) in
// the n-th game (from 0) made by CreateBenchGames: fixed, so that a
// benchmark can write the players' replies without reading mail.
func BenchSecret(n int, color int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	h := sha256.Sum256(fmt.Appendf(nil, "bench %d %d", n, color))
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[h[i]%32]
	}
	return string(b)
}

// BenchMoves returns n moves of one chess game from the start, in SAN: the
// moves the benchmarks play in every game made by CreateBenchGames.
func BenchMoves(n int) []string {
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

// CreateBenchGames adds n active chess games of white against black
// directly to the store, in one transaction, without mails: the database
// of a busy organiser, for benchmarks (`referee bench-games`). The i-th
// game's secrets are BenchSecret(i, 0) and BenchSecret(i, 1). It returns
// the new games' ids.
func (a *App) CreateBenchGames(ctx context.Context, n int, white, black string) ([]int64, error) {
	start := rules.Chess().Start().String()
	ids := make([]int64, 0, n)
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		for i := range n {
			var seed dice.Seed
			copy(seed[:], fmt.Appendf(nil, "bench seed %d", i))
			g := &referee.Game{Variant: rules.Chess(), Status: referee.StatusActive, Start: start, Seed: seed,
				Created: a.opts.Now().UTC().Truncate(time.Second)}
			g.Players[0] = referee.Player{Address: white, Secret: BenchSecret(i, 0)}
			g.Players[1] = referee.Player{Address: black, Secret: BenchSecret(i, 1)}
			id, err := tx.CreateGame(toStoreGame(g))
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("creating %d benchmark games: %w", n, err)
	}
	return ids, nil
}

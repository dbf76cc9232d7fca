package referee

import (
	"encoding/hex"
	"fmt"

	"referee/internal/game"
	"referee/internal/rules"
)

// Record returns the game's PGN-style record: tags, the moves in canonical
// notation, the die rolls with their signatures, and (once the game is
// over) the die seed, so that anyone can verify every roll.
func (r *Referee) Record(g *Game) (*game.Record, error) {
	rep, err := g.Replay()
	if err != nil {
		return nil, err
	}
	rec := &game.Record{}
	rec.SetTag("Event", fmt.Sprintf("Correspondence game #%d", g.ID))
	rec.SetTag("Site", r.cfg.Address)
	rec.SetTag("Date", g.Created.Format("2006.01.02"))
	rec.SetTag("Round", "-")
	rec.SetTag("White", g.Players[0].Address)
	rec.SetTag("Black", g.Players[1].Address)
	res := g.Result
	if res == "" {
		res = "*"
	}
	rec.SetTag("Result", res)
	rec.SetTag("Variant", g.Variant.Name())
	rec.SetTag("GameId", fmt.Sprint(g.ID))
	if g.Start != g.Variant.Start().String() || g.Variant.Name() != rules.Orthodox {
		rec.SetTag("SetUp", "1")
		rec.SetTag("FEN", g.Start)
	}
	switch {
	case g.Status == StatusAborted:
		rec.SetTag("Termination", "aborted: "+g.AbortReason)
	case g.ResultReason != "":
		rec.SetTag("Termination", g.ResultReason)
	}
	if g.Commitment != "" {
		rec.SetTag("DieCommitment", g.Commitment)
		rec.SetTag("RefereeKey", r.cfg.Key.PublicHex())
		if g.SeedRevealed {
			rec.SetTag("DieSeed", g.Seed.Hex())
		}
	}
	rollIdx := 0
	for i, p := range rep.Plies {
		rollIdx += len(p.Rolls)
		rec.Moves = append(rec.Moves, g.Actions[i].SAN)
		rec.RollsBefore = append(rec.RollsBefore, rollIdx)
		rec.Sides = append(rec.Sides, p.Before.Turn())
		rec.Numbers = append(rec.Numbers, p.Before.MoveNumber())
	}
	for _, r := range g.Rolls {
		rec.Rolls = append(rec.Rolls, game.RecordRoll{N: r.N, Value: r.Value, Sig: hex.EncodeToString(r.Sig)})
	}
	rec.Result = res
	return rec, nil
}

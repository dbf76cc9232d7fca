package referee

import (
	"encoding/hex"
	"fmt"
	"strings"

	"referee/internal/game"
	"referee/internal/notation"
	"referee/internal/rating"
	"referee/internal/rules"
)

// mailWidth is the width a record is written at inside a mail: the text
// part's own (render wraps at 72), so it is never folded mid-move.
const mailWidth = 72

// Record returns the game's PGN record: tags, the moves in canonical
// notation, the date of every move as a {[%date YYYY.MM.DD]} comment, the
// die rolls with their signatures, and (once the game is over) the die
// seed, so that anyone can verify every roll.
//
// The tags follow the PGN standard (1994, §8 and §9) where it has one for
// what is said: the seven-tag roster, UTCDate/UTCTime (when the game was
// created), TimeControl (§9.6.1: "1/259200" is one move per three days; a
// Fischer control is "initial+increment" in seconds, and the referee's cap
// (the initial time, or the cap of "30d+1d/45d"), which PGN cannot say, is
// in the comment before the result; a block "10/50d" is "10/4320000", its
// carry-over in the comment), and Termination with the standard's words only (§9.8.1), the
// detail ("Black resigned") in a comment before the result. Variant,
// SetUp and FEN are written only where a reader needs them to replay: a
// game of orthodox chess from the normal start carries none of them, so
// chess tools read it as chess.
func (r *Referee) Record(g *Game) (*game.Record, error) {
	rep, err := g.Replay()
	if err != nil {
		return nil, err
	}
	rec := &game.Record{}
	created := g.Created.UTC()
	event, round := fmt.Sprintf("Correspondence game #%d", g.ID), "-"
	if e := g.Event; e != nil {
		event, round = e.Name, e.round()
	}
	rec.SetTag("Event", event)
	rec.SetTag("Site", r.cfg.Address)
	date := "????.??.??" // the standard's unknown date
	if !created.IsZero() {
		date = created.Format("2006.01.02")
	}
	rec.SetTag("Date", date)
	rec.SetTag("Round", round)
	rec.SetTag("White", g.Players[0].Address)
	rec.SetTag("Black", g.Players[1].Address)
	if g.Rated && g.Ratings[0] != nil && g.Ratings[1] != nil {
		// As lichess writes its Glicko ratings: the ratings before the
		// game, rounded, and once it is over the change.
		rec.SetTag("WhiteElo", fmt.Sprint(g.Ratings[0].Before.Rounded()))
		rec.SetTag("BlackElo", fmt.Sprint(g.Ratings[1].Before.Rounded()))
		if before, after, ok := ratingsAfter(g); ok {
			rec.SetTag("WhiteRatingDiff", signed(rating.Diff(before[0], after[0])))
			rec.SetTag("BlackRatingDiff", signed(rating.Diff(before[1], after[1])))
		}
	}
	res := g.Result
	if res == "" {
		res = "*"
	}
	rec.SetTag("Result", res)
	if !created.IsZero() {
		rec.SetTag("UTCDate", created.Format("2006.01.02"))
		rec.SetTag("UTCTime", created.Format("15:04:05"))
	}
	orthodox := g.Variant.Name() == rules.Orthodox
	if !orthodox {
		rec.SetTag("Variant", g.Variant.Name())
	}
	if e := g.Event; e != nil {
		rec.SetTag("Board", fmt.Sprint(e.Board))
	}
	rec.SetTag("GameId", fmt.Sprint(g.ID))
	if g.Start != g.Variant.Start().String() || !orthodox {
		rec.SetTag("SetUp", "1")
		rec.SetTag("FEN", g.Start)
	}
	rec.SetTag("TimeControl", timeControlTag(g.State.Clock))
	term, detail := termination(g)
	rec.SetTag("Termination", term)
	if c := g.State.Clock; c != nil {
		if note := c.PGNComment(); note != "" {
			detail = strings.TrimSpace(detail + " " + note)
		}
	}
	rec.Comment = detail
	if g.Commitment != "" {
		rec.SetTag("DieCommitment", g.Commitment)
		rec.SetTag("RefereeKey", r.cfg.Key.PublicHex())
		if g.SeedRevealed {
			rec.SetTag("DieSeed", g.Seed.Hex())
		}
	}
	for i, s := range RevealedConditions(g) {
		rec.SetTag(fmt.Sprintf("%s%d", condTagPrefix, i+1), condTag(s))
	}
	rollIdx := 0
	for i, p := range rep.Plies {
		rollIdx += len(p.Rolls)
		// Standard SAN, whatever the mails wrote: "bxc4", where a mail
		// wrote b3xc4 for a reader that takes "bxc4" for a bishop too.
		rec.Moves = append(rec.Moves, notation.StandardSAN(p.Before, p.Move))
		rec.RollsBefore = append(rec.RollsBefore, rollIdx)
		rec.Sides = append(rec.Sides, p.Before.Turn())
		rec.Numbers = append(rec.Numbers, p.Before.MoveNumber())
		date := ""
		if t := g.Actions[i].Time; !t.IsZero() {
			date = t.UTC().Format("2006.01.02")
		}
		rec.Dates = append(rec.Dates, date)
		note := ""
		if g.Actions[i].Cond {
			note = "cond"
		}
		rec.Notes = append(rec.Notes, note)
	}
	for _, r := range g.Rolls {
		rec.Rolls = append(rec.Rolls, game.RecordRoll{N: r.N, Value: r.Value, Sig: hex.EncodeToString(r.Sig)})
	}
	rec.Result = res
	return rec, nil
}

// timeControlTag is the PGN TimeControl value (standard §9.6.1) of a clock:
// "-" for none, else its control's (timecontrol.Control.PGNTag).
func timeControlTag(c *Clock) string {
	if c == nil {
		return "-"
	}
	return c.PGNTag()
}

// termination is the PGN Termination value (standard §9.8.1) of a game and
// the detail for the comment before the result.
func termination(g *Game) (string, string) {
	switch {
	case g.Status == StatusAborted:
		d := "Aborted by the organiser"
		if g.AbortReason != "" {
			d += ": " + g.AbortReason
		}
		return "abandoned", d + "."
	case g.Status != StatusFinished:
		return "unterminated", ""
	}
	d := g.ResultReason
	if d != "" {
		d = strings.ToUpper(d[:1]) + d[1:] + "."
	}
	return g.Ending.Termination(), d
}

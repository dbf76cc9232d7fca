package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"referee/internal/letters"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

func toStoreGame(g *referee.Game) *store.Game {
	sg := &store.Game{
		ID: g.ID, Variant: g.Variant.Name(), Status: string(g.Status), StartPosition: g.Start, Ply: len(g.Actions),
		Result: g.Result, ResultReason: g.ResultReason, Ending: g.Ending, AbortReason: g.AbortReason, DieSeed: g.Seed[:],
		DieCommitment: g.Commitment, SeedRevealed: g.SeedRevealed, Created: g.Created, Rated: g.Rated,
	}
	sg.Position = g.Start
	if n := len(g.Actions); n > 0 {
		sg.Position = g.Actions[n-1].Position
	}
	if g.DrawOffer != nil {
		by := int(g.DrawOffer.By)
		sg.DrawOfferBy, sg.DrawOfferPly = &by, g.DrawOffer.Ply
	}
	if b, err := json.Marshal(g.State); err == nil {
		sg.State = string(b)
	}
	if g.State.Clock != nil {
		sg.TimeControl = g.State.Clock.Control
	}
	// The next moment the clocks must look at the game, kept with every
	// change of it (move, vacation, takeback, finish, abort, creation).
	// A record whose last position does not read is looked at at once:
	// the tick then reports it as before.
	if at, ok, err := g.NextCheck(); err != nil {
		sg.Deadline = &time.Time{}
	} else if ok {
		sg.Deadline = &at
	}
	for c, p := range g.Players {
		sg.Players[c] = store.Player{Color: c, Address: p.Address, Name: p.Name, Secret: p.Secret}
	}
	return sg
}

func toStoreAction(gameID int64, a referee.Action, inboundID int64, now time.Time) store.Action {
	in := inboundID
	kind := "move"
	if a.Cond {
		kind = "cond" // a conditional move, played as its owner's tree answered
	}
	return store.Action{GameID: gameID, Ply: a.Ply, Color: int(a.Color), Kind: kind, Notation: a.SAN, Coord: a.Coord,
		Position: a.Position, Message: a.Message, InboundID: &in, Created: now}
}

// fromStore builds the core's view of a game from its rows.
func fromStore(sg *store.Game, acts []store.Action, rolls []store.Roll, variants *rules.Catalog) (*referee.Game, error) {
	v, err := variants.Lookup(sg.Variant)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w", sg.ID, err)
	}
	g := &referee.Game{ID: sg.ID, Variant: v, Status: referee.GameStatus(sg.Status), Start: sg.StartPosition, Commitment: sg.DieCommitment,
		SeedRevealed: sg.SeedRevealed, Result: sg.Result, ResultReason: sg.ResultReason, Ending: sg.Ending, AbortReason: sg.AbortReason,
		Created: sg.Created, Rated: sg.Rated}
	copy(g.Seed[:], sg.DieSeed)
	for c, p := range sg.Players {
		g.Players[c] = referee.Player{Address: p.Address, Name: p.Name, Secret: p.Secret, Zone: p.TimeZone, Language: p.Language}
		if p.DisplayName != "" {
			g.Players[c].Name = p.DisplayName // the player's own choice, in every game, present and past
		}
	}
	for _, a := range acts {
		g.Actions = append(g.Actions, referee.Action{Ply: a.Ply, Color: rules.Color(a.Color), SAN: a.Notation, Coord: a.Coord,
			Position: a.Position, Message: a.Message, Time: a.Created, Cond: a.Kind == "cond"})
	}
	for _, r := range rolls {
		g.Rolls = append(g.Rolls, referee.Roll{N: r.N, Ply: r.Ply, Value: r.Value, Sig: r.Signature})
	}
	if sg.DrawOfferBy != nil {
		g.DrawOffer = &referee.DrawOffer{By: rules.Color(*sg.DrawOfferBy), Ply: sg.DrawOfferPly}
	}
	if sg.State != "" {
		if err := json.Unmarshal([]byte(sg.State), &g.State); err != nil {
			return nil, fmt.Errorf("game #%d: its stored state is damaged: %w", sg.ID, err)
		}
	}
	return g, nil
}

func (a *App) load(ctx context.Context, sg *store.Game) (g *referee.Game, err error) {
	err = a.st.View(ctx, func(tx *store.Tx) error {
		g, err = a.loadTx(tx, sg)
		return err
	})
	return g, err
}

func (a *App) loadTx(tx *store.Tx, sg *store.Game) (*referee.Game, error) {
	acts, err := tx.Actions(sg.ID)
	if err != nil {
		return nil, err
	}
	rolls, err := tx.Rolls(sg.ID)
	if err != nil {
		return nil, err
	}
	g, err := fromStore(sg, acts, rolls, a.Variants())
	if err != nil {
		return nil, err
	}
	if g.Watchers, err = tx.Watchers(sg.ID); err != nil {
		return nil, err
	}
	for _, w := range g.Watchers {
		code, err := tx.Language(w)
		if err != nil {
			return nil, err
		}
		if code != "" {
			if g.WatcherLanguages == nil {
				g.WatcherLanguages = map[string]string{}
			}
			g.WatcherLanguages[w] = code
		}
	}
	place, inEvent, err := tx.PlaceOfGame(sg.ID)
	if err != nil {
		return nil, err
	}
	if inEvent {
		g.Event = gameEvent(place)
	}
	if err := loadRatings(tx, g); err != nil {
		return nil, err
	}
	return g, nil
}

// loadRatings gives a rated game its players' ratings: what the game did
// to them once it was counted, otherwise their current ratings in its
// variant (the store counts the result from these, in the same
// transaction).
func loadRatings(tx *store.Tx, g *referee.Game) error {
	if !g.Rated {
		return nil
	}
	changes, err := tx.RatingChanges(g.ID)
	if err != nil {
		return err
	}
	for c := range g.Ratings {
		if ch := changes[c]; ch != nil {
			after := ch.After
			g.Ratings[c] = &referee.GameRating{Before: ch.Before, After: &after}
			continue
		}
		p, _, err := tx.Rating(g.Players[c].Address, g.Variant.Name())
		if err != nil {
			return err
		}
		g.Ratings[c] = &referee.GameRating{Before: p.Rating}
	}
	return nil
}

// loadLanguages gives the players of a game being started the languages
// they set (the "language" command): its opening mails, and the notice to
// a challenger that their challenge became the game, are in them. A
// stored game has them from the store already.
func loadLanguages(tx *store.Tx, g *referee.Game) error {
	for c := range g.Players {
		if g.Players[c].Language != "" {
			continue
		}
		code, err := tx.Language(g.Players[c].Address)
		if err != nil {
			return err
		}
		g.Players[c].Language = code
	}
	return nil
}

func (a *App) saveRolls(tx *store.Tx, gameID int64, rolls []referee.Roll) error {
	for _, r := range rolls {
		if err := tx.AppendRoll(store.Roll{GameID: gameID, N: r.N, Ply: r.Ply, Value: r.Value, Signature: r.Sig, Created: a.opts.Now().UTC()}); err != nil {
			return err
		}
	}
	return nil
}

// queue records mails in the outbox as data (letters.Encode), with their
// kind and priority: nothing is drawn, written or signed here, inside the
// write transaction. The sender writes each mail from its data when it
// sends it (Render).
func (a *App) queue(tx *store.Tx, gameID int64, mails []referee.Mail) error {
	for _, m := range mails {
		if m.Kind.InDigest() {
			// A player who takes a daily digest reads this move there
			// (maildigest.go), not in a mail of its own.
			at, err := tx.Digest(m.To)
			if err != nil {
				return err
			}
			if at != "" {
				continue
			}
		}
		data, err := letters.Encode(m)
		if err != nil {
			return err
		}
		o := store.Outgoing{To: m.To, From: a.letters.From, MessageID: m.MessageID, Data: data, Kind: string(m.Kind),
			Priority: priorityOf(m.Kind), Created: a.opts.Now().UTC()}
		if gameID != 0 {
			id := gameID
			o.GameID = &id
		}
		if _, err := tx.Enqueue(o); err != nil {
			return err
		}
	}
	return nil
}

// gameEvent is the core's view of a game's place in its event.
func gameEvent(p store.GamePlace) *referee.GameEvent {
	return &referee.GameEvent{Name: p.Event, Format: p.Format, Season: p.Season, Division: p.Division, Round: p.Round, Board: p.Board,
		Leg: p.Leg, Watchers: p.Watchers}
}

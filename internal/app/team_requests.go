package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"referee/internal/mail/addr"
	"referee/internal/referee"
	"referee/internal/store"
)

// JoinRequests lists the requests by mail to join a team of event name
// ("join NAME TEAM"), oldest first.
func (a *App) JoinRequests(ctx context.Context, name string) ([]store.JoinRequest, error) {
	var out []store.JoinRequest
	err := a.st.View(ctx, func(tx *store.Tx) error {
		se, _, err := a.eventByName(tx, name)
		if err != nil {
			return err
		}
		out, err = tx.JoinRequests(se.ID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the requests to join event %s: %w", name, err)
	}
	return out, nil
}

// DecideJoin approves (the player enters the team they asked for, on its
// next board) or rejects the request of address to join a team of open
// event name; the player is told either way.
func (a *App) DecideJoin(ctx context.Context, name, address string, approve bool) error {
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		se, e, err := a.eventByName(tx, name)
		if err != nil {
			return err
		}
		if referee.EventStatus(se.Status) != referee.EventOpen {
			return fmt.Errorf("%w: event %s is %s: requests are decided before it starts", ErrInput, se.Name, se.Status)
		}
		mb := addr.Mailbox(address)
		reqs, err := tx.JoinRequests(se.ID)
		if err != nil {
			return err
		}
		var req *store.JoinRequest
		for i := range reqs {
			if addr.SameMailbox(reqs[i].Address, mb) {
				req = &reqs[i]
			}
		}
		if req == nil {
			return fmt.Errorf("%w: %s asked to join no team of %s; \"referee event show %s\" lists the requests", ErrInput, address, se.Name, se.Name)
		}
		if err := tx.DeleteJoinRequest(se.ID, req.Address); err != nil {
			return err
		}
		now := a.opts.Now().UTC().Truncate(time.Second)
		board := 0
		if approve {
			if e.Named(req.Address) {
				return fmt.Errorf("%w: %s plays in %s already", ErrInput, req.Address, se.Name)
			}
			board = 1
			for _, p := range e.Players {
				if p.Team == req.Team {
					board = max(board, p.Board+1)
				}
			}
			if err := tx.AddEntrant(se.ID, req.Address, now); err != nil {
				return err
			}
			if err := tx.SetTeam(se.ID, len(e.Players)+1, req.Team, board); err != nil {
				return err
			}
		}
		code, err := tx.Language(req.Address) // the notice is in the player's language (issue 42)
		if err != nil {
			return err
		}
		if err := a.queue(tx, 0, []referee.Mail{a.ref.TeamRequestNotice(req.Address, code, se.Name, req.Team, board, approve, now)}); err != nil {
			return err
		}
		return tx.Audit(nil, "event", fmt.Sprintf("event %s: %s's request to play for team %s %s", se.Name, req.Address, req.Team,
			map[bool]string{true: "approved", false: "declined"}[approve]))
	})
	if err != nil {
		verb := map[bool]string{true: "approving", false: "declining"}[approve]
		if errors.Is(err, ErrInput) {
			return err
		}
		return fmt.Errorf("%s %s's request to join event %s: %w", verb, strings.TrimSpace(address), name, err)
	}
	return nil
}

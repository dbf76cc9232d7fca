package app

import (
	"context"
	"fmt"
	"time"

	"referee/internal/mail/addr"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// senderSettings loads what the core knows of the sender's own settings:
// their time zone, name and language, their leave booked ahead, and the
// vacation days they took this year and the next.
func (a *App) senderSettings(tx *store.Tx, from string, now time.Time, env *referee.Env) error {
	mb := addr.Mailbox(from)
	var err error
	if env.Zone, err = tx.TimeZone(mb); err != nil {
		return err
	}
	if env.Name, err = tx.DisplayName(mb); err != nil {
		return err
	}
	if env.Language, err = tx.Language(mb); err != nil {
		return err
	}
	hint, err := tx.LanguageHint(mb)
	if err != nil {
		return err
	}
	env.LanguageHinted = hint != ""
	bs, err := tx.Bookings(mb, now)
	if err != nil {
		return err
	}
	for _, b := range bs {
		env.Bookings = append(env.Bookings, referee.Booking{ID: b.ID, Start: b.Start, Days: b.Days, Began: b.Began})
	}
	env.VacationByYear = map[int]int{}
	for _, y := range []int{now.Year() - 1, now.Year(), now.Year() + 1} {
		if env.VacationByYear[y], err = tx.VacationDays(mb, y); err != nil {
			return err
		}
	}
	return nil
}

// startBookings begins the leave booked ahead that is due at now: the
// clocks of the player's timed games stop (from the leave's start, even
// if the tick comes late), opponents are told, and the days count against
// the player's allowance of each year they fall in. One transaction per
// booking.
func (a *App) startBookings(ctx context.Context, now time.Time) (int, error) {
	due, err := a.st.DueBookings(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("listing the vacations that begin: %w", err)
	}
	changed := 0
	for _, b := range due {
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			ok, err := tx.MarkBookingBegun(b.ID, now)
			if err != nil || !ok {
				return err // cancelled or begun meanwhile
			}
			zone, err := tx.TimeZone(b.Address)
			if err != nil {
				return err
			}
			years := map[int]int{}
			loc := (referee.Player{Zone: zone}).Location()
			y, m, d := b.Start.In(loc).Date()
			for i := range b.Days {
				years[time.Date(y, m, d+i, 12, 0, 0, 0, loc).Year()]++
			}
			for yr, n := range years {
				if err := tx.AddVacationDays(b.Address, yr, n); err != nil {
					return err
				}
			}
			ids, err := tx.GamesOf(b.Address, 0)
			if err != nil {
				return err
			}
			bk := referee.Booking{ID: b.ID, Start: b.Start, Days: b.Days}
			for _, id := range ids {
				g, err := a.gameTx(tx, id)
				if err != nil {
					return err
				}
				var color rules.Color
				switch {
				case addr.SameMailbox(g.Players[rules.White].Address, b.Address):
					color = rules.White
				case addr.SameMailbox(g.Players[rules.Black].Address, b.Address):
					color = rules.Black
				default:
					continue
				}
				ng, mails := a.ref.StartBooking(g, color, bk, now)
				if ng == nil {
					continue
				}
				if err := tx.UpdateGame(toStoreGame(ng)); err != nil {
					return err
				}
				if err := tx.Audit(&ng.ID, "vacation", fmt.Sprintf("%s's booked vacation %d began: %d days", color, b.ID, b.Days)); err != nil {
					return err
				}
				if err := a.queue(tx, ng.ID, mails); err != nil {
					return err
				}
			}
			changed++
			return nil
		})
		if err != nil {
			return changed, fmt.Errorf("starting booked vacation %d of %s: %w", b.ID, b.Address, err)
		}
	}
	return changed, nil
}

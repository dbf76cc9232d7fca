package store

import (
	"context"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

// Booking is one leave booked ahead by a player (vacation_bookings).
type Booking struct {
	ID      int64
	Address string
	Start   time.Time
	Days    int
	Began   bool
}

const bookingColumns = `id, address, start, days, began IS NOT NULL`

func (t *Tx) bookings(where string, args ...any) ([]Booking, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+bookingColumns+` FROM vacation_bookings WHERE `+where+` ORDER BY start, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading booked vacations: %w", err)
	}
	defer rows.Close()
	var out []Booking
	for rows.Next() {
		var b Booking
		var start int64
		if err := rows.Scan(&b.ID, &b.Address, &start, &b.Days, &b.Began); err != nil {
			return nil, fmt.Errorf("reading booked vacations: %w", err)
		}
		b.Start = fromMS(start)
		out = append(out, b)
	}
	return out, rows.Err()
}

// Bookings lists the leave of the player at address not cancelled and
// not over at now (pending, or begun and still running), soonest first.
func (t *Tx) Bookings(address string, now time.Time) ([]Booking, error) {
	all, err := t.bookings(`address = ? AND cancelled IS NULL`, addr.Mailbox(address))
	if err != nil {
		return nil, err
	}
	var out []Booking
	for _, b := range all {
		if b.Start.Add(time.Duration(b.Days) * 24 * time.Hour).After(now) {
			out = append(out, b)
		}
	}
	return out, nil
}

// BookVacation records a leave of days from start for the player at
// address and returns its id.
func (t *Tx) BookVacation(address string, start time.Time, days int, now time.Time) (int64, error) {
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO vacation_bookings (address, start, days, created) VALUES (?, ?, ?, ?)`,
		addr.Mailbox(address), ms(start), days, ms(now))
	if err != nil {
		return 0, fmt.Errorf("booking the vacation of %s: %w", address, err)
	}
	return res.LastInsertId()
}

// CancelBooking cancels pending booking id of the player at address.
func (t *Tx) CancelBooking(address string, id int64, now time.Time) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE vacation_bookings SET cancelled = ?
		WHERE id = ? AND address = ? AND began IS NULL AND cancelled IS NULL`, ms(now), id, addr.Mailbox(address))
	if err != nil {
		return fmt.Errorf("cancelling vacation %d of %s: %w", id, address, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("cancelling vacation %d of %s: %w", id, address, ErrNotFound)
	}
	return nil
}

// DueBookings lists the pending leave that begins at or before now, in
// every player's: the tick stops their clocks.
func (s *Store) DueBookings(ctx context.Context, now time.Time) (out []Booking, err error) {
	err = s.view(ctx, func(tx *Tx) error {
		out, err = tx.bookings(`began IS NULL AND cancelled IS NULL AND start <= ?`, ms(now))
		return err
	})
	return out, err
}

// MarkBookingBegun records that the tick stopped the clocks for booking
// id; false when it began or was cancelled meanwhile.
func (t *Tx) MarkBookingBegun(id int64, now time.Time) (bool, error) {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE vacation_bookings SET began = ? WHERE id = ? AND began IS NULL AND cancelled IS NULL`, ms(now), id)
	if err != nil {
		return false, fmt.Errorf("starting booked vacation %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

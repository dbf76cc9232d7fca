package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func seats(t *testing.T, tx *Tx, id int64) []string {
	t.Helper()
	es, err := tx.Entrants(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, e := range es {
		if e.Seat != i+1 {
			t.Fatalf("seats %v: seat %d at place %d; seats must run 1, 2, 3 without gap", es, e.Seat, i+1)
		}
		out = append(out, e.Address)
	}
	return out
}

// An event keeps its players in seat order; a player who leaves before the
// start closes the gap (the seats are the numbers of the Berger tables),
// and a game knows its event, round and board.
func TestEventEntrantsAndGames(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	err := s.Update(ctx, func(tx *Tx) error {
		e := &Event{Name: "autumn", Variant: "chess", Format: "rr", Places: 4, Entry: "open", TieBreak: "wins,sb,direct", Decider: "match", Created: now}
		if err := tx.CreateEvent(e, []string{"a@x.test", "b@x.test", "c@x.test"}); err != nil {
			return err
		}
		if err := tx.CreateEvent(&Event{Name: "autumn", Variant: "chess", Format: "rr", Created: now}, nil); err == nil {
			t.Error("a second event named autumn was stored")
		}
		if err := tx.AddEntrant(e.ID, "a@x.test", now); err == nil {
			t.Error("a@x.test entered the same event twice")
		}
		if err := tx.AddEntrant(e.ID, "d@x.test", now); err != nil {
			return err
		}
		ok, err := tx.RemoveEntrant(e.ID, "b@x.test")
		if err != nil || !ok {
			t.Fatalf("RemoveEntrant(b) = %v, %v", ok, err)
		}
		if got, want := seats(t, tx, e.ID), []string{"a@x.test", "c@x.test", "d@x.test"}; !slices.Equal(got, want) {
			t.Errorf("after b left: %v, want %v", got, want)
		}
		if ok, err := tx.RemoveEntrant(e.ID, "nobody@x.test"); ok || err != nil {
			t.Errorf("RemoveEntrant(nobody) = %v, %v; want false, nil", ok, err)
		}
		gid, err := tx.CreateGame(newGame())
		if err != nil {
			return err
		}
		if err := tx.AddEventGame(e.ID, EventGame{GameID: gid, Round: 2, Board: 1, White: 3, Black: 1}); err != nil {
			return err
		}
		eid, eg, found, err := tx.EventOfGame(gid)
		if err != nil || !found || eid != e.ID || eg.Round != 2 || eg.Board != 1 || eg.White != 3 || eg.Black != 1 {
			t.Errorf("EventOfGame = %d %+v %v %v", eid, eg, found, err)
		}
		if err := tx.SetEventStatus(e.ID, "running", now); err != nil {
			return err
		}
		got, err := tx.EventByName("autumn")
		if err != nil {
			return err
		}
		if got.Status != "running" || got.Started == nil || !got.Started.Equal(now) || got.Places != 4 {
			t.Errorf("event after start: %+v", got)
		}
		if _, err := tx.EventByName("spring"); !errors.Is(err, ErrNotFound) {
			t.Errorf("EventByName(spring) = %v, want ErrNotFound", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An event keeps whether it is rated and its rating limits (issue 30); an
// event stored before schema 17 made casual games and reads as casual.
func TestEventRatedAndLimits(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	events := []Event{
		{Name: "rated", Variant: "chess", Format: "rr", Rated: true, MinRating: 1400, MaxRating: 1800, MinReliability: 0.9},
		{Name: "casual", Variant: "chess", Format: "rr"},
	}
	err := s.Update(ctx, func(tx *Tx) error {
		for i := range events {
			events[i].TieBreak, events[i].Decider, events[i].Created = "wins,sb,direct", "match", now
			if err := tx.CreateEvent(&events[i], nil); err != nil {
				return err
			}
		}
		// As a version 16 database wrote it: without the new columns.
		_, err := tx.tx.ExecContext(ctx, `INSERT INTO events (name, variant, format, seed, created) VALUES ('old', 'chess', 'rr', x'', 0)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx *Tx) error {
		for _, want := range events {
			got, err := tx.EventByName(want.Name)
			if err != nil {
				return err
			}
			if got.Rated != want.Rated || got.MinRating != want.MinRating || got.MaxRating != want.MaxRating || got.MinReliability != want.MinReliability {
				t.Errorf("event %s read back rated %v, limits %v/%v/%v; stored rated %v, limits %v/%v/%v", want.Name,
					got.Rated, got.MinRating, got.MaxRating, got.MinReliability, want.Rated, want.MinRating, want.MaxRating, want.MinReliability)
			}
		}
		old, err := tx.EventByName("old")
		if err != nil {
			return err
		}
		if old.Rated || old.MinRating != 0 || old.MaxRating != 0 || old.MinReliability != 0 {
			t.Errorf("an event of schema 16 read as rated %v, limits %v/%v/%v; want casual without limits", old.Rated, old.MinRating, old.MaxRating, old.MinReliability)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

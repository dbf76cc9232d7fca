package store

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/game"
	"referee/internal/rating"
)

// playRated creates a game between white and black, plays plies actions
// (alternating colours) and finishes it with result and reason.
func playRated(t *testing.T, s *Store, variant, white, black string, rated bool, plies int, result, reason string) int64 {
	t.Helper()
	var id int64
	err := s.Update(context.Background(), func(tx *Tx) error {
		g := &Game{Variant: variant, Status: "active", StartPosition: "s", Position: "s", DieSeed: []byte{0}, Rated: rated,
			Players: [2]Player{{Address: white, Secret: "w"}, {Address: black, Secret: "b"}}}
		var err error
		if id, err = tx.CreateGame(g); err != nil {
			return err
		}
		for p := range plies {
			if err := tx.AppendAction(Action{GameID: id, Ply: p, Color: p % 2, Notation: "x", Coord: "x", Position: "s"}); err != nil {
				return err
			}
		}
		g.Ply, g.Status, g.Result, g.ResultReason = plies, "finished", result, reason
		// The kind the referee stores with such a reason: only it counts
		// for reliability.
		g.Ending = game.EndBoard
		if strings.HasSuffix(reason, "lost on time") {
			g.Ending = game.EndTime
		}
		if err := tx.UpdateGame(g); err != nil {
			return err
		}
		// A second write of the finished game (the seed revealed, a
		// rematch offer) must not count it twice.
		return tx.UpdateGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func openRatings(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestRatingsCountRatedGamesOnce: a rated game's result moves both players'
// ratings by Glicko-2 in the transaction of the result, once; a casual game
// moves nothing; the counts (W/D/L, lost on time, abandoned) follow.
func TestRatingsCountRatedGamesOnce(t *testing.T) {
	s := openRatings(t)
	ctx := context.Background()
	const a, b = "alice@example.test", "bob@example.test"
	g1 := playRated(t, s, "chess", a, b, true, 10, "1-0", "checkmate")
	playRated(t, s, "chess", a, b, false, 10, "0-1", "checkmate")
	playRated(t, s, "chess", b, a, true, 3, "1-0", "Black lost on time") // alice moved once: lost on time
	playRated(t, s, "chess", b, a, true, 1, "1-0", "Black lost on time") // alice never moved: abandoned
	playRated(t, s, "toroidal", a, b, true, 4, "1/2-1/2", "agreed")

	err := s.View(ctx, func(tx *Tx) error {
		init := rating.Default().Initial
		wantA, wantB := rating.Default().Pair(init, init, 1)
		ch, err := tx.RatingChanges(g1)
		if err != nil {
			return err
		}
		if ch[0] == nil || ch[0].Before != init || ch[0].After != wantA || ch[1].After != wantB {
			t.Errorf("game 1 changes %+v %+v, want %+v and %+v from %+v", ch[0], ch[1], wantA, wantB, init)
		}
		if ch[0] != nil && ch[0].Diff() <= 0 {
			t.Errorf("the winner's diff %d is not positive", ch[0].Diff())
		}
		alice, ok, err := tx.Rating(a, "chess")
		if err != nil {
			return err
		}
		want := PlayerRating{Address: a, Variant: "chess", Games: 3, Wins: 1, Losses: 2, LostOnTime: 1, Abandoned: 1}
		got := alice
		got.Rating = rating.Rating{}
		if !ok || got != want {
			t.Errorf("alice in chess: %+v (found %v), want counts %+v", alice, ok, want)
		}
		if r := alice.Reliability(); math.Abs(r-1.0/3) > 1e-12 {
			t.Errorf("alice's reliability %v, want 1/3", r)
		}
		tor, err := tx.Ratings("toroidal")
		if err != nil {
			return err
		}
		if len(tor) != 2 || tor[0].Draws != 1 || tor[0].Games != 1 {
			t.Errorf("toroidal ratings %+v, want two players with one draw each", tor)
		}
		if _, ok, _ := tx.Rating("carol@example.test", "chess"); ok {
			t.Error("a player without games has a stored rating")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRebuildEqualsStored: recomputing every rating from the records gives
// the stored values exactly (bit for bit), and a tampered rating is found.
func TestRebuildEqualsStored(t *testing.T) {
	s := openRatings(t)
	ctx := context.Background()
	players := []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test"}
	results := []string{"1-0", "0-1", "1/2-1/2"}
	for i := range 40 {
		w, b := players[i%4], players[(i*3+1)%4]
		if w == b {
			b = players[(i+1)%4]
		}
		variant := []string{"chess", "cuarenta"}[i%2]
		playRated(t, s, variant, w, b, i%5 != 0, 2+i%3, results[(i*7)%3], "checkmate")
	}
	var before []PlayerRating
	if err := s.View(ctx, func(tx *Tx) (err error) { before, err = tx.Ratings(""); return err }); err != nil {
		t.Fatal(err)
	}
	var rep RebuildReport
	if err := s.Update(ctx, func(tx *Tx) (err error) { rep, err = tx.RebuildRatings(); return err }); err != nil {
		t.Fatal(err)
	}
	if rep.Games != 32 || rep.Players != 8 || len(rep.Differ) != 0 {
		t.Fatalf("rebuild: %+v, want 32 games, 8 ratings, none different", rep)
	}
	var after []PlayerRating
	if err := s.View(ctx, func(tx *Tx) (err error) { after, err = tx.Ratings(""); return err }); err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("%d ratings after the rebuild, %d before", len(after), len(before))
	}
	for i := range after {
		if after[i] != before[i] {
			t.Errorf("rebuilt %+v, stored %+v", after[i], before[i])
		}
	}

	if _, err := s.exec(ctx, `UPDATE ratings SET rating = rating + 1e-9 WHERE address = 'a@x.test' AND variant = 'chess'`); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx *Tx) (err error) { rep, err = tx.RebuildRatings(); return err }); err != nil {
		t.Fatal(err)
	}
	if len(rep.Differ) != 1 {
		t.Fatalf("a rating off by 1e-9: the rebuild reports %q, want it alone", rep.Differ)
	}
}

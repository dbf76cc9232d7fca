package app

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// openPositions opens an app on a file the test can also reach with SQL.
func openPositions(t *testing.T) (*App, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.db")
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, err := Open(context.Background(), Options{Catalog: testCatalog(), DB: path, Address: "referee@example.test",
		Now: func() time.Time { now = now.Add(time.Minute); return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, path
}

// play sends body as side c's reply in game id and returns what became of it.
func play(t *testing.T, a *App, id int64, c rules.Color, body string) (Processed, error) {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	date := fmt.Sprintf("Mon, 23 Nov 2026 %02d:%02d:00 +0000", g.Ply()/60, g.Ply()%60)
	return a.Process(context.Background(), moveMail(a, g, c, date, body+"\r\n"), 0, 0)
}

// kept reports whether the cache holds game id's position for its stored
// record, and that position.
func kept(t *testing.T, a *App, id int64) (rules.Position, bool) {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !a.positions.attach(g) {
		return nil, false
	}
	pos, _ := g.KnownPosition()
	return pos, true
}

// TestKeptPositionIsTheReplay: after every mail the cache holds the
// position of the stored record, equal to its replay from move 1 (the
// position string and what repetition claims), and a threefold
// repetition built over several mails is claimed from the kept position
// as from the replay.
func TestKeptPositionIsTheReplay(t *testing.T) {
	ctx := context.Background()
	a, _ := openPositions(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	for i, mv := range moves {
		if p, err := play(t, a, g.ID, rules.Color(i%2), mv); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v %v", mv, p, err)
		}
		pos, ok := kept(t, a, g.ID)
		if !ok {
			t.Fatalf("after %s the cache does not hold the game", mv)
		}
		fresh, err := a.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := fresh.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if pos.String() != rep.Final.String() || pos.Claimable() != rep.Final.Claimable() {
			t.Fatalf("after %s: kept %s (%q), replayed %s (%q)", mv, pos, pos.Claimable(), rep.Final, rep.Final.Claimable())
		}
	}
	// The start position stands for the third time: White claims.
	if p, err := play(t, a, g.ID, rules.White, "draw"); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("claim: %+v %v", p, err)
	}
	if g, _ = a.Game(ctx, g.ID); g.Result != "1/2-1/2" {
		t.Errorf("after the claim: %s %q, want a draw by threefold repetition", g.Result, g.ResultReason)
	}
}

// TestStaleKeptPositionIsNeverUsed: a record changed behind the cache's
// back (another process, a repair: here the last action replaced by
// another of the same ply) is decided on from the stored record, never
// from the kept position; and a transaction that rolls back drops the
// game's kept position.
func TestStaleKeptPositionIsNeverUsed(t *testing.T) {
	ctx := context.Background()
	a, path := openPositions(t)
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"e4", "e5"} {
		if p, err := play(t, a, g.ID, rules.Color(i%2), mv); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v %v", mv, p, err)
		}
	}
	if _, ok := kept(t, a, g.ID); !ok {
		t.Fatal("the cache does not hold the game after e4 e5")
	}
	// Behind the cache: Black's e5 becomes d5, at the same ply.
	d5 := "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
	err = a.Store().Update(ctx, func(tx *store.Tx) error {
		if err := tx.DeleteAction(g.ID, 1); err != nil {
			return err
		}
		in := int64(0)
		act := toStoreAction(g.ID, referee.Action{Ply: 1, Color: rules.Black, SAN: "d5", Coord: "d7d5", Position: d5}, in, time.Now())
		act.InboundID = nil
		if err := tx.AppendAction(act); err != nil {
			return err
		}
		sg, err := tx.Game(g.ID)
		if err != nil {
			return err
		}
		sg.Position = d5
		return tx.UpdateGame(sg)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := kept(t, a, g.ID); ok {
		t.Fatal("the kept position of e4 e5 is offered for the record e4 d5")
	}
	// exd5 is legal only in the stored game.
	if p, err := play(t, a, g.ID, rules.White, "exd5"); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("exd5 after the stored d5: %+v %v", p, err)
	}
	if _, ok := kept(t, a, g.ID); !ok {
		t.Fatal("the cache does not hold the game after exd5")
	}
	// A transaction that fails after the decision rolls back: the kept
	// position is dropped, and the move is played once the store works.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER no_actions BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := play(t, a, g.ID, rules.Black, "Qxd5"); err == nil {
		t.Fatal("Qxd5 was stored despite the failing insert")
	}
	if a.positions.len() != 0 {
		t.Error("the rolled-back game's position is still kept")
	}
	if _, err := db.Exec(`DROP TRIGGER no_actions`); err != nil {
		t.Fatal(err)
	}
	if p, err := play(t, a, g.ID, rules.Black, "Qxd5"); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("Qxd5 once the store works: %+v %v", p, err)
	}
	if g, _ = a.Game(ctx, g.ID); g.Ply() != 4 {
		t.Errorf("game at ply %d, want 4", g.Ply())
	}
}

// TestPositionCacheIsBounded: the cache keeps at most its size, dropping
// the games decided longest ago.
func TestPositionCacheIsBounded(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test", PositionCache: 2,
		Now: func() time.Time { now = now.Add(time.Minute); return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var ids []int64
	for range 3 {
		g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		if p, err := play(t, a, g.ID, rules.White, "e4"); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("e4: %+v %v", p, err)
		}
	}
	if n := a.positions.len(); n != 2 {
		t.Errorf("%d games kept, want 2", n)
	}
	if _, ok := kept(t, a, ids[0]); ok {
		t.Error("the game decided first is still kept")
	}
	for _, id := range ids[1:] {
		if _, ok := kept(t, a, id); !ok {
			t.Errorf("game #%d is not kept", id)
		}
	}
}

// TestKeptPositionEveryVariant plays random games of every variant through
// Process (Chec Toe's die rolls, Toe-to-Toe's deployments and swaps
// included) and checks after every mail that the position kept for the
// next one is the replay of the stored record.
func TestKeptPositionEveryVariant(t *testing.T) {
	ctx := context.Background()
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			a, _ := openPositions(t)
			g, err := a.NewGame(ctx, v.Name(), "alice@example.org", "bob@example.org", nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, uint64(g.ID)))
			for ply := 0; ply < 40; ply++ {
				g, err = a.Game(ctx, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := g.Replay()
				if err != nil {
					t.Fatal(err)
				}
				if ply > 0 {
					pos, ok := kept(t, a, g.ID)
					if !ok {
						t.Fatalf("ply %d: the cache does not hold the game", ply)
					}
					if pos.String() != rep.Final.String() || pos.Claimable() != rep.Final.Claimable() || pos.Result() != rep.Final.Result() {
						t.Fatalf("ply %d: kept %s, replayed %s", ply, pos, rep.Final)
					}
				}
				legal := rep.Final.Legal()
				if len(legal) == 0 || g.Status != referee.StatusActive {
					break
				}
				m := legal[rng.IntN(len(legal))]
				san := notation.SAN(rep.Final, m)
				if p, err := play(t, a, g.ID, rep.Final.Turn(), notation.Coord(rep.Final, m)); err != nil || p.Verdict != referee.Applied {
					t.Fatalf("ply %d %s: %+v %v", ply, san, p, err)
				}
			}
		})
	}
}

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/apptest"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// TestTickReadsOnlyDueGamesAndActsAsBefore: the tick now loads only the
// games whose deadline column has come, where it used to load every timed
// game and ask the clock of each. Over eight days in steps of 30 minutes,
// with moves, a vacation by the side to act, and a vacation by the side
// waiting (whose opponent's clock then starts when it ends), every tick
// changes exactly the games, and exactly as, the clock of every timed
// game (the old tick) would have: the same reminders, the same losses on
// time, at the same ticks.
func TestTickReadsOnlyDueGamesAndActsAsBefore(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	t0 := clk.now
	newGame := func(white, black, control string) int64 {
		t.Helper()
		g, err := a.NewTimedGame(ctx, "chess", white, black, nil, control)
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	idle := newGame("carol@example.org", "bob@example.org", "3d")      // nobody moves: reminder, then loss
	fischer := newGame("dan@example.org", "erin@example.org", "4d+1d") // moves, then Black runs out
	onVac := newGame("fay@example.org", "gus@example.org", "2d")       // Black takes a vacation on its turn
	waitVac := newGame("hal@example.org", "ivy@example.org", "1d")     // Black takes a vacation while White thinks
	untimed, err := a.NewGame(ctx, "chess", "jo@example.org", "kim@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int64{idle, fischer, onVac, waitVac, untimed.ID}
	moves := apptest.Moves(4)
	n := 0
	act := func(id int64, c rules.Color, body string) {
		t.Helper()
		g, err := a.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		n++
		date := t0.Add(time.Duration(n) * time.Second).Format(time.RFC1123Z)
		p, err := a.Process(ctx, moveMail(a, g, c, date, body), 0, 0)
		if err != nil || p.Verdict != referee.Applied {
			t.Fatalf("game #%d %s %q: %+v %v", id, c, body, p, err)
		}
	}
	// What happens, by step (30 minutes each) from t0.
	script := map[int]func(){
		1: func() { act(waitVac, rules.Black, "vacation 2") }, // not Black's turn: White's clock runs on
		2: func() {
			act(fischer, rules.White, moves[0])
			act(onVac, rules.White, moves[0])
			act(waitVac, rules.White, moves[0]) // Black's clock starts when the vacation ends
		},
		4:  func() { act(onVac, rules.Black, "vacation 3") }, // Black's running clock stops for 3 days
		96: func() { act(fischer, rules.Black, moves[1]) },
		98: func() { act(fischer, rules.White, moves[2]) },
	}
	var reminders, losses int
	ended := map[int64]time.Time{}
	state := func(id int64) (*referee.Game, string) {
		t.Helper()
		g, err := a.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(g.State)
		return g, string(g.Status) + " " + g.Result + " " + g.ResultReason + " " + string(b)
	}
	for step := 0; step <= 8*48; step++ {
		clk.now = t0.Add(time.Duration(step) * 30 * time.Minute)
		if f := script[step]; f != nil {
			f()
		}
		// The old tick, as the oracle: every timed game's clock asked.
		now := clk.now.UTC().Truncate(time.Second)
		want := map[int64]string{}
		before := map[int64]string{}
		for _, id := range all {
			g, s := state(id)
			before[id] = s
			if out := a.Referee().Tick(g, now); out.Game != nil {
				b, _ := json.Marshal(out.Game.State)
				want[id] = string(out.Game.Status) + " " + out.Game.Result + " " + out.Game.ResultReason + " " + string(b)
				if strings.Contains(out.Detail, "reminded") {
					reminders++
				} else {
					losses++
					ended[id] = now
				}
			}
		}
		changed, err := a.Tick(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if changed != len(want) {
			t.Errorf("step %d (%v): the tick changed %d games, the clock of every game %d (%v)", step, now, changed, len(want), want)
		}
		for _, id := range all {
			_, got := state(id)
			w, ok := want[id]
			if !ok {
				w = before[id]
			}
			if got != w {
				t.Errorf("step %d (%v): game #%d is\n%s\nwant\n%s", step, now, id, got, w)
			}
		}
	}
	// Every timed game was reminded and lost on time, each once.
	if reminders != 4 || losses != 4 {
		t.Errorf("%d reminders and %d losses on time, want 4 and 4", reminders, losses)
	}
	// The vacations moved the losses: onVac's Black lost 3 days after its
	// 2 days ran out, and waitVac's Black a day after its vacation ended.
	for _, c := range []struct {
		id      int64
		earlier time.Duration
	}{{onVac, 5 * referee.Day}, {waitVac, 3 * referee.Day}} {
		g, err := a.Game(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != referee.StatusFinished || !strings.Contains(g.ResultReason, "on time") {
			t.Errorf("game #%d: %s %q, want a loss on time", c.id, g.Status, g.ResultReason)
		}
		if ended[c.id].Before(t0.Add(c.earlier)) {
			t.Errorf("game #%d ended at %v, before its vacation allowed (%v)", c.id, ended[c.id], t0.Add(c.earlier))
		}
	}
}

// TestDeadlineFollowsEveryChange: the stored deadline is the clock's next
// moment after every kind of change of a timed game (creation, move,
// takeback asked and agreed, vacation, abort), and none once it is over.
func TestDeadlineFollowsEveryChange(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "bob@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string) {
		t.Helper()
		var stored *time.Time
		err := a.Store().View(ctx, func(tx *store.Tx) error {
			sg, err := tx.Game(g.ID)
			if err == nil {
				stored = sg.Deadline
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		cur, err := a.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		at, ok, err := cur.NextCheck()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !ok && stored != nil:
			t.Errorf("after %s: deadline %v stored for a game without a running clock (%s)", what, *stored, cur.Status)
		case ok && (stored == nil || !stored.Equal(at.Truncate(time.Millisecond))):
			t.Errorf("after %s: deadline %v stored, the clock's next moment is %v", what, stored, at)
		}
	}
	step := func(c rules.Color, body string) {
		t.Helper()
		clk.now = clk.now.Add(5 * time.Hour)
		cur, err := a.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		date := clk.now.Format(time.RFC1123Z)
		if p, err := a.Process(ctx, moveMail(a, cur, c, date, body), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s %q: %+v %v", c, body, p, err)
		}
		check(fmt.Sprintf("%s %q", c, body))
	}
	check("creation")
	step(rules.White, "e4")
	step(rules.Black, "e5")
	step(rules.Black, "takeback")
	step(rules.White, "accept")
	step(rules.Black, "vacation 2") // Black to act: its deadline moves two days on
	step(rules.White, "vacation 1") // not White's turn
	step(rules.Black, "Nc6")        // White's clock starts when its vacation ends
	if err := a.Abort(ctx, g.ID, "test"); err != nil {
		t.Fatal(err)
	}
	check("abort")
}

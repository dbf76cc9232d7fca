package apptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// Archive describes a database of many played games, for the web
// archive's benchmarks (issue 39): finished and running chess games
// between Players players, each with its moves in the actions table.
type Archive struct {
	Games   int // how many games
	Players int // how many distinct players (at least 2)
	// RunningEvery: every RunningEvery-th game is still running (the others
	// are finished); 0 for none running.
	RunningEvery int
}

// ArchivePlayer is the address of the i-th player of an Archive.
func ArchivePlayer(i int) string { return fmt.Sprintf("player%05d@example.org", i) }

// ArchiveGame says what CreateArchive made the n-th game (from 0): its
// players (indexes for ArchivePlayer), its plies, and whether it runs.
func (a Archive) ArchiveGame(n int) (white, black, plies int, running bool) {
	white = n % a.Players
	black = (n*7 + 1) % a.Players
	if black == white {
		black = (white + 1) % a.Players
	}
	plies = 4 + (n*13)%37
	running = a.RunningEvery > 0 && n%a.RunningEvery == 0
	return white, black, plies, running
}

// ArchiveDB returns the path of a database holding the games of a, made
// once and kept in the system's temporary directory under a name of its
// parameters and the schema (store.SchemaDigest), so that the next benchmark run
// reuses it (building 100,000 games takes minutes). The caller must not
// change it; copy it first to change it.
func ArchiveDB(ctx context.Context, a Archive) (string, error) {
	if a.Players < 2 || a.Games < 1 {
		return "", fmt.Errorf("an archive needs at least one game and two players, not %d and %d", a.Games, a.Players)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "archive 1 %d %d %d schema %s", a.Games, a.Players, a.RunningEvery, store.SchemaDigest()))
	path := filepath.Join(os.TempDir(), "referee-archive-"+hex.EncodeToString(sum[:6])+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp := path + fmt.Sprintf(".%d.tmp", os.Getpid())
	if err := CreateArchive(ctx, tmp, a); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("keeping the archive database: %w", err)
	}
	return path, nil
}

// CreateArchive writes the games of a into a new database at path
// (directly in the store: no mail, no replay), and checkpoints it into one
// file.
func CreateArchive(ctx context.Context, path string, a Archive) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists: an archive is made in a new file", path)
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	// One line of moves, replayed in every game up to its length.
	type step struct {
		san, coord, pos string
		color           int
	}
	pos := rules.Chess().Start()
	start := pos.String()
	var line []step
	for i := range 40 {
		legal := pos.Legal()
		if len(legal) == 0 {
			break
		}
		m := legal[(i*7+2)%len(legal)]
		s := step{san: notation.SAN(pos, m), coord: notation.Coord(pos, m), color: int(pos.Turn())}
		if pos, err = pos.Play(m); err != nil {
			st.Close()
			return fmt.Errorf("the archive's line of moves: %w", err)
		}
		s.pos = pos.String()
		line = append(line, s)
	}
	state, _ := json.Marshal(referee.State{})
	delayed, _ := json.Marshal(referee.State{WatchDelay: 2})
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	results := []string{"1-0", "0-1", "1/2-1/2"}
	reasons := []string{"resignation", "checkmate", "agreement"}
	endings := []game.Ending{game.EndResigned, game.EndBoard, game.EndAgreed}
	const batch = 2000
	for from := 0; from < a.Games; from += batch {
		err := st.Update(ctx, func(tx *store.Tx) error {
			for n := from; n < min(a.Games, from+batch); n++ {
				w, b, plies, running := a.ArchiveGame(n)
				plies = min(plies, len(line))
				created := base.Add(time.Duration(n) * time.Hour)
				var seed dice.Seed
				copy(seed[:], fmt.Appendf(nil, "archive seed %d", n))
				g := &store.Game{Variant: rules.Chess().Name(), Status: string(referee.StatusFinished), StartPosition: start,
					Position: line[plies-1].pos, Ply: plies, DieSeed: seed[:], State: string(state), Created: created,
					Result: results[n%3], ResultReason: reasons[n%3], Ending: endings[n%3]}
				if running {
					g.Status, g.Result, g.ResultReason, g.Ending = string(referee.StatusActive), "", "", ""
					if n%(2*a.RunningEvery) == 0 {
						g.State = string(delayed)
					}
				}
				g.Players[0] = store.Player{Color: 0, Address: ArchivePlayer(w), Secret: Secret(n, 0)}
				g.Players[1] = store.Player{Color: 1, Address: ArchivePlayer(b), Secret: Secret(n, 1)}
				if n%5 == 0 {
					g.Players[0].Name = fmt.Sprintf("Player %d", w)
				}
				id, err := tx.CreateGame(g)
				if err != nil {
					return fmt.Errorf("archive game %d: %w", n, err)
				}
				for p := range plies {
					s := line[p]
					if err := tx.AppendAction(store.Action{GameID: id, Ply: p, Color: s.color, Notation: s.san, Coord: s.coord,
						Position: s.pos, Created: created.Add(time.Duration(p+1) * time.Minute)}); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			st.Close()
			return fmt.Errorf("making the archive of %d games: %w", a.Games, err)
		}
	}
	// Closing the last connection checkpoints the WAL into the file.
	return st.Close()
}

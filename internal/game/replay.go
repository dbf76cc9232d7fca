// Package game replays game records: a start position, the players' actions
// in order and the die rolls, re-validated move by move. It also reads and
// writes the PGN-style record that `referee export` prints. It does no I/O.
package game

import (
	"errors"
	"fmt"

	"referee/internal/notation"
	"referee/internal/rules"
)

// Ply is one action of a replayed game.
type Ply struct {
	Color  rules.Color
	Move   rules.Move
	SAN    string // canonical notation, as written in records and mails
	Coord  string // coordinate form
	Rolls  []int  // die values rolled before this action, in order (Chec Toe)
	Before rules.Position
	After  rules.Position
}

// Replay is a re-validated game.
type Replay struct {
	Variant rules.Variant
	Start   rules.Position
	Plies   []Ply
	// Final is the position after the last action and after every roll that
	// followed it. It may still wait for a roll (see rules.Roller) when the
	// record holds no more rolls.
	Final rules.Position
	// TrailingRolls are the rolls consumed after the last action.
	TrailingRolls []int
	// RollsUsed counts every roll consumed.
	RollsUsed int
}

// MoveError reports the first action of a record that could not be played.
type MoveError struct {
	Index int    // 1-based index of the action in the list
	Input string // the text as read
	Err   error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %d %q: %v", e.Index, e.Input, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// ErrRolls is wrapped by errors about die rolls that do not fit the record.
var ErrRolls = errors.New("die rolls do not fit the record")

// Play re-plays moves (in any notation the reader accepts, standard SAN
// read with its case first: notation.ParseSAN) from start,
// consuming rolls in order whenever the position waits for one: each turn
// begins by consuming a roll, a void six consumes another at once, and the
// actions reroll and roll consume one each. It fails at the first action that
// cannot be read or played, at a roll outside 1..6, and when rolls are left
// over (strict) or missing before an action.
func Play(start rules.Position, moves []string, rolls []int, strict bool) (*Replay, error) {
	return play(start, moves, nil, rolls, strict, notation.ParseSAN)
}

// PlayCoords re-plays a stored record: moves in the coordinate form only
// (notation.ParseCoord, strict: exactly the form notation.Coord writes),
// with the rolls as Play consumes them, strictly (no roll left over). sans,
// when not nil, are the record's canonical notation of the same moves,
// taken as they are rather than written again; every move is still checked
// to be legal where it is played. This is the fast way to rebuild a game
// the referee itself recorded; Play reads what people wrote.
func PlayCoords(start rules.Position, moves, sans []string, rolls []int) (*Replay, error) {
	if sans != nil && len(sans) != len(moves) {
		return nil, fmt.Errorf("%d moves but %d notations given", len(moves), len(sans))
	}
	return play(start, moves, sans, rolls, true, notation.ParseCoord)
}

func play(start rules.Position, moves, sans []string, rolls []int, strict bool, read func(rules.Position, string) (rules.Move, error)) (*Replay, error) {
	r := &Replay{Variant: start.Variant(), Start: start, Plies: make([]Ply, 0, len(moves))}
	pos := start
	next := 0
	consume := func() ([]int, error) {
		var used []int
		for {
			roller, ok := pos.(rules.Roller)
			if !ok || !roller.NeedsRoll() {
				return used, nil
			}
			if next >= len(rolls) {
				return used, nil
			}
			v := rolls[next]
			if v < 1 || v > 6 {
				return used, fmt.Errorf("%w: roll %d is %d, but a die shows 1 to 6", ErrRolls, next+1, v)
			}
			p, err := roller.Roll(v)
			if err != nil {
				return used, fmt.Errorf("%w: roll %d (%d): %v", ErrRolls, next+1, v, err)
			}
			pos = p
			used = append(used, v)
			next++
		}
	}
	for i, text := range moves {
		used, err := consume()
		if err != nil {
			return r, err
		}
		if roller, ok := pos.(rules.Roller); ok && roller.NeedsRoll() {
			return r, &MoveError{Index: i + 1, Input: text,
				Err: fmt.Errorf("%w: the referee owes a roll before this action, and the %d given are used up", ErrRolls, len(rolls))}
		}
		m, err := read(pos, text)
		if err != nil {
			return r, &MoveError{Index: i + 1, Input: text, Err: err}
		}
		var san, coord string
		if sans != nil {
			san, coord = sans[i], text // ParseCoord matched the Coord form exactly
		} else {
			san, coord = notation.SAN(pos, m), notation.Coord(pos, m)
		}
		after, err := pos.Play(m)
		if err != nil {
			return r, &MoveError{Index: i + 1, Input: text, Err: err}
		}
		r.Plies = append(r.Plies, Ply{Color: pos.Turn(), Move: m, SAN: san, Coord: coord, Rolls: used, Before: pos, After: after})
		pos = after
	}
	used, err := consume()
	if err != nil {
		return r, err
	}
	r.TrailingRolls = used
	r.Final = pos
	r.RollsUsed = next
	if strict && next < len(rolls) {
		return r, fmt.Errorf("%w: %d rolls given, but the moves use only %d", ErrRolls, len(rolls), next)
	}
	return r, nil
}

// Positions returns the position before every action and the final one.
func (r *Replay) Positions() []rules.Position {
	out := make([]rules.Position, 0, len(r.Plies)+1)
	for _, p := range r.Plies {
		out = append(out, p.Before)
	}
	return append(out, r.Final)
}

// SANs returns the canonical notation of every action.
func (r *Replay) SANs() []string {
	out := make([]string, len(r.Plies))
	for i, p := range r.Plies {
		out[i] = p.SAN
	}
	return out
}

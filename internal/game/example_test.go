package game_test

import (
	"fmt"
	"os"
	"strings"

	"referee/internal/game"
	"referee/internal/rules"
)

// A record as "referee export" writes it is read back and every move is
// checked again from the start.
func ExampleParseRecord() {
	rec, err := game.ParseRecord(strings.NewReader(`[Event "Correspondence game #3"]
[Variant "chess"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := game.Play(rules.Chess().Start(), rec.Moves, nil, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Tag("Variant"), len(rec.Moves), "moves;", rep.Final.Result())
	rec.WriteTo(os.Stdout)
	// Output:
	// chess 4 moves; Black wins (checkmate)
	// [Event "Correspondence game #3"]
	// [Variant "chess"]
	// [Result "0-1"]
	//
	// 1. f3 e5 2. g4 Qh4# 0-1
}

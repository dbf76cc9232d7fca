package referee

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"referee/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the README's command tables from the command table, and the mail golden files in testdata/mails")

// readmeTables are the README's headings whose first table lists the
// commands valid where.
var readmeTables = []struct {
	heading string
	where   Where
}{
	{"### Commands players can send", InGame},
	{"### All the commands outside a game", Outside},
}

// TestREADMECommandTables: the README's two command tables are the
// command table's rows, cell by cell (the command, its other words, its
// help line). A row added, renamed or reworded in one and not the other
// fails here; `go test ./internal/referee -run READMECommand -update`
// rewrites the README's tables from the command table.
func TestREADMECommandTables(t *testing.T) {
	const path = "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, rt := range readmeTables {
		start, end, err := tableAfter(lines, rt.heading)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := strings.Split(strings.TrimSuffix(CommandsMarkdown(rt.where), "\n"), "\n")
		if *update {
			lines = slices.Concat(lines[:start], want, lines[end:])
			continue
		}
		got, exp := markdownRows(lines[start:end]), markdownRows(want)
		differ := false
		for i := range max(len(got), len(exp)) {
			var g, w []string
			if i < len(got) {
				g = got[i]
			}
			if i < len(exp) {
				w = exp[i]
			}
			if !slices.Equal(g, w) {
				differ = true
				t.Errorf("%s, table under %q, row %d:\n README: %q\n table:  %q", path, rt.heading, i+1, g, w)
			}
		}
		if differ {
			t.Logf("the table under %q should read:\n%s(go test ./internal/referee -run READMECommand -update writes it)", rt.heading, CommandsMarkdown(rt.where))
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tableAfter finds the lines [start, end) of the first markdown table
// after heading.
func tableAfter(lines []string, heading string) (int, int, error) {
	h := slices.Index(lines, heading)
	if h < 0 {
		return 0, 0, fmt.Errorf("no heading %q", heading)
	}
	start := -1
	for i := h + 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "#") {
			break
		}
		if strings.HasPrefix(lines[i], "|") {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, 0, fmt.Errorf("no table under %q", heading)
	}
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "|") {
		end++
	}
	return start, end, nil
}

// markdownRows splits a markdown table's rows into trimmed cells, without
// the header's separator line; `\|` is a bar inside a cell.
func markdownRows(lines []string) [][]string {
	var out [][]string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "|---") || strings.HasPrefix(l, "| ---") {
			continue
		}
		l = strings.ReplaceAll(strings.Trim(l, "|"), `\|`, "\x00")
		var cells []string
		for _, c := range strings.Split(l, "|") {
			cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
		}
		out = append(out, cells)
	}
	return out
}

// TestEveryCommandButConfirmCancelsAResignation: "resign" says that any
// other action cancels it (issue 33), so after "resign" and any command
// other than "confirm" (an answer such as "board", a refused one, a draw
// offer), a later "confirm" resigns nothing.
func TestEveryCommandButConfirmCancelsAResignation(t *testing.T) {
	for _, tt := range []struct {
		then    string
		verdict Verdict
	}{
		{"board", Answered},
		{"moves", Answered},
		{"help", Answered},
		{"record", Answered},
		{"draw", Applied},
		{"takeback", Rejected}, // nothing to take back: refused, and still cancels
		{"xyzzy", Rejected},
	} {
		t.Run(tt.then, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			act(t, r, g, rules.White, "resign")
			if g.State.ResignPending == nil {
				t.Fatal("resign did not ask for a confirmation")
			}
			out := act(t, r, g, rules.White, tt.then)
			if out.Verdict != tt.verdict {
				t.Fatalf("%s: %s %s", tt.then, out.Verdict, out.Detail)
			}
			if g.State.ResignPending != nil {
				t.Fatalf("%s left the resignation pending", tt.then)
			}
			if text := textOf(t, out.Mails[0]); !strings.Contains(norm(text), "Your request to resign is cancelled.") {
				t.Errorf("%s: the answer does not say the resignation is cancelled:\n%s", tt.then, text)
			}
			for _, m := range out.Mails {
				if m.To != g.Players[rules.White].Address && strings.Contains(norm(textOf(t, m)), "request to resign") {
					t.Errorf("%s: the mail to %s speaks of White's resignation request", tt.then, m.To)
				}
			}
			if out := act(t, r, g, rules.White, "confirm"); out.Verdict != Rejected || g.Status != StatusActive {
				t.Errorf("confirm after %s: %s, game %s", tt.then, out.Verdict, g.Status)
			}
		})
	}
	// "confirm" itself resigns.
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "resign")
	if act(t, r, g, rules.White, "confirm"); g.Result != "0-1" {
		t.Errorf("resign, confirm: result %q", g.Result)
	}
}

// TestFooterListsWhatTheBodyAsksFor: a mail whose body asks for "accept"
// (a takeback or draw offer pending) or "confirm" (after "resign") lists
// it in its footer, and a finished game's mail lists what still works.
func TestFooterListsWhatTheBodyAsksFor(t *testing.T) {
	footer := func(m Mail) []string { return m.Board.Commands }
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "e4")
	out := act(t, r, g, rules.White, "takeback")
	if got := footer(out.Mails[1]); !slices.Contains(got, "accept") {
		t.Errorf("Black's mail asks to accept a takeback; footer %q", got)
	}
	if got := footer(out.Mails[0]); slices.Contains(got, "accept") {
		t.Errorf("White's own request offers White %q", got)
	}
	act(t, r, g, rules.Black, "e5") // declines the takeback
	out = act(t, r, g, rules.White, "draw")
	if got := footer(out.Mails[1]); !slices.Contains(got, "accept") || !slices.Contains(got, "draw") {
		t.Errorf("Black's mail asks to accept a draw; footer %q", got)
	}
	out = act(t, r, g, rules.Black, "resign")
	if got := footer(out.Mails[0]); !slices.Contains(got, "confirm") {
		t.Errorf("the resign mail asks for confirm; footer %q", got)
	}
	out = act(t, r, g, rules.Black, "confirm")
	// A finished game's footer offers what still works there, and nothing
	// of a running game.
	got := footer(out.Mails[0])
	for _, w := range []string{"board", "record", "help"} {
		if !slices.Contains(got, w) {
			t.Errorf("finished game's footer %q lacks %q", got, w)
		}
	}
	for _, w := range []string{"moves", "draw", "resign", "accept", "confirm"} {
		if slices.Contains(got, w) {
			t.Errorf("finished game's footer %q offers %q", got, w)
		}
	}
}

// TestInGameHelpListsTheGamesCommands: the in-game help lists every
// command of the game (vacation too, also in an untimed game: issue 33)
// and names the lobby's commands that work in a reply.
func TestInGameHelpListsTheGamesCommands(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	text := textOf(t, act(t, r, g, rules.White, "help").Mails[0])
	for _, w := range []string{"vacation N", "takeback", "confirm", "accept", "record", "\"games\"", "\"challenge VARIANT ADDRESS"} {
		if !strings.Contains(text, w) {
			t.Errorf("help does not list %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "reroll") {
		t.Errorf("chess help lists Chec Toe's reroll:\n%s", text)
	}
}

// TestResignationMessageRelayed: the message written under "resign" is
// passed on to the opponent with the resignation when "confirm" comes
// alone; a message written under "confirm" is the one passed on then.
func TestResignationMessageRelayed(t *testing.T) {
	for _, tt := range []struct {
		confirmMessage, want, not string
	}{
		{"", "gg, well played", ""},
		{"thanks for the game", "thanks for the game", "gg, well played"},
	} {
		r, g := newGame(t, rules.Chess())
		if out := actMsg(t, r, g, rules.White, "resign", "gg, well played", -1); out.Verdict != Applied {
			t.Fatalf("resign: %v %s", out.Verdict, out.Detail)
		}
		out := actMsg(t, r, g, rules.White, "confirm", tt.confirmMessage, -1)
		if g.Result != "0-1" {
			t.Fatalf("confirm: result %q (%s)", g.Result, out.Detail)
		}
		text := norm(mailTo(t, out, g.Players[rules.Black].Address))
		if !strings.Contains(text, tt.want) || tt.not != "" && strings.Contains(text, tt.not) {
			t.Errorf("confirm with %q: Black's mail should pass on %q only:\n%s", tt.confirmMessage, tt.want, text)
		}
	}
}

package referee

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/game"
	"referee/internal/rules"
)

// playAll plays moves alternately from the side to move, each on its own
// day from 2026-11-20, as stored actions carry their time.
func playAll(t *testing.T, r *Referee, g *Game, moves ...string) {
	t.Helper()
	for _, m := range moves {
		c := rules.Color(g.Ply() % 2)
		if out := act(t, r, g, c, m); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", m, out.Verdict, out.Detail)
		}
		g.Actions[len(g.Actions)-1].Time = time.Date(2026, 11, 20+len(g.Actions), 9, 0, 0, 0, time.UTC)
	}
}

func exportText(t *testing.T, r *Referee, g *Game) (*game.Record, string) {
	t.Helper()
	rec, err := r.Record(g)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return rec, b.String()
}

func TestRecordTags(t *testing.T) {
	// PGN standard §8.1.1 (UTCDate/UTCTime), §9.6.1 (TimeControl: "-" for
	// none, "moves/seconds", "seconds+increment"), §9.8.1 (Termination:
	// its own words, the detail in a comment before the result); Variant
	// only for a game other tools do not know as chess.
	created := time.Date(2026, 11, 19, 17, 4, 5, 0, time.UTC)
	tests := []struct {
		name    string
		variant rules.Variant
		control string
		moves   []string
		finish  func(g *Game)
		tags    map[string]string // "" means the tag must be absent
		text    []string          // in the movetext
	}{
		{"chess resigned, untimed", rules.Chess(), "", []string{"e4", "e5", "resign", "confirm"}, nil,
			map[string]string{"Variant": "", "SetUp": "", "FEN": "", "TimeControl": "-", "Termination": "normal",
				"UTCDate": "2026.11.19", "UTCTime": "17:04:05", "Result": "0-1"},
			[]string{"1. e4 {[%date 2026.11.21]} e5 {[%date 2026.11.22] White resigned.} 0-1"}},
		{"chess three days a move, running", rules.Chess(), "3d", []string{"d4"}, nil,
			map[string]string{"TimeControl": "1/259200", "Termination": "unterminated", "Result": "*"},
			[]string{"1. d4 {[%date 2026.11.21]} *"}},
		{"Fischer, lost on time", rules.Chess(), "10d+1d", []string{"d4"}, func(g *Game) {
			g.Status, g.Result, g.ResultReason, g.Ending = StatusFinished, "1-0", "Black lost on time", game.EndTime
		}, map[string]string{"TimeControl": "864000+86400", "Termination": "time forfeit"},
			[]string{"{[%date 2026.11.21] Black lost on time. Time control 10d+1d: 10d 0h, 1d 0h added after each move, never more than 10d 0h.} 1-0"}},
		{"aborted toto40", rules.Toto40(), "", []string{"g3"}, func(g *Game) {
			g.Status, g.AbortReason = StatusAborted, "a player left"
		}, map[string]string{"Variant": "toto40", "SetUp": "1", "Termination": "abandoned"},
			[]string{"1. g3 {[%date 2026.11.21] Aborted by the organiser: a player left.} *"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := newGame(t, tt.variant)
			g.Created = created
			if tt.control != "" {
				c, err := ParseTimeControl(tt.control)
				if err != nil {
					t.Fatal(err)
				}
				g.State.Clock = c
			}
			for _, m := range tt.moves {
				if m == "resign" || m == "confirm" {
					act(t, r, g, rules.Color(g.Ply()%2), m)
					continue
				}
				playAll(t, r, g, m)
			}
			if tt.finish != nil {
				tt.finish(g)
			}
			rec, text := exportText(t, r, g)
			for name, want := range tt.tags {
				if got := rec.Tag(name); got != want {
					t.Errorf("[%s] = %q, want %q\n%s", name, got, want, text)
				}
			}
			flat := strings.Join(strings.Fields(text), " ")
			for _, want := range tt.text {
				if !strings.Contains(flat, want) {
					t.Errorf("the record lacks %q:\n%s", want, text)
				}
			}
			// Export must re-import: the same moves and dates come back.
			back, err := game.ParseRecord(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(back.Moves, " ") != strings.Join(rec.Moves, " ") || strings.Join(back.Dates, " ") != strings.Join(rec.Dates, " ") {
				t.Errorf("read back %q %q, want %q %q", back.Moves, back.Dates, rec.Moves, rec.Dates)
			}
		})
	}
}

// finishedExports are games of orthodox chess, one of each way a game
// ends, and one running, as `referee export` writes them. The mate game
// has 3. bxc4 where the bishop on f1 could take on c4 too: its mails write
// b3xc4, its record the standard bxc4.
func finishedExports(t *testing.T) []exported {
	t.Helper()
	finish := func(name, termination, result string, moves []string, end func(r *Referee, g *Game)) exported {
		r, g := newGame(t, rules.Chess())
		g.Created = time.Date(2026, 11, 19, 17, 4, 5, 0, time.UTC)
		c, err := ParseTimeControl("3d")
		if err != nil {
			t.Fatal(err)
		}
		g.State.Clock = c
		playAll(t, r, g, moves...)
		if end != nil {
			end(r, g)
		}
		rec, text := exportText(t, r, g)
		if rec.Result != result || rec.Tag("Termination") != termination {
			t.Fatalf("%s: result %q, termination %q; want %q, %q\n%s", name, rec.Result, rec.Tag("Termination"), result, termination, text)
		}
		pos, err := g.Position()
		if err != nil {
			t.Fatal(err)
		}
		return exported{name: name, pgn: text, plies: len(moves), fen: pos.String(), termination: termination, result: result}
	}
	say := func(c rules.Color, action string) func(r *Referee, g *Game) {
		return func(r *Referee, g *Game) {
			if out := act(t, r, g, c, action); out.Verdict != Applied {
				t.Fatalf("%s: %v %s", action, out.Verdict, out.Detail)
			}
		}
	}
	return []exported{
		finish("running", "unterminated", "*", strings.Fields(runningMoves), nil),
		finish("checkmate", "normal", "1-0", strings.Fields("e3 c5 b3 c4 b3xc4 f6 Nc3 g5 Qh5#"), nil),
		finish("resignation", "normal", "0-1", strings.Fields("e4 e5 Nf3 Nc6"), func(r *Referee, g *Game) {
			say(rules.White, "resign")(r, g)
			say(rules.White, "confirm")(r, g)
		}),
		finish("time loss", "time forfeit", "1-0", strings.Fields("d4 d5 c4"), func(r *Referee, g *Game) {
			// Black's three days ran out long ago.
			if out := r.Tick(g, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)); out.Game == nil {
				t.Fatalf("tick: %v %s", out.Verdict, out.Detail)
			} else {
				*g = *out.Game
			}
		}),
		finish("agreed draw", "normal", "1/2-1/2", strings.Fields("e4 c5 Nf3 d6"), func(r *Referee, g *Game) {
			say(rules.White, "draw")(r, g)
			say(rules.Black, "accept")(r, g)
		}),
	}
}

// exported is one game's export and what a tool must read in it.
type exported struct {
	name, pgn, fen, termination, result string
	plies                               int
}

const runningMoves = "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Bc5 d3 d6 Bg5 h6 Bxf6 Qxf6 Nc3 O-O Nd5 Qd8 c3 a6 b4 Ba7 a4 Be6 Qb3 Bxd5 Bxd5 Qf6 " +
	"a5 Rab8 h3 Qg6 Kh1 Qf6 Qc4 Ne7 Bxb7 Rxb7 Qxa6 Rfb8"

func TestExportWritesStandardSAN(t *testing.T) {
	// PGN's SAN has its case: the b-pawn's capture is "bxc4" even where a
	// bishop could take on c4 (a mail writes b3xc4 for its
	// case-insensitive reader), and one comment follows a move.
	for _, e := range finishedExports(t) {
		if e.name != "checkmate" {
			continue
		}
		flat := strings.Join(strings.Fields(e.pgn), " ")
		for _, want := range []string{"3. bxc4 {[%date 2026.11.25]} f6", "5. Qh5# {[%date 2026.11.29] Checkmate.} 1-0"} {
			if !strings.Contains(flat, want) {
				t.Errorf("the record lacks %q:\n%s", want, e.pgn)
			}
		}
		// And the referee reads its own record back (referee replay):
		// "bxc4" is the pawn's capture.
		rec, err := game.ParseRecord(strings.NewReader(e.pgn))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := game.Play(rules.Chess().Start(), rec.Moves, nil, true)
		if err != nil {
			t.Fatalf("replaying the record: %v\n%s", err, e.pgn)
		}
		if got := rep.Final.String(); got != e.fen {
			t.Errorf("replayed to %s, want %s", got, e.fen)
		}
	}
}

func TestChessExportReadByPgnExtract(t *testing.T) {
	// pgn-extract (Debian package pgn-extract) checks every move of a
	// chess export against the rules; a record it rejects, or whose
	// moves it changes, is not one other tools understand.
	bin, err := exec.LookPath("pgn-extract")
	if err != nil {
		if _, e := os.Stat("/usr/games/pgn-extract"); e == nil {
			bin = "/usr/games/pgn-extract"
		} else if os.Getenv("CI") == "true" {
			t.Fatal("pgn-extract is not installed, and CI=true needs it (apt-get install pgn-extract)")
		} else {
			t.Skip("pgn-extract is not installed (apt-get install pgn-extract)")
		}
	}
	for _, e := range finishedExports(t) {
		t.Run(e.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "game.pgn")
			if err := os.WriteFile(in, []byte(e.pgn), 0o644); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(dir, "log")
			cmd := exec.Command(bin, "-s", "--fixresulttags", "-l"+log, in)
			var out bytes.Buffer
			cmd.Stdout = &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("pgn-extract: %v", err)
			}
			msgs, _ := os.ReadFile(log)
			if strings.TrimSpace(string(msgs)) != "" {
				t.Errorf("pgn-extract complained:\n%s\ninput:\n%s", msgs, e.pgn)
			}
			got := out.String()
			for _, want := range []string{`[TimeControl "1/259200"]`, `[Termination "` + e.termination + `"]`, `[Result "` + e.result + `"]`, "[%date 2026.11.21]"} {
				if !strings.Contains(got, want) {
					t.Errorf("pgn-extract's output lacks %q:\n%s", want, got)
				}
			}
		})
	}
}

func TestChessExportReadByChessJS(t *testing.T) {
	// chess.js (npm) loads the export move by move, and its final position
	// must be the referee's. No test reaches the network: chess.js is
	// installed beforehand (scripts/install-chessjs.sh, which .ci/run runs)
	// into the directory REFEREE_CHESSJS names.
	dir := os.Getenv("REFEREE_CHESSJS")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "chess.js")); dir == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chess.js is not installed in REFEREE_CHESSJS=%q, and CI=true needs it: run scripts/install-chessjs.sh DIR", dir)
		}
		t.Skip("chess.js is not installed: scripts/install-chessjs.sh DIR, then REFEREE_CHESSJS=DIR")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("chess.js is in %s but there is no node to run it: %v", dir, err)
	}
	dir = t.TempDir()
	if err := os.Symlink(filepath.Join(os.Getenv("REFEREE_CHESSJS"), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	script := `const { Chess } = require('chess.js');
const fs = require('fs');
const c = new Chess();
c.loadPgn(fs.readFileSync(process.argv[2], 'utf8'));
const h = c.getHeaders();
console.log(c.history().length + ' ' + c.fen() + ' ' + h['Termination'] + ' ' + h['Result'] + ' ' + c.isCheckmate());`
	js := filepath.Join(dir, "read.js")
	if err := os.WriteFile(js, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range finishedExports(t) {
		t.Run(e.name, func(t *testing.T) {
			in := filepath.Join(dir, strings.ReplaceAll(e.name, " ", "-")+".pgn")
			if err := os.WriteFile(in, []byte(e.pgn), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", js, in)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("chess.js refused the export: %v\n%s\n%s", err, out, e.pgn)
			}
			// chess.js writes an en passant square only where a capture
			// there is legal; the referee's FEN after every double step
			// (docs/rules/README.md#position-strings): that field is
			// not compared.
			noEP := func(s string) string {
				f := strings.Fields(s)
				if len(f) > 4 {
					f[4] = "-"
				}
				return strings.Join(f, " ")
			}
			want := fmt.Sprintf("%d %s %s %s %v", e.plies, e.fen, e.termination, e.result, e.name == "checkmate")
			if got := strings.TrimSpace(string(out)); noEP(got) != noEP(want) {
				t.Errorf("chess.js read %q, want %q\n%s", got, want, e.pgn)
			}
		})
	}
}

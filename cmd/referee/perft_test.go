package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestMovesOfAFinishedGame(t *testing.T) {
	// `referee moves` on a finished position says the game is over, and
	// why, on stderr with exit status 1, instead of an empty list.
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"checkmate reached by --moves", []string{"--variant", "chess", "--moves", "f3 e5 g4 Qh4"}, "Black wins (checkmate)"},
		{"the 75-move rule (moves remain by how pieces move)", []string{"--variant", "chess", "--fen", "7k/8/6K1/8/8/8/8/R7 w - - 150 80"}, "draw (75-move rule)"},
		{"fivefold repetition", []string{"--variant", "toroidal", "--moves", strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4)}, "draw (fivefold repetition)"},
		{"toto40: White's pawn on a9 is blocked", []string{"--variant", "toto40", "--fen", "1/2/p2/P3/5/5/5/5/4/3/2/1 w L 1"}, "Black wins (White has no legal move)"},
		// Issue 33: the string written after "d5d6 f7e6 d6e6" reads back finished.
		{"toto40: a king captured, given back as --fen", []string{"--variant", "toto40", "--fen", "p/1p/2h/3n/P3r/P4/K1R1p/4p/N3/H2/P1/P b L 2"}, "White wins (White captured Black's king)"},
		{"chectoe: a Toe survived", []string{"--variant", "chectoe", "--fen", "4/4/4/PNBR[pnbr] w - w 2"}, "White wins (a Toe survived"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, append([]string{"moves"}, tt.args...)...)
			if code != exitFail || out != "" || !strings.Contains(errs, "game is over") || !strings.Contains(errs, tt.reason) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, nothing on stdout, and stderr saying the game is over: %s",
					code, out, errs, exitFail, tt.reason)
			}
		})
	}
}

// cancelOn is a stderr that cancels a context when a line starting with
// prefix is written to it.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.HasPrefix(b, []byte(w.prefix)) {
		w.cancel()
	}
	return w.buf.Write(b)
}

func TestPerftStopsOnInterrupt(t *testing.T) {
	// Ctrl-C or SIGTERM (main cancels the context) stops `referee perft`:
	// it prints what it counted so far and exits non-zero. Here the
	// interrupt comes as soon as the first root move's count is reported,
	// so the first line is complete and the rest is not counted.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOn{prefix: "[1/20]", cancel: cancel}
	var stdout bytes.Buffer
	code := run(ctx, []string{"perft", "--variant", "chess", "--depth", "6", "--divide", "--progress"}, &stdout, stderr)
	errs := stderr.buf.String()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if code != exitFail || len(lines) != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and only the first root move's line", code, stdout.String(), errs, exitFail)
	}
	move, count, _ := strings.Cut(lines[0], " ")
	if _, err := strconv.ParseInt(count, 10, 64); err != nil {
		t.Fatalf("the first line %q is not \"move count\"", lines[0])
	}
	if !strings.Contains(errs, "interrupted") || !strings.Contains(errs, count+" leaf nodes counted so far") {
		t.Errorf("stderr %q does not say it was interrupted after counting %s (under %s)", errs, count, move)
	}
	// The first count is the true one: perft 5 under that move.
	code, out, _ := cli(t, "perft", "--variant", "chess", "--moves", move, "--depth", "5")
	if code != exitOK || strings.TrimSpace(out) != count {
		t.Errorf("perft 5 after %s = %q (exit %d), but the interrupted divide said %s", move, out, code, count)
	}

	// Interrupted before it starts: nothing counted, still a failure.
	var out2, errs2 bytes.Buffer
	if code := run(ctx, []string{"perft", "--variant", "chess", "--depth", "7"}, &out2, &errs2); code != exitFail ||
		out2.Len() != 0 || !strings.Contains(errs2.String(), "0 leaf nodes counted so far") {
		t.Errorf("perft with a cancelled context: exit %d, stdout %q, stderr %q", code, out2.String(), errs2.String())
	}
}

func TestPerftRefusesWhatCannotFinish(t *testing.T) {
	// `referee perft` refuses, before counting, a depth whose estimated
	// count is beyond the variant's limit (rules.PerftLimit), or beyond
	// rules.MaxPerftDepth, and Chec Toe (no perft: docs/rules/README.md#checking-an-implementation), saying
	// what to do instead.
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"chess depth 9", []string{"--variant", "chess", "--depth", "9"}, []string{"--depth 9", "estimated", "--depth 8 or less"}},
		{"chess depth 1000", []string{"--variant", "chess", "--depth", "1000"}, []string{"--depth 1000", "--depth 8 or less"}},
		{"toetotoe depth 4", []string{"--variant", "toetotoe", "--depth", "4"}, []string{"--depth 4", "--depth 3 or less"}},
		{"chectoe", []string{"--variant", "chectoe", "--depth", "2"}, []string{"die", "referee moves"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, append([]string{"perft"}, tt.args...)...)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and nothing counted", code, out, exitUsage)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not say %q", errs, w)
				}
			}
		})
	}
}

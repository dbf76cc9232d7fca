package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVariantCheck: `referee variant check` says what it understood of
// each variant and its perft, or why a variant is refused (with the line)
// or cannot be played yet (with every reason), and exits 1 for a file
// with such a variant.
func TestVariantCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.ini", `# Capablanca's chess
[capa:chess]
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = qrbnac
castlingKingsideFile = i
castlingQueensideFile = c
`)
	code, out, errs := cli(t, "variant", "check", good)
	for _, want := range []string{
		"[capa] (line 2, from chess): accepted",
		"Board: 10 files × 8 ranks (a1 to j8).",
		"A archbishop (BN): moves and captures like a bishop, and leaps like a knight.",
		"Promotion: P must promote on rank 8 (White) and rank 1 (Black) to Q, R, B, N, A or C.",
		"Castling: on each side's rank 1, the king from the king's file in the start position to file i (kingside) or c (queenside)",
		// Fairy-Stockfish 11.1's count for capablanca (go perft 3).
		"Perft from the start: 28, 784, 25228",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check of a good file does not say %q:\n%s", want, out)
		}
	}
	if code != exitOK || errs != "" {
		t.Errorf("good file: exit %d, stderr %q", code, errs)
	}

	mixed := write("mixed.ini", `[ok:chess]
[typo:chess]
castlingKingsidefile = g
[koth:kingofthehill]
`)
	code, out, _ = cli(t, "variant", "check", mixed, "--depth", "1")
	for _, want := range []string{
		"[ok] (line 1, from chess): accepted",
		"Perft from the start: 20\n",
		"[typo] (line 2, from chess): refused",
		"line 3: [typo] castlingKingsidefile is not a key of variants.ini; did you mean castlingKingsideFile?",
		"[koth] (line 4, from kingofthehill): understood, but not playable yet",
		"flagRegion (capture the flag) is not played by the engine yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check of a mixed file does not say %q:\n%s", want, out)
		}
	}
	if code != exitFail {
		t.Errorf("a file with a refused variant: exit %d, want %d", code, exitFail)
	}

	if code, _, errs := cli(t, "variant", "check", filepath.Join(dir, "missing.ini")); code != exitUsage || !strings.Contains(errs, "missing.ini") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := cli(t, "variant", "lint", good); code != exitUsage || !strings.Contains(errs, "referee variant check FILE") {
		t.Errorf("unknown subcommand: exit %d, stderr %q", code, errs)
	}

	// perft and moves read the file's variants with --variants.
	if code, out, errs := cli(t, "perft", "--variant-file", good, "--variant", "Capa", "--depth", "2"); code != exitOK || strings.TrimSpace(out) != "784" {
		t.Errorf("perft --variants: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, errs := cli(t, "moves", "--variant-file", good, "--variant", "capa", "--moves", "Nc3 Ad6", "--format", "san"); code != exitOK || !strings.Contains(out, "Ad3\n") {
		t.Errorf("moves --variants: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := cli(t, "perft", "--variant-file", good, "--variant", "gothic"); code != exitUsage || !strings.Contains(errs, "defines capa") {
		t.Errorf("perft of a variant neither the file nor the referee has: exit %d, stderr %q", code, errs)
	}
}

// TestVariantRefusalArticle: a refused move of a file variant's piece
// reads "an archbishop", not "a archbishop".
func TestVariantRefusalArticle(t *testing.T) {
	p := filepath.Join(t.TempDir(), "v.ini")
	if err := os.WriteFile(p, []byte("[capa:chess]\nmaxFile = 10\narchbishop = a\nchancellor = c\nstartFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, errs := cli(t, "moves", "--variant-file", p, "--variant", "capa", "--moves", "Nc3 Ah6")
	if !strings.Contains(errs, "an archbishop does not move that way") {
		t.Errorf("stderr %q", errs)
	}
}

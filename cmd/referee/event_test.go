package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The organiser's event commands: new (flags before or after the name),
// list, show, start, withdraw, replace, close, export --event; each
// refusal says what was read and what to write instead.
func TestEventCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	players := "ann@example.org,ben@example.org,cat@example.org,dan@example.org"
	if code, out, errs := cli(t, "event", "new", "--db", db, "club", "--variant", "chess", "--format", "rr", "--players", players, "--time", "3d"); code != 0 || !strings.Contains(out, "event club created") {
		t.Fatalf("event new: %d %q %q", code, out, errs)
	}
	refusals := []struct {
		args []string
		want string
	}{
		{[]string{"event", "new", "club", "--variant", "chess", "--players", players}, "there is an event club already"},
		{[]string{"event", "new", "cup", "--variant", "chess", "--format", "ko", "--players", "ann@example.org,ben@example.org,cat@example.org"}, "a knockout takes 2, 4, 8, 16 or 32"},
		{[]string{"event", "new", "x", "--variant", "chess", "--format", "swiss", "--open", "8"}, "use rr (round robin), drr"},
		{[]string{"event", "new", "x", "--variant", "chess"}, "--players a,b,c"},
		{[]string{"event", "new", "two words", "--variant", "chess", "--open", "4"}, "use one word"},
		{[]string{"event", "start"}, "write \"referee event start NAME\""},
		{[]string{"event", "frobnicate", "club"}, "not a verb"},
		{[]string{"event", "show", "nope"}, "there is no event \"nope\""},
		{[]string{"event", "withdraw", "club", "zed@example.org"}, "does not play in event club"},
	}
	for _, r := range refusals {
		code, _, errs := cli(t, append(r.args, "--db", db)...)
		if code != exitUsage || !strings.Contains(errs, r.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", r.args, code, errs, r.want)
		}
	}
	if code, out, errs := cli(t, "event", "start", "club", "--db", db); code != 0 || !strings.Contains(out, "6 games for 4 players") {
		t.Fatalf("event start: %d %q %q", code, out, errs)
	}
	if code, out, _ := cli(t, "event", "list", "--db", db); code != 0 || !strings.Contains(out, "running") || !strings.Contains(out, "club: Chess") {
		t.Errorf("event list: %d %q", code, out)
	}
	if code, out, _ := cli(t, "event", "replace", "club", "dan@example.org", "eve@example.org", "--db", db); code != 0 || !strings.Contains(out, "3 game(s)") {
		t.Errorf("event replace: %d %q", code, out)
	}
	if code, out, _ := cli(t, "event", "withdraw", "club", "ann@example.org", "--db", db); code != 0 || !strings.Contains(out, "annulled") {
		t.Errorf("event withdraw: %d %q", code, out)
	}
	code, out, _ := cli(t, "event", "show", "club", "--db", db)
	for _, want := range []string{"ann@example.org (w)", "dan@example.org / eve@example.org", "Round 1, board 1: #1  1-4  aborted"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("event show: %d, no %q in:\n%s", code, want, out)
		}
	}
	if code, out, errs := cli(t, "export", "--event", "club", "--db", db); code != 0 || strings.Count(out, `[Event "club"]`) != 6 || !strings.Contains(out, `[Board "2"]`) {
		t.Errorf("export --event: %d %q\n%s", code, errs, out)
	}
	if code, out, _ := cli(t, "event", "close", "club", "--db", db); code != 0 || !strings.Contains(out, "closed") {
		t.Errorf("event close: %d %q", code, out)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestHelpNamesEveryFlag (issue 37): "referee event --help" names the
// knockout format and its decider, "referee new --help" the spectators'
// delay and private games, in the usage line a reader sees first.
func TestHelpNamesEveryFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"event", "--help"}, []string{"--format rr|drr|ko", "[--decider match|black|lot]"}},
		{[]string{"new", "--help"}, []string{"[--private]", "[--watch-delay N]"}},
	} {
		_, out, errs := cli(t, tt.args...)
		usage := strings.SplitN(out+errs, "\n", 3)
		head := strings.Join(usage[:min(2, len(usage))], "\n")
		for _, w := range tt.want {
			if !strings.Contains(head, w) {
				t.Errorf("%q: the usage does not name %q:\n%s", tt.args, w, head)
			}
		}
	}
}

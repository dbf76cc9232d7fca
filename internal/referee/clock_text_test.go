package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestClockTextOnVacation: issue 33, vacation showed "time left: White 5d
// 23h" beside "their clock is stopped". A side on vacation shows the time
// it will have when the vacation ends, frozen, and until when it is
// stopped.
func TestClockTextOnVacation(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		turn  rules.Color
		vac   [2]time.Duration // vacation left from now, per side
		shift time.Duration    // how far the running clock's turn start moved with it
		want  string
	}{
		{name: "no vacation", turn: rules.White,
			want: "time left: White 2d 0h, Black 3d 0h"},
		{name: "the side to move on vacation: its time is frozen", turn: rules.White, vac: [2]time.Duration{5 * Day}, shift: 5 * Day,
			want: "time left: White 2d 0h (stopped until Mon 30 Nov), Black 3d 0h"},
		{name: "the waiting side on vacation", turn: rules.White, vac: [2]time.Duration{0, 4 * Day},
			want: "time left: White 2d 0h, Black 3d 0h (stopped until Sun 29 Nov)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseTimeControl("3d")
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = now.Add(-Day + tt.shift) // a day of White's 3 used
			for s, d := range tt.vac {
				if d > 0 {
					c.Vacation[s] = now.Add(d)
				}
			}
			if got := c.text(tt.turn, now); got != tt.want {
				t.Errorf("text = %q\nwant   %q", got, tt.want)
			}
		})
	}
}

// TestVacationMailSaysTheClockIsFrozen: the opponent's mail about a
// vacation says the clock is stopped, and its status line agrees.
func TestVacationMailSaysTheClockIsFrozen(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c, err := ParseTimeControl("3d")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = now.Add(-Day)
	g.State.Clock = c
	m := &reader.Mail{From: "alice@example.test", MessageID: "<v@x>", Action: "vacation 5",
		Token: &reader.Token{GameID: g.ID, Secret: "aaaaaaaaaa", Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: now})
	if out.Verdict != Applied || len(out.Mails) < 2 {
		t.Fatalf("vacation: %v %s", out.Verdict, out.Detail)
	}
	text := strings.Join(strings.Fields(textOf(t, out.Mails[1])), " ")
	for _, want := range []string{"White is on vacation until Mon 30 Nov: their clock is stopped.",
		"White 2d 0h (stopped until Mon 30 Nov)"} {
		if !strings.Contains(text, want) {
			t.Errorf("Black's mail lacks %q:\n%s", want, text)
		}
	}
}

// TestVacationDays: "vacation N" takes 1 to 30 days a year over all the
// player's games, both ends of each bound tested; a refusal says how many
// days are left, and changes nothing.
func TestVacationDays(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		action string
		used   int // days taken this year in other games
		ok     bool
		want   string // the refusal's sentence
	}{
		{"vacation 1", 0, true, ""},
		{"vacation 30", 0, true, ""},
		{"vacation 0", 0, false, `"vacation" needs a number of days from 1 to 30, e.g. "vacation 5"; you have 30 days left this year.`},
		{"vacation 31", 0, false, `"vacation" needs a number of days from 1 to 30, e.g. "vacation 5"; you have 30 days left this year.`},
		{"vacation", 4, false, `"vacation" needs a number of days from 1 to 30, e.g. "vacation 5"; you have 26 days left this year.`},
		{"vacation 3", 27, true, ""},
		{"vacation 4", 27, false, "You asked for 4 vacation days, but only 3 of your 30 this year (over all your games) are left."},
		{"vacation 1", 30, false, "You asked for 1 vacation day, but only 0 of your 30 this year (over all your games) are left."},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s after %d", tt.action, tt.used), func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			c, err := ParseTimeControl("3d")
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = now.Add(-Day)
			g.State.Clock = c
			m := &reader.Mail{From: "alice@example.test", MessageID: "<v@x>", Action: tt.action,
				Token: &reader.Token{GameID: g.ID, Secret: "aaaaaaaaaa", Ply: g.Ply()}}
			out := r.Handle(Inbound{Mail: m}, g, Env{Now: now, VacationUsed: tt.used})
			if tt.ok {
				if out.Verdict != Applied || out.Lobby == nil || out.Lobby.Vacation == nil {
					t.Fatalf("%v %s; want the vacation taken", out.Verdict, out.Detail)
				}
				return
			}
			if out.Verdict != Rejected || out.Game != nil || out.Lobby != nil || len(out.Mails) != 1 {
				t.Fatalf("%v %s; want one refusal and no change", out.Verdict, out.Detail)
			}
			if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); !strings.Contains(text, tt.want) {
				t.Errorf("refusal:\n%s\nwant: %s", text, tt.want)
			}
		})
	}
}

package referee

import (
	"strings"
	"testing"
)

// TestObserveEventCommand: "observe EVENT" and "unobserve EVENT" (issue
// 31) change the event's spectators, or refuse with what to do instead,
// changing nothing: an event over, one observed already (or not, for
// unobserve), more running games than the limit allows, a sender the
// policy refuses.
func TestObserveEventCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{Observers: ObserversOpen})
	const eve = "eve@example.net"
	event := func(status EventStatus, running int) *Event {
		e := &Event{Name: "autumn", Variant: "chess", Format: FormatRR, Status: status}
		for i := range 3 {
			st := StatusFinished
			if i < running {
				st = StatusActive
			}
			e.Games = append(e.Games, EventGame{GameID: int64(20 + i), Round: i + 1, Board: 1, White: 1, Black: 2, Status: st})
		}
		return e
	}
	for _, tt := range []struct {
		name, line string
		lobby      Lobby
		want       Verdict
		change     *EventWatchChange
		says       string
	}{
		{"observe", "observe autumn", Lobby{MayObserve: true, Event: event(EventRunning, 2)}, Applied,
			&EventWatchChange{Event: "autumn", Address: eve}, "Its running games: #20, #21"},
		{"open event", "observe autumn", Lobby{MayObserve: true, Event: event(EventOpen, 0)}, Applied,
			&EventWatchChange{Event: "autumn", Address: eve}, "of the games that start later too"},
		{"over", "observe autumn", Lobby{MayObserve: true, Event: event(EventFinished, 0)}, Rejected, nil, `"standings autumn"`},
		{"again", "observe autumn", Lobby{MayObserve: true, EventObserved: true, Event: event(EventRunning, 2)}, Rejected, nil, `"unobserve autumn"`},
		{"limit", "observe autumn", Lobby{MayObserve: true, Observing: 19, Event: event(EventRunning, 2)}, Rejected, nil, "more than the 20 allowed"},
		{"policy", "observe autumn", Lobby{Event: event(EventRunning, 2)}, Rejected, nil, "the organiser removed your address"},
		{"no such", "observe winter", Lobby{MayObserve: true}, Rejected, nil, "names no game and no event"},
		{"unobserve", "unobserve autumn", Lobby{EventObserved: true, Event: event(EventRunning, 1)}, Applied,
			&EventWatchChange{Event: "autumn", Address: eve, Stop: true}, "no more mails about the games of the event autumn"},
		{"unobserve not observed", "unobserve autumn", Lobby{Event: event(EventRunning, 1)}, Rejected, nil, "You do not observe the event autumn"},
		{"unobserve a game of it", "unobserve 21", Lobby{NamedVia: "autumn", Named: carolsGame(t, 21, "dave@example.org", true)}, Rejected, nil,
			`Send "unobserve autumn"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lb := tt.lobby
			lb.Active = map[string]int{}
			out := r.Handle(Inbound{Mail: observeMail(eve, tt.line)}, nil, Env{Now: lobbyNow, Lobby: &lb})
			if out.Verdict != tt.want {
				t.Fatalf("%s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			var got *EventWatchChange
			if out.Lobby != nil {
				got = out.Lobby.WatchEvent
			}
			if (got == nil) != (tt.change == nil) || (got != nil && *got != *tt.change) {
				t.Errorf("change %+v, want %+v", got, tt.change)
			}
			if len(out.Mails) != 1 || !strings.Contains(norm(textOf(t, out.Mails[0])), norm(tt.says)) {
				t.Errorf("the answer does not say %q: %+v", tt.says, out.Mails)
			}
		})
	}
}

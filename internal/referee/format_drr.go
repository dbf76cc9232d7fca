package referee

import "referee/internal/event"

// The double round robin: a round robin played twice, colours swapped in
// the second cycle (the FIDE Berger tables, then the same with colours
// reversed). Everything else is the round robin's.

// FormatDRR is the name of a double round robin, colours swapped (Event.Format).
const FormatDRR = "drr"

type doubleRoundRobin struct{ roundRobin }

func (doubleRoundRobin) Name() string  { return FormatDRR }
func (doubleRoundRobin) Title() string { return "double round robin" }

func (doubleRoundRobin) Start(e *Event) ([]EventGame, error) {
	return bergerGames(event.DoubleBerger, len(e.Players))
}

package referee

import "referee/internal/event"

// The double round robin: a round robin played twice, colours swapped in
// the second cycle (the FIDE Berger tables, then the same with colours
// reversed). Everything else is the round robin's.

// FormatDRR is the name of a double round robin (Event.Format).
const FormatDRR = "drr"

// doubleRoundRobin is the double round robin.
var doubleRoundRobin = roundRobin{name: FormatDRR, title: "double round robin", pairings: event.DoubleBerger}

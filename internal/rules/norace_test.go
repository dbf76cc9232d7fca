//go:build !race

package rules

// raceEnabled: the race detector slows perft some tenfold.
const raceEnabled = false

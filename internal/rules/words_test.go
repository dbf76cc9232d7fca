package rules

import (
	"testing"

	"referee/internal/lang"
)

// TestSummaryTextIsTheSummary: each built-in variant's translated summary
// has its Summary as its English (the catalog's key), so the two cannot
// drift apart; a variant the switch does not know keeps its own words.
func TestSummaryTextIsTheSummary(t *testing.T) {
	for _, v := range Variants() {
		if got := SummaryText(v).In(nil); got != v.Summary() {
			t.Errorf("%s: SummaryText is %q, Summary %q", v.Name(), got, v.Summary())
		}
		if _, raw := SummaryText(v).(lang.Raw); raw {
			t.Errorf("%s: a built-in variant's summary has no catalog entry", v.Name())
		}
	}
}

package referee

import (
	"fmt"
	"strings"
)

// The registry of event formats: each format is one line here, found by
// its name as a variant is (rules.Lookup).

// formats is the registry: one line a format.
var formats = []Format{
	singleRoundRobin,
	doubleRoundRobin,
	knockout{},
	league{},
	teamMatch{},
	ladder{},
}

// LookupFormat finds a format by its name.
func LookupFormat(name string) (Format, error) {
	for _, f := range formats {
		if f.Name() == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("no event format %q; the formats are %s", name, FormatList())
}

// Formats lists the formats, in the registry's order.
func Formats() []Format { return append([]Format(nil), formats...) }

// FormatList names the formats for help and refusals: "rr (round robin),
// drr (double round robin) or ko (knockout)".
func FormatList() string {
	var out []string
	for _, f := range formats {
		out = append(out, fmt.Sprintf("%s (%s)", f.Name(), f.Title()))
	}
	return orList(out)
}

// FormatNames is the formats' names joined by "|", for usage lines.
func FormatNames() string {
	var out []string
	for _, f := range formats {
		out = append(out, f.Name())
	}
	return strings.Join(out, "|")
}

// FormatTitle names a format in words, or returns its name when no
// format has it.
func FormatTitle(name string) string {
	if f, err := LookupFormat(name); err == nil {
		return f.Title()
	}
	return name
}

// Rules is e's format. An event's format name is checked when it is
// created and when it is loaded (LookupFormat), so an unknown one cannot
// reach the core; should it, the event is read as a round robin, whose
// rules need nothing the event may lack.
func (e *Event) Rules() Format {
	f, err := LookupFormat(e.Format)
	if err != nil {
		return singleRoundRobin
	}
	return f
}

package notation

import (
	"fmt"
	"strings"
)

// Typeable returns san as a player can type it on any keyboard: the
// Unicode marks of Chec Toe's drops, Checker and Wizard moves written as
// "v", "^" and "o", which Parse reads as the same moves. A SAN without
// those marks is returned as it is.
func Typeable(san string) string {
	var pairs []string
	for _, k := range marks {
		pairs = append(pairs, k.mark, k.typed)
	}
	return strings.NewReplacer(pairs...).Replace(san)
}

// marks are Chec Toe's Unicode marks, what each says, and how a player
// types it (the first spelling is the one Typeable writes).
var marks = []struct{ mark, what, typed, alsoTyped string }{
	{WizardMark, "a Wizard move", "o", ""},
	{CheckerMark, "a Checker move", "^", ""},
	{DropMark, "a drop", "v", " or @"},
}

// MarksNote explains the Chec Toe marks that occur in sans, as a player
// types them, for a line under a move list: "Marks: ° a Wizard move
// (type o); ⌃ a Checker move (type ^)." It is "" when no SAN has a mark.
func MarksNote(sans []string) string {
	var parts []string
	for _, k := range marks {
		for _, s := range sans {
			if strings.Contains(s, k.mark) {
				parts = append(parts, fmt.Sprintf("%s %s (type %s%s)", k.mark, k.what, k.typed, k.alsoTyped))
				break
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Marks: " + strings.Join(parts, "; ") + "."
}

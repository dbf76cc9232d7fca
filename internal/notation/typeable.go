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
	return strings.NewReplacer(DropMark, "v", CheckerMark, "^", WizardMark, "o").Replace(san)
}

// MarksNote explains the Chec Toe marks that occur in sans, as a player
// types them, for a line under a move list: "Marks: ° a Wizard move
// (type o); ⌃ a Checker move (type ^)." It is "" when no SAN has a mark.
func MarksNote(sans []string) string {
	var parts []string
	for _, k := range []struct{ mark, what, typed string }{
		{WizardMark, "a Wizard move", "o"},
		{CheckerMark, "a Checker move", "^"},
		{DropMark, "a drop", "v or @"},
	} {
		for _, s := range sans {
			if strings.Contains(s, k.mark) {
				parts = append(parts, fmt.Sprintf("%s %s (type %s)", k.mark, k.what, k.typed))
				break
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Marks: " + strings.Join(parts, "; ") + "."
}

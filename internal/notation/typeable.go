package notation

import "strings"

// Typeable returns san as a player can type it on any keyboard: the
// Unicode marks of Chec Toe's drops, Checker and Wizard moves written as
// "v", "^" and "o", which Parse reads as the same moves. A SAN without
// those marks is returned as it is.
func Typeable(san string) string {
	return strings.NewReplacer(DropMark, "v", CheckerMark, "^", WizardMark, "o").Replace(san)
}

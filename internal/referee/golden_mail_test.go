package referee

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mailGolden compares mails, as a player reads them (recipient, subject,
// text), with testdata/mails/NAME.txt; -update rewrites the file, and
// every diff of it is read before it is committed.
func mailGolden(t *testing.T, name string, mails ...Mail) {
	t.Helper()
	var b strings.Builder
	for i, m := range mails {
		if i > 0 {
			b.WriteString("\n======================================================================\n")
		}
		b.WriteString("To: " + m.To + "\nSubject: " + m.Subject + "\n")
		if m.ReplyTo != "" {
			b.WriteString("Reply-To: " + m.ReplyTo + "\n")
		}
		b.WriteString("\n" + textOf(t, m))
	}
	got := b.String()
	path := filepath.Join("testdata", "mails", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it, and read it)", err)
	}
	if string(want) != got {
		t.Errorf("the mails differ from %s (run with -update and review the diff):\n%s", path, got)
	}
}

package reader

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestScratchSlow(t *testing.T) {
	dir := os.Getenv("FUZZDIR")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 {
			continue
		}
		s := strings.TrimSpace(lines[1])
		s = strings.TrimSuffix(strings.TrimPrefix(s, "string("), ")")
		v, err := strconv.Unquote(s)
		if err != nil {
			continue
		}
		t0 := time.Now()
		Clean(v)
		if d := time.Since(t0); d > 50*time.Millisecond {
			t.Logf("%s: %d bytes, %v", f, len(v), d)
		}
	}
}

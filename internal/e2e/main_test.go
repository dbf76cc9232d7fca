package e2e

import (
	"flag"
	"os"
	"testing"
)

// TestMain starts nothing (each test starts its own mail servers, and only
// when asked; see mailtest.Enabled). It only lets more of these tests run at
// once than the default -parallel (GOMAXPROCS): they spend most of their
// time waiting for mail, not computing. An explicit -parallel wins.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "4")
	}
	os.Exit(m.Run())
}

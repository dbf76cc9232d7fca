package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"referee/internal/referee"
)

// Issue 38: the organiser's commands take no address at an IP-literal-like
// or dotless domain (alice@1.2.3.4, alice@localhost): "referee new",
// "watch", an event's --players, its --entry list and a substitute. Each
// is refused with the reason; example.test, the embedded server's
// domain, stays valid.
func TestOrganiserCommandsRefuseHostAddresses(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "chess", "alice@example.test", "bob@example.test", nil)
	if err != nil {
		t.Fatalf("example.test addresses: %v", err)
	}
	newRR(t, a, "club", "ann@example.org", "ben@example.org", "cat@example.org")
	for _, bad := range []struct{ address, says string }{
		{"eve@1.2.3.4", "written like an IP address"},
		{"eve@localhost", "has no dot"},
	} {
		for _, tc := range []struct {
			what string
			run  func() error
		}{
			{"new --white", func() error { _, err := a.NewGame(ctx, "chess", bad.address, "bob@example.org", nil); return err }},
			{"new --black", func() error { _, err := a.NewGame(ctx, "chess", "bob@example.org", bad.address, nil); return err }},
			{"watch", func() error { return a.Watch(ctx, g.ID, bad.address, false) }},
			{"event create --players", func() error {
				_, err := a.CreateEvent(ctx, EventSpec{Name: "x", Variant: "chess", Format: "rr",
					Players: []string{"ann@example.org", "ben@example.org", bad.address}})
				return err
			}},
			{"event create --entry FILE", func() error {
				_, err := ReadPlayerList("ann@example.org\n"+bad.address+"\n", "list.txt")
				return err
			}},
			{"event replace", func() error { _, err := a.ReplaceInEvent(ctx, "club", "cat@example.org", bad.address); return err }},
		} {
			err := tc.run()
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), bad.says) {
				t.Errorf("%s %s: %v; want it refused as input, saying %q", tc.what, bad.address, err, bad.says)
			}
		}
	}
}

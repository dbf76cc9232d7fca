package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/referee"
	"referee/internal/web"
)

// TestPagesShowChosenNamesMovesAndControl (issue 37): a player's "name"
// replaces their masked address on the index, the game page and their
// own page (and the address is on none); the lists count moves as
// players do (chess1's seven actions, 1. e4 ... 4. Qxf7, are 4 moves);
// the game page says the time control.
func TestPagesShowChosenNamesMovesAndControl(t *testing.T) {
	f := openFixture(t)
	ctx := context.Background()
	raw := "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: name\r\nMessage-ID: <name@example.org>\r\n\r\nname Alice Liddell\r\n"
	if p, err := f.a.Process(ctx, []byte(raw), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("name: %+v, %v", p, err)
	}
	s := site(t, f, web.PublicAll)
	get := func(name string) string {
		p, err := s.Page(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(p.Body)
	}
	index := get("index.html")
	game := get(fmt.Sprintf("game-%d.html", f.chess1.ID))
	for page, want := range map[string][]string{
		"index.html": {fmt.Sprintf("#%d Chess</a>: Alice Liddell v bo…@example.net", f.chess1.ID), "1-0 (checkmate) · 4 moves"},
		"game page":  {"Alice Liddell</a> v", "Chess · no time limit · started"},
	} {
		body := index
		if page == "game page" {
			body = game
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s does not say %q", page, w)
			}
		}
		if strings.Contains(body, "al…@example.org") || strings.Contains(body, "alice@") {
			t.Errorf("%s still shows alice's address", page)
		}
	}
}

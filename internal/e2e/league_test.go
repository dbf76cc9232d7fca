package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Issue 41 through the real servers: a league of six created with
// "referee event new --format league --division-size 3 --promote 1
// --seasons 2" and started by "event start". Season 1's two divisions
// play their games by mail (in each game the player later in the list
// resigns); the end of its last game starts season 2 on its own, with the
// last of division 1 and the first of division 2 swapped, each player told
// where they play now; season 2 is played the same way, and its end mails
// the final standings to everyone.
func TestLeagueByMail(t *testing.T) {
	t.Parallel()
	eachBackend(t, testLeagueByMail)
}

var leagueGameTag = regexp.MustCompile(`^\[chess #(\d+)`)

func testLeagueByMail(t *testing.T, e *env) {
	ps := []*player{{addr: "white@example.test"}, {addr: "black@example.test"}, {addr: "alice@example.test"},
		{addr: "bob@example.test"}, {addr: "carol@example.test"}, {addr: "dave@example.test"}} // the test servers' accounts
	rank := map[string]int{}
	var addrs []string
	for i, p := range ps {
		rank[p.addr] = i
		addrs = append(addrs, p.addr)
	}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	for _, args := range [][]string{
		{"event", "new", "ladderless", "--db", db, "--variant", "chess", "--format", "league", "--division-size", "3", "--promote", "1",
			"--seasons", "2", "--players", strings.Join(addrs, ",")},
		{"event", "start", "ladderless", "--db", db},
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("referee %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	e.startServe(t, bin, db, e.mail.smtpAddr())

	// extra[p] is how many mails p gets before the season's listing: the
	// end of the last game of the season before.
	extra := map[string]int{}
	var final map[string]*received
	for season := 1; season <= 2; season++ {
		reply := map[string]map[string]string{} // player -> game id -> reply address
		division := map[string]string{}
		for _, p := range ps {
			ms := e.waitMail(t, p, extra[p.addr]+3, mailWait) // the listing and two openings
			listing := only(t, p.addr, ms, fmt.Sprintf("[ladderless] Season %d: your games in division", season))
			division[p.addr] = listing.subject[len(listing.subject)-1:]
			mustContain(t, p.addr+"'s listing", listing.text, fmt.Sprintf("season %d has started", season))
			reply[p.addr] = map[string]string{}
			for _, m := range ms {
				if g := leagueGameTag.FindStringSubmatch(m.subject); g != nil && !strings.Contains(m.subject, "Game over") {
					reply[p.addr][g[1]] = m.replyTo
				}
			}
			if len(reply[p.addr]) != 2 {
				t.Fatalf("season %d: %s got %d opening mails, want 2:%s", season, p.addr, len(reply[p.addr]), describe(ms))
			}
		}
		var want string
		switch season {
		case 1:
			want = "111222"
		case 2:
			// alice (last of division 1) and bob (first of division 2)
			// swapped.
			want = "112122"
		}
		var got strings.Builder
		for _, p := range ps {
			got.WriteString(division[p.addr])
		}
		if got.String() != want {
			t.Fatalf("season %d: divisions %s (white black alice bob carol dave), want %s", season, got.String(), want)
		}
		games := map[string][]*player{}
		for _, p := range ps {
			for id := range reply[p.addr] {
				games[id] = append(games[id], p)
			}
		}
		var ids []string
		for id := range games {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return len(ids[i]) < len(ids[j]) || len(ids[i]) == len(ids[j]) && ids[i] < ids[j] })
		if len(ids) != 6 {
			t.Fatalf("season %d: %d games, want 6", season, len(ids))
		}
		extra = map[string]int{}
		for i, id := range ids {
			two := games[id]
			sort.Slice(two, func(a, b int) bool { return rank[two[a].addr] < rank[two[b].addr] })
			loser := two[1]
			e.mailTo(t, loser, reply[loser.addr][id], "resign", "resign")
			e.waitMail(t, loser, 1, mailWait)
			e.mailTo(t, loser, reply[loser.addr][id], "confirm", "confirm")
			if i < len(ids)-1 {
				for _, p := range two {
					e.waitMail(t, p, 1, mailWait)
				}
				continue
			}
			for _, p := range two {
				extra[p.addr] = 1 // the game's end comes with the next season's mails
			}
		}
		if season == 2 {
			final = map[string]*received{}
			for _, p := range ps {
				ms := e.waitMail(t, p, extra[p.addr]+1, mailWait)
				final[p.addr] = only(t, p.addr, ms, "Final crosstable")
			}
		}
	}
	for _, p := range ps {
		mustContain(t, p.addr+"'s final standings", final[p.addr].text, "The winner of ladderless is white@example.test",
			"Season 2 (over)", "Season 1 (over)", "Division 2")
	}
	e.quiet(t, db, ps...)
}

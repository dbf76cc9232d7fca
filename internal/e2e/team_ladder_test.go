package e2e

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// runReferee runs a referee command on db and fails the test on an error.
func runReferee(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("referee %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Issue 41 through the real servers: a match of two teams of two
// ("--format team --team Kings=white,black --team Queens=alice,bob
// --fixed-boards"), started by "event start": each player gets the
// listing of their board's two games and their openings; every game is
// played to its end by mail (Kings win board 1 twice, Queens board 2
// twice: 2-2), and everyone gets the final standings.
func TestTeamMatchByMail(t *testing.T) {
	t.Parallel()
	eachBackend(t, testTeamMatchByMail)
}

func testTeamMatchByMail(t *testing.T, e *env) {
	ps := []*player{{addr: "white@example.test"}, {addr: "black@example.test"}, {addr: "alice@example.test"}, {addr: "bob@example.test"}}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	runReferee(t, bin, "event", "new", "derby", "--db", db, "--variant", "chess", "--format", "team", "--fixed-boards",
		"--team", "Kings=white@example.test,black@example.test", "--team", "Queens=alice@example.test,bob@example.test")
	runReferee(t, bin, "event", "start", "derby", "--db", db)
	e.startServe(t, bin, db, e.mail.smtpAddr())

	reply := map[string]map[string]string{}
	for i, p := range ps {
		ms := e.waitMail(t, p, 3, mailWait)
		listing := only(t, p.addr, ms, "[derby] The match has started")
		board := []string{"board 1", "board 2", "board 1", "board 2"}[i]
		mustContain(t, p.addr+"'s listing", listing.text, "You play "+board)
		reply[p.addr] = map[string]string{}
		for _, m := range ms {
			if g := leagueGameTag.FindStringSubmatch(m.subject); g != nil && !strings.Contains(m.subject, "Game over") {
				reply[p.addr][g[1]] = m.replyTo
			}
		}
		if len(reply[p.addr]) != 2 {
			t.Fatalf("%s got %d openings, want 2:%s", p.addr, len(reply[p.addr]), describe(ms))
		}
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
	sort.Strings(ids)
	for i, id := range ids {
		two := games[id]
		// Board 1 (white v alice): the Queen resigns; board 2 (black v
		// bob): the King resigns.
		loser := two[0]
		for _, p := range two {
			if p.addr == "alice@example.test" || p.addr == "black@example.test" {
				loser = p
			}
		}
		e.mailTo(t, loser, reply[loser.addr][id], "resign", "resign")
		e.waitMail(t, loser, 1, mailWait)
		e.mailTo(t, loser, reply[loser.addr][id], "confirm", "confirm")
		n := 1
		if i == len(ids)-1 {
			n = 2 // and the final standings
		}
		for _, p := range two {
			if ms := e.waitMail(t, p, n, mailWait); n == 2 {
				mustContain(t, p.addr+"'s final standings", only(t, p.addr, ms, "Final crosstable").text, "Kings 2 - 2 Queens", "The first place is shared")
			}
		}
	}
	for _, p := range ps {
		var last bool
		for _, id := range ids[len(ids)-1:] {
			for _, q := range games[id] {
				last = last || q == p
			}
		}
		if !last {
			mustContain(t, p.addr+"'s final standings", only(t, p.addr, e.waitMail(t, p, 1, mailWait), "Final crosstable").text, "Kings 2 - 2 Queens")
		}
	}
	e.quiet(t, db, ps...)
}

// Issue 41 through the real servers: a ladder of four ("--format ladder
// --players alice,bob,carol,dave"); dave challenges bob by mail ("ladder
// club bob@example.test"), bob is told and accepts ("ladder club accept"),
// the game's listing and openings reach both, bob resigns, and the end of
// the game tells both that dave takes place 2; "standings club" shows the
// new order.
func TestLadderByMail(t *testing.T) {
	t.Parallel()
	eachBackend(t, testLadderByMail)
}

func testLadderByMail(t *testing.T, e *env) {
	alice, bob, carol, dave := &player{addr: "alice@example.test"}, &player{addr: "bob@example.test"}, &player{addr: "carol@example.test"}, &player{addr: "dave@example.test"}
	bin := buildReferee(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	runReferee(t, bin, "event", "new", "club", "--db", db, "--variant", "chess", "--format", "ladder",
		"--players", "alice@example.test,bob@example.test,carol@example.test,dave@example.test")
	runReferee(t, bin, "event", "start", "club", "--db", db)
	e.startServe(t, bin, db, e.mail.smtpAddr())

	e.mailTo(t, dave, referee, "ladder", "ladder club bob@example.test")
	only(t, dave.addr, e.waitMail(t, dave, 1, mailWait), "You challenged bob@example.test")
	ch := only(t, bob.addr, e.waitMail(t, bob, 1, mailWait), "[club] dave@example.test challenges you")
	mustContain(t, "the challenge to bob", ch.text, `"ladder club accept"`)
	e.mailTo(t, bob, referee, "accept", "ladder club accept")
	bms := e.waitMail(t, bob, 3, mailWait) // the answer, the listing, the opening
	only(t, bob.addr, bms, "You accepted the challenge")
	only(t, bob.addr, bms, "[club] Your ladder game against dave@example.test")
	dms := e.waitMail(t, dave, 2, mailWait)
	only(t, dave.addr, dms, "[club] Your ladder game against bob@example.test")
	var bobReply string
	for _, m := range bms {
		if leagueGameTag.MatchString(m.subject) {
			bobReply = m.replyTo
		}
	}
	if bobReply == "" {
		t.Fatalf("bob got no opening:%s", describe(bms))
	}
	e.mailTo(t, bob, bobReply, "resign", "resign")
	e.waitMail(t, bob, 1, mailWait)
	e.mailTo(t, bob, bobReply, "confirm", "confirm")
	for _, p := range []*player{bob, dave} {
		end := e.waitMail(t, p, 1, mailWait)[0]
		mustContain(t, p.addr+"'s end of the game", end.text, "dave@example.test won the challenge and takes place 2 of club")
	}
	e.mailTo(t, carol, referee, "standings", "standings club")
	std := e.waitMail(t, carol, 1, mailWait)[0]
	mustContain(t, "the standings", std.text, "1 alice@example.test", "2 dave@example.test", "3 bob@example.test", "4 carol@example.test")
	e.quiet(t, db, alice, bob, carol, dave)
}

package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/internal/notation"
	"referee/internal/rules"
)

// The lobby by mail (docs/lobby.md), through the real servers: `referee
// serve --players known` with carol (and bob) added by the organiser's
// `referee player add`. Carol challenges bob by a mail to the referee's
// plain address, bob answers the invitation as a mail client does, and the
// game that starts is played, listed and recorded by mail.

// lobbyServe makes a database with the given players added by `referee
// player add`, and starts `referee serve --players known` on it.
func (e *env) lobbyServe(t *testing.T, added ...string) (bin, db string) {
	t.Helper()
	bin = buildReferee(t)
	db = filepath.Join(t.TempDir(), "referee.db")
	for _, a := range added {
		out, err := exec.Command(bin, "player", "--db", db, "add", a).CombinedOutput()
		if err != nil {
			t.Fatalf("referee player add %s: %v\n%s", a, err, out)
		}
	}
	e.startServe(t, bin, db, e.mail.smtpAddr(), "--players", "known", "--variants", "chess,toto40")
	return bin, db
}

// mailTo sends a new mail (not a reply) from p to the address to.
func (e *env) mailTo(t testing.TB, p *player, to, subject, body string) {
	t.Helper()
	n := e.seq.Add(1)
	raw := fmt.Sprintf("From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <e2e-%d-%d@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		p.addr, to, subject, time.Now().UnixNano(), n, body)
	e.sendRaw(t, p.addr, to, raw)
}

// only returns the one mail of ms whose subject contains part, failing t
// when there is none or more than one.
func only(t testing.TB, who string, ms []*received, part string) *received {
	t.Helper()
	var found []*received
	for _, m := range ms {
		if strings.Contains(m.subject, part) {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s received %d mails with %q in the subject, want 1:%s", who, len(found), part, describe(ms))
	}
	return found[0]
}

// mustContain fails t for each of parts that text does not hold, whatever
// the line breaks (the referee wraps its text).
func mustContain(t testing.TB, what, text string, parts ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, p := range parts {
		if !strings.Contains(flat, strings.Join(strings.Fields(p), " ")) {
			t.Errorf("%s does not contain %q:\n%s", what, p, text)
		}
	}
}

// toto40Moves checks that moves (docs/lobby.md's example) are legal in
// turn from Toto40's start, in canonical notation, and leave the game on.
func toto40Moves(t testing.TB, moves ...string) []string {
	t.Helper()
	v, err := rules.Lookup("toto40")
	if err != nil {
		t.Fatal(err)
	}
	pos := v.Start()
	for i, want := range moves {
		var legal []string
		found := false
		for _, m := range pos.Legal() {
			san := notation.SAN(pos, m)
			legal = append(legal, san)
			if san == want && !found {
				found = true
				if pos, err = pos.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !found {
			t.Fatalf("toto40 ply %d: %s is not a legal move; the legal ones: %v", i+1, want, legal)
		}
		if r := pos.Result(); r.Over {
			t.Fatalf("toto40: %v ends the game (%v)", moves[:i+1], r)
		}
	}
	return moves
}

// invite has carol challenge bob and returns the mails each received.
func (e *env) invite(t *testing.T, carol, bob *player) (sent, invitation *received) {
	t.Helper()
	start := time.Now()
	e.mailTo(t, carol, referee, "a game?", "challenge toto40 "+bob.addr+" 3d")
	sent = e.waitMail(t, carol, 1, mailWait)[0]
	invitation = e.waitMail(t, bob, 1, mailWait)[0]
	t.Logf("challenge: both mails in %v", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(sent.subject, "Challenge 1") {
		t.Errorf("carol's answer to her challenge is %q, want \"Challenge 1: Toto40\":\n%s", sent.subject, sent.text)
	}
	mustContain(t, "carol's answer to her challenge", sent.text, bob.addr, "3 days per move")
	if want := carol.addr + " invites you to a game of Toto40"; invitation.subject != want {
		t.Errorf("bob's invitation is titled %q, want %q", invitation.subject, want)
	}
	mustContain(t, "the invitation", invitation.text, carol.addr, "3 days per move", "accept", "decline")
	if !strings.HasPrefix(invitation.replyTo, "referee+i1.") {
		t.Errorf("the invitation's Reply-To is %q, want referee+i1.<secret>@example.test", invitation.replyTo)
	}
	return sent, invitation
}

func TestLobbyChallengeAcceptPlay(t *testing.T) {
	t.Parallel()
	eachBackend(t, testLobbyChallengeAcceptPlay)
}

// testLobbyChallengeAcceptPlay is TestLobbyChallengeAcceptPlay on one mail system.
func testLobbyChallengeAcceptPlay(t *testing.T, e *env) {
	carol, bob := &player{addr: "carol@example.test"}, &player{addr: "bob@example.test"}
	mallory := &player{addr: "mallory@example.test"}
	_, db := e.lobbyServe(t, carol.addr, bob.addr)

	// A stranger's challenge under --players known: a short refusal to
	// the stranger, nothing to the one named.
	start := time.Now()
	e.mailTo(t, mallory, referee, "game", "challenge toto40 "+bob.addr+" 3d")
	refusal := e.waitMail(t, mallory, 1, mailWait)[0]
	t.Logf("stranger's challenge: refused in %v", time.Since(start).Round(time.Millisecond))
	if refusal.subject != "Re: game" {
		t.Errorf("the stranger's refusal is titled %q, want \"Re: game\"", refusal.subject)
	}
	mustContain(t, "the stranger's refusal", refusal.text, "was not sent", "known players", mallory.addr)
	if n := len(refusal.text); n > 1000 {
		t.Errorf("the stranger's refusal is %d characters long, want a short one:\n%s", n, refusal.text)
	}
	e.quiet(t, db, bob, mallory, carol)

	// Carol challenges bob; bob accepts as a mail client replies: To the
	// invitation's Reply-To, In-Reply-To its Message-ID.
	e.invite(t, carol, bob)
	start = time.Now()
	e.send(t, bob, "accept")
	cm := e.waitMail(t, carol, 2, mailWait)
	bm := e.waitMail(t, bob, 1, mailWait)
	t.Logf("accept: carol's 2 mails and bob's 1 in %v", time.Since(start).Round(time.Millisecond))
	if len(cm) != 2 || len(bm) != 1 {
		t.Fatalf("after the accept carol received %d mails, want 2 (the notice, the game's opening):%s\nbob %d, want 1:%s",
			len(cm), describe(cm), len(bm), describe(bm))
	}
	notice := only(t, carol.addr, cm, "accepted your challenge: game #1")
	mustContain(t, "carol's notice", notice.text, bob.addr, "game #1", "Toto40", "3 days per move")
	carol.last = only(t, carol.addr, cm, "[toto40 #1]")
	bob.last = only(t, bob.addr, bm, "[toto40 #1]")
	if !strings.HasPrefix(carol.last.replyTo, "referee+1.") || !strings.HasPrefix(bob.last.replyTo, "referee+1.") || carol.last.replyTo == bob.last.replyTo {
		t.Fatalf("the opening mails' Reply-To: carol %q, bob %q; want each their own referee+1.<secret>... address", carol.last.replyTo, bob.last.replyTo)
	}
	carolWhite := strings.Contains(notice.text, "you play White")
	if !carolWhite && !strings.Contains(notice.text, "you play Black") {
		t.Fatalf("carol's notice names no colour for her:\n%s", notice.text)
	}
	white, black := carol, bob
	if !carolWhite {
		white, black = bob, carol
	}

	// Three moves, each a reply to the mover's latest game mail.
	moves := toto40Moves(t, "Nd6", "Ne7", "Hf5")
	for i, mv := range moves {
		mover := white
		if i%2 == 1 {
			mover = black
		}
		start := time.Now()
		e.send(t, mover, mv)
		w := e.waitMail(t, white, 1, mailWait)
		b := e.waitMail(t, black, 1, mailWait)
		if len(w) != 1 || len(b) != 1 {
			t.Fatalf("after %q: %d and %d mails, want 1 each:%s%s", mv, len(w), len(b), describe(w), describe(b))
		}
		for _, m := range append(w, b...) {
			if !strings.Contains(m.subject, "[toto40 #1]") {
				t.Fatalf("after %q a player received %q, want a mail of game #1:\n%s", mv, m.subject, m.text)
			}
			mustContain(t, fmt.Sprintf("the mail after %q", mv), m.text, mv)
		}
		t.Logf("ply %d %q: both replies in %v", i+1, mv, time.Since(start).Round(time.Millisecond))
	}

	// "games" to the plain address: her game, whose move, and her reply
	// address: the one of her latest mail of the game (its token names the
	// ply), which acts in the game ("board" answers her alone).
	carolReply := carol.last.replyTo
	start = time.Now()
	e.mailTo(t, carol, referee, "my games", "games")
	games := e.waitMail(t, carol, 1, mailWait)[0]
	t.Logf("games: answered in %v", time.Since(start).Round(time.Millisecond))
	if games.subject != "Your games" {
		t.Errorf("carol's answer to \"games\" is titled %q, want \"Your games\"", games.subject)
	}
	turn, colour := "move 2, "+bob.addr+"'s move", "White"
	if !carolWhite {
		turn, colour = "move 2, your move", "Black"
	}
	mustContain(t, "carol's games", games.text, "#1 Toto40: you play "+colour+" against "+bob.addr, turn, "reply to: "+carolReply)
	e.mailTo(t, carol, carolReply, "board?", "board")
	if board := e.waitMail(t, carol, 1, mailWait)[0]; !strings.Contains(board.subject, "[toto40 #1]") {
		t.Errorf("\"board\" to the reply address of carol's games was answered with %q, want a mail of game #1:\n%s", board.subject, board.text)
	}

	// "record 1": the record with the three moves.
	start = time.Now()
	e.mailTo(t, carol, referee, "the record", "record 1")
	rec := e.waitMail(t, carol, 1, mailWait)[0]
	t.Logf("record 1: answered in %v", time.Since(start).Round(time.Millisecond))
	if rec.subject != "[toto40 #1] Record" {
		t.Errorf("carol's answer to \"record 1\" is titled %q, want \"[toto40 #1] Record\"", rec.subject)
	}
	mustContain(t, "the record", rec.text, `[White "`+white.addr+`"]`, `[Black "`+black.addr+`"]`, `[Variant "toto40"]`)
	// The moves, read as a PGN reader does: comments (each move's date)
	// and line breaks between the tokens do not count.
	movetext := strings.Join(strings.Fields(regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(rec.text, " ")), " ")
	mustContain(t, "the record's moves", movetext, fmt.Sprintf("1. %s %s 2. %s", moves[0], moves[1], moves[2]))
	e.quiet(t, db, carol, bob, mallory)
}

func TestLobbyDecline(t *testing.T) {
	t.Parallel()
	eachBackend(t, testLobbyDecline)
}

// testLobbyDecline is TestLobbyDecline on one mail system.
func testLobbyDecline(t *testing.T, e *env) {
	carol, bob := &player{addr: "carol@example.test"}, &player{addr: "bob@example.test"}
	bin, db := e.lobbyServe(t, carol.addr, bob.addr)

	_, invitation := e.invite(t, carol, bob)
	start := time.Now()
	e.send(t, bob, "decline")
	told := e.waitMail(t, carol, 1, mailWait)[0]
	ack := e.waitMail(t, bob, 1, mailWait)[0]
	t.Logf("decline: both mails in %v", time.Since(start).Round(time.Millisecond))
	if want := bob.addr + " declined your challenge to Toto40"; told.subject != want {
		t.Errorf("carol was told %q, want %q:\n%s", told.subject, want, told.text)
	}
	mustContain(t, "carol's notice", told.text, "challenge 1", "invite them again after")
	if want := "You declined the game of Toto40"; ack.subject != want {
		t.Errorf("bob's answer is titled %q, want %q", ack.subject, want)
	}

	// No game: carol's "games" says so, bob's second answer is refused,
	// and the database holds none.
	e.mailTo(t, carol, referee, "my games", "games")
	games := e.waitMail(t, carol, 1, mailWait)[0]
	mustContain(t, "carol's games after the decline", games.text, "You have no game running.")
	if strings.Contains(games.text, "#1") {
		t.Errorf("carol's games after the decline list a game:\n%s", games.text)
	}
	bob.last = invitation // a second answer to the invitation itself
	e.send(t, bob, "accept")
	late := e.waitMail(t, bob, 1, mailWait)[0]
	mustContain(t, "the answer to an accept after the decline", late.text, "no longer open", "declined")
	e.quiet(t, db, carol, bob)
	out, err := exec.Command(bin, "list", "--db", db).CombinedOutput()
	if err != nil {
		t.Fatalf("referee list: %v\n%s", err, out)
	}
	if strings.TrimSpace(string(out)) != "no games" {
		t.Errorf("after the decline, referee list shows:\n%s", out)
	}
}

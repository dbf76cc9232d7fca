package referee

import (
	"net/mail"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

var lobbyNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func lobbyReferee(t *testing.T, lc LobbyConfig) *Referee {
	t.Helper()
	key, err := dice.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key, Lobby: lc})
}

// plain is a plain-text mail's headers (as fields) and body.
func plain(t *testing.T, m Mail) (mail.Header, string) {
	t.Helper()
	if m.Board != nil {
		t.Fatalf("mail to %s is a board mail, not plain text", m.To)
	}
	h := mail.Header{"To": {m.To}, "Subject": {m.Subject}, "Message-Id": {m.MessageID}}
	if m.ReplyTo != "" {
		h["Reply-To"] = []string{m.ReplyTo}
	}
	return h, m.Text
}

// carolsGame is a game of carol's against opp, with a 3-day clock.
func carolsGame(t *testing.T, id int64, opp string, carolWhite bool) *Game {
	t.Helper()
	v := rules.Chess()
	g := &Game{ID: id, Variant: v, Status: StatusActive, Start: v.Start().String(), Created: lobbyNow.Add(-Day),
		Players: [2]Player{{Address: "carol@example.org", Secret: "cccccccccc"}, {Address: opp, Secret: "oooooooooo"}}}
	if !carolWhite {
		g.Players[0], g.Players[1] = g.Players[1], g.Players[0]
	}
	c, err := ParseTimeControl("3d")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = lobbyNow.Add(-Day)
	g.State.Clock = c
	return g
}

// invitedBob is an open invitation of carol's to bob, made an hour ago.
func invitedBob() *Challenge {
	return &Challenge{ID: 7, Challenger: "carol@example.org", Opponent: "bob@example.org", Variant: "toto40", TimeControl: "3d",
		Color: "white", Secret: "sssssssss2", Status: ChallengeOpen, Created: lobbyNow.Add(-time.Hour), Expires: lobbyNow.Add(6 * Day)}
}

// TestParseLine: how the command table reads a first line outside a game
// (the command's word, the game a "record" names, the address a challenge
// names) and whether the same line in a reply to a game mail is the
// lobby's (the app loads a lobby view for it).
func TestParseLine(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	tests := []struct {
		line    string
		word    string
		game    int64
		opp     string
		inGame  bool
		comment string
	}{
		{"challenge toto40 Bob@Example.org 3d", "challenge", 0, "bob@example.org", true, "the address is canonical"},
		{"Challenge chess", "challenge", 0, "", true, "an open challenge"},
		{"games", "games", 0, "", true, ""},
		{"record 17", "record", 17, "", true, "record of another game is the lobby's"},
		{"record #17", "record", 17, "", true, ""},
		{"record", "record", 0, "", false, "plain record stays the game's"},
		{"yes", "accept", 0, "", false, "accept in a game is the game's (draw, takeback)"},
		{"no thanks", "decline", 0, "", false, ""},
		{"cancel", "withdraw", 0, "", false, ""},
		{"vacation 5", "vacation", 0, "", false, "vacation in a game is the game's"},
		{"help", "help", 0, "", false, ""},
		{"variants", "variants", 0, "", true, ""},
		{"open", "open", 0, "", true, ""},
		{"observe 17", "observe", 17, "", true, "observing another game is the lobby's"},
		{"Watch #17", "observe", 17, "", true, ""},
		{"unobserve 17", "unobserve", 17, "", true, ""},
		{"observers", "", 0, "", false, "a player's question in a game"},
		{"e4", "", 0, "", false, "a move is nothing of the lobby's"},
		{"list", "", 0, "", false, "\"list\" is the game's moves command"},
		{"", "", 0, "", false, ""},
	}
	for _, tt := range tests {
		word := ""
		if p := r.parseLine(tt.line, Outside, true); p.cmd != nil {
			word = p.cmd.Words[0]
		}
		outside := r.Needs(&reader.Mail{Action: tt.line}, nil)
		inGame := r.Needs(&reader.Mail{Action: tt.line, Token: &reader.Token{GameID: 1}}, nil).Lobby
		if word != tt.word || outside.Named != tt.game || outside.Opponent != tt.opp || inGame != tt.inGame {
			t.Errorf("%q (%s): word %q game %d opponent %q in game %v; want %q %d %q %v", tt.line, tt.comment,
				word, outside.Named, outside.Opponent, inGame, tt.word, tt.game, tt.opp, tt.inGame)
		}
	}
}

// TestChallengeCommand: every way a challenge is sent or refused. A
// refusal goes to the sender alone and changes nothing.
func TestChallengeCommand(t *testing.T) {
	sent := func(opp string, status ChallengeStatus, created, closed time.Time) Challenge {
		return Challenge{ID: 1, Challenger: "carol@example.org", Opponent: opp, Variant: "chess", Color: "random",
			Secret: "xxxxxxxxxx", Status: status, Created: created, Closed: closed, Expires: created.Add(7 * Day)}
	}
	many := func(n int, status ChallengeStatus, created time.Time) []Challenge {
		var out []Challenge
		for i := range n {
			c := sent("", status, created, time.Time{})
			c.ID = int64(i + 1)
			out = append(out, c)
		}
		return out
	}
	tests := []struct {
		name     string
		lc       LobbyConfig
		line     string
		lobby    func(lb *Lobby)
		env      func(env *Env)
		want     Verdict
		says     string // in the reply to carol
		check    func(t *testing.T, ch *Challenge)
		inviteTo string
		auth     bool // --require-auth
	}{
		{name: "directed", line: "challenge toto40 bob@example.org 3d", want: Applied, says: "is invited to a game of Toto40",
			inviteTo: "bob@example.org", check: func(t *testing.T, ch *Challenge) {
				if ch.ID != 41 || ch.Variant != "toto40" || ch.Opponent != "bob@example.org" || ch.TimeControl != "3d" || ch.Color != "random" ||
					!ch.Expires.Equal(lobbyNow.Add(7*Day)) || ch.Challenger != "carol@example.org" {
					t.Errorf("challenge %+v", ch)
				}
			}},
		{name: "colour and Fischer", line: "challenge chess white 10d+1d bob@example.org", want: Applied, inviteTo: "bob@example.org",
			check: func(t *testing.T, ch *Challenge) {
				if ch.Color != "white" || ch.TimeControl != "10d+1d" {
					t.Errorf("challenge %+v", ch)
				}
			}},
		{name: "a block clock", line: "challenge chess bob@example.org 10/50d", want: Applied, inviteTo: "bob@example.org",
			says: "10 moves in 50 days, unused time carried over", check: func(t *testing.T, ch *Challenge) {
				if ch.TimeControl != "10/50d" {
					t.Errorf("challenge %+v", ch)
				}
			}},
		{name: "capped Fischer", line: "challenge chess 30d+1d/45d bob@example.org", want: Applied, inviteTo: "bob@example.org",
			says: "at most 45 days", check: func(t *testing.T, ch *Challenge) {
				if ch.TimeControl != "30d+1d/45d" {
					t.Errorf("challenge %+v", ch)
				}
			}},
		{name: "the organiser's default time", lc: LobbyConfig{DefaultTime: "5d"}, line: "challenge chess bob@example.org", want: Applied,
			inviteTo: "bob@example.org", check: func(t *testing.T, ch *Challenge) {
				if ch.TimeControl != "5d" {
					t.Errorf("time %q, want the default 5d", ch.TimeControl)
				}
			}},
		{name: "open", line: "challenge toto40 3d", want: Applied, says: "referee+i41.nnnnnnnnnn@example.test",
			check: func(t *testing.T, ch *Challenge) {
				if ch.Opponent != "" {
					t.Errorf("open challenge to %q", ch.Opponent)
				}
			}},
		{name: "stranger under known", line: "challenge chess bob@example.org", lobby: func(lb *Lobby) { lb.Allowed = false },
			want: Rejected, says: "only known players"},
		{name: "no variant", line: "challenge", want: Rejected, says: "names no game"},
		{name: "unknown variant", line: "challenge checkers bob@example.org", want: Rejected, says: "\"checkers\" is not a game offered"},
		{name: "variant not offered", lc: LobbyConfig{Variants: []string{"chess"}}, line: "challenge toto40 bob@example.org", want: Rejected,
			says: "Choose one of chess"},
		{name: "bad address", line: "challenge chess bob@localhost", want: Rejected, says: "has no dot"},
		// Issue 38: an address written like an IP address is no mail domain.
		{name: "IP-like domain", line: "challenge chess bob@1.2.3.4", want: Rejected, says: "written like an IP address"},
		// Issue 28: addresses are held to RFC 5321's limits and valid domains.
		{name: "address literal", line: "challenge chess bob@[127.0.0.1]", want: Rejected, says: "is not a mail address"},
		{name: "hyphen-edged label", line: "challenge chess bob@-bad-.test", want: Rejected, says: "is not a mail address"},
		{name: "local part over 64", line: "challenge chess " + strings.Repeat("b", 65) + "@example.org", want: Rejected, says: "is not a mail address"},
		{name: "two addresses", line: "challenge chess bob@example.org dan@example.org", want: Rejected, says: "two opponents"},
		{name: "unknown word", line: "challenge chess bob@example.org quickly", want: Rejected, says: "the word \"quickly\""},
		{name: "bad time", line: "challenge chess bob@example.org 0d", want: Rejected, says: "at least 1d"},
		{name: "self", line: "challenge chess Carol+Alt@example.org", want: Rejected, says: "cannot challenge yourself"},
		{name: "the referee", line: "challenge chess referee@example.test", want: Rejected, says: "the referee does not play"},
		{name: "opponent removed by the organiser", line: "challenge chess bob@example.org", lobby: func(lb *Lobby) { lb.OpponentBarred = true },
			want: Rejected, says: "cannot be invited"},
		{name: "challenger at max games", line: "challenge chess bob@example.org", lobby: func(lb *Lobby) { lb.Active["carol@example.org"] = 10 },
			want: Rejected, says: "you already play 10 games"},
		{name: "opponent at max games", lc: LobbyConfig{MaxGames: 2}, line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) { lb.Active["bob@example.org"] = 2 }, want: Rejected, says: "already plays the most games"},
		{name: "already invited", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) {
				lb.Sent = []Challenge{sent("bob@example.org", ChallengeOpen, lobbyNow.Add(-time.Hour), time.Time{})}
			},
			want: Rejected, says: "is still open"},
		{name: "five open invitations", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) { lb.Sent = many(5, ChallengeOpen, lobbyNow.Add(-2*Day)) }, want: Rejected, says: "5 open invitations"},
		{name: "four open invitations", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) { lb.Sent = many(4, ChallengeOpen, lobbyNow.Add(-2*Day)) }, want: Applied, inviteTo: "bob@example.org"},
		{name: "twenty challenges a day", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) { lb.Sent = many(20, ChallengeWithdrawn, lobbyNow.Add(-time.Hour)) }, want: Rejected, says: "20 challenges in the last 24 hours"},
		{name: "declined within a day", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) {
				lb.Sent = []Challenge{sent("bob@example.org", ChallengeDeclined, lobbyNow.Add(-3*time.Hour), lobbyNow.Add(-2*time.Hour))}
			}, want: Rejected, says: "bob@example.org declined your invitation"},
		{name: "ignored (expired) within a day", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) {
				lb.Sent = []Challenge{sent("bob@example.org", ChallengeExpired, lobbyNow.Add(-7*Day), lobbyNow.Add(-time.Hour))}
			}, want: Rejected, says: "did not answer"},
		{name: "declined two days ago", line: "challenge chess bob@example.org",
			lobby: func(lb *Lobby) {
				lb.Sent = []Challenge{sent("bob@example.org", ChallengeDeclined, lobbyNow.Add(-3*Day), lobbyNow.Add(-2*Day))}
			}, want: Applied, inviteTo: "bob@example.org"},
		{name: "refusal limit", line: "challenge", env: func(env *Env) { env.RecentRefusals = 10 }, want: Ignored},
		{name: "require-auth without a verdict", auth: true, line: "challenge chess bob@example.org", want: Rejected, says: "could not confirm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, tt.lc)
			if tt.auth {
				r.cfg.RequireAuth, r.cfg.TrustedAuthServ = true, "mx.example.test"
			}
			lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed}
			if tt.lobby != nil {
				tt.lobby(lb)
			}
			env := Env{Now: lobbyNow, Lobby: lb}
			if tt.env != nil {
				tt.env(&env)
			}
			m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "challenge", Action: tt.line}
			out := r.Handle(Inbound{Mail: m}, nil, env)
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			if out.Verdict == Ignored {
				if len(out.Mails) != 0 {
					t.Errorf("%d mails for an ignored mail", len(out.Mails))
				}
				return
			}
			var toCarol string
			invited := ""
			for _, ml := range out.Mails {
				h, body := plain(t, ml)
				switch ml.To {
				case "carol@example.org":
					toCarol = body
				default:
					invited = ml.To
					inv := reader.Invite{ChallengeID: 41, Secret: "nnnnnnnnnn"}
					if rt := h.Get("Reply-To"); !strings.Contains(rt, "referee+"+inv.String()+"@example.test") {
						t.Errorf("invitation Reply-To %q", rt)
					}
					if !strings.HasPrefix(h.Get("Message-Id"), "<i41.nnnnnnnnnn.") {
						t.Errorf("invitation Message-ID %q does not carry the invitation token", h.Get("Message-Id"))
					}
					if !strings.Contains(body, "\"accept\"") || !strings.Contains(body, "carol@example.org") {
						t.Errorf("invitation text:\n%s", body)
					}
				}
			}
			if toCarol == "" {
				t.Fatalf("no mail to carol; mails to %v", mailsTo(out))
			}
			if !strings.Contains(norm(toCarol), norm(tt.says)) {
				t.Errorf("the reply does not say %q:\n%s", tt.says, toCarol)
			}
			if invited != tt.inviteTo {
				t.Errorf("invitation to %q, want %q", invited, tt.inviteTo)
			}
			switch {
			case tt.want == Rejected && out.Lobby != nil:
				t.Errorf("a refusal changed %+v", out.Lobby)
			case tt.want == Applied && (out.Lobby == nil || out.Lobby.NewChallenge == nil):
				t.Fatalf("no challenge to store")
			case tt.check != nil:
				tt.check(t, out.Lobby.NewChallenge)
			}
		})
	}
}

// norm collapses runs of white space: wrapping never breaks a comparison.
func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

func mailsTo(out Outcome) []string {
	var to []string
	for _, m := range out.Mails {
		to = append(to, m.To)
	}
	return to
}

// TestInvitationAnswers: accept, decline and withdraw, and what is refused.
func TestInvitationAnswers(t *testing.T) {
	openOne := func() *Challenge {
		c := invitedBob()
		c.Opponent, c.Color = "", "black"
		return c
	}
	tests := []struct {
		name   string
		from   string
		line   string
		ch     *Challenge
		invite reader.Invite
		lobby  func(lb *Lobby)
		now    time.Time
		want   Verdict
		to     []string // who gets mail
		says   string   // in the first mail
		check  func(t *testing.T, lc *LobbyChange)
	}{
		{name: "bob accepts", from: "bob@example.org", line: "accept", ch: invitedBob(), want: Applied,
			check: func(t *testing.T, lc *LobbyChange) {
				if lc.Close == nil || lc.Close.Status != ChallengeAccepted || lc.Start == nil ||
					lc.Start.White != "carol@example.org" || lc.Start.Black != "bob@example.org" {
					t.Errorf("change %+v %+v", lc.Close, lc.Start)
				}
			}},
		{name: "bob says yes from a plus-address", from: "bob+chess@example.org", line: "Yes!", ch: invitedBob(), want: Applied},
		{name: "bob declines", from: "bob@example.org", line: "decline", ch: invitedBob(), want: Applied,
			to: []string{"bob@example.org", "carol@example.org"}, says: "You declined",
			check: func(t *testing.T, lc *LobbyChange) {
				if lc.Close == nil || lc.Close.Status != ChallengeDeclined || lc.Start != nil {
					t.Errorf("change %+v", lc)
				}
			}},
		{name: "carol withdraws", from: "carol@example.org", line: "withdraw", ch: invitedBob(), want: Applied,
			to: []string{"carol@example.org", "bob@example.org"}, says: "is withdrawn",
			check: func(t *testing.T, lc *LobbyChange) {
				if lc.Close == nil || lc.Close.Status != ChallengeWithdrawn {
					t.Errorf("change %+v", lc)
				}
			}},
		// "withdraw" with a word after it is the events' command, but in
		// a reply to an invitation (no event named so) it withdraws the
		// challenge.
		{name: "carol withdraws, with a word after it", from: "carol@example.org", line: "withdraw now", ch: invitedBob(), want: Applied,
			to: []string{"carol@example.org", "bob@example.org"}, says: "is withdrawn",
			check: func(t *testing.T, lc *LobbyChange) {
				if lc.Close == nil || lc.Close.Status != ChallengeWithdrawn {
					t.Errorf("change %+v", lc)
				}
			}},
		{name: "carol cannot accept her own", from: "carol@example.org", line: "accept", ch: invitedBob(), want: Rejected,
			to: []string{"carol@example.org"}, says: "is your own"},
		{name: "bob cannot withdraw", from: "bob@example.org", line: "withdraw", ch: invitedBob(), want: Rejected,
			to: []string{"bob@example.org"}, says: "Only the challenger"},
		{name: "wrong secret", from: "bob@example.org", line: "accept", ch: invitedBob(), invite: reader.Invite{ChallengeID: 7, Secret: "zzzzzzzzzz"},
			want: Rejected, to: []string{"bob@example.org"}, says: "could not be tied to an invitation"},
		{name: "another sender", from: "mallory@example.org", line: "accept", ch: invitedBob(), want: Rejected,
			to: []string{"mallory@example.org"}, says: "could not be tied to an invitation"},
		{name: "unknown challenge", from: "bob@example.org", line: "accept", ch: nil, invite: reader.Invite{ChallengeID: 9, Secret: "sssssssss2"},
			want: Rejected, to: []string{"bob@example.org"}, says: "could not be tied to an invitation"},
		{name: "already declined", from: "bob@example.org", line: "accept",
			ch: func() *Challenge { c := invitedBob(); c.Status = ChallengeDeclined; return c }(), want: Rejected,
			to: []string{"bob@example.org"}, says: "no longer open: it was declined"},
		{name: "expired before the tick", from: "bob@example.org", line: "accept", ch: invitedBob(), now: lobbyNow.Add(7 * Day),
			want: Rejected, to: []string{"bob@example.org"}, says: "expired on"},
		{name: "no answer", from: "bob@example.org", line: "maybe later", ch: invitedBob(), want: Rejected,
			to: []string{"bob@example.org"}, says: "neither \"accept\" nor \"decline\""},
		{name: "bob at max games", from: "bob@example.org", line: "accept", ch: invitedBob(),
			lobby: func(lb *Lobby) { lb.Active["bob@example.org"] = 10 }, want: Rejected, to: []string{"bob@example.org"}, says: "You already play 10 games"},
		{name: "carol at max games", from: "bob@example.org", line: "accept", ch: invitedBob(),
			lobby: func(lb *Lobby) { lb.Active["carol@example.org"] = 10 }, want: Rejected, to: []string{"bob@example.org"}, says: "plays the most games"},
		{name: "dan takes an open challenge", from: "dan@example.org", line: "accept", ch: openOne(), want: Applied,
			check: func(t *testing.T, lc *LobbyChange) {
				if lc.Start == nil || lc.Start.White != "dan@example.org" || lc.Start.Black != "carol@example.org" || lc.Close.By != "dan@example.org" {
					t.Errorf("change %+v %+v", lc.Start, lc.Close)
				}
			}},
		{name: "a stranger cannot take an open challenge", from: "eve@example.org", line: "accept", ch: openOne(),
			lobby: func(lb *Lobby) { lb.Allowed = false }, want: Rejected, to: []string{"eve@example.org"}, says: "only known players"},
		{name: "an open challenge is not declined", from: "dan@example.org", line: "decline", ch: openOne(), want: Rejected,
			to: []string{"dan@example.org"}, says: "nothing to decline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			inv := tt.invite
			if inv.ChallengeID == 0 {
				inv = reader.Invite{ChallengeID: 7, Secret: "sssssssss2"}
			}
			lb := &Lobby{Allowed: true, Active: map[string]int{}, Challenge: tt.ch}
			if tt.lobby != nil {
				tt.lobby(lb)
			}
			now := tt.now
			if now.IsZero() {
				now = lobbyNow
			}
			m := &reader.Mail{From: tt.from, MessageID: "<a1@example.org>", Subject: "Re: invitation", Action: tt.line, Invite: &inv}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: now, Lobby: lb})
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			if got := strings.Join(mailsTo(out), " "); got != strings.Join(tt.to, " ") {
				t.Errorf("mails to [%s], want [%s]", got, strings.Join(tt.to, " "))
			}
			if tt.says != "" {
				if _, body := plain(t, out.Mails[0]); !strings.Contains(norm(body), norm(tt.says)) {
					t.Errorf("the first mail does not say %q:\n%s", tt.says, body)
				}
			}
			if tt.want == Rejected && out.Lobby != nil {
				t.Errorf("a refusal changed %+v", out.Lobby)
			}
			if tt.check != nil {
				if out.Lobby == nil {
					t.Fatal("no change")
				}
				tt.check(t, out.Lobby)
			}
		})
	}
}

// TestChallengerColor: white and black are as asked; random is fixed by
// the secret, and both colours occur.
func TestChallengerColor(t *testing.T) {
	seen := map[rules.Color]bool{}
	for _, s := range []string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd", "eeeeeeeeee", "ffffffffff", "gggggggggg", "hhhhhhhhhh"} {
		c := Challenge{Color: "random", Secret: s}
		if c.ChallengerColor() != c.ChallengerColor() {
			t.Fatalf("random colour of %s changes", s)
		}
		seen[c.ChallengerColor()] = true
		c.Color = "white"
		if c.ChallengerColor() != rules.White {
			t.Error("white is not White")
		}
		c.Color = "black"
		if c.ChallengerColor() != rules.Black {
			t.Error("black is not Black")
		}
	}
	if len(seen) != 2 {
		t.Errorf("eight random secrets gave only %v", seen)
	}
}

// TestLobbyAnswers: games, record, variants, open and help answer the
// sender alone; what a stranger asks about reveals nothing.
func TestLobbyAnswers(t *testing.T) {
	finished := carolsGame(t, 3, "dan@example.org", false)
	finished.Status, finished.Result, finished.ResultReason = StatusFinished, "1-0", "checkmate"
	games := []*Game{carolsGame(t, 5, "bob@example.org", true), carolsGame(t, 4, "dan@example.org", false), finished}
	_, other := newGame(t, rules.Chess()) // alice v bob: not carol's
	other.ID = 9
	open := []Challenge{*invitedBob(), *invitedBob()}
	open[0].ID, open[0].Opponent, open[0].Challenger = 11, "", "dan@example.org"
	open[1].ID, open[1].Opponent = 12, ""
	tests := []struct {
		name    string
		line    string
		lc      LobbyConfig
		lobby   func(lb *Lobby)
		env     func(env *Env)
		want    Verdict
		says    []string
		notSays []string
	}{
		{name: "help", line: "help", want: Answered, says: []string{"challenge toto40 bob@example.org 3d", "open", "vacation DAYS", "Players who have played here before"}},
		{name: "help under open", line: "help", lc: LobbyConfig{Players: PlayersOpen}, want: Answered, says: []string{"Anyone may challenge"}},
		{name: "variants", line: "variants", want: Answered, says: []string{"toto40 (", "chectoe (Chec Toe)", "cuarenta"}},
		{name: "variants offered", line: "variants", lc: LobbyConfig{Variants: []string{"chess", "toto40"}}, want: Answered,
			says: []string{"chess (", "toto40 ("}, notSays: []string{"cuarenta"}},
		{name: "games", line: "games", lobby: func(lb *Lobby) { lb.Games = games }, want: Answered,
			says: []string{"#5  Chess: you play White against bob@example.org", "move 1, your move",
				"reply to: referee+5.cccccccccc.0@example.test", "#4  Chess: you play Black against dan@example.org",
				"dan@example.org's move", "Your recent games that are over", "White won, checkmate"},
			notSays: []string{"oooooooooo"}},
		{name: "no games", line: "games", want: Answered, says: []string{"You have no game running"}},
		{name: "record of her game", line: "record 4", lobby: func(lb *Lobby) { lb.Named = games[1] }, want: Answered,
			says: []string{"[Event \"Correspondence game #4\"]", "[White \"dan@example.org\"]"}},
		{name: "record of another's game", line: "record 9", lobby: func(lb *Lobby) { lb.Named = other }, want: Rejected,
			says: []string{"Game #9 is not one of your games"}, notSays: []string{"alice", "bob"}},
		{name: "record of no game", line: "record 99", want: Rejected, says: []string{"Game #99 is not one of your games"}},
		{name: "record without a number", line: "record", want: Rejected, says: []string{"e.g. \"record 17\""}},
		{name: "open", line: "open", lobby: func(lb *Lobby) { lb.Open = open }, want: Answered,
			says:    []string{"Challenge 11: Toto40, 3 days per move, by dan@example.org", "referee+i11.sssssssss2@example.test", "This is your own challenge"},
			notSays: []string{"referee+i12."}},
		{name: "nothing open", line: "open", want: Answered, says: []string{"no open challenges"}},
		{name: "open for a stranger", line: "open", lobby: func(lb *Lobby) { lb.Allowed = false; lb.Open = open }, want: Rejected,
			says: []string{"only to players who may take them"}, notSays: []string{"i11"}},
		{name: "unknown command", line: "hello there", want: Rejected, says: []string{"\"hello there\", which is not a command", "challenge VARIANT ADDRESS"}},
		{name: "accept without an invitation", line: "accept", want: Rejected, says: []string{"not a reply to an invitation"}},
		{name: "answer limit", line: "games", lobby: func(lb *Lobby) { lb.RecentAnswers = 20 }, want: Ignored},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, tt.lc)
			lb := &Lobby{Allowed: true, Active: map[string]int{}}
			if tt.lobby != nil {
				tt.lobby(lb)
			}
			env := Env{Now: lobbyNow, Lobby: lb}
			m := &reader.Mail{From: "carol@example.org", MessageID: "<q1@example.org>", Subject: tt.line, Action: tt.line}
			out := r.Handle(Inbound{Mail: m}, nil, env)
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			if tt.want == Ignored {
				if len(out.Mails) != 0 {
					t.Errorf("%d mails", len(out.Mails))
				}
				return
			}
			if len(out.Mails) != 1 || out.Mails[0].To != "carol@example.org" || out.Lobby != nil || out.Game != nil {
				t.Fatalf("mails to %v, change %v; want one mail to carol and no change", mailsTo(out), out.Lobby)
			}
			_, body := plain(t, out.Mails[0])
			if tt.want == Answered && !strings.HasPrefix(tt.line, "record") {
				// STYLE.md: lines under 78 characters (a record's tags may be longer).
				for _, line := range strings.Split(body, "\n") {
					if len(line) >= 78 {
						t.Errorf("line of %d characters: %q", len(line), line)
					}
				}
			}
			for _, s := range tt.says {
				if !strings.Contains(norm(body), norm(s)) {
					t.Errorf("the answer does not say %q:\n%s", s, body)
				}
			}
			for _, s := range tt.notSays {
				if strings.Contains(body, s) {
					t.Errorf("the answer says %q:\n%s", s, body)
				}
			}
		})
	}
}

// TestVacationInAllGames: "vacation N" to the plain address stops every
// timed game's clock of the sender, tells each opponent, and counts N days
// once against the yearly allowance of the player.
func TestVacationInAllGames(t *testing.T) {
	untimed := carolsGame(t, 6, "erin@example.org", true)
	untimed.State.Clock = nil
	tests := []struct {
		name  string
		line  string
		used  int
		games []*Game
		want  Verdict
		says  string
	}{
		{name: "two timed games", line: "vacation 3", games: []*Game{carolsGame(t, 5, "bob@example.org", true), carolsGame(t, 4, "dan@example.org", false), untimed},
			want: Applied, says: "stopped for 3 days"},
		{name: "beyond the allowance", line: "vacation 5", used: 28, games: []*Game{carolsGame(t, 5, "bob@example.org", true)},
			want: Rejected, says: "only 2 of your 30"},
		{name: "too many days", line: "vacation 31", games: []*Game{carolsGame(t, 5, "bob@example.org", true)}, want: Rejected, says: "from 1 to 30"},
		{name: "no number", line: "vacation", games: []*Game{carolsGame(t, 5, "bob@example.org", true)}, want: Rejected, says: "e.g. \"vacation 5\""},
		{name: "no timed game", line: "vacation 3", games: []*Game{untimed}, want: Rejected, says: "no game with a clock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			env := Env{Now: lobbyNow, VacationUsed: tt.used, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Games: tt.games}}
			m := &reader.Mail{From: "carol@example.org", MessageID: "<v1@example.org>", Subject: "away", Action: tt.line}
			out := r.Handle(Inbound{Mail: m}, nil, env)
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			_, body := plain(t, out.Mails[0])
			if out.Mails[0].To != "carol@example.org" || !strings.Contains(norm(body), norm(tt.says)) {
				t.Errorf("first mail to %s does not say %q:\n%s", out.Mails[0].To, tt.says, body)
			}
			if tt.want != Applied {
				if out.Lobby != nil {
					t.Errorf("a refusal changed %+v", out.Lobby)
				}
				return
			}
			lc := out.Lobby
			if lc.Vacation == nil || *lc.Vacation != (VacationUse{Address: "carol@example.org", Year: 2026, Days: 3}) {
				t.Errorf("vacation %+v, want 3 days of carol's in 2026", lc.Vacation)
			}
			if len(lc.Games) != 2 {
				t.Fatalf("%d games changed, want the two timed ones", len(lc.Games))
			}
			for _, g := range lc.Games {
				c, _ := g.colorOf("carol@example.org")
				if want := lobbyNow.Add(3 * Day); !g.State.Clock.Vacation[c].Equal(want) {
					t.Errorf("game #%d: vacation until %v, want %v", g.ID, g.State.Clock.Vacation[c], want)
				}
			}
			// Game #5: carol is White and to move, so her running clock moves on 3 days.
			if want := lobbyNow.Add(-Day + 3*Day); !lc.Games[0].State.Clock.TurnStart.Equal(want) {
				t.Errorf("game #5 turn start %v, want %v", lc.Games[0].State.Clock.TurnStart, want)
			}
			if got := strings.Join(mailsTo(out), " "); got != "carol@example.org bob@example.org dan@example.org" {
				t.Errorf("mails to %s; want carol's summary and one to each opponent", got)
			}
		})
	}
}

// TestVacationInOneGameUsesThePlayersAllowance: "vacation N" in reply to a
// game mail counts against the same per-player allowance.
func TestVacationInOneGameUsesThePlayersAllowance(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	c, _ := ParseTimeControl("3d")
	c.TurnStart = lobbyNow
	g.State.Clock = c
	for _, tt := range []struct {
		used int
		want Verdict
	}{{28, Rejected}, {27, Applied}} {
		m := &reader.Mail{From: "alice@example.test", MessageID: "<v@x>", Action: "vacation 3",
			Token: &reader.Token{GameID: g.ID, Secret: "aaaaaaaaaa", Ply: g.Ply()}}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow, VacationUsed: tt.used})
		if out.Verdict != tt.want {
			t.Errorf("vacation 3 with %d days used: %s (%s), want %s", tt.used, out.Verdict, out.Detail, tt.want)
		}
		if tt.want == Applied && (out.Lobby == nil || out.Lobby.Vacation == nil || out.Lobby.Vacation.Days != 3 || out.Lobby.Vacation.Address != "alice@example.test") {
			t.Errorf("the days are not counted for alice: %+v", out.Lobby)
		}
	}
}

// TestLobbyCommandsInGameReplies: "games" in a reply to a game mail is the
// lobby's; "record" and "help" stay the game's.
func TestLobbyCommandsInGameReplies(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	send := func(line string) Outcome {
		m := &reader.Mail{From: "alice@example.test", MessageID: "<g@x>", Action: line,
			Token: &reader.Token{GameID: g.ID, Secret: "aaaaaaaaaa", Ply: g.Ply()}}
		return r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Games: []*Game{g}}})
	}
	out := send("games")
	if out.Verdict != Answered || len(out.Mails) != 1 {
		t.Fatalf("games: %s %s", out.Verdict, out.Detail)
	}
	if _, body := plain(t, out.Mails[0]); !strings.Contains(norm(body), norm("#5  Chess: you play White against bob@example.test")) {
		t.Errorf("games in a game reply:\n%s", body)
	}
	if out := send("record"); !strings.Contains(out.Detail, "game #5") {
		t.Errorf("record in a game reply went to the lobby: %s", out.Detail)
	}
}

// TestNoTokenWithoutLobbyIsAStranger: a caller that gives no Lobby keeps
// the old answer to mail without a game reference.
func TestNoTokenWithoutLobbyIsAStranger(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	m := &reader.Mail{From: "carol@example.org", MessageID: "<s@x>", Action: "games"}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow})
	if out.Verdict != Rejected || !strings.Contains(out.Detail, "no game reference") {
		t.Errorf("%s %s", out.Verdict, out.Detail)
	}
}

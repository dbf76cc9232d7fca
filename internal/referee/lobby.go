package referee

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
)

// The lobby: what players do by mail outside a game. They challenge each
// other ("challenge toto40 bob@example.org 3d"), accept or decline
// invitations, list open challenges, their games and the variants, ask for
// a game's record, and take a vacation in all their games at once. The
// caller (the app) loads what the core may need into Env.Lobby and stores
// the Outcome's LobbyChange; the core, as everywhere, does no I/O.

// Player policies: who may challenge by mail (LobbyConfig.Players).
const (
	PlayersOpen  = "open"  // anyone
	PlayersKnown = "known" // addresses that played a game here or that the organiser added
	PlayersList  = "list"  // the addresses of the organiser's file (and those added)
)

// Challenge statuses.
const (
	ChallengeOpen      = "open"
	ChallengeAccepted  = "accepted"
	ChallengeDeclined  = "declined"
	ChallengeExpired   = "expired"
	ChallengeWithdrawn = "withdrawn"
)

// LobbyConfig is what the organiser offers by mail. Zero fields take the
// defaults named.
type LobbyConfig struct {
	// Players is the policy on who may challenge: PlayersOpen,
	// PlayersKnown (the default) or PlayersList. The app decides each
	// sender (Lobby.Allowed); the core only names the policy in refusals.
	Players string
	// Variants are the names of the variants offered by mail; nil offers
	// all of rules.Variants().
	Variants []string
	// DefaultTime is the time control of a challenge that names none ("3d",
	// "10d+1d"); "" for none.
	DefaultTime string
	// MaxGames caps the active games of one player (default 10).
	MaxGames int
	// InviteTTL is how long an invitation stays open (default 7 days).
	InviteTTL time.Duration
	// MaxOpenInvites caps the open invitations of one challenger (default 5).
	MaxOpenInvites int
	// MaxChallengesPerDay caps the challenges one address makes in 24 hours
	// (default 20).
	MaxChallengesPerDay int
	// MaxAnswersPerHour caps the answers to one address's lobby commands
	// ("games", "help", ...) in an hour (default 20): a forged sender
	// cannot make the referee mail someone without end.
	MaxAnswersPerHour int
}

// lobbyCfg is the configuration with its defaults.
func (r *Referee) lobbyCfg() LobbyConfig {
	c := r.cfg.Lobby
	if c.Players == "" {
		c.Players = PlayersKnown
	}
	if c.MaxGames <= 0 {
		c.MaxGames = 10
	}
	if c.InviteTTL <= 0 {
		c.InviteTTL = 7 * Day
	}
	if c.MaxOpenInvites <= 0 {
		c.MaxOpenInvites = 5
	}
	if c.MaxChallengesPerDay <= 0 {
		c.MaxChallengesPerDay = 20
	}
	if c.MaxAnswersPerHour <= 0 {
		c.MaxAnswersPerHour = 20
	}
	return c
}

// Offered returns the variants offered by mail, in rules.Variants() order.
func (r *Referee) Offered() []rules.Variant {
	names := r.cfg.Lobby.Variants
	if len(names) == 0 {
		return rules.Variants()
	}
	var out []rules.Variant
	for _, v := range rules.Variants() {
		for _, n := range names {
			if strings.EqualFold(strings.TrimSpace(n), v.Name()) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// Challenge is an invitation to a game sent by mail.
type Challenge struct {
	ID          int64
	Challenger  string // the address that challenged
	Opponent    string // the invited address; "" for an open challenge
	Variant     string
	TimeControl string // "" for none
	Color       string // the challenger's colour: random, white or black
	Secret      string // the invitation token's secret
	Status      string
	Created     time.Time
	Expires     time.Time
	Closed      time.Time // zero while open
	ClosedBy    string
	GameID      int64
}

// Invite is the invitation token of c.
func (c *Challenge) Invite() reader.Invite { return reader.Invite{ChallengeID: c.ID, Secret: c.Secret} }

// ChallengerColor is the colour the challenger plays. "random" is decided
// by the challenge's secret, which the app drew at random when the
// challenge was made: fixed from then on, the same however often it is
// asked.
func (c *Challenge) ChallengerColor() rules.Color {
	switch c.Color {
	case "white":
		return rules.White
	case "black":
		return rules.Black
	}
	h := sha256.Sum256([]byte("colour\x00" + c.Secret))
	return rules.Color(h[0] & 1)
}

// Lobby is what the core may know about a mail outside a game (or a lobby
// command sent as a reply to a game mail). The app fills it for the
// mail's sender.
type Lobby struct {
	// Allowed: the sender may challenge, and take open challenges, under
	// the organiser's policy.
	Allowed bool
	// Games are the sender's games: the active ones, then recent others.
	Games []*Game
	// Named is the game a "record N" names, when it exists (the core
	// checks that the sender plays in it).
	Named *Game
	// Challenge is the challenge the mail's invitation token names, nil
	// when there is none or no such challenge.
	Challenge *Challenge
	// Open are the open challenges without an opponent, oldest first.
	Open []Challenge
	// Sent are the sender's challenges that are open, or were made or
	// closed in the last 24 hours.
	Sent []Challenge
	// Active counts active games by mailbox (addr.Mailbox): the sender's,
	// the named opponent's, and the challenger's of Challenge.
	Active map[string]int
	// OpponentBarred: the organiser removed the opponent a challenge names.
	OpponentBarred bool
	// NextChallengeID and NewSecret number a new challenge and make its
	// invitation secret (the core draws no random numbers).
	NextChallengeID int64
	NewSecret       string
	// RecentAnswers counts the answers to the sender's lobby commands in
	// the last hour.
	RecentAnswers int
}

// LobbyChange is what a lobby command changes, for the app to store in the
// same transaction as the rest of the outcome.
type LobbyChange struct {
	// NewChallenge is to be stored (with its ID).
	NewChallenge *Challenge
	// Close ends an open challenge: Status is accepted, declined or
	// withdrawn, By the address that did it.
	Close *ChallengeClose
	// Start is a game to start, as "referee new" starts one; then the app
	// sends ChallengeStarted's notice.
	Start *GameStart
	// Vacation adds days to a player's yearly allowance used.
	Vacation *VacationUse
	// Games are changed games besides Outcome.Game (a vacation in all the
	// sender's games).
	Games []*Game
}

// ChallengeClose ends a challenge.
type ChallengeClose struct {
	ID     int64
	Status string
	By     string
}

// GameStart is a game to start from an accepted challenge.
type GameStart struct {
	Challenge    Challenge
	White, Black string
}

// VacationUse records vacation days a player took.
type VacationUse struct {
	Address string // addr.Mailbox of the player
	Year    int
	Days    int
}

// LobbyCommand is the first line of a mail read as a lobby command.
type LobbyCommand struct {
	// Word is the command: challenge, accept, decline, withdraw, games,
	// record, variants, open, help or vacation; "" when the line is none.
	Word string
	// Args are the words after it, lower case.
	Args []string
	// GameID is the game of "record N" (0 without one).
	GameID int64
	// Opponent is the address a challenge names, canonical, or "".
	Opponent string
}

// ParseLobbyCommand reads a first line as a lobby command. It is pure: the
// app calls it to know what to load before Handle reads the line again.
func ParseLobbyCommand(line string) LobbyCommand {
	f := strings.Fields(strings.ToLower(strings.Trim(strings.TrimSpace(line), ".!")))
	if len(f) == 0 {
		return LobbyCommand{}
	}
	word, args := f[0], f[1:]
	switch word {
	case "yes", "accepted", "ok":
		word = "accept"
	case "no", "declined", "refuse":
		word = "decline"
	case "cancel", "withdrawn":
		word = "withdraw"
	case "?":
		word = "help"
	case "mygames":
		word = "games"
	case "pgn", "export":
		word = "record"
	case "variant":
		word = "variants"
	}
	c := LobbyCommand{Word: word, Args: args}
	switch word {
	case "challenge":
		for _, a := range args {
			if strings.Contains(a, "@") {
				if ca, err := addr.Canonical(strings.Trim(a, "<>,;")); err == nil {
					c.Opponent = ca
				}
				break
			}
		}
	case "record":
		if len(args) == 1 {
			if id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64); err == nil && id > 0 {
				c.GameID = id
			}
		}
	case "accept", "decline", "withdraw", "games", "variants", "open", "help", "vacation":
	default:
		return LobbyCommand{}
	}
	return c
}

// ServedInGame reports whether the lobby answers this command when it
// comes as a reply to a game mail: the game's own commands ("record",
// "help", "vacation N") stay the game's.
func (c LobbyCommand) ServedInGame() bool {
	switch c.Word {
	case "games", "variants", "open", "challenge":
		return true
	case "record":
		return c.GameID != 0
	}
	return false
}

// lobby answers a mail without a game reference.
func (r *Referee) lobby(m *reader.Mail, env Env) Outcome {
	cmd := ParseLobbyCommand(m.Action)
	if m.Invite != nil {
		switch cmd.Word {
		case "accept", "decline", "withdraw", "":
			return r.invitation(m, cmd, env)
		}
	}
	return r.lobbyCommand(m, cmd, env)
}

// lobbyInGame answers a lobby command sent as a reply to a game mail by its
// authenticated player; ok is false when the line is the game's business.
func (r *Referee) lobbyInGame(m *reader.Mail, env Env) (Outcome, bool) {
	cmd := ParseLobbyCommand(m.Action)
	if env.Lobby == nil || !cmd.ServedInGame() {
		return Outcome{}, false
	}
	return r.lobbyCommand(m, cmd, env), true
}

// lobbyCommand carries out one command for m.From.
func (r *Referee) lobbyCommand(m *reader.Mail, cmd LobbyCommand, env Env) Outcome {
	lb := env.Lobby
	switch cmd.Word {
	case "", "accept", "decline", "withdraw":
		what := fmt.Sprintf("Your mail to the referee was read as %q, which is not a command the referee knows.", firstWords(m.Action, 8))
		if strings.TrimSpace(m.Action) == "" {
			what = "Your mail to the referee had no command on its first line."
		}
		if cmd.Word != "" {
			what = fmt.Sprintf("Your mail said %q, but it is not a reply to an invitation: there is nothing to %s.", cmd.Word, cmd.Word)
		}
		return r.refuse(env, m, "lobby: no command: "+firstWords(m.Action, 6), what,
			"To play in a game, reply to the referee's latest mail for it with your move. Outside a game, send one of: "+
				"\"help\", \"games\", \"variants\", \"open\", \"challenge VARIANT ADDRESS\", \"record GAME\", \"vacation DAYS\".")
	}
	if cmd.Word != "help" && cmd.Word != "variants" {
		if out, ok := r.lobbyAuth(m, env); !ok {
			return out
		}
	}
	switch cmd.Word {
	case "challenge":
		return r.challenge(m, cmd, env)
	case "vacation":
		return r.vacationAll(m, cmd, env)
	}
	if lb.RecentAnswers >= r.lobbyCfg().MaxAnswersPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("lobby %s (not answered: %d answers to %s in the last hour, the limit is %d)",
			cmd.Word, lb.RecentAnswers, m.From, r.lobbyCfg().MaxAnswersPerHour)}
	}
	switch cmd.Word {
	case "help":
		return r.lobbyAnswer(m, env, "help", "How to play by mail", r.lobbyHelp())
	case "variants":
		return r.lobbyAnswer(m, env, "variants", "The games you can play here", r.variantsText())
	case "games":
		return r.lobbyAnswer(m, env, "games", "Your games", r.gamesText(m.From, lb.Games, env.Now))
	case "open":
		return r.openList(m, env)
	case "record":
		return r.lobbyRecord(m, cmd, env)
	}
	return Outcome{Verdict: Ignored, Detail: "lobby: unhandled command " + cmd.Word}
}

// lobbyAuth applies --require-auth to a lobby command, which acts on From
// alone.
func (r *Referee) lobbyAuth(m *reader.Mail, env Env) (Outcome, bool) {
	if !r.cfg.RequireAuth {
		return Outcome{}, true
	}
	if ok, why := reader.AuthVerdict(m, r.cfg.TrustedAuthServ); !ok {
		return r.refuse(env, m, "lobby: authentication failed: "+why,
			"Your mail was not accepted because the mail server could not confirm it really comes from "+m.From+" ("+why+").",
			"Send it again from your usual mail account (the one that signs its mail with DKIM)."), false
	}
	return Outcome{}, true
}

var timeControlRE = regexp.MustCompile(`^[0-9]+d(\+[0-9]+d)?$`)

const challengeSyntax = "challenge VARIANT ADDRESS [TIME] [random|white|black], e.g. \"challenge toto40 bob@example.org 3d\"; " +
	"leave out the ADDRESS for an open challenge that anyone may take"

// challenge makes a challenge: an invitation mailed to the opponent, or an
// open challenge listed by "open".
func (r *Referee) challenge(m *reader.Mail, cmd LobbyCommand, env Env) Outcome {
	lc, lb, now := r.lobbyCfg(), env.Lobby, env.Now
	line := firstWords(m.Action, 8)
	no := func(detail, what, todo string) Outcome {
		return r.refuse(env, m, "challenge: "+detail, fmt.Sprintf("Your challenge %q was not sent: %s", line, what), todo)
	}
	if !lb.Allowed {
		return no("sender not allowed under --players "+lc.Players, r.policyText(m.From), r.policyTodo())
	}
	if len(cmd.Args) == 0 {
		return no("no variant", "it names no game.", "Write "+challengeSyntax+". The games: "+r.offeredNames()+".")
	}
	v, err := rules.Lookup(cmd.Args[0])
	if err != nil || !r.offers(v) {
		return no("variant "+cmd.Args[0]+" not offered",
			fmt.Sprintf("%q is not a game offered here.", cmd.Args[0]),
			"Choose one of "+r.offeredNames()+" (send \"variants\" for what each is), and write "+challengeSyntax+".")
	}
	ch := Challenge{ID: lb.NextChallengeID, Challenger: m.From, Variant: v.Name(), TimeControl: lc.DefaultTime,
		Color: "random", Secret: lb.NewSecret, Status: ChallengeOpen, Created: now, Expires: now.Add(lc.InviteTTL)}
	for _, a := range cmd.Args[1:] {
		switch {
		case strings.Contains(a, "@"):
			if ch.Opponent != "" {
				return no("two addresses", "it names two opponents.", "Challenge one player a mail: "+challengeSyntax+".")
			}
			o, err := addr.Canonical(strings.Trim(a, "<>,;"))
			if err != nil || !strings.Contains(addr.Domain(o), ".") {
				return no("bad address "+a, fmt.Sprintf("%q is not a mail address.", a), "Write the opponent's address like bob@example.org: "+challengeSyntax+".")
			}
			ch.Opponent = o
		case timeControlRE.MatchString(a):
			c, err := ParseTimeControl(a)
			if err != nil {
				return no("bad time "+a, sentence(err.Error()), "Write the time as days per move (\"3d\") or Fischer (\"10d+1d\").")
			}
			ch.TimeControl = c.Control
		case a == "random" || a == "white" || a == "black":
			ch.Color = a
		default:
			return no("unknown word "+a, fmt.Sprintf("the word %q is neither an address, a time (\"3d\", \"10d+1d\") nor a colour (random, white, black).", a),
				"Write "+challengeSyntax+".")
		}
	}
	switch {
	case ch.Opponent != "" && addr.SameMailbox(ch.Opponent, m.From):
		return no("self", "you cannot challenge yourself.", "Name another player's address, or leave it out for an open challenge.")
	case ch.Opponent != "" && addr.SameMailbox(ch.Opponent, r.cfg.Address):
		return no("the referee", "the referee does not play.", "Name another player's address, or leave it out for an open challenge.")
	case ch.Opponent != "" && lb.OpponentBarred:
		return no("opponent barred", ch.Opponent+" cannot be invited by mail here.", "Challenge someone else, or ask the organiser.")
	}
	if n := lb.Active[addr.Mailbox(m.From)]; n >= lc.MaxGames {
		return no("sender at max games", fmt.Sprintf("you already play %d games, the most the organiser allows at once.", n),
			"Finish a game first; \"games\" lists yours.")
	}
	if ch.Opponent != "" && lb.Active[addr.Mailbox(ch.Opponent)] >= lc.MaxGames {
		return no("opponent at max games", ch.Opponent+" already plays the most games the organiser allows at once.",
			"Challenge them again when one of their games is over.")
	}
	open, today := 0, 0
	for _, s := range lb.Sent {
		if s.Status == ChallengeOpen && now.Before(s.Expires) {
			open++
			if ch.Opponent != "" && addr.SameMailbox(s.Opponent, ch.Opponent) {
				return no("already invited", fmt.Sprintf("your invitation to %s (challenge %d) is still open, until %s.", s.Opponent, s.ID, dateText(s.Expires)),
					"Wait for their answer; \"withdraw\" in a reply to the referee's mail about it takes it back.")
			}
		}
		if !s.Created.Before(now.Add(-Day)) {
			today++
		}
		if ch.Opponent != "" && addr.SameMailbox(s.Opponent, ch.Opponent) && !s.Closed.IsZero() && s.Closed.After(now.Add(-Day)) &&
			(s.Status == ChallengeDeclined || s.Status == ChallengeExpired) {
			how := "declined"
			if s.Status == ChallengeExpired {
				how = "did not answer"
			}
			return no("opponent refused within a day", fmt.Sprintf("%s %s your invitation of %s.", ch.Opponent, how, dateText(s.Created)),
				fmt.Sprintf("You can invite %s again after %s.", ch.Opponent, dateText(s.Closed.Add(Day))))
		}
	}
	if open >= lc.MaxOpenInvites {
		return no("too many open invitations", fmt.Sprintf("you have %d open invitations, the most allowed at once.", open),
			"Wait for answers, or withdraw one by replying \"withdraw\" to the referee's mail about it.")
	}
	if today >= lc.MaxChallengesPerDay {
		return no("too many challenges today", fmt.Sprintf("you made %d challenges in the last 24 hours, the most allowed.", today),
			"Try again tomorrow.")
	}
	if ch.ID <= 0 || !ch.secretOK() {
		return Outcome{Verdict: Ignored, Detail: "challenge: the app gave no challenge id or secret"}
	}
	out := Outcome{Verdict: Applied, Lobby: &LobbyChange{NewChallenge: &ch}}
	reply := addr.Plus(r.cfg.Address, ch.Invite().String())
	var b strings.Builder
	if ch.Opponent != "" {
		out.Detail = fmt.Sprintf("challenge %d: %s invites %s to %s", ch.ID, ch.Challenger, ch.Opponent, ch.Variant)
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("Your challenge %d is on its way: %s is invited to a game of %s (%s) against you. You play %s.",
			ch.ID, ch.Opponent, v.Title(), controlText(ch.TimeControl), colorWord(ch.Color))))
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("The referee will tell you when %s accepts or declines. The invitation expires on %s.", ch.Opponent, dateText(ch.Expires))))
		b.WriteString(wrap("To take it back, reply \"withdraw\" to this mail.") + "\n")
		out.Mails = append(out.Mails, r.invitationMail(&ch, v, now))
	} else {
		out.Detail = fmt.Sprintf("challenge %d: %s opens a challenge to %s", ch.ID, ch.Challenger, ch.Variant)
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("Your open challenge %d is listed: a game of %s (%s); you play %s. "+
			"The first player who accepts it gets the game. It stays open until %s.",
			ch.ID, v.Title(), controlText(ch.TimeControl), colorWord(ch.Color), dateText(ch.Expires))))
		fmt.Fprintf(&b, "Players who send \"open\" to %s see it. To invite a friend,\ngive them this address: a mail to it saying \"accept\" takes the challenge.\n\n    %s\n\n",
			r.cfg.Address, reply)
		b.WriteString(wrap("To take it back, reply \"withdraw\" to this mail.") + "\n")
	}
	out.Mails = append(out.Mails, r.lobbyLetter(m, now, "challenge-sent", fmt.Sprintf("Challenge %d: %s", ch.ID, v.Title()), b.String(), reply, ""))
	return out
}

// secretOK reports whether the challenge's secret makes a valid token.
func (c *Challenge) secretOK() bool {
	_, ok := reader.ParseInvite(reader.Invite{ChallengeID: max(c.ID, 1), Secret: c.Secret}.String())
	return ok
}

// invitationMail invites the opponent; its reply address and Message-ID
// carry the invitation token.
func (r *Referee) invitationMail(ch *Challenge, v rules.Variant, now time.Time) Mail {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("%s invites you to a game of %s by mail, refereed by %s. "+
		"Time control: %s. %s plays %s.", ch.Challenger, v.Title(), r.cfg.Address, controlText(ch.TimeControl), ch.Challenger, colorWord(ch.Color))))
	fmt.Fprintf(&b, "To accept, reply to this mail with \"accept\" on the first line;\nto decline, reply \"decline\".\n\n%s\n\n", wrap("The invitation expires on "+dateText(ch.Expires)+"."))
	fmt.Fprintf(&b, "The rules in short:\n%s\n\n", wrap(render.Summary(v)))
	b.WriteString(wrap("If you do not know "+ch.Challenger+", ignore this mail: nothing happens, and "+
		"the referee will not pass on another invitation from them for a day after this one expires.") + "\n")
	inv := ch.Invite()
	return Mail{
		Kind:      "invitation",
		To:        ch.Opponent,
		Subject:   fmt.Sprintf("%s invites you to a game of %s", ch.Challenger, v.Title()),
		ReplyTo:   addr.Plus(r.cfg.Address, inv.String()),
		MessageID: inv.MessageID(r.nonce("invite", fmt.Sprint(ch.ID)), r.domain()),
		Text:      b.String() + lobbyFooter(r.cfg.Address),
		Date:      now,
	}
}

// invitation answers a reply to an invitation: accept, decline, withdraw.
func (r *Referee) invitation(m *reader.Mail, cmd LobbyCommand, env Env) Outcome {
	lb, now, lc := env.Lobby, env.Now, r.lobbyCfg()
	ch := lb.Challenge
	// Whatever is wrong with the invitation, a stranger learns nothing.
	unknown := func(detail string) Outcome {
		return r.refuse(env, m, "invitation: "+detail,
			"Your mail could not be tied to an invitation for you. The referee acts only on a reply to its "+
				"invitation, sent from the address the invitation was sent to.",
			"Reply to the invitation mail itself (your mail program keeps the reference). Send \"help\" to "+r.cfg.Address+" for how to play.")
	}
	if ch == nil || ch.ID != m.Invite.ChallengeID {
		return unknown(fmt.Sprintf("unknown challenge %d", m.Invite.ChallengeID))
	}
	if !strings.EqualFold(ch.Secret, m.Invite.Secret) {
		return unknown(fmt.Sprintf("challenge %d: wrong secret", ch.ID))
	}
	isChallenger := addr.SameMailbox(m.From, ch.Challenger)
	if ch.Opponent != "" && !isChallenger && !addr.SameMailbox(m.From, ch.Opponent) {
		return unknown(fmt.Sprintf("challenge %d: %s's invitation used from %s", ch.ID, ch.Opponent, m.From))
	}
	if out, ok := r.lobbyAuth(m, env); !ok {
		return out
	}
	v, err := rules.Lookup(ch.Variant)
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("challenge %d: %v", ch.ID, err)}
	}
	no := func(detail, what, todo string) Outcome {
		return r.refuse(env, m, fmt.Sprintf("challenge %d: %s", ch.ID, detail), what, todo)
	}
	if ch.Status != ChallengeOpen {
		what := fmt.Sprintf("Challenge %d (%s, from %s) is no longer open: it was %s", ch.ID, v.Title(), ch.Challenger, ch.Status)
		if ch.Status == ChallengeAccepted && ch.GameID != 0 && (isChallenger || addr.SameMailbox(m.From, ch.ClosedBy)) {
			what += fmt.Sprintf(" and is game #%d", ch.GameID)
		}
		return no("not open: "+ch.Status, what+".", "Send \"open\" for the open challenges, or \"games\" for your games.")
	}
	if !now.Before(ch.Expires) {
		return no("expired", fmt.Sprintf("Challenge %d (%s, from %s) expired on %s.", ch.ID, v.Title(), ch.Challenger, dateText(ch.Expires)),
			"Send a challenge of your own: "+challengeSyntax+".")
	}
	word := cmd.Word
	if word == "" {
		what := fmt.Sprintf("Your reply to the invitation to %s was read as %q, which is neither \"accept\" nor \"decline\".", v.Title(), firstWords(m.Action, 6))
		if strings.TrimSpace(m.Action) == "" {
			what = fmt.Sprintf("Your reply to the invitation to %s had no answer on its first line.", v.Title())
		}
		return no("no answer: "+firstWords(m.Action, 6), what, "Reply \"accept\" or \"decline\" on the first line.")
	}
	if isChallenger {
		if word != "withdraw" {
			return no("own challenge", fmt.Sprintf("Challenge %d is your own: you cannot %s it.", ch.ID, word),
				"Wait for an answer, or reply \"withdraw\" to take it back.")
		}
		out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: withdrawn by %s", ch.ID, m.From),
			Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeWithdrawn, By: m.From}}}
		out.Mails = append(out.Mails, r.lobbyLetter(m, now, "withdrawn", fmt.Sprintf("Challenge %d withdrawn", ch.ID),
			wrap(fmt.Sprintf("Your challenge %d (%s) is withdrawn; nobody can accept it any more.", ch.ID, v.Title()))+"\n", "", ""))
		if ch.Opponent != "" {
			out.Mails = append(out.Mails, r.noticeMail(ch.Opponent, now, fmt.Sprintf("withdrawn-%d", ch.ID),
				fmt.Sprintf("%s withdrew the invitation to %s", ch.Challenger, v.Title()),
				fmt.Sprintf("%s withdrew their invitation to a game of %s: there is nothing to answer.", ch.Challenger, v.Title())))
		}
		return out
	}
	if ch.Opponent == "" && !lb.Allowed {
		return no("taker not allowed under --players "+lc.Players, fmt.Sprintf("You could not take challenge %d: %s", ch.ID, r.policyText(m.From)), r.policyTodo())
	}
	switch word {
	case "withdraw":
		return no("withdraw by the opponent", "Only the challenger can withdraw a challenge.", "Reply \"accept\" or \"decline\".")
	case "decline":
		if ch.Opponent == "" {
			return no("decline an open challenge", fmt.Sprintf("Challenge %d is open to everyone: there is nothing to decline.", ch.ID),
				"Just leave it; it expires on its own.")
		}
		out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: declined by %s", ch.ID, m.From),
			Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeDeclined, By: m.From}}}
		out.Mails = append(out.Mails,
			r.lobbyLetter(m, now, "declined", fmt.Sprintf("You declined the game of %s", v.Title()),
				wrap(fmt.Sprintf("You declined %s's invitation to a game of %s. %s is told, and cannot invite you again for a day.",
					ch.Challenger, v.Title(), ch.Challenger))+"\n", "", ""),
			r.noticeMail(ch.Challenger, now, fmt.Sprintf("declined-%d", ch.ID),
				fmt.Sprintf("%s declined your challenge to %s", ch.Opponent, v.Title()),
				fmt.Sprintf("%s declined your challenge %d to a game of %s. You can invite them again after %s.",
					ch.Opponent, ch.ID, v.Title(), dateText(now.Add(Day)))))
		return out
	}
	// accept
	if n := lb.Active[addr.Mailbox(m.From)]; n >= lc.MaxGames {
		return no("taker at max games", fmt.Sprintf("You already play %d games, the most the organiser allows at once.", n),
			"Finish a game first, then accept (the invitation is open until "+dateText(ch.Expires)+").")
	}
	if lb.Active[addr.Mailbox(ch.Challenger)] >= lc.MaxGames {
		return no("challenger at max games", ch.Challenger+" plays the most games the organiser allows at once right now.",
			"Accept again when one of their games is over (the invitation is open until "+dateText(ch.Expires)+").")
	}
	white, black := ch.Challenger, m.From
	if ch.ChallengerColor() == rules.Black {
		white, black = black, white
	}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: accepted by %s", ch.ID, m.From),
		Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeAccepted, By: m.From},
			Start: &GameStart{Challenge: *ch, White: white, Black: black}}}
}

// ChallengeStarted is the notice to the challenger that ch was accepted
// and is game g (the game's own opening mails follow).
func (r *Referee) ChallengeStarted(ch Challenge, g *Game, now time.Time) []Mail {
	c := rules.White
	if !addr.SameMailbox(g.Players[0].Address, ch.Challenger) {
		c = rules.Black
	}
	opp := g.Players[c.Other()].Address
	return []Mail{r.noticeMail(ch.Challenger, now, fmt.Sprintf("accepted-%d", ch.ID),
		fmt.Sprintf("%s accepted your challenge: game #%d", opp, g.ID),
		fmt.Sprintf("%s accepted your challenge %d: game #%d, %s (%s), has started, and you play %s. "+
			"The referee's first mail for the game follows; reply to it with your moves.",
			opp, ch.ID, g.ID, g.Variant.Title(), controlText(ch.TimeControl), c))}
}

// ExpireChallenge is the notice to the challenger that ch expired
// unanswered at now.
func (r *Referee) ExpireChallenge(ch Challenge, now time.Time) []Mail {
	title := ch.Variant
	if v, err := rules.Lookup(ch.Variant); err == nil {
		title = v.Title()
	}
	text := fmt.Sprintf("Nobody accepted your open challenge %d to a game of %s before it expired on %s. "+
		"Send the challenge again to open a new one.", ch.ID, title, dateText(ch.Expires))
	if ch.Opponent != "" {
		text = fmt.Sprintf("%s did not answer your challenge %d to a game of %s before it expired on %s. "+
			"You can invite them again after %s, or challenge someone else.", ch.Opponent, ch.ID, title, dateText(ch.Expires), dateText(now.Add(Day)))
	}
	return []Mail{r.noticeMail(ch.Challenger, now, fmt.Sprintf("expired-%d", ch.ID), fmt.Sprintf("Your challenge %d expired", ch.ID), text)}
}

// vacationAll stops the clocks of all the sender's timed games.
func (r *Referee) vacationAll(m *reader.Mail, cmd LobbyCommand, env Env) Outcome {
	now, lb := env.Now, env.Lobby
	n, err := 0, error(nil)
	if len(cmd.Args) == 1 {
		n, err = strconv.Atoi(cmd.Args[0])
	}
	used := env.VacationUsed
	if len(cmd.Args) != 1 || err != nil || n < 1 || n > VacationAllowance {
		return r.refuse(env, m, "vacation: bad days "+strings.Join(cmd.Args, " "),
			fmt.Sprintf("\"vacation\" needs a number of days from 1 to %d, e.g. \"vacation 5\"; you have %d days left this year.", VacationAllowance, max(VacationAllowance-used, 0)),
			"Send e.g. \"vacation 5\": it stops the clocks of all your timed games for 5 days.")
	}
	if used+n > VacationAllowance {
		return r.refuse(env, m, "vacation: allowance",
			fmt.Sprintf("You asked for %d vacation days, but only %d of your %d this year are left.", n, max(VacationAllowance-used, 0), VacationAllowance),
			"Ask for fewer days.")
	}
	var changed []*Game
	var mails []Mail
	var list strings.Builder
	for _, g := range lb.Games {
		if g.Status != StatusActive || g.State.Clock == nil {
			continue
		}
		color, ok := g.colorOf(m.From)
		if !ok {
			continue
		}
		pos, err := g.Position()
		if err != nil {
			return Outcome{Verdict: Ignored, Detail: err.Error()}
		}
		ng := g.clone()
		until := ng.applyVacation(color, n, pos, now)
		changed = append(changed, ng)
		headline := fmt.Sprintf("%s is on vacation until %s: their clock is stopped.", color, until.UTC().Format("Mon 2 Jan"))
		body := render.Mail{Headline: headline}
		mails = append(mails, r.boardMail(ng, pos, color.Other(), body, "", m, "vacation-all", fmt.Sprint(n), now))
		mails = append(mails, r.spectatorMails(ng, pos, headline, now)...)
		fmt.Fprintf(&list, "  #%-5d %s against %s\n", g.ID, g.Variant.Title(), g.Players[color.Other()].Address)
	}
	if len(changed) == 0 {
		return r.refuse(env, m, "vacation: no timed game",
			"You have no game with a clock running, so there is no clock to stop (and no vacation day was counted).",
			"Play on at your own pace.")
	}
	year := now.UTC().Year()
	text := wrap(fmt.Sprintf("Your clocks are stopped for %d days, until %s, in these games; each opponent is told:",
		n, now.Add(time.Duration(n)*Day).UTC().Format("Mon 2 Jan"))) + "\n\n" + list.String() + "\n" +
		wrap(fmt.Sprintf("You have used %d of your %d vacation days in %d.", used+n, VacationAllowance, year)) + "\n"
	mails = append([]Mail{r.lobbyLetter(m, now, "vacation", fmt.Sprintf("Vacation: %d days in %s", n, plural(len(changed), "game")), text, "", "")}, mails...)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("vacation: %s takes %d days in %d games", m.From, n, len(changed)), Mails: mails,
		Lobby: &LobbyChange{Games: changed, Vacation: &VacationUse{Address: addr.Mailbox(m.From), Year: year, Days: n}}}
}

// colorOf returns the colour of the player whose address is a's mailbox.
func (g *Game) colorOf(a string) (rules.Color, bool) {
	for c := range 2 {
		if addr.SameMailbox(g.Players[c].Address, a) {
			return rules.Color(c), true
		}
	}
	return 0, false
}

// applyVacation stops side c's clock for n days from now (or from the end
// of a vacation already running) and returns when it ends.
func (g *Game) applyVacation(c rules.Color, n int, pos rules.Position, now time.Time) time.Time {
	nc := g.State.Clock
	start := now
	if nc.Vacation[c].After(now) {
		start = nc.Vacation[c]
	}
	nc.Vacation[c] = start.Add(time.Duration(n) * Day)
	if pos.Turn() == c {
		nc.TurnStart = nc.TurnStart.Add(time.Duration(n) * Day) // the running clock stops for n days
	}
	return nc.Vacation[c]
}

// lobbyRecord sends a game's record to one of its players.
func (r *Referee) lobbyRecord(m *reader.Mail, cmd LobbyCommand, env Env) Outcome {
	g := env.Lobby.Named
	if cmd.GameID == 0 {
		return r.refuse(env, m, "record: no game id",
			fmt.Sprintf("%q names no game.", firstWords(m.Action, 6)),
			"Write \"record\" and the game's number, e.g. \"record 17\"; \"games\" lists yours.")
	}
	if g == nil || g.ID != cmd.GameID {
		g = nil
	}
	if g != nil {
		if _, ok := g.colorOf(m.From); !ok {
			g = nil
		}
	}
	if g == nil {
		// The same answer whether the game exists or not.
		return r.refuse(env, m, fmt.Sprintf("record: game #%d is not %s's", cmd.GameID, m.From),
			fmt.Sprintf("Game #%d is not one of your games: the referee sends a record only to the game's players, at their own address.", cmd.GameID),
			"Send \"games\" for the list of your games.")
	}
	rec, err := r.Record(g)
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	var b strings.Builder
	rec.WriteTo(&b)
	text := fmt.Sprintf("The record of game #%d, %s (%s v %s):\n\n%s\n", g.ID, g.Variant.Title(), g.Players[0].Address, g.Players[1].Address, b.String())
	if g.Commitment != "" && !g.SeedRevealed {
		text += wrap("The die seed stays secret until the game ends; the record shows it then.") + "\n"
	}
	return r.lobbyAnswer(m, env, "record", fmt.Sprintf("[%s #%d] Record", g.Variant.Name(), g.ID), text)
}

// openList lists the open challenges with their accept addresses.
func (r *Referee) openList(m *reader.Mail, env Env) Outcome {
	lb := env.Lobby
	if !lb.Allowed {
		return r.refuse(env, m, "open: sender not allowed", "The open challenges are shown only to players who may take them: "+r.policyText(m.From), r.policyTodo())
	}
	var b strings.Builder
	n := 0
	for _, ch := range lb.Open {
		if ch.Status != ChallengeOpen || !env.Now.Before(ch.Expires) {
			continue
		}
		title := ch.Variant
		if v, err := rules.Lookup(ch.Variant); err == nil {
			title = v.Title()
		}
		n++
		fmt.Fprintf(&b, "%s\n", wrap(fmt.Sprintf("Challenge %d: %s, %s, by %s (who plays %s), open until %s.", ch.ID, title,
			controlText(ch.TimeControl), ch.Challenger, colorWord(ch.Color), dateText(ch.Expires))))
		if addr.SameMailbox(ch.Challenger, m.From) {
			b.WriteString("  This is your own challenge.\n\n")
			continue
		}
		fmt.Fprintf(&b, "  To take it, send \"accept\" to\n    %s\n\n", addr.Plus(r.cfg.Address, ch.Invite().String()))
	}
	if n == 0 {
		b.WriteString(wrap("There are no open challenges right now. Open one yourself: send \"challenge VARIANT\" (e.g. \"challenge toto40 3d\"); "+
			"\"variants\" lists the games.") + "\n")
	} else {
		b.WriteString(wrap("The first player to accept a challenge gets the game.") + "\n")
	}
	return r.lobbyAnswer(m, env, "open", fmt.Sprintf("Open challenges (%d)", n), b.String())
}

// gamesText lists a player's games with a reply address for each: the
// player's own, which holds their secret (this mail goes only to them).
func (r *Referee) gamesText(from string, games []*Game, now time.Time) string {
	var active, others strings.Builder
	for _, g := range games {
		c, ok := g.colorOf(from)
		if !ok {
			continue
		}
		rep, err := g.Replay()
		if err != nil {
			continue
		}
		pos := rep.Final
		w := &others
		state := ""
		switch g.Status {
		case StatusActive:
			w = &active
			if pos.Turn() == c {
				state = fmt.Sprintf("move %d, your move", pos.MoveNumber())
			} else {
				state = fmt.Sprintf("move %d, %s's move", pos.MoveNumber(), g.Players[c.Other()].Address)
			}
			if cl := g.State.Clock; cl != nil {
				state += "; " + cl.text(pos.Turn(), now)
			}
		default:
			state = gameOverText(g)
		}
		fmt.Fprintf(w, "#%d  %s: you play %s against %s\n    %s\n    reply to: %s\n\n", g.ID, g.Variant.Title(), c,
			g.Players[c.Other()].Address, state, r.ReplyAddress(g, c))
	}
	var b strings.Builder
	if active.Len() == 0 {
		b.WriteString("You have no game running.\n\n")
	} else {
		b.WriteString("Your games in play:\n\n" + active.String())
	}
	if others.Len() > 0 {
		b.WriteString("Your recent games that are over:\n\n" + others.String())
	}
	b.WriteString(wrap("A mail to a game's reply address acts in that game (\"board\" shows it). The reply addresses are yours "+
		"alone: do not pass them on.") + "\n")
	return b.String()
}

func (r *Referee) variantsText() string {
	var b strings.Builder
	b.WriteString("The games offered here (use the short name in a challenge):\n\n")
	for _, v := range r.Offered() {
		fmt.Fprintf(&b, "%s (%s)\n%s\n\n", v.Name(), v.Title(), indent(wrap(v.Summary()), "    "))
	}
	b.WriteString(wrap("Send \"challenge NAME ADDRESS\" to invite someone, e.g. \"challenge toto40 bob@example.org 3d\".") + "\n")
	return b.String()
}

// LobbyCommands lists the commands outside a game, with what they do: the
// help mail and the README show the same list.
func LobbyCommands() [][2]string {
	return [][2]string{
		{"challenge VARIANT ADDRESS [TIME] [COLOUR]", "invite ADDRESS to a game; TIME as \"3d\" (days per move) or \"10d+1d\"; COLOUR random, white or black (yours)"},
		{"challenge VARIANT [TIME] [COLOUR]", "an open challenge: the first player to accept it gets the game"},
		{"open", "the open challenges, each with the address that accepts it"},
		{"accept / decline", "in a reply to an invitation"},
		{"withdraw", "in a reply to the referee's mail about your challenge: take it back"},
		{"games", "your games, with whose move it is and each game's reply address"},
		{"record GAME", "the record of one of your games, e.g. \"record 17\""},
		{"variants", "the games offered here"},
		{"vacation DAYS", "stop the clocks of all your timed games for DAYS days"},
		{"help", "this help"},
	}
}

func (r *Referee) lobbyHelp() string {
	var b strings.Builder
	b.WriteString(wrap("Games here are played by mail. Send a command on the FIRST line of a mail to "+r.cfg.Address+
		" (anything after it is ignored), or as a reply to any mail of the referee's.") + "\n\n")
	b.WriteString("To start a game, challenge someone:\n\n    challenge toto40 bob@example.org 3d\n\n")
	b.WriteString(wrap("The referee invites them; when they reply \"accept\", the game starts and you both get its first mail. "+
		"From then on, reply to the referee's latest mail for the game with your move.") + "\n\n")
	b.WriteString(wrap("To join a game, send \"open\" for the open challenges and accept one.") + "\n\n")
	b.WriteString("Commands:\n")
	for _, c := range LobbyCommands() {
		fmt.Fprintf(&b, "  %s\n%s\n", c[0], indent(wrap(c[1]), "      "))
	}
	b.WriteString("\n" + wrap("The games: "+r.offeredNames()+".") + "\n")
	b.WriteString(wrap(r.policySentence()) + "\n")
	return b.String()
}

func (r *Referee) policySentence() string {
	switch r.lobbyCfg().Players {
	case PlayersOpen:
		return "Anyone may challenge here."
	case PlayersList:
		return "Only the players on the organiser's list may challenge here; anyone may accept an invitation sent to them."
	}
	return "Players who have played here before, or whom the organiser added, may challenge; anyone may accept an invitation sent to them."
}

func (r *Referee) policyText(from string) string {
	switch r.lobbyCfg().Players {
	case PlayersList:
		return "the organiser lets only the players on their list start games by mail, and " + from + " is not on it."
	}
	return "the organiser lets only known players (who have played here before, or whom the organiser added) start games by mail, and " +
		from + " is not one of them yet."
}

func (r *Referee) policyTodo() string {
	return "Ask the organiser to add you, or ask a player you know here to challenge you: anyone may accept an invitation."
}

func (r *Referee) offers(v rules.Variant) bool {
	for _, o := range r.Offered() {
		if o.Name() == v.Name() {
			return true
		}
	}
	return false
}

func (r *Referee) offeredNames() string {
	var n []string
	for _, v := range r.Offered() {
		n = append(n, v.Name())
	}
	return strings.Join(n, ", ")
}

// lobbyAnswer answers a command that changes nothing.
func (r *Referee) lobbyAnswer(m *reader.Mail, env Env, kind, subject, text string) Outcome {
	return Outcome{Verdict: Answered, Detail: fmt.Sprintf("lobby: %s sent %q", m.From, kind),
		Mails: []Mail{r.lobbyLetter(m, env.Now, kind, subject, text, "", "")}}
}

// lobbyLetter writes a plain-text mail to the sender of m, and only to
// them: lobby answers never go to any other address.
func (r *Referee) lobbyLetter(m *reader.Mail, now time.Time, kind, subject, text, replyTo, salt string) Mail {
	l := Mail{Kind: "lobby", To: m.From, Subject: subject, ReplyTo: replyTo, InReplyTo: m.MessageID,
		MessageID: r.messageID("lobby", kind, m.MessageID, m.From, now.UTC().Format(time.RFC3339), salt),
		Text:      text + lobbyFooter(r.cfg.Address), Date: now}
	if m.MessageID != "" {
		l.References = []string{m.MessageID}
	}
	return l
}

// noticeMail writes a short plain-text notice to to (a challenger or an
// opponent, about their own challenge).
func (r *Referee) noticeMail(to string, now time.Time, kind, subject, text string) Mail {
	return Mail{Kind: "notice", To: to, Subject: subject, Text: wrap(text) + "\n" + lobbyFooter(r.cfg.Address),
		MessageID: r.messageID("notice", kind, to, now.UTC().Format(time.RFC3339)), Date: now}
}

func lobbyFooter(address string) string {
	return "\n-- \nThe referee at " + address + ". Send \"help\" to it for how to play.\n"
}

func controlText(tc string) string {
	if tc == "" {
		return "no time limit"
	}
	c, err := ParseTimeControl(tc)
	if err != nil {
		return tc
	}
	if c.PerMove > 0 {
		d := int(c.PerMove / Day)
		if d == 1 {
			return "1 day per move"
		}
		return fmt.Sprintf("%d days per move", d)
	}
	return fmt.Sprintf("%d days plus %d per move (%s)", int(c.Initial/Day), int(c.Increment/Day), tc)
}

func colorWord(c string) string {
	switch c {
	case "white":
		return "White"
	case "black":
		return "Black"
	}
	return "a colour drawn at random"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func dateText(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

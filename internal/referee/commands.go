package referee

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// The command table: every mail command is one row, and everything the
// referee does with a command's words is derived from the rows: reading
// the first line (parseLine), dispatch (act in a game, lobby outside),
// what the app loads before the core decides (Needs), the help mails, the
// footers of board mails and the README's command tables
// (TestREADMECommandTables). A new command is a row, its handler and its
// test.

// Where says in which mails a command is valid.
type Where uint8

const (
	// InGame is a reply to one of a game's mails, by one of its players.
	InGame Where = 1 << iota
	// Outside is a mail to the referee's plain address, or a reply to an
	// invitation: the lobby.
	Outside
	// Both is either.
	Both = InGame | Outside
)

// When says in which state of its game an in-game command acts.
type When uint8

const (
	// Anytime: whatever the game's state, also in a reply to an older mail.
	Anytime When = iota
	// Playing: in a running game, in a reply to its latest mail.
	Playing
	// Finished: after the game ended with a result.
	Finished
)

// Load says what the app loads, besides the game a mail names, before the
// core decides a command.
type Load uint8

const (
	// LoadLobby is a lobby view (Env.Lobby): the sender's standing with the
	// organiser and the counts the flood limits need.
	LoadLobby Load = 1 << iota
	// LoadGames adds the sender's games (Lobby.Games).
	LoadGames
	// LoadNamed adds the game the command's argument names (Lobby.Named).
	LoadNamed
	// LoadOpen adds the open challenges (Lobby.Open).
	LoadOpen
	// LoadChallenge adds what a new challenge needs: the sender's recent
	// challenges, the opponent's counts, a new id and secret.
	LoadChallenge
	// LoadRatings adds the ratings the command names (Lobby.Ratings: one
	// player's in every variant; Lobby.Top: one variant's table).
	LoadRatings
	// LoadEvents adds the open events and the sender's (Lobby.Events).
	LoadEvents
	// LoadEvent adds the event the command's first argument names
	// (Lobby.Event) and whether the sender may join it.
	LoadEvent
)

// Command is one row of the command table.
type Command struct {
	// Words are the command's word, then its aliases, lower case. A row
	// without Args matches the whole first line (an alias may be two words,
	// "take back"); a row with Args matches the line's first word. A row
	// without Words is the move: what a line in a game is when it is no
	// command.
	Words []string
	// Args are the arguments as the help writes them ("N", "GAME"); "" for
	// none.
	Args string
	// Where the command is valid, and When in a game.
	Where Where
	When  When
	// Only says in words where else the command is limited (a variant, a
	// clock); "" when it is not.
	Only string
	// Help is the command's line in the help mails, written in each
	// reader's language, and in the README (in English).
	Help lang.Text

	// shown: the in-game help lists the command in g (nil: always).
	shown func(g *Game, pos rules.Position) bool
	// footer: a board mail's footer offers the command (nil: never).
	footer func(f *footerView) bool
	// load is what the app loads first. In a game, a row with a load acts
	// only when the app gave a lobby view; otherwise the line is a move.
	load Load
	// match: the line is this command only when its arguments pass (nil:
	// any), so that one word may start several commands ("vacation from
	// ...", "vacation list", "vacation 5").
	match func(args []string) bool
	// inGameArgs: in a game, the line is this command only when its
	// arguments pass ("record 17" is the lobby's, "record" the game's).
	inGameArgs func(args []string) bool
	// opponent is the address a new challenge goes to, for the app to load
	// their counts (LoadChallenge).
	opponent func(args []string, g *Game, m *reader.Mail) string
	// outsideArgs: outside a game, the line is this command only when its
	// arguments pass ("withdraw" answers an invitation, "withdraw NAME"
	// leaves an event).
	outsideArgs func(args []string) bool
	// inReply: outside a game, the command answers the referee's mail
	// about a challenge (an invitation); it is no command on its own.
	inReply bool
	// noAuth: outside a game, the command acts without --require-auth's
	// check (it tells nothing about anyone), or checks it itself.
	noAuth bool
	// answer: outside a game, an answer that changes nothing, capped by
	// LobbyConfig.MaxAnswersPerHour.
	answer bool
	// needs adds what the command's own arguments name to what the app
	// loads (Needs): the ratings of "rating ADDRESS", the table of "top
	// VARIANT", the holder of the name "name NAME" asks for (nil: nothing).
	needs func(n *Needs, m *reader.Mail, args []string, variants *rules.Catalog)
	// rated: the organiser's rating limits apply to whoever sends it (a
	// challenge, a rematch, an acceptance), so the app loads the sender's
	// ratings when there are limits.
	rated bool
	// conditions: the command may come with conditional lines ("if ..."),
	// as a move may; any other command with them is refused.
	conditions bool
	// run carries the command out.
	run func(r *Referee, c *call) Outcome
}

// Name is the command as the help writes it: its word and its arguments.
func (c *Command) Name() string {
	if len(c.Words) == 0 {
		return "a move"
	}
	return strings.TrimSpace(c.Words[0] + " " + c.Args)
}

// call is one command being carried out.
type call struct {
	cmd  *Command
	args []string // the words after the command's word, lower case
	m    *reader.Mail
	env  Env
	// In a game: the game, the sender's colour and the position.
	g     *Game
	color rules.Color
	pos   rules.Position
	// cond are the conditional lines ("if ...") taken out of the message.
	cond []string
}

// footerView is what a board mail's footer is decided on.
type footerView struct {
	g     *Game
	pos   rules.Position
	c     rules.Color             // the mail's reader
	legal map[rules.MoveKind]bool // the kinds of the reader's legal moves, when on turn
}

func (f *footerView) active() bool { return f.g.Status == StatusActive }

// Commands is the command table, in the order the help and the README list
// it.
func Commands() []Command { return commandTable() }

// commandTable builds the table. It is a function, not a variable: the
// handlers and the help mails refer to each other.
func commandTable() []Command {
	active := func(f *footerView) bool { return f.active() }
	always := func(*footerView) bool { return true }
	legal := func(k rules.MoveKind) func(f *footerView) bool {
		return func(f *footerView) bool { return f.active() && f.legal[k] }
	}
	roller := func(g *Game, pos rules.Position) bool { _, ok := pos.(rules.Roller); return ok }
	move := func(r *Referee, c *call) Outcome {
		if len(c.cond) > 0 {
			return r.moveWithConditions(c)
		}
		return r.move(c.g, c.color, c.pos, c.m, strings.TrimSpace(c.m.Action), c.env)
	}
	noRoller := func(g *Game, pos rules.Position) bool { return !roller(g, pos) }
	return []Command{
		// In a game: the move (no words: a line that is no command).
		{Where: InGame, When: Playing,
			Help:       lang.M("plays it, if legal (\"e4\", \"Nf3\", \"Ng1-f3\", \"g1f3\", \"O-O\", \"N@b3\"); \"Nc3 draw\" also offers a draw; the reply says how it was read"),
			conditions: true, run: move},

		// In a game, in the order of the footers: what the body of a mail
		// may ask for, the die, the game's actions, then the answers.
		{Words: []string{"accept"}, Where: InGame, When: Playing,
			Help: lang.M("accept your opponent's takeback or draw offer"),
			footer: func(f *footerView) bool {
				o := f.c.Other()
				return f.active() && (f.g.State.TakebackBy != nil && *f.g.State.TakebackBy == o || f.g.DrawOffer != nil && f.g.DrawOffer.By == o)
			},
			run: (*Referee).accept},
		{Words: []string{"confirm", "confirm resign", "yes"}, Where: InGame, When: Playing,
			Help: lang.M("confirm your resignation"),
			footer: func(f *footerView) bool {
				return f.active() && f.g.State.ResignPending != nil && *f.g.State.ResignPending == f.c
			},
			run: (*Referee).confirm},
		{Words: []string{"reroll", "re-roll"}, Where: InGame, When: Playing, Only: "Chec Toe, when legal",
			Help: lang.M("replace the turn's first roll, once a turn"), shown: roller, footer: legal(rules.Reroll), conditions: true, run: move},
		{Words: []string{"roll", "apocalypse", "666"}, Where: InGame, When: Playing, Only: "Chec Toe, when legal",
			Help: lang.M("the apocalypse roll, after a double six"), shown: roller, footer: legal(rules.Roll), conditions: true, run: move},
		{Words: []string{"pass", "-", "--"}, Where: InGame, When: Playing, Only: "Chec Toe, when legal",
			Help: lang.M("end your turn without moving"), shown: roller, footer: legal(rules.Pass), conditions: true, run: move},
		{Words: []string{"draw", "draw?", "offer draw", "accept draw", "claim draw", "claim"}, Where: InGame, When: Playing,
			Help: lang.M("offer, accept or claim a draw; \"e4 draw\" moves and offers"), footer: active,
			run: func(r *Referee, c *call) Outcome {
				if strings.HasPrefix(strings.ToLower(strings.TrimSpace(c.m.Action)), "accept") {
					return r.acceptDraw(c) // "accept draw" accepts, and never offers one
				}
				return r.draw(c.g, c.color, c.pos, c.m, c.env)
			}},
		{Words: []string{"resign"}, Where: InGame, When: Playing,
			Help: lang.M("resign; \"confirm\" then resigns, anything else cancels"), footer: active, run: (*Referee).resign},
		{Words: []string{"takeback", "take back", "undo"}, Where: InGame, When: Playing,
			Help: lang.M("ask to take back the last move (never after a die roll)"),
			run:  func(r *Referee, c *call) Outcome { return r.takeback(c.g, c.color, c.pos, c.m, c.env) }},
		{Words: []string{"vacation"}, Args: "from DATE DAYS", Where: Both, When: Anytime,
			Help:  lang.M("book leave ahead, e.g. \"vacation from 2026-12-20 10\": the clocks of all your timed games stop on their own for DAYS days from DATE (in your time zone); at most %d booked, within the yearly allowance; opponents are told", MaxBookings),
			match: func(args []string) bool { return len(args) > 0 && args[0] == "from" },
			load:  LoadLobby | LoadGames, run: (*Referee).bookVacation},
		{Words: []string{"vacation"}, Args: "list", Where: Both, When: Anytime,
			Help:  lang.M("your booked and running vacations, and the days taken this year"),
			match: func(args []string) bool { return len(args) == 1 && args[0] == "list" },
			load:  LoadLobby, run: (*Referee).listBookings},
		{Words: []string{"vacation"}, Args: "cancel ID", Where: Both, When: Anytime,
			Help:  lang.M("cancel a booked vacation before it begins"),
			match: func(args []string) bool { return len(args) == 2 && args[0] == "cancel" }, // "vacation cancel" alone ends the running vacation (vacationAll)
			load:  LoadLobby, run: (*Referee).cancelBooking},
		{Words: []string{"vacation"}, Args: "N", Where: InGame, When: Playing, Only: "in a game with a clock",
			Help: lang.M("stop your clock for N days; %d days a year, all games", VacationAllowance),
			run: func(r *Referee, c *call) Outcome {
				return r.vacation(c.g, c.color, c.pos, c.m, append([]string{"vacation"}, c.args...), c.env)
			}},
		{Words: []string{"if"}, Args: "MOVE ANSWER ...", Where: InGame, When: Playing, Only: "not in Chec Toe",
			Help: lang.M("conditional moves: \"if Nc6 Bb5 if a6 Ba4\" answers Nc6 with Bb5, then a6 with Ba4, at once and unseen; " +
				"under your move or alone on your opponent's turn, one line each, at most 30 lines of 30 moves"),
			shown: noRoller, conditions: true, run: (*Referee).conditionsAlone},
		{Words: []string{"conditions", "conditional"}, Where: InGame, When: Anytime, Only: "not in Chec Toe",
			Help: lang.M("your standing conditional moves and their commitment"), shown: noRoller, run: (*Referee).showConditions},
		{Words: []string{"cancel"}, Where: InGame, When: Playing, Only: "not in Chec Toe",
			Help: lang.M("clear your conditional moves"), shown: noRoller, run: (*Referee).cancelConditions},
		{Words: []string{"board", "show", "status"}, Where: InGame, When: Anytime,
			Help: lang.M("the board again"), footer: always,
			run: func(r *Referee, c *call) Outcome {
				return r.answerIn(c.g, c.color, c.pos, c.m, c.env.Now, KindBoard, lang.M("Here is the board of your game."), lang.M("Board"), nil)
			}},
		{Words: []string{"moves", "legal", "list"}, Where: InGame, When: Anytime,
			Help: lang.M("your legal moves"), footer: active,
			run: func(r *Referee, c *call) Outcome {
				p := r.printer(c.g.Players[c.color].Language)
				return r.answerIn(c.g, c.color, c.pos, c.m, c.env.Now, KindMoves, lang.M("Here are the moves you can make now."), lang.M("Moves"), movesSection(p, c.pos, c.color))
			}},
		{Words: []string{"record", "pgn", "export"}, Where: InGame, When: Anytime,
			Help: lang.M("the record: dated moves, signed rolls, seed at the end"), footer: func(f *footerView) bool { return !f.active() },
			run: (*Referee).gameRecord},
		{Words: []string{"rematch"}, Where: InGame, When: Finished,
			Help:     lang.M("after the game: invite your opponent, colours swapped"),
			footer:   func(f *footerView) bool { return f.g.Status == StatusFinished },
			load:     LoadLobby | LoadChallenge,
			opponent: rematchOpponent, rated: true,
			run: (*Referee).rematch},
		{Words: []string{"observers"}, Where: InGame, When: Anytime,
			Help: lang.M("who observes this game"), run: (*Referee).observers},
		{Words: []string{"help", "?"}, Where: InGame, When: Anytime,
			Help: lang.M("this help"), footer: always,
			run: func(r *Referee, c *call) Outcome {
				p := r.printer(c.g.Players[c.color].Language)
				return r.answerIn(c.g, c.color, c.pos, c.m, c.env.Now, KindHelp, lang.M("Here is how to play by mail."), lang.M("Help"), r.helpSection(p, c.g, c.pos))
			}},

		// In a game and outside: the lobby's commands.
		{Words: []string{"challenge"}, Args: "VARIANT ADDRESS [TIME] [COLOUR] [private] [rated|casual]", Where: Both, When: Anytime,
			Help: lang.M("invite ADDRESS to a game; TIME is %s; COLOUR random (the default), "+
				"white or black is yours; \"private\": no one may observe the game; rated or casual (the organiser's default otherwise). "+
				"Without ADDRESS, an open challenge: the first player to accept it gets the game", timeSyntax()),
			load: LoadLobby | LoadChallenge, opponent: challengeOpponent, rated: true, run: (*Referee).challenge},
		{Words: []string{"open"}, Where: Both, When: Anytime,
			Help: lang.M("the open challenges, each with the address that accepts it"),
			load: LoadLobby | LoadOpen, answer: true, run: (*Referee).openList},
		{Words: []string{"games", "mygames"}, Where: Both, When: Anytime,
			Help: lang.M("your games, with whose move it is and a reply address for each (good for your next action; \"board\" to it always works)"),
			load: LoadLobby | LoadGames, answer: true,
			run: func(r *Referee, c *call) Outcome {
				p := r.senderPrinter(c.env)
				return r.lobbyAnswerIn(p, c.m, c.env, "games", p.Sprintf("Your games"), r.gamesText(p, c.m.From, c.env.Lobby.Games, c.env.Now))
			}},
		{Words: []string{"record", "pgn", "export"}, Args: "GAME", Where: Both, When: Anytime,
			Help: lang.M("the record of one of your games, e.g. \"record 17\" (with the die seed once a Chec Toe game is over)"),
			load: LoadLobby | LoadNamed, answer: true,
			inGameArgs: func(args []string) bool { return gameArg(args) != 0 },
			run:        (*Referee).lobbyRecord},
		{Words: []string{"observe", "watch", "follow"}, Args: "GAME|EVENT", Where: Both, When: Anytime,
			Help: lang.M("get the board mails of a running game as a spectator, e.g. \"observe 17\", or of every game of an event, " +
				"those to come too, e.g. \"observe autumn\" (if the organiser allows it; never a private game)"),
			load:       LoadLobby | LoadNamed | LoadEvent,
			inGameArgs: func(args []string) bool { return gameArg(args) != 0 },
			run:        (*Referee).observe},
		{Words: []string{"unobserve", "unwatch", "unfollow"}, Args: "GAME|EVENT", Where: Both, When: Anytime,
			Help:       lang.M("stop the spectator mails of a game or an event, e.g. \"unobserve 17\", \"unobserve autumn\""),
			load:       LoadLobby | LoadNamed | LoadEvent,
			inGameArgs: func(args []string) bool { return gameArg(args) != 0 },
			run:        (*Referee).unobserve},
		{Words: []string{"rating", "ratings"}, Args: "[ADDRESS] [VARIANT]", Where: Both, When: Anytime,
			Help: lang.M("a player's ratings (yours without ADDRESS), each variant or one: rating, deviation, games, wins/draws/losses, reliability"),
			load: LoadLobby | LoadRatings, answer: true, run: (*Referee).ratingAnswer,
			needs: func(n *Needs, m *reader.Mail, args []string, variants *rules.Catalog) {
				n.RatingsOf = readRatingArgs(args, m.From, variants).address
			}},
		{Words: []string{"top"}, Args: "VARIANT", Where: Both, When: Anytime,
			Help: lang.M("the table of a variant's established players (rating not provisional), best first"),
			load: LoadLobby | LoadRatings, answer: true, run: (*Referee).topAnswer,
			needs: func(n *Needs, m *reader.Mail, args []string, variants *rules.Catalog) {
				n.Top = readRatingArgs(args, m.From, variants).variant
			}},
		{Words: []string{"mail"}, Args: "digest HH:MM", Where: Both, When: Anytime,
			Help:  lang.M("one mail a day at HH:MM (your time zone) listing every game where it is your move, each with its board, clock and reply address, instead of a mail per move; a game's start and its end, and reminders, still come at once"),
			match: func(args []string) bool { return len(args) > 0 && args[0] == "digest" },
			run:   (*Referee).mailSetting},
		{Words: []string{"mail"}, Args: "each", Where: Both, When: Anytime,
			Help:  lang.M("a mail for every move again (the default)"),
			match: func(args []string) bool { return len(args) > 0 && args[0] != "digest" },
			run:   (*Referee).mailSetting},
		{Words: []string{"timezone", "time zone", "tz"}, Args: "ZONE", Where: Both, When: Anytime,
			Help: lang.M("show deadlines, reminders and dates in your mails in ZONE, e.g. \"timezone Europe/Berlin\" (UTC until set); for all your games"),
			run:  (*Referee).timezone},
		{Words: []string{"language", "lang"}, Args: "[CODE]", Where: Both, When: Anytime,
			Help: lang.M("write the referee's mails to you in your language, and read its piece letters in your moves, "+
				"e.g. \"language de\" for Sf3, Lb5, Dd1, Tfe1: %s (or the language's name); \"language\" alone shows yours. "+
				"English until set; for all your games", codesText{}),
			run: (*Referee).language},
		{Words: []string{"figurines", "figurine"}, Args: "[on|off]", Where: Both, When: Anytime,
			Help: lang.M("\"figurines on\" writes the moves in your mails with figurines (♘f3) instead of letters, \"figurines off\" with letters again; " +
				"\"figurines\" alone shows which. For all your games; records and PGN keep English letters"),
			run: (*Referee).figurinesCommand},
		{Words: []string{"name"}, Args: "[NAME]", Where: Both, When: Anytime,
			Help: lang.M("the name others see instead of your masked address (web pages, crosstables, opponents' and spectators' mails), "+
				"e.g. \"name Ann Smith\": %d to %d letters, digits, spaces, . - ' _; no address; one player per name here. "+
				"\"name\" alone shows yours, \"name clear\" removes it. The name your mail program sends is never taken on its own", MinNameLength, MaxNameLength),
			load: LoadLobby, run: (*Referee).setName,
			needs: func(n *Needs, m *reader.Mail, args []string, variants *rules.Catalog) {
				n.Name = nameNeed(m.Action, args)
			}},
		{Words: []string{"variants", "variant"}, Where: Both, When: Anytime,
			Help: lang.M("the games offered here, one paragraph each"),
			load: LoadLobby, answer: true, noAuth: true,
			run: func(r *Referee, c *call) Outcome {
				p := r.senderPrinter(c.env)
				return r.lobbyAnswerIn(p, c.m, c.env, "variants", p.Sprintf("The games you can play here"), r.variantsText(p))
			}},

		// Outside a game.
		{Words: []string{"accept", "yes", "accepted", "ok"}, Where: Outside,
			Help: lang.M("in a reply to an invitation: take it, and the game starts"), inReply: true, noAuth: true, rated: true, run: (*Referee).invitationAnswer},
		{Words: []string{"decline", "no", "declined", "refuse"}, Where: Outside,
			Help: lang.M("in a reply to an invitation: say no"), inReply: true, noAuth: true, run: (*Referee).invitationAnswer},
		{Words: []string{"withdraw", "cancel", "withdrawn"}, Where: Outside,
			Help: lang.M("in a reply to the referee's mail about your challenge: take it back"), inReply: true, noAuth: true, run: (*Referee).invitationAnswer,
			outsideArgs: func(args []string) bool { return len(args) == 0 }},
		{Words: []string{"stop", "unsubscribe"}, Where: Outside,
			Help:    lang.M("in a reply to an invitation: receive no more invitations through this referee, from anyone (\"start\" undoes it)"),
			inReply: true, noAuth: true, run: (*Referee).invitationAnswer},
		{Words: []string{"start"}, Where: Outside,
			Help: lang.M("receive invitations again after a \"stop\", sent from the same address; the referee asks that address to reply \"start\" to its answer, so that no one else can undo your stop"),
			load: LoadLobby, answer: true, run: (*Referee).startInvites},
		{Words: []string{"vacation"}, Args: "DAYS", Where: Outside,
			Help: lang.M("stop the clocks of all your timed games for DAYS days; every opponent is told; \"vacation cancel\" ends it, giving back the days not yet begun " +
				"(with no vacation running, it cancels your only booked one, or names each booking with its \"vacation cancel ID\")"),
			load: LoadLobby | LoadGames, run: (*Referee).vacationAll},
		{Words: []string{"events"}, Where: Both,
			Help: lang.M("the events you may join (variant, format, time, rated or casual, places left, rating limits) and your own"),
			load: LoadLobby | LoadEvents, answer: true, run: (*Referee).eventsList},
		{Words: []string{"join"}, Args: "EVENT", Where: Both,
			Help: lang.M("enter an open event; its games start when it is full or on its start date; an event may take only players within its rating limits in its game. " +
				"From an address that has not played here, the entry counts once you reply \"join EVENT\" to the referee's answer. " +
				"A team event: \"join EVENT TEAM\" asks to play for TEAM, and the organiser approves"),
			load: LoadLobby | LoadEvent, run: (*Referee).eventJoin,
			// An event may limit who joins by rating, and a join from an
			// address never seen waits for its proof.
			needs: func(n *Needs, m *reader.Mail, _ []string, _ *rules.Catalog) { n.RatingsOf, n.Seen = m.From, true }},
		{Words: []string{"leave"}, Args: "EVENT", Where: Both,
			Help: lang.M("leave an event you entered, before it starts"),
			load: LoadLobby | LoadEvent, run: (*Referee).eventLeave},
		{Words: []string{"ladder"}, Args: "EVENT ADDRESS|accept", Where: Both,
			Help: lang.M("on a ladder: challenge the player at ADDRESS, at most the ladder's reach above you; \"ladder EVENT accept\" takes the oldest challenge to you (not accepted in time, it is lost)"),
			load: LoadLobby | LoadEvent, run: (*Referee).ladderCommand},
		{Words: []string{"replace"}, Args: "EVENT OLD NEW", Where: Both,
			Help: lang.M("a team captain: NEW takes the board of OLD, a player of the team who has not made a move yet"),
			load: LoadLobby | LoadEvent, run: (*Referee).captainReplace},
		{Words: []string{"standings", "crosstable"}, Args: "EVENT", Where: Both,
			Help: lang.M("the crosstable of an event you play in (or may join)"),
			load: LoadLobby | LoadEvent, answer: true, run: (*Referee).eventStandings},
		{Words: []string{"withdraw"}, Args: "EVENT", Where: Outside,
			Help: lang.M("withdraw from an event under way; \"withdraw EVENT confirm\" then does it (ICCF's rule: with half your games " +
				"completed the unfinished ones are lost, otherwise all are annulled)"),
			load: LoadLobby | LoadEvent, run: (*Referee).eventWithdraw,
			outsideArgs: func(args []string) bool { return len(args) > 0 }},
		{Words: []string{"help", "?"}, Where: Outside,
			Help: lang.M("how to start and join games by mail, and these commands"),
			load: LoadLobby, answer: true, noAuth: true,
			run: func(r *Referee, c *call) Outcome {
				p := r.senderPrinter(c.env)
				return r.lobbyAnswerIn(p, c.m, c.env, "help", p.Sprintf("How to play by mail"), r.lobbyHelp(p))
			}},
	}
}

// parsed is a first line read against the table.
type parsed struct {
	cmd  *Command // nil outside a game when the line is no command
	args []string
}

// parseLine reads a mail's first line as a command valid where. In a game,
// lobby says whether the rows that need a lobby view may match (the app
// loaded one); a line that matches no row is the move.
func (r *Referee) parseLine(line string, where Where, lobby bool) parsed {
	text := strings.ToLower(strings.Trim(strings.TrimSpace(line), " .!"))
	fields := strings.Fields(text)
	for i := range r.cmds {
		c := &r.cmds[i]
		if c.Where&where == 0 || len(c.Words) == 0 {
			continue
		}
		if where == InGame && c.load != 0 && !lobby {
			continue
		}
		if where == InGame && c.Args == "" && c.load == 0 {
			// The game's own commands are the whole line: "board please"
			// is read as a move, and refused as one.
			if slices.Contains(c.Words, text) {
				return parsed{cmd: c}
			}
			continue
		}
		if len(fields) == 0 || !slices.Contains(c.Words, fields[0]) {
			continue
		}
		args := fields[1:]
		if c.match != nil && !c.match(args) {
			continue
		}
		if where == InGame && c.inGameArgs != nil && !c.inGameArgs(args) {
			continue
		}
		if where == Outside && c.outsideArgs != nil && !c.outsideArgs(args) {
			continue
		}
		return parsed{cmd: c, args: args}
	}
	if where == InGame {
		return parsed{cmd: r.moveRow()}
	}
	return parsed{}
}

// moveRow is the row of the move.
func (r *Referee) moveRow() *Command {
	for i := range r.cmds {
		if len(r.cmds[i].Words) == 0 {
			return &r.cmds[i]
		}
	}
	panic("referee: the command table has no move row")
}

// Needs is what the app loads for a mail before Handle decides it, besides
// the game the mail's token names.
type Needs struct {
	// Lobby: a lobby view (Env.Lobby) at all, with the sender's standing
	// and counts, and the challenge the mail's invitation token names.
	Lobby bool
	// Games: the sender's games (Lobby.Games).
	Games bool
	// Named is the game a "record GAME" names (Lobby.Named); 0 for none.
	Named int64
	// Open: the open challenges (Lobby.Open).
	Open bool
	// Challenge: what a new challenge needs (Lobby.Sent, NextChallengeID,
	// NewSecret).
	Challenge bool
	// Opponent is the canonical address a new challenge goes to, whose
	// active games and standing the app counts; "" for none.
	Opponent string
	// RatingsOf is the address whose ratings in every variant the app
	// loads (Lobby.Ratings); "" for none.
	RatingsOf string
	// Top is the variant whose ratings table the app loads (Lobby.Top);
	// "" for none.
	Top string
	// Events: the open events and the sender's (Lobby.Events).
	Events bool
	// Event is the name of the event the command names (Lobby.Event); ""
	// for none.
	Event string
	// Seen: whether the sender's address is known here (Lobby.Seen).
	Seen bool
	// Name is the key (NameKey) of the display name a "name" command asks
	// for, whose holder the app loads (Lobby.NameOwner); "" for none.
	Name string
}

// Needs says what the app must load for m before Handle decides it; g is
// the game m's token names (nil for none). Mail outside a game always gets
// a lobby view; in a game, only a command that needs one.
func (r *Referee) Needs(m *reader.Mail, g *Game) Needs {
	if m == nil {
		return Needs{}
	}
	where := InGame
	if m.Token == nil {
		where = Outside
	}
	p := r.parseLine(m.Action, where, true)
	n := Needs{Lobby: where == Outside}
	if p.cmd == nil {
		return n
	}
	if p.cmd.rated && r.lobbyCfg().ratingLimits() {
		// The organiser's rating limits apply to whoever challenges or
		// accepts: the core needs the sender's ratings.
		n.RatingsOf = m.From
	}
	for _, k := range loadKinds() {
		if p.cmd.load&k.bit != 0 {
			k.set(&n, p.args)
		}
	}
	if p.cmd.load&LoadChallenge != 0 && p.cmd.opponent != nil {
		n.Opponent = p.cmd.opponent(p.args, g, m)
	}
	if p.cmd.needs != nil {
		p.cmd.needs(&n, m, p.args, r.cfg.Variants)
	}
	return n
}

// loadKind is what one Load bit asks the app to load, as the field of
// Needs it sets from the command's arguments.
type loadKind struct {
	bit Load
	set func(n *Needs, args []string)
}

// loadKinds are the Load bits, each with the Needs it sets. LoadRatings
// names no data by itself: the rows that carry it say whose ratings, or
// which table, with their needs function.
func loadKinds() []loadKind {
	return []loadKind{
		{LoadLobby, func(n *Needs, _ []string) { n.Lobby = true }},
		{LoadGames, func(n *Needs, _ []string) { n.Lobby, n.Games = true, true }},
		{LoadNamed, func(n *Needs, args []string) { n.Lobby, n.Named = true, gameArg(args) }},
		{LoadOpen, func(n *Needs, _ []string) { n.Lobby, n.Open = true, true }},
		{LoadChallenge, func(n *Needs, _ []string) { n.Lobby, n.Challenge = true, true }},
		{LoadRatings, func(n *Needs, _ []string) { n.Lobby = true }},
		{LoadEvents, func(n *Needs, _ []string) { n.Lobby, n.Events = true, true }},
		{LoadEvent, func(n *Needs, args []string) {
			n.Lobby = true
			if len(args) > 0 {
				n.Event = args[0]
			}
		}},
	}
}

// gameArg is the game a lone argument names ("17", "#17"), or 0.
func gameArg(args []string) int64 {
	if len(args) != 1 {
		return 0
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

// challengeOpponent is the first address among a challenge's words.
func challengeOpponent(args []string, _ *Game, _ *reader.Mail) string {
	for _, a := range args {
		if strings.Contains(a, "@") {
			if ca, err := addr.Player(strings.Trim(a, "<>,;")); err == nil {
				return ca
			}
			return ""
		}
	}
	return ""
}

// footer lists the commands a board mail to c offers, in table order.
func (r *Referee) footer(g *Game, pos rules.Position, c rules.Color, legal []rules.Move) []string {
	f := &footerView{g: g, pos: pos, c: c, legal: map[rules.MoveKind]bool{}}
	for _, m := range legal {
		f.legal[m.Kind] = true
	}
	var out []string
	for i := range r.cmds {
		if cmd := &r.cmds[i]; cmd.Where&InGame != 0 && cmd.footer != nil && len(cmd.Words) > 0 && cmd.footer(f) {
			out = append(out, cmd.Words[0])
		}
	}
	return out
}

// helpRows are the in-game help's lines for g: the game's own commands,
// their help in p's language.
func (r *Referee) helpRows(p *lang.Printer, g *Game, pos rules.Position) [][2]string {
	var out [][2]string
	for i := range r.cmds {
		c := &r.cmds[i]
		if c.Where != InGame || len(c.Words) == 0 || (c.shown != nil && !c.shown(g, pos)) {
			continue
		}
		out = append(out, [2]string{c.Name(), c.Help.In(p)})
	}
	return out
}

// names lists the names of the rows valid where, quoted, that pass keep.
func (r *Referee) names(where Where, keep func(c *Command) bool) []string {
	var out []string
	for i := range r.cmds {
		c := &r.cmds[i]
		if c.Where&where != 0 && len(c.Words) > 0 && keep(c) {
			out = append(out, fmt.Sprintf("%q", c.Name()))
		}
	}
	return out
}

// CommandsMarkdown is the README's table of the commands valid where: the
// command, its other words, and its help line.
func CommandsMarkdown(where Where) string {
	en := lang.MustLoad().Printer(lang.English)
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder
	b.WriteString("| command | also | what it does |\n|---|---|---|\n")
	for _, c := range commandTable() {
		if c.Where&where == 0 {
			continue
		}
		name := "a move"
		var also []string
		if len(c.Words) > 0 {
			name = "`" + c.Name() + "`"
			for _, w := range c.Words[1:] {
				also = append(also, "`"+w+"`")
			}
		}
		var notes []string
		if c.Only != "" {
			notes = append(notes, c.Only)
		}
		if c.Where == Both && where == InGame {
			notes = append(notes, "also outside a game")
		} else if c.Where == Both {
			notes = append(notes, "also in a reply to a game's mail")
		}
		help := c.Help.In(en)
		if len(notes) > 0 {
			help += " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(name), cell(strings.Join(also, ", ")), cell(help))
	}
	return b.String()
}

package referee

// MailKind says what a mail the core decided to send is for. The outbox
// orders its mail by it (app.priorityOf), and the logs and tests read it.
// The values are stored with each outbox mail: never change one.
type MailKind string

// The kinds of mail.
const (
	// KindMove: a move's mail to the player now to act (the outbox sends
	// it first); KindConfirmation: the same move's mail to its mover.
	KindMove         MailKind = "move"
	KindConfirmation MailKind = "confirmation"
	// KindGameEnd: the mails of the action that ended a game (a mate, an
	// agreed or claimed draw, a resignation, a loss on time) to its two
	// players. A player who takes a daily digest gets them at once: the
	// digest lists only games still in play.
	KindGameEnd MailKind = "game-end"
	// KindBoard: the board sent again ("board"); also the Message-ID
	// nonce of a move's mails.
	KindBoard MailKind = "board"
	// KindDigest: the daily digest of a player who asked for one ("mail
	// digest HH:MM") instead of a mail per move.
	KindDigest MailKind = "digest"
	// KindOpening: a game's first mails, and the notice that a challenge
	// became that game.
	KindOpening MailKind = "opening"
	// KindAbort: the organiser ended the game.
	KindAbort MailKind = "abort"
	// KindReject: a player's action refused, with the board.
	KindReject MailKind = "reject"
	// KindReminder: the clock's reminder that time is running out.
	KindReminder MailKind = "reminder"
	// KindResignAsk: the request to confirm a resignation.
	KindResignAsk MailKind = "resign-ask"
	// KindVacationAll, KindVacationCancel: a player's vacation in all
	// their games began or was cancelled (to each opponent).
	KindVacationAll    MailKind = "vacation-all"
	KindVacationCancel MailKind = "vacation-cancel"
	// KindHelp, KindMoves, KindRecord: answers in a game that change
	// nothing (their word is the subject too).
	KindHelp   MailKind = "help"
	KindMoves  MailKind = "moves"
	KindRecord MailKind = "record"
	// KindRefusal: the one short answer to mail that could not be tied to
	// a game or a player, or was refused before reading it.
	KindRefusal MailKind = "refusal"
	// KindSpectator: a board mail to a spectator, with no reply address.
	KindSpectator MailKind = "spectator"
	// KindInvitation: a challenge's invitation to the invited player.
	KindInvitation MailKind = "invitation"
	// KindLobby: an answer to a command outside a game, to its sender.
	KindLobby MailKind = "lobby"
	// KindNotice: a notice about a player's own challenge or vacation.
	KindNotice MailKind = "notice"
	// KindEventStart: the mail that lists a player's games of an event
	// that starts, with each game's reply address (before their openings).
	KindEventStart MailKind = "event-start"
	// KindEventOpening: the opening mails of an event's games, sent after
	// the mails of games in play (hundreds come at once).
	KindEventOpening MailKind = "event-opening"
	// KindEventEnd: an event's final crosstable and winner.
	KindEventEnd MailKind = "event-end"
	// KindProof: the request to prove an address by replying (a join
	// from an address never seen, a "start" after a "stop"); until the
	// reply comes, its addressee is a stranger.
	KindProof MailKind = "proof"
)

// Package app ties the referee's parts together for the command line and the
// daemon: it opens the store, loads the signing key, and runs each game
// change — the core's decision, the new record and the mails it causes — in
// one SQLite transaction.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/lang"
	"referee/internal/letters"
	"referee/internal/mail/addr"
	"referee/internal/mail/dkimcheck"
	"referee/internal/mail/dkimsign"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
	"referee/internal/store"
)

// ErrInput is wrapped by errors caused by what the user gave (an unknown
// variant, a bad address, an unknown game): nothing was changed.
var ErrInput = errors.New("bad input")

const (
	keySetting    = "referee_ed25519_key"
	idSaltSetting = "message_id_salt"
)

// Options configure an App.
type Options struct {
	DB      string // database path
	Address string // the referee's own address ("" for read-only commands)
	// Catalog holds the mails' texts in each language; nil loads the
	// embedded one (see referee.Config).
	Catalog *lang.Catalog
	// RequireAuth, TrustedAuthServ and AuthMode: see referee.Config.
	RequireAuth     bool
	TrustedAuthServ string
	AuthMode        string
	// DNS is the DNS server (host:port) the referee's own DKIM
	// verification asks for keys and DMARC records, when AuthMode is
	// referee.AuthDKIM or referee.AuthEither; "" means the system's.
	DNS    string
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now    func() time.Time
	Limits mailreader.Limits
	// DKIM, when set, signs every outgoing mail as it is sent (Render).
	DKIM *dkimsign.Signer
	// MaxStrangerAnswers caps the answers to strangers (mail that could
	// not be tied to a game or a player) queued in any hour, across all
	// senders; 0 means DefaultMaxStrangerAnswers, NoStrangerAnswers none
	// at all, another negative value no cap.
	MaxStrangerAnswers int
	// Lobby is what players may do by mail outside games (see
	// referee.LobbyConfig); Lobby.Players is the policy on who may
	// challenge, and PlayerList the addresses of a --players file.
	Lobby      referee.LobbyConfig
	PlayerList []string
	// PositionCache is how many games' positions are kept between mails
	// (positions.go); 0 means DefaultPositionCache.
	PositionCache int
	// VariantsFile is a file of the organiser's own variants in
	// variants.ini syntax (README, "Your own variant"), or "". Its
	// variants join those the database keeps from earlier files.
	VariantsFile string
	// PictureBytes is how many bytes of board pictures the mail writer
	// keeps, to put a picture it drew before into another mail without
	// drawing it again (render.Painter.Keep); 0 means DefaultPictureBytes,
	// a negative number keeps none.
	PictureBytes int
}

// DefaultPictureBytes keeps about a hundred chess pictures (20-25 KB
// each): the opening positions an event's games pass through, and the two
// pictures of every reply to a burst of the same first move
// (docs/performance.md, "A burst").
const DefaultPictureBytes = 2 << 20

// App is an open referee: its store, key and core.
type App struct {
	st      *store.Store
	key     dice.Key
	ref     *referee.Referee
	letters letters.Writer
	opts    Options
	log     *slog.Logger
	limits  mailreader.Limits
	dkim    *dkimcheck.Checker // nil unless AuthMode asks for the referee's own DKIM verification
	// positions are the positions after the records of the games decided
	// most recently (positions.go).
	positions *positions
}

// Open opens (creating if needed) the database and the referee's key.
func Open(ctx context.Context, o Options) (*App, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Address == "" {
		o.Address = "referee@example.test"
	}
	if o.Limits == (mailreader.Limits{}) {
		o.Limits = mailreader.DefaultLimits()
	}
	st, err := store.Open(ctx, o.DB)
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", o.DB, err)
	}
	key, err := loadKey(ctx, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	salt, err := loadIDSalt(ctx, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	var checker *dkimcheck.Checker
	if o.RequireAuth && (o.AuthMode == referee.AuthDKIM || o.AuthMode == referee.AuthEither) {
		res, err := dkimcheck.NewResolver(o.DNS)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("%w: --dns: %v", ErrInput, err)
		}
		checker = dkimcheck.New(res)
	}
	variants, err := loadCatalog(ctx, st, o.VariantsFile)
	if err != nil {
		st.Close()
		return nil, err
	}
	ref := referee.New(referee.Config{Catalog: o.Catalog, Address: o.Address, Key: key, IDSalt: salt, RequireAuth: o.RequireAuth, TrustedAuthServ: o.TrustedAuthServ,
		AuthMode: o.AuthMode, Lobby: o.Lobby, Variants: variants})
	return &App{st: st, key: key, ref: ref, letters: letters.Writer{From: ref.Config().Address, Name: ref.Config().Name, Pictures: &render.Painter{Keep: pictureBytes(o.PictureBytes)}}, opts: o, log: o.Logger, limits: o.Limits,
		dkim: checker, positions: newPositions(o.PositionCache)}, nil
}

// pictureBytes is Options.PictureBytes with its default.
func pictureBytes(n int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return DefaultPictureBytes
	}
	return n
}

func loadKey(ctx context.Context, st *store.Store) (dice.Key, error) {
	raw, err := st.Setting(ctx, keySetting)
	if err == nil && len(raw) > 0 {
		k, err := dice.KeyFromBytes(raw)
		if err != nil {
			return dice.Key{}, fmt.Errorf("the referee key stored in the database is damaged: %w", err)
		}
		return k, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return dice.Key{}, fmt.Errorf("reading the referee key: %w", err)
	}
	k, err := dice.NewKey()
	if err != nil {
		return dice.Key{}, fmt.Errorf("creating the referee key: %w", err)
	}
	err = st.Update(ctx, func(tx *store.Tx) error {
		// Another process may have created it meanwhile: keep the first.
		if raw, err := tx.Setting(keySetting); err == nil && len(raw) > 0 {
			if k2, err := dice.KeyFromBytes(raw); err == nil {
				k = k2
				return nil
			}
		}
		if err := tx.SetSetting(keySetting, k.Bytes()); err != nil {
			return err
		}
		return tx.Audit(nil, "key-created", "referee Ed25519 key "+k.PublicHex())
	})
	if err != nil {
		return dice.Key{}, fmt.Errorf("saving the referee key: %w", err)
	}
	return k, nil
}

// loadIDSalt returns the database's Message-ID salt, creating it on first
// use: 16 random bytes, hex.
func loadIDSalt(ctx context.Context, st *store.Store) (string, error) {
	raw, err := st.Setting(ctx, idSaltSetting)
	if err == nil && len(raw) > 0 {
		return string(raw), nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("reading the Message-ID salt: %w", err)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("drawing the Message-ID salt: %w", err)
	}
	salt := hex.EncodeToString(b[:])
	err = st.Update(ctx, func(tx *store.Tx) error {
		// Another process may have created it meanwhile: keep the first.
		if raw, err := tx.Setting(idSaltSetting); err == nil && len(raw) > 0 {
			salt = string(raw)
			return nil
		}
		return tx.SetSetting(idSaltSetting, []byte(salt))
	})
	if err != nil {
		return "", fmt.Errorf("saving the Message-ID salt: %w", err)
	}
	return salt, nil
}

// Close closes the store.
func (a *App) Close() error { return a.st.Close() }

// Store returns the store (for the daemon's outbox sender).
func (a *App) Store() *store.Store { return a.st }

// Referee returns the core.
func (a *App) Referee() *referee.Referee { return a.ref }

// PublicKeyHex is the referee's public key.
func (a *App) PublicKeyHex() string { return a.key.PublicHex() }

// NewGame starts a game of variant between white and black, queues the
// opening mails and returns the game.
func (a *App) NewGame(ctx context.Context, variant, white, black string, seed *dice.Seed) (*referee.Game, error) {
	return a.NewTimedGame(ctx, variant, white, black, seed, "")
}

// NewTimedGame is NewGame with a time control, written as
// timecontrol.Parse reads it ("" for none).
func (a *App) NewTimedGame(ctx context.Context, variant, white, black string, seed *dice.Seed, timeControl string) (*referee.Game, error) {
	return a.NewGameWith(ctx, variant, white, black, seed, timeControl, GameOptions{Rated: a.opts.Lobby.Rated})
}

// GameOptions are a new game's settings beyond its variant, players and
// clock.
type GameOptions struct {
	// Rated: the result counts for both players' ratings; else the game
	// is casual.
	Rated bool
	// WatchDelay: spectators see the game this many moves late (0-7);
	// Private: they do not see it at all.
	WatchDelay int
	Private    bool
}

// NewRatedGame is NewTimedGame with the game rated or casual as given
// instead of the organiser's default (Lobby.Rated).
func (a *App) NewRatedGame(ctx context.Context, variant, white, black string, seed *dice.Seed, timeControl string, rated bool) (*referee.Game, error) {
	return a.NewGameWith(ctx, variant, white, black, seed, timeControl, GameOptions{Rated: rated})
}

// NewGameWith is NewTimedGame with the game's settings given.
func (a *App) NewGameWith(ctx context.Context, variant, white, black string, seed *dice.Seed, timeControl string, o GameOptions) (*referee.Game, error) {
	if err := referee.CheckWatchDelay(o.WatchDelay); err != nil {
		return nil, fmt.Errorf("%w: --watch-delay: %v", ErrInput, err)
	}
	g, err := a.prepareGame(variant, white, black, seed, timeControl)
	if err != nil {
		return nil, err
	}
	g.Rated = o.Rated
	g.State.WatchDelay, g.State.Private = o.WatchDelay, o.Private
	err = a.st.Update(ctx, func(tx *store.Tx) error { return a.startGame(tx, g) })
	if err != nil {
		return nil, fmt.Errorf("creating the game: %w", err)
	}
	return g, nil
}

// prepareGame checks a new game's settings and draws its secrets and seed.
func (a *App) prepareGame(variant, white, black string, seed *dice.Seed, timeControl string) (*referee.Game, error) {
	v, err := a.Variants().Lookup(variant)
	if err != nil {
		if variant == "" {
			return nil, fmt.Errorf("%w: no --variant given; choose one of %s", ErrInput, a.names())
		}
		return nil, fmt.Errorf("%w: %v", ErrInput, err)
	}
	w, err := cleanAddress("--white", white)
	if err != nil {
		return nil, err
	}
	b, err := cleanAddress("--black", black)
	if err != nil {
		return nil, err
	}
	if w == b {
		return nil, fmt.Errorf("%w: White and Black have the same address %s; each player needs their own address", ErrInput, w)
	}
	if addr.SameMailbox(w, b) {
		return nil, fmt.Errorf("%w: White (%s) and Black (%s) are the same mailbox (a plus-address reaches the same inbox); each player needs their own mailbox", ErrInput, w, b)
	}
	for _, p := range []struct{ flag, a string }{{"--white", w}, {"--black", b}} {
		if addr.SameMailbox(p.a, a.opts.Address) {
			return nil, fmt.Errorf("%w: %s %s is the referee's own mailbox (%s); a game needs the players' own addresses", ErrInput, p.flag, p.a, a.opts.Address)
		}
	}
	s := dice.Seed{}
	if seed != nil {
		s = *seed
	} else if s, err = dice.NewSeed(); err != nil {
		return nil, fmt.Errorf("drawing the die seed: %w", err)
	}
	start := v.Start()
	g := &referee.Game{
		Variant: v, Status: referee.StatusActive, Start: start.String(), Seed: s, Created: a.opts.Now().UTC(),
		Players: [2]referee.Player{{Address: w, Secret: newSecret()}, {Address: b, Secret: newSecret()}},
	}
	if _, ok := start.(rules.Roller); ok {
		g.Commitment = s.Commitment()
	}
	if timeControl != "" {
		c, err := referee.ParseTimeControl(timeControl)
		if err != nil {
			return nil, fmt.Errorf("%w: --time: %v", ErrInput, err)
		}
		c.TurnStart = g.Created
		g.State.Clock = c
	}
	return g, nil
}

// startGame stores a prepared game in tx, and queues its opening mails; g
// becomes the started game (with its id and first rolls).
func (a *App) startGame(tx *store.Tx, g *referee.Game) error {
	mails, err := a.createGame(tx, g)
	if err != nil {
		return err
	}
	return a.queue(tx, g.ID, mails)
}

// createGame stores g as a new game and returns its opening mails for the
// caller to queue (a challenge's acceptance queues its notice first).
func (a *App) createGame(tx *store.Tx, g *referee.Game) ([]referee.Mail, error) {
	id, err := tx.CreateGame(toStoreGame(g))
	if err != nil {
		return nil, err
	}
	g.ID = id
	return a.opening(tx, g, false)
}

// openGame queues the opening mails of a game stored in tx (with its id)
// and rolls its first rolls; g becomes the started game. An event stores
// all its games first, then lists them to each player, then opens them;
// its openings are bulk: queued after the mails of moves in other games
// (referee.KindEventOpening), so that an event's hundreds of openings
// never hold up a game in play.
func (a *App) openGame(tx *store.Tx, g *referee.Game, bulk bool) error {
	mails, err := a.opening(tx, g, bulk)
	if err != nil {
		return err
	}
	return a.queue(tx, g.ID, mails)
}

// opening starts a game stored in tx: its players' ratings, its first
// rolls, the started game recorded and audited. It returns the opening
// mails; g becomes the started game.
func (a *App) opening(tx *store.Tx, g *referee.Game, bulk bool) ([]referee.Mail, error) {
	if err := loadRatings(tx, g); err != nil {
		return nil, err
	}
	if err := loadLanguages(tx, g); err != nil {
		return nil, err
	}
	ng, rolls, mails, err := a.ref.Start(g, a.opts.Now().UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	if bulk {
		for i := range mails {
			mails[i].Kind = referee.KindEventOpening
		}
	}
	if err := a.saveRolls(tx, ng.ID, rolls); err != nil {
		return nil, err
	}
	if err := tx.UpdateGame(toStoreGame(ng)); err != nil {
		return nil, err
	}
	*g = *ng
	return mails, tx.Audit(&g.ID, "created", fmt.Sprintf("%s: %s (White) v %s (Black)", g.Variant.Name(), g.Players[0].Address, g.Players[1].Address))
}

// Variants are the variants this referee hosts: its own and the file
// variants its database keeps.
func (a *App) Variants() *rules.Catalog { return a.ref.Config().Variants }

func (a *App) names() string {
	var out []string
	for _, v := range a.Variants().Variants() {
		out = append(out, v.Name())
	}
	return strings.Join(out, ", ")
}

func cleanAddress(flag, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("%w: %s is missing; give the player's mail address, e.g. %s alice@example.org", ErrInput, flag, flag)
	}
	a, err := addr.Player(s)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrInput, flag, err)
	}
	return a, nil
}

// newSecret returns 10 random lower-case base32 characters (50 bits).
func newSecret() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never happens on Linux
	}
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b[:])
}

// noGame is the error of an admin command that names no game.
func noGame(id int64) error {
	return fmt.Errorf("%w: there is no game #%d; \"referee list\" shows the games", ErrInput, id)
}

// adminGameTx loads game id in tx for an admin command: an id that names
// no game is the organiser's input error (noGame).
func (a *App) adminGameTx(tx *store.Tx, id int64) (*referee.Game, error) {
	g, err := a.gameTx(tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noGame(id)
	}
	return g, err
}

// Game loads one game.
func (a *App) Game(ctx context.Context, id int64) (*referee.Game, error) {
	sg, err := a.st.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, noGame(id)
	}
	if err != nil {
		return nil, fmt.Errorf("loading game #%d: %w", id, err)
	}
	return a.load(ctx, sg)
}

// Games lists games with the given status ("" for all).
func (a *App) Games(ctx context.Context, status string) ([]*referee.Game, error) {
	sgs, err := a.st.Games(ctx, status)
	if err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	out := make([]*referee.Game, 0, len(sgs))
	for i := range sgs {
		g, err := a.load(ctx, &sgs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// GameSummary is one line of the list of games: what the games table says,
// without the moves.
type GameSummary struct {
	ID             int64
	Variant        string
	Status, Result string
	Ply            int
	Players        [2]string
}

// GameList lists at most limit games with status ("" for all; limit <= 0:
// all), newest first, from the games table alone (no replay, no moves), and
// how many games have that status.
func (a *App) GameList(ctx context.Context, status string, limit int) ([]GameSummary, int, error) {
	sgs, total, err := a.st.GamePage(ctx, status, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("listing games: %w", err)
	}
	out := make([]GameSummary, len(sgs))
	for i, g := range sgs {
		out[i] = GameSummary{ID: g.ID, Variant: g.Variant, Status: g.Status, Result: g.Result, Ply: g.Ply,
			Players: [2]string{g.Players[0].Address, g.Players[1].Address}}
	}
	return out, total, nil
}

// Show describes one game for the organiser.
func (a *App) Show(ctx context.Context, id int64) (string, error) {
	g, err := a.Game(ctx, id)
	if err != nil {
		return "", err
	}
	rep, err := g.Replay()
	if err != nil {
		return "", err
	}
	pos := rep.Final
	var b strings.Builder
	fmt.Fprintf(&b, "Game #%d: %s (%s)\n", g.ID, g.Variant.Title(), g.Variant.Name())
	fmt.Fprintf(&b, "White: %s\nBlack: %s\n", g.Players[0].Address, g.Players[1].Address)
	if g.Event != nil {
		fmt.Fprintf(&b, "Event: %s\n", g.Event.Place())
	}
	fmt.Fprintf(&b, "Time control: %s\n", g.TimeControlText())
	if clock, err := g.ClockText(a.opts.Now()); err != nil {
		return "", err
	} else if clock != "" {
		fmt.Fprintf(&b, "Clock: %s\n", clock)
	}
	switch {
	case !g.Rated:
		b.WriteString("Casual: the result changes no rating\n")
	case g.Ratings[0] != nil && g.Ratings[1] != nil:
		fmt.Fprintf(&b, "Rated: White %s, Black %s before the game", g.Ratings[0].Before, g.Ratings[1].Before)
		if g.Ratings[0].After != nil && g.Ratings[1].After != nil {
			fmt.Fprintf(&b, "; after it White %s, Black %s", *g.Ratings[0].After, *g.Ratings[1].After)
		}
		b.WriteString("\n")
	}
	switch g.Status {
	case referee.StatusActive:
		fmt.Fprintf(&b, "Status: active, move %d, %s to play", pos.MoveNumber(), pos.Turn())
		if r, ok := pos.(rules.Roller); ok {
			fmt.Fprintf(&b, ", die %s", r.DieState())
		}
		b.WriteString("\n")
		if g.DrawOffer != nil {
			fmt.Fprintf(&b, "Draw offered by %s\n", g.DrawOffer.By)
		}
	case referee.StatusFinished:
		fmt.Fprintf(&b, "Status: finished, %s (%s)\n", g.Result, g.ResultReason)
	case referee.StatusAborted:
		fmt.Fprintf(&b, "Status: aborted (%s)\n", g.AbortReason)
	}
	fmt.Fprintf(&b, "Position: %s\n\n", pos.String())
	b.WriteString(render.Text(pos, rules.White))
	b.WriteString("\n")
	b.WriteString("Moves: ")
	if len(g.Actions) == 0 {
		b.WriteString("none yet")
	}
	for i, act := range g.Actions {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(act.SAN + " ")
	}
	b.WriteString("\n")
	if g.Commitment != "" {
		fmt.Fprintf(&b, "Die: %d rolls; commitment %s\n", len(g.Rolls), g.Commitment)
	}
	unanswered, err := a.st.Unanswered(ctx, id)
	if err != nil {
		return "", err
	}
	if len(unanswered) > 0 {
		fmt.Fprintf(&b, "\nUnanswered mail (%d):\n", len(unanswered))
		for _, m := range unanswered {
			fmt.Fprintf(&b, "  %s  from %s  %q: %s\n", m.Received.Format("2006-01-02 15:04"), m.From, m.Subject, m.Detail)
		}
	}
	return b.String(), nil
}

// Abort ends a game without a result and queues the notices.
func (a *App) Abort(ctx context.Context, id int64, reason string) error {
	if !utf8.ValidString(reason) {
		return fmt.Errorf("%w: the --reason %q is not valid UTF-8 text (it is mailed to both players); write it again in UTF-8", ErrInput, strings.ToValidUTF8(reason, "\uFFFD"))
	}
	if strings.ContainsFunc(reason, func(r rune) bool { return r < ' ' && r != '\t' }) {
		return fmt.Errorf("%w: the --reason %q holds control characters (a line break, an escape); write it as one line of text", ErrInput, reason)
	}
	return a.st.Update(ctx, func(tx *store.Tx) error {
		g, err := a.adminGameTx(tx, id)
		if err != nil {
			return err
		}
		if g.Status != referee.StatusActive {
			return fmt.Errorf("%w: game #%d is %s already; only active games can be aborted", ErrInput, id, g.Status)
		}
		ng, mails, err := a.ref.Abort(g, reason, a.opts.Now().UTC().Truncate(time.Second))
		if err != nil {
			return err
		}
		if err := tx.UpdateGame(toStoreGame(ng)); err != nil {
			return err
		}
		if err := a.queue(tx, id, mails); err != nil {
			return err
		}
		if err := tx.Audit(&id, "aborted", reason); err != nil {
			return err
		}
		end, err := a.endOfGame(tx, ng)
		if err != nil {
			return err
		}
		return end.follow(a, tx) // an event's game: the event may be over (event.go)
	})
}

// Export returns the game's record.
func (a *App) Export(ctx context.Context, id int64) (*game.Record, error) {
	g, err := a.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	return a.ref.Record(g)
}

// ReplayRecord re-validates a record move by move; variants are the
// variants it may name beyond the referee's own (nil: none).
func ReplayRecord(rec *game.Record, variants *rules.Catalog) (*game.Replay, error) {
	name := rec.Tag("Variant")
	if name == "" {
		name = rules.Orthodox
	}
	v, err := variants.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("the record's Variant tag: %w", err)
	}
	start := v.Start()
	if fen := rec.Tag("FEN"); fen != "" {
		if start, err = v.ParsePosition(fen); err != nil {
			return nil, fmt.Errorf("the record's FEN tag: %w", err)
		}
	}
	rep, err := game.Play(start, rec.Moves, rec.Values(), true)
	if err != nil {
		var me *game.MoveError
		if errors.As(err, &me) {
			return rep, fmt.Errorf("action %d (%q) is not legal: %v", me.Index, me.Input, me.Err)
		}
		return rep, err
	}
	return rep, nil
}

// VerifyRecord checks the die rolls of a record against its tags.
func VerifyRecord(rec *game.Record) (dice.Report, error) {
	var tags [][2]string
	for _, t := range rec.Tags {
		tags = append(tags, [2]string{t.Name, t.Value})
	}
	conds, err := referee.CondSetsFromTags(tags)
	if err != nil {
		return dice.Report{}, err
	}
	r := dice.Record{GameID: rec.Tag("GameId"), Commitment: rec.Tag("DieCommitment")}
	if r.Commitment == "" && len(conds) > 0 {
		return withConditions(dice.Report{GameID: r.GameID}, conds), nil
	}
	if r.GameID == "" || r.Commitment == "" {
		return dice.Report{}, fmt.Errorf("the record has no GameId or DieCommitment tag, nor CondTree tags: it is not a game with a die or conditional moves, or the tags were removed")
	}
	pub, err := hex.DecodeString(rec.Tag("RefereeKey"))
	if err != nil || len(pub) != 32 {
		return dice.Report{}, fmt.Errorf("the record's RefereeKey tag %q is not a 32-byte hex Ed25519 key", rec.Tag("RefereeKey"))
	}
	r.PublicKey = pub
	if s := rec.Tag("DieSeed"); s != "" {
		seed, err := dice.ParseSeed(s)
		if err != nil {
			return dice.Report{}, fmt.Errorf("the record's DieSeed tag: %w", err)
		}
		r.Seed = &seed
	}
	for _, x := range rec.Rolls {
		sig, err := hex.DecodeString(x.Sig)
		if err != nil {
			sig = []byte(x.Sig) // let Verify report it as a bad signature
		}
		r.Rolls = append(r.Rolls, dice.RolledValue{N: x.N, Value: x.Value, Sig: sig})
	}
	return withConditions(dice.Verify(r), conds), nil
}

// Verify checks a stored game's rolls.
func (a *App) Verify(ctx context.Context, id int64) (dice.Report, error) {
	g, err := a.Game(ctx, id)
	if err != nil {
		return dice.Report{}, err
	}
	conds := referee.RevealedConditions(g)
	if g.Commitment == "" && len(conds) == 0 {
		return dice.Report{}, fmt.Errorf("%w: game #%d (%s) has no die and no revealed conditional moves; there is nothing to verify", ErrInput, id, g.Variant.Name())
	}
	if g.Commitment == "" {
		return withConditions(dice.Report{GameID: fmt.Sprint(g.ID)}, conds), nil
	}
	rec := dice.Record{GameID: fmt.Sprint(g.ID), Commitment: g.Commitment, PublicKey: a.key.Public()}
	// The seed predicts every future roll: while the game runs, not even the
	// organiser's terminal shows it (a screen or a log can leak). Until then
	// only the signatures of the rolls so far are checked.
	if g.SeedRevealed {
		seed := g.Seed
		rec.Seed = &seed
	}
	for _, r := range g.Rolls {
		rec.Rolls = append(rec.Rolls, dice.RolledValue{N: r.N, Value: r.Value, Sig: r.Sig})
	}
	return withConditions(dice.Verify(rec), conds), nil
}

// withConditions adds the check of the revealed conditional trees
// (docs/conditional.md) to a report.
func withConditions(rep dice.Report, sets []referee.CondSet) dice.Report {
	ok, bad := referee.VerifyConditions(sets)
	rep.Checked = append(rep.Checked, ok...)
	rep.Problems = append(rep.Problems, bad...)
	return rep
}

// checkDKIM runs the referee's own DKIM verification of raw when AuthMode
// asks for it (nil otherwise, and for a mail without a usable From). It
// asks DNS, so it runs before, never inside, a database transaction.
func (a *App) checkDKIM(ctx context.Context, raw []byte, m *mailreader.Mail) *dkimcheck.Verdict {
	if a.dkim == nil || m == nil || m.From == "" {
		return nil
	}
	v := a.dkim.Check(ctx, raw, addr.Domain(m.From))
	return &v
}

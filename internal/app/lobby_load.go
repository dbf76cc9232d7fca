package app

import (
	"errors"
	"fmt"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/addr"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// The lobby view's loaders (issue 40): what the core may need to answer a
// mail outside a game, or a lobby command in a reply to a game mail, is
// named by referee.Needs (from the command table's rows); each field of
// Needs has one loader here, run in the order of the table, and a test
// checks that every field has exactly one.

// loading is one lobby view being loaded.
type loading struct {
	tx    *store.Tx
	m     *mailreader.Mail
	mb    string // the sender's mailbox
	needs referee.Needs
	now   time.Time
	lb    *referee.Lobby
	// observing: lb.Observing is loaded.
	observing bool
}

// loader loads one kind of data (field names the field of referee.Needs
// that asks for it) when wanted says the needs ask for it.
type loader struct {
	field  string
	wanted func(referee.Needs) bool
	load   func(a *App, l *loading) error
}

// loaders is the table, in the order the loads run: the event before the
// sender's being seen (an event's list counts as seen).
func loaders() []loader {
	return []loader{
		{"Lobby", func(n referee.Needs) bool { return true }, (*App).loadStanding},
		{"Games", func(n referee.Needs) bool { return n.Games }, (*App).loadGames},
		{"Named", func(n referee.Needs) bool { return n.Named != 0 }, (*App).loadNamed},
		{"Open", func(n referee.Needs) bool { return n.Open }, (*App).loadOpen},
		{"Challenge", func(n referee.Needs) bool { return n.Challenge }, (*App).loadChallenge},
		{"Opponent", func(n referee.Needs) bool { return n.Challenge && n.Opponent != "" }, (*App).loadOpponent},
		{"RatingsOf", func(n referee.Needs) bool { return n.RatingsOf != "" }, (*App).loadRatings},
		{"Name", func(n referee.Needs) bool { return n.Name != "" }, (*App).loadNameOwner},
		{"Top", func(n referee.Needs) bool { return n.Top != "" }, (*App).loadTop},
		{"Events", func(n referee.Needs) bool { return n.Events }, (*App).loadEvents},
		{"Event", func(n referee.Needs) bool { return n.Event != "" }, (*App).loadEvent},
		{"Seen", func(n referee.Needs) bool { return n.Seen }, (*App).loadSeen},
	}
}

// lobbyView loads what needs asks for m, with the challenge the mail's
// invitation names.
func (a *App) lobbyView(tx *store.Tx, m *mailreader.Mail, needs referee.Needs, now time.Time) (*referee.Lobby, error) {
	l := &loading{tx: tx, m: m, mb: addr.Mailbox(m.From), needs: needs, now: now, lb: &referee.Lobby{Active: map[string]int{}}}
	for _, ld := range loaders() {
		if ld.wanted(needs) {
			if err := ld.load(a, l); err != nil {
				return nil, err
			}
		}
	}
	if err := a.loadInvitation(l); err != nil {
		return nil, err
	}
	return l.lb, nil
}

// loadStanding is every lobby view's part: the sender's standing with the
// organiser and the counts the flood limits need.
func (a *App) loadStanding(l *loading) error {
	lb, tx, mb := l.lb, l.tx, l.mb
	var err error
	if lb.Allowed, err = a.allowed(tx, mb); err != nil {
		return err
	}
	if lb.Active[mb], err = tx.ActiveGamesOf(mb); err != nil {
		return err
	}
	if lb.MayObserve, err = a.mayObserve(tx, mb); err != nil {
		return err
	}
	if lb.RecentAnswers, err = tx.LobbyAnswers(l.m.From, l.now.Add(-time.Hour)); err != nil {
		return err
	}
	lb.SenderStoppedSince, lb.SenderStopped, err = tx.StoppedSince(mb)
	return err
}

// loadObserving loads the games the sender observes, once.
func (l *loading) loadObserving() error {
	if l.observing {
		return nil
	}
	var err error
	l.lb.Observing, err = l.tx.Observing(l.m.From)
	l.observing = err == nil
	return err
}

// loadGames: the sender's games, the active ones and the latest others.
func (a *App) loadGames(l *loading) error {
	ids, err := l.tx.GamesOf(l.mb, recentGames)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := a.gameTx(l.tx, id)
		if err != nil {
			return err
		}
		l.lb.Games = append(l.lb.Games, g)
	}
	return nil
}

// loadNamed: the game a "record GAME" or "observe GAME" names, and how
// the sender watches it.
func (a *App) loadNamed(l *loading) error {
	if err := l.loadObserving(); err != nil {
		return err
	}
	var err error
	if l.lb.NamedVia, err = l.tx.WatchedVia(l.needs.Named, l.m.From); err != nil {
		return err
	}
	g, err := a.gameTx(l.tx, l.needs.Named)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	default:
		l.lb.Named = g
	}
	return nil
}

// loadOpen: the open challenges.
func (a *App) loadOpen(l *loading) error {
	open, err := l.tx.OpenChallenges(l.now, 50)
	if err != nil {
		return err
	}
	for i := range open {
		l.lb.Open = append(l.lb.Open, fromStoreChallenge(&open[i]))
	}
	return nil
}

// loadChallenge: what a new challenge needs: the sender's challenges of
// the last day, a new id, secret and colour seed.
func (a *App) loadChallenge(l *loading) error {
	sent, err := l.tx.ChallengesBy(l.mb, l.now.Add(-referee.Day))
	if err != nil {
		return err
	}
	for i := range sent {
		l.lb.Sent = append(l.lb.Sent, fromStoreChallenge(&sent[i]))
	}
	if l.lb.NextChallengeID, err = l.tx.NextChallengeID(); err != nil {
		return err
	}
	l.lb.NewSecret = newSecret()
	seed, err := dice.NewSeed()
	if err != nil {
		return fmt.Errorf("drawing the colour seed of a challenge: %w", err)
	}
	l.lb.NewSeed = seed.Hex()
	return nil
}

// loadOpponent: the challenged player's counts and standing.
func (a *App) loadOpponent(l *loading) error {
	lb, tx := l.lb, l.tx
	omb := addr.Mailbox(l.needs.Opponent)
	var err error
	if lb.Active[omb], err = tx.ActiveGamesOf(omb); err != nil {
		return err
	}
	kp, found, err := tx.KnownPlayer(omb)
	if err != nil {
		return err
	}
	lb.OpponentBarred = found && !kp.Allowed
	if lb.OpponentStopped, err = tx.IsStopped(omb); err != nil {
		return err
	}
	if lb.OpponentZone, err = tx.TimeZone(omb); err != nil {
		return err
	}
	if err := l.loadLanguage(omb); err != nil { // the invitation is in the opponent's language
		return err
	}
	lb.OpponentInvites, lb.OpponentInvitesSince, err = tx.InvitationsTo(omb, l.now.Add(-referee.Day))
	return err
}

// loadRatings: one player's ratings in every variant.
func (a *App) loadRatings(l *loading) error {
	var err error
	l.lb.Ratings, err = l.tx.RatingsOf(l.needs.RatingsOf)
	return err
}

// loadNameOwner: who holds the display name "name NAME" asks for.
func (a *App) loadNameOwner(l *loading) error {
	var err error
	l.lb.NameOwner, err = l.tx.NameOwner(l.needs.Name)
	return err
}

// loadTop: one variant's ratings table.
func (a *App) loadTop(l *loading) error {
	var err error
	l.lb.Top, err = l.tx.Ratings(l.needs.Top)
	return err
}

// loadEvents: the open events and the sender's (eventsView, event.go).
func (a *App) loadEvents(l *loading) error { return a.eventsView(l.tx, l.lb, l.mb) }

// loadEvent: the event the command names, whether the sender may join it
// and whether they observe it (eventView, event.go).
func (a *App) loadEvent(l *loading) error {
	if err := l.loadObserving(); err != nil {
		return err
	}
	if err := a.eventView(l.tx, l.lb, l.mb, l.needs.Event); err != nil {
		return err
	}
	if l.lb.Event == nil {
		return nil
	}
	var err error
	l.lb.EventObserved, err = a.eventObserved(l.tx, l.lb.Event.Name, l.mb)
	return err
}

// loadSeen: whether the sender's address is known here (seen.go).
func (a *App) loadSeen(l *loading) error {
	var err error
	l.lb.Seen, err = a.seen(l.tx, l.mb, l.lb)
	return err
}

// loadInvitation: the challenge the mail's invitation token names, with
// its challenger's count of games.
func (a *App) loadInvitation(l *loading) error {
	if l.m.Invite == nil {
		return nil
	}
	ch, err := l.tx.Challenge(l.m.Invite.ChallengeID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	c := fromStoreChallenge(ch)
	l.lb.Challenge = &c
	cmb := addr.Mailbox(c.Challenger)
	if l.lb.Active[cmb], err = l.tx.ActiveGamesOf(cmb); err != nil {
		return err
	}
	// A decline or a withdrawal is told to the other player of the
	// challenge, in their language.
	for _, a := range []string{c.Challenger, c.Opponent} {
		if a == "" {
			continue
		}
		if err := l.loadLanguage(addr.Mailbox(a)); err != nil {
			return err
		}
	}
	return nil
}

// loadLanguage adds the language of the player at the mailbox mb to the
// view's Languages (the lobby's mails to a player other than the sender
// are in that player's language).
func (l *loading) loadLanguage(mb string) error {
	code, err := l.tx.Language(mb)
	if err != nil {
		return err
	}
	if l.lb.Languages == nil {
		l.lb.Languages = map[string]string{}
	}
	l.lb.Languages[mb] = code
	return nil
}

package app

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

// The lobby's appliers (issue 40): what a lobby command changed comes
// back from the core as a referee.LobbyChange; each of its fields has one
// applier here, run in the order of the table in the transaction of the
// inbound mail, and a test checks that every field has exactly one.

// applying is one lobby change being stored.
type applying struct {
	tx  *store.Tx
	out *referee.Outcome // its Mails grow with what follows from the change
	lc  *referee.LobbyChange
	now time.Time
	// gameID is the game an acceptance started (0 for none): the
	// challenge is closed with it.
	gameID int64
}

// applier stores one kind of change (field names the field of
// referee.LobbyChange) when has says the change carries it.
type applier struct {
	field string
	has   func(*referee.LobbyChange) bool
	apply func(a *App, c *applying) error
}

// appliers is the table, in the order the changes are stored: a game an
// acceptance starts before the challenge is closed with its id.
func appliers() []applier {
	return []applier{
		{"NewChallenge", func(lc *referee.LobbyChange) bool { return lc.NewChallenge != nil }, (*App).applyNewChallenge},
		{"Vacation", func(lc *referee.LobbyChange) bool { return lc.Vacation != nil }, (*App).applyVacation},
		{"TimeZone", func(lc *referee.LobbyChange) bool { return lc.TimeZone != nil }, (*App).applyTimeZone},
		{"Language", func(lc *referee.LobbyChange) bool { return lc.Language != nil }, (*App).applyLanguage},
		{"LanguageHint", func(lc *referee.LobbyChange) bool { return lc.LanguageHint != nil }, (*App).applyLanguageHint},
		{"Name", func(lc *referee.LobbyChange) bool { return lc.Name != nil }, (*App).applyName},
		{"Digest", func(lc *referee.LobbyChange) bool { return lc.Digest != nil }, (*App).applyDigest},
		{"Book", func(lc *referee.LobbyChange) bool { return lc.Book != nil }, (*App).applyBook},
		{"Cancel", func(lc *referee.LobbyChange) bool { return lc.Cancel != nil }, (*App).applyCancel},
		{"Games", func(lc *referee.LobbyChange) bool { return len(lc.Games) > 0 }, (*App).applyGames},
		{"Stop", func(lc *referee.LobbyChange) bool { return lc.Stop != nil }, (*App).applyStop},
		{"Event", func(lc *referee.LobbyChange) bool { return lc.Event != nil }, (*App).applyEventChange},
		{"Start", func(lc *referee.LobbyChange) bool { return lc.Start != nil }, (*App).applyStart},
		{"Watch", func(lc *referee.LobbyChange) bool { return lc.Watch != nil }, (*App).applyWatch},
		{"WatchEvent", func(lc *referee.LobbyChange) bool { return lc.WatchEvent != nil }, (*App).applyWatchEvent},
		{"Close", func(lc *referee.LobbyChange) bool { return lc.Close != nil }, (*App).applyClose},
		{"Ladder", func(lc *referee.LobbyChange) bool { return lc.Ladder != nil }, (*App).applyLadder}, // ladder.go
		{"Replace", func(lc *referee.LobbyChange) bool { return lc.Replace != nil }, (*App).applyReplace},
	}
}

// applyLobby stores what a lobby command changed, in the transaction of
// the inbound mail; it returns the id of a game an acceptance started (0
// for none) and adds the mails that follow from it to out.
func (a *App) applyLobby(tx *store.Tx, out *referee.Outcome, now time.Time) (int64, error) {
	c := &applying{tx: tx, out: out, lc: out.Lobby, now: now}
	for _, ap := range appliers() {
		if ap.has(c.lc) {
			if err := ap.apply(a, c); err != nil {
				return 0, err
			}
		}
	}
	return c.gameID, nil
}

func (a *App) applyNewChallenge(c *applying) error {
	if err := c.tx.CreateChallenge(toStoreChallenge(c.lc.NewChallenge)); err != nil {
		return err
	}
	return c.tx.Audit(nil, "challenge", c.out.Detail)
}

func (a *App) applyVacation(c *applying) error {
	v := c.lc.Vacation
	return c.tx.AddVacationDays(v.Address, v.Year, v.Days)
}

// applyTimeZone stores the zone and moves the player's deadlines, which
// their days off follow.
func (a *App) applyTimeZone(c *applying) error {
	z := c.lc.TimeZone
	if err := c.tx.SetTimeZone(z.Address, z.Zone, c.now); err != nil {
		return err
	}
	return a.refreshDeadlines(c.tx, z.Address)
}

func (a *App) applyLanguage(c *applying) error {
	l := c.lc.Language
	return c.tx.SetLanguage(l.Address, l.Code, c.now)
}

func (a *App) applyLanguageHint(c *applying) error {
	h := c.lc.LanguageHint
	return c.tx.SetLanguageHint(h.Address, strings.Join(h.Codes, " "), c.now)
}

func (a *App) applyName(c *applying) error {
	n := c.lc.Name
	return c.tx.SetDisplayName(n.Address, n.Name, n.Key, c.now)
}

func (a *App) applyDigest(c *applying) error {
	d := c.lc.Digest
	return c.tx.SetDigest(d.Address, d.At, c.now)
}

func (a *App) applyBook(c *applying) error {
	b := c.lc.Book
	if _, err := c.tx.BookVacation(b.Address, b.Start, b.Days, c.now); err != nil {
		return err
	}
	return c.tx.Audit(nil, "vacation-booked", c.out.Detail)
}

func (a *App) applyCancel(c *applying) error {
	b := c.lc.Cancel
	if err := c.tx.CancelBooking(b.Address, b.ID, c.now); err != nil {
		return err
	}
	return c.tx.Audit(nil, "vacation-cancelled", c.out.Detail)
}

// applyGames stores the games a vacation changed.
func (a *App) applyGames(c *applying) error {
	for _, g := range c.lc.Games {
		if err := c.tx.UpdateGame(toStoreGame(g)); err != nil {
			return err
		}
		if err := c.tx.Audit(&g.ID, "vacation", c.out.Detail); err != nil {
			return err
		}
	}
	return nil
}

func (a *App) applyStop(c *applying) error {
	st := c.lc.Stop
	if err := c.tx.SetStopped(st.Address, st.Stop, st.ChallengeID, c.now); err != nil {
		return err
	}
	return c.tx.Audit(nil, "stop", c.out.Detail)
}

// applyEventChange stores a join, leave or withdrawal (applyEvent,
// event.go).
func (a *App) applyEventChange(c *applying) error {
	return a.applyEvent(c.tx, c.lc.Event, &c.out.Mails)
}

// applyStart starts the game of an accepted challenge.
func (a *App) applyStart(c *applying) error {
	st := c.lc.Start
	ch := st.Challenge
	g, err := a.prepareGame(ch.Variant, st.White, st.Black, nil, ch.TimeControl)
	if err != nil {
		return fmt.Errorf("starting the game of challenge %d: %w", ch.ID, err)
	}
	g.State.Private = ch.Private
	g.Rated = ch.Rated
	opening, err := a.createGame(c.tx, g)
	if err != nil {
		return fmt.Errorf("starting the game of challenge %d: %w", ch.ID, err)
	}
	c.gameID = g.ID
	// The notice says "the referee's first mail for the game follows":
	// it is queued before the game's opening mails, as one of them.
	c.out.Mails = append(c.out.Mails, a.ref.ChallengeStarted(ch, g, c.now, opening)...)
	c.out.Detail += fmt.Sprintf(": game #%d", g.ID)
	return nil
}

// applyReplace hands a team player's games to the captain's substitute
// (replaceTx, event.go).
func (a *App) applyReplace(c *applying) error {
	r := c.lc.Replace
	se, e, err := a.eventByName(c.tx, r.Event)
	if err != nil {
		return err
	}
	_, err = a.replaceTx(c.tx, se, e, r.Seat, r.New)
	return err
}

func (a *App) applyWatch(c *applying) error {
	w := c.lc.Watch
	var err error
	if w.Stop {
		_, err = c.tx.Unwatch(w.GameID, w.Address)
	} else {
		err = c.tx.Watch(w.GameID, w.Address)
	}
	if err != nil {
		return fmt.Errorf("game #%d: recording the spectator %s: %w", w.GameID, w.Address, err)
	}
	return c.tx.Audit(&w.GameID, "observe", c.out.Detail)
}

// applyWatchEvent stores "observe EVENT" or "unobserve EVENT"
// (observe_event.go).
func (a *App) applyWatchEvent(c *applying) error {
	return a.applyEventWatch(c.tx, c.lc.WatchEvent, c.out.Detail)
}

// applyClose closes a challenge, with the game its acceptance started.
func (a *App) applyClose(c *applying) error {
	cl := c.lc.Close
	if err := c.tx.CloseChallenge(cl.ID, string(cl.Status), cl.By, c.gameID, c.now); err != nil {
		return err
	}
	return c.tx.Audit(nil, "challenge", c.out.Detail)
}

package app

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/event"
	"referee/internal/game"
	"referee/internal/mail/addr"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
	"referee/internal/timecontrol"
)

// Events (issue 29): the organiser's commands (CreateEvent, StartEvent,
// WithdrawFromEvent, ReplaceInEvent, CloseEvent), the players' changes by
// mail (applyEvent), and what follows a game's end (afterEventGame). An
// event's games start through startGame, the path of "referee new" and of
// an accepted challenge; the store ties each to its event, round and
// board.

// EventSpec is a new event as the organiser describes it.
type EventSpec struct {
	Name        string
	Variant     string
	Format      string // rr, drr or ko
	TimeControl string
	Players     []string   // --players: a fixed list
	Open        int        // --open N: the event starts when N have joined
	Starts      *time.Time // --starts: it starts then, at the tick
	// Entry is who may join by mail: "known" (the default), "open", or
	// the addresses of a file (EntryList).
	Entry     string
	EntryList []string
	TieBreak  string // comma-separated chain; "" for wins,sb,direct
	Decider   string // knockouts: match, black or lot
	// Casual makes the event's games casual; an event is rated unless
	// created --casual.
	Casual bool
	// Limits bound who may join by mail (--min-rating, --max-rating,
	// --min-reliability), by rating and reliability in the event's
	// variant; the organiser's --players and substitutes are not limited.
	Limits referee.RatingLimits
	// Seed fixes the seed of the lots (tests); nil draws one.
	Seed *dice.Seed
	// DivisionSize, Promote and Seasons are a league's (--division-size,
	// --promote, --seasons): at most so many players a division (0: 8),
	// so many moving up and down each season (0: 2), so many seasons (0:
	// until the organiser closes it).
	DivisionSize, Promote, Seasons int
	// Teams are a team event's teams (--team NAME=a,b,c), each player on a
	// board: by rating in the event's variant (the best first, the list's
	// order between equal ratings), or in the list's order with
	// FixedBoards.
	Teams       []Team
	FixedBoards bool
	// SeedByRating orders --players by rating in the event's variant, the
	// best first (the list's order between equal ratings), instead of the
	// list's order: a knockout's seeds, a league's first divisions, a
	// ladder's first order. A team event orders its boards by rating
	// anyway (unless FixedBoards).
	SeedByRating bool
	// Ladder are a ladder's settings (--reach, --games, --max-games,
	// --accept-days, --idle-weeks); 0 takes the default.
	Ladder referee.LadderSettings
}

// Team is one team of a team event: its name and players.
type Team struct {
	Name    string
	Players []string
}

// checkSize checks an event's number of players (a fixed list) or places
// (--open N) against its format.
func checkSize(f referee.Format, places, players int) error {
	n, what := places, fmt.Sprintf("--open %d", places)
	if places == 0 {
		n, what = players, fmt.Sprintf("--players lists %d players", players)
	}
	if (places != 0 || players != 0) && !f.Fits(n) {
		return fmt.Errorf("%w: %s; %s", ErrInput, what, f.SizeText())
	}
	return nil
}

var eventNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// CreateEvent records a new event; with --players and no --open it takes
// no entries by mail and waits for "event start" (or its start date).
func (a *App) CreateEvent(ctx context.Context, s EventSpec) (*referee.Event, error) {
	name := strings.ToLower(strings.TrimSpace(s.Name))
	if !eventNameRE.MatchString(name) {
		return nil, fmt.Errorf("%w: event name %q: use one word of up to 32 letters, digits, - or _ (players write it in mails: \"join %s\")",
			ErrInput, s.Name, "autumn26")
	}
	v, err := a.Variants().Lookup(s.Variant)
	if err != nil {
		return nil, fmt.Errorf("%w: --variant %q: %v; choose one of %s", ErrInput, s.Variant, err, a.names())
	}
	format, err := referee.LookupFormat(s.Format)
	if err != nil {
		return nil, fmt.Errorf("%w: --format %q: use %s", ErrInput, s.Format, referee.FormatList())
	}
	if s.TimeControl != "" {
		if _, err := timecontrol.Parse(s.TimeControl); err != nil {
			return nil, fmt.Errorf("%w: --time: %v", ErrInput, err)
		}
	}
	chain := event.DefaultChain()
	if s.TieBreak != "" {
		if chain, err = event.ParseChain(strings.Split(s.TieBreak, ",")); err != nil {
			return nil, fmt.Errorf("%w: --tiebreak: %v", ErrInput, err)
		}
	}
	decider := referee.Decider(s.Decider)
	switch decider {
	case "":
		decider = referee.DeciderMatch
	case referee.DeciderMatch, referee.DeciderBlack, referee.DeciderLot:
	default:
		return nil, fmt.Errorf("%w: --decider %q: use match (another two games), black (more wins with Black) or lot (drawn by the die witness)", ErrInput, s.Decider)
	}
	if err := checkTeams(format, &s); err != nil {
		return nil, err
	}
	var players []string
	for _, p := range s.Players {
		w, err := cleanAddress("--players", p)
		if err != nil {
			return nil, err
		}
		for _, q := range players {
			if addr.SameMailbox(q, w) {
				return nil, fmt.Errorf("%w: --players names %s twice (or two plus-addresses of one mailbox); each player plays once", ErrInput, w)
			}
		}
		if addr.SameMailbox(w, a.opts.Address) {
			return nil, fmt.Errorf("%w: --players: %s is the referee's own mailbox; list the players' addresses", ErrInput, w)
		}
		players = append(players, addr.Mailbox(w))
	}
	places := s.Open
	if err := checkSize(format, places, len(players)); err != nil {
		return nil, err
	}
	switch {
	case places == 0 && len(players) == 0:
		return nil, fmt.Errorf("%w: an event needs --players a,b,c (a fixed list) or --open N (players join by mail until N entered)", ErrInput)
	case places != 0 && len(players) >= places:
		return nil, fmt.Errorf("%w: --players lists %d players for --open %d: leave a place to join, or drop --open", ErrInput, len(players), places)
	}
	if err := checkLimits(s.Limits, places); err != nil {
		return nil, err
	}
	if err := checkLeague(format, s); err != nil {
		return nil, err
	}
	settings, err := ladderSettings(format, s.Ladder)
	if err != nil {
		return nil, err
	}
	entry := s.Entry
	switch referee.Players(entry) {
	case "":
		entry = string(referee.PlayersKnown)
	case referee.PlayersKnown, referee.PlayersOpen:
	case referee.PlayersList:
		var list []string
		for _, p := range s.EntryList {
			list = append(list, addr.Mailbox(p))
		}
		entry = "list:" + strings.Join(list, ",")
	default:
		return nil, fmt.Errorf("%w: --entry %q: use known, open or a file of addresses", ErrInput, s.Entry)
	}
	var chainNames []string
	for _, c := range chain {
		chainNames = append(chainNames, string(c))
	}
	seed, err := dice.NewSeed()
	if err != nil {
		return nil, fmt.Errorf("drawing the event's seed for lots: %w", err)
	}
	if s.Seed != nil {
		seed = *s.Seed
	}
	se := &store.Event{Name: name, Variant: v.Name(), Format: s.Format, TimeControl: s.TimeControl, Places: places, Entry: entry,
		TieBreak: strings.Join(chainNames, ","), Decider: string(decider), Starts: s.Starts, Created: a.opts.Now().UTC(),
		Seed: seed[:], Commitment: seed.Commitment(), Rated: !s.Casual,
		MinRating: s.Limits.MinRating, MaxRating: s.Limits.MaxRating, MinReliability: s.Limits.MinReliability,
		DivisionSize: s.DivisionSize, Promote: s.Promote, Seasons: s.Seasons, Settings: settings}
	var out *referee.Event
	err = a.st.Update(ctx, func(tx *store.Tx) error {
		if s.SeedByRating && format.Name() != referee.FormatTeam {
			if err := seedByRating(tx, players, v.Name()); err != nil {
				return err
			}
		}
		if _, err := tx.EventByName(name); err == nil {
			return fmt.Errorf("%w: there is an event %s already; choose another name (\"referee event list\" shows them)", ErrInput, name)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := tx.CreateEvent(se, players); err != nil {
			return err
		}
		if err := a.seatTeams(tx, se, s); err != nil {
			return err
		}
		limits := s.Limits.Text()
		if limits == "" {
			limits = "none"
		}
		if err := tx.Audit(nil, "event", fmt.Sprintf("event %s created: %s %s, %s, %s, players %s, places %d, entry %s, rating limits %s, tie-breaks %s",
			name, v.Name(), s.Format, controlText(s.TimeControl), map[bool]string{true: "rated", false: "casual"}[se.Rated],
			strings.Join(players, ","), places, entryName(entry), limits, se.TieBreak)); err != nil {
			return err
		}
		out, err = a.eventTx(tx, se)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("creating event %s: %w", name, err)
	}
	return out, nil
}

var teamNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _.-]{0,31}$`)

// checkTeams checks a team event's teams and lists their players as the
// event's (s.Players, team after team); no other format takes teams.
func checkTeams(f referee.Format, s *EventSpec) error {
	if f.Name() != referee.FormatTeam {
		if len(s.Teams) > 0 || s.FixedBoards {
			return fmt.Errorf("%w: --team and --fixed-boards are a team event's, and this event is a %s: drop them, or use --format team", ErrInput, f.Title())
		}
		return nil
	}
	if len(s.Players) > 0 || s.Open > 0 {
		return fmt.Errorf("%w: a team event's players are its teams' (--team NAME=a,b,c for each team), not --players or --open", ErrInput)
	}
	if len(s.Teams) < 2 || len(s.Teams) > referee.MaxTeams {
		return fmt.Errorf("%w: %d teams: a team event takes 2 to %d, each as --team NAME=a,b,c (its players, the captain first)", ErrInput, len(s.Teams), referee.MaxTeams)
	}
	seen := map[string]bool{}
	for _, t := range s.Teams {
		key := strings.ToLower(strings.TrimSpace(t.Name))
		switch {
		case !teamNameRE.MatchString(strings.TrimSpace(t.Name)):
			return fmt.Errorf("%w: team name %q: use up to 32 letters, digits, spaces, _ . -", ErrInput, t.Name)
		case seen[key]:
			return fmt.Errorf("%w: two teams are called %s; name each team once", ErrInput, t.Name)
		case len(t.Players) != len(s.Teams[0].Players):
			return fmt.Errorf("%w: team %s has %d players and team %s %d: teams play board against board, so give each the same number",
				ErrInput, t.Name, len(t.Players), s.Teams[0].Name, len(s.Teams[0].Players))
		case len(t.Players) < 1 || len(t.Players) > referee.MaxBoards:
			return fmt.Errorf("%w: team %s has %d players: a team has 1 to %d boards", ErrInput, t.Name, len(t.Players), referee.MaxBoards)
		}
		seen[key] = true
		s.Players = append(s.Players, t.Players...)
	}
	return nil
}

// seatTeams puts each entrant of a new team event in their team, on their
// board: by rating in the event's variant, best first (the list's order
// between equal ratings, seedByRating), or in the list's order with
// FixedBoards. The entrants were entered team after team, in the teams'
// lists' order.
func (a *App) seatTeams(tx *store.Tx, se *store.Event, s EventSpec) error {
	ents, err := tx.Entrants(se.ID)
	if err != nil {
		return err
	}
	seat := map[string]int{}
	for _, en := range ents {
		seat[en.Address] = en.Seat
	}
	for _, t := range s.Teams {
		var order []string
		for _, p := range t.Players {
			order = append(order, addr.Mailbox(p))
		}
		if !s.FixedBoards {
			if err := seedByRating(tx, order, se.Variant); err != nil {
				return err
			}
		}
		for board, p := range order {
			if err := tx.SetTeam(se.ID, seat[p], strings.TrimSpace(t.Name), board+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// seedByRating orders players by their rating in variant, the best first;
// the list's order stays between equal ratings (an unrated player has the
// initial 1500).
func seedByRating(tx *store.Tx, players []string, variant string) error {
	rating := map[string]float64{}
	for _, p := range players {
		r, _, err := tx.Rating(p, variant)
		if err != nil {
			return err
		}
		rating[p] = r.Rating.R
	}
	slices.SortStableFunc(players, func(x, y string) int {
		switch {
		case rating[x] > rating[y]:
			return -1
		case rating[x] < rating[y]:
			return 1
		}
		return 0
	})
	return nil
}

// checkLeague checks a league's settings, and that no other format is
// given them.
func checkLeague(f referee.Format, s EventSpec) error {
	if f.Name() != referee.FormatLeague {
		if s.DivisionSize != 0 || s.Promote != 0 || s.Seasons != 0 {
			return fmt.Errorf("%w: --division-size, --promote and --seasons are a league's settings, and this event is a %s: "+
				"drop them, or use --format league", ErrInput, f.Title())
		}
		return nil
	}
	size := s.DivisionSize
	if size == 0 {
		size = referee.DefaultDivisionSize
	}
	switch {
	case size < referee.MinRoundRobin || size > referee.MaxRoundRobin:
		return fmt.Errorf("%w: --division-size %d: a division is a round robin of %d to %d players", ErrInput, s.DivisionSize,
			referee.MinRoundRobin, referee.MaxRoundRobin)
	case s.Promote < 0 || s.Promote > size/2:
		return fmt.Errorf("%w: --promote %d: from 1 to half a division (%d for --division-size %d) move up and down each season",
			ErrInput, s.Promote, size/2, size)
	case s.Seasons < 0:
		return fmt.Errorf("%w: --seasons %d: give a number of seasons, or 0 to run until you close the league", ErrInput, s.Seasons)
	}
	return nil
}

// checkLimits checks an event's rating limits: they apply to players who
// join by mail, so only to an event with places (--open N).
func checkLimits(l referee.RatingLimits, places int) error {
	switch {
	case l.MinRating < 0 || l.MaxRating < 0:
		return fmt.Errorf("%w: --min-rating %.0f, --max-rating %.0f: a rating limit is a positive rating such as 1400 (0 for none)", ErrInput, l.MinRating, l.MaxRating)
	case l.MinRating > 0 && l.MaxRating > 0 && l.MinRating > l.MaxRating:
		return fmt.Errorf("%w: --min-rating %.0f is above --max-rating %.0f: no one could join; swap them", ErrInput, l.MinRating, l.MaxRating)
	case l.MinReliability < 0 || l.MinReliability > 1:
		return fmt.Errorf("%w: --min-reliability %.0f: a reliability is a percentage from 0 to 100, e.g. 90", ErrInput, 100*l.MinReliability)
	case l.Any() && places == 0:
		return fmt.Errorf("%w: --min-rating, --max-rating and --min-reliability limit who joins by mail, and this event takes no entries by mail "+
			"(no --open N); the organiser's --players are not limited: drop the limits, or add --open N", ErrInput)
	}
	return nil
}

func controlText(tc string) string {
	if tc == "" {
		return "no time limit"
	}
	return tc
}

// entryName is the policy of a stored entry rule: "list:ADDRESSES" is
// PlayersList.
func entryName(entry string) referee.Players {
	if strings.HasPrefix(entry, "list:") {
		return referee.PlayersList
	}
	return referee.Players(entry)
}

// eventTx loads an event with its players and its games' states.
func (a *App) eventTx(tx *store.Tx, se *store.Event) (*referee.Event, error) {
	if _, err := referee.LookupFormat(se.Format); err != nil {
		return nil, fmt.Errorf("event %s: its stored format: %w", se.Name, err)
	}
	e := &referee.Event{Name: se.Name, Variant: se.Variant, Format: se.Format, TimeControl: se.TimeControl, Places: se.Places,
		Entry: entryName(se.Entry), Status: referee.EventStatus(se.Status), Decider: referee.Decider(se.Decider), Commitment: se.Commitment, Rated: se.Rated,
		Limits:       referee.RatingLimits{MinRating: se.MinRating, MaxRating: se.MaxRating, MinReliability: se.MinReliability},
		DivisionSize: se.DivisionSize, Promote: se.Promote, Seasons: se.Seasons}
	copy(e.Seed[:], se.Seed)
	if se.Starts != nil {
		e.Starts = *se.Starts
	}
	chain, err := event.ParseChain(strings.Split(se.TieBreak, ","))
	if err != nil {
		return nil, fmt.Errorf("event %s: its stored tie-breaks: %w", se.Name, err)
	}
	e.Chain = chain
	ents, err := tx.Entrants(se.ID)
	if err != nil {
		return nil, err
	}
	for _, p := range ents {
		ep := referee.EventPlayer{Seat: p.Seat, Address: p.Address, Withdrawn: p.Withdrawn, ReplacedBy: p.ReplacedBy, Team: p.Team, Board: p.Board,
			Joined: p.Joined}
		if ep.Name, err = tx.DisplayName(p.Address); err != nil {
			return nil, err
		}
		if ep.Language, err = tx.Language(p.Address); err != nil {
			return nil, err
		}
		if p.ReplacedBy != "" {
			if ep.SubName, err = tx.DisplayName(p.ReplacedBy); err != nil {
				return nil, err
			}
			if ep.SubLanguage, err = tx.Language(p.ReplacedBy); err != nil {
				return nil, err
			}
		}
		e.Players = append(e.Players, ep)
	}
	egs, err := tx.EventGames(se.ID)
	if err != nil {
		return nil, err
	}
	for _, eg := range egs {
		g, err := tx.Game(eg.GameID)
		if err != nil {
			return nil, err
		}
		e.Games = append(e.Games, referee.EventGame{GameID: eg.GameID, Season: eg.Season, Division: eg.Division, Round: eg.Round, Board: eg.Board, Leg: eg.Leg, White: eg.White, Black: eg.Black,
			Status: referee.GameStatus(g.Status), Result: g.Result, Reason: g.ResultReason, Ending: g.Ending, Ply: g.Ply})
	}
	if se.Format == referee.FormatLadder {
		if e.Ladder, err = loadLadder(tx, se); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// eventByName loads the store's event and the core's view of it.
func (a *App) eventByName(tx *store.Tx, name string) (*store.Event, *referee.Event, error) {
	se, err := tx.EventByName(strings.ToLower(strings.TrimSpace(name)))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("%w: there is no event %q; \"referee event list\" shows the events", ErrInput, name)
	}
	if err != nil {
		return nil, nil, err
	}
	e, err := a.eventTx(tx, se)
	return se, e, err
}

// Events lists every event, oldest first.
func (a *App) Events(ctx context.Context) ([]*referee.Event, error) {
	var out []*referee.Event
	err := a.st.View(ctx, func(tx *store.Tx) error {
		ses, err := tx.Events("")
		if err != nil {
			return err
		}
		for i := range ses {
			e, err := a.eventTx(tx, &ses[i])
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing events: %w", err)
	}
	return out, nil
}

// Event loads one event by name.
func (a *App) Event(ctx context.Context, name string) (*referee.Event, error) {
	var e *referee.Event
	err := a.st.View(ctx, func(tx *store.Tx) error {
		var err error
		_, e, err = a.eventByName(tx, name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("loading event %s: %w", name, err)
	}
	return e, nil
}

// StartEvent starts an event's games now (the organiser's "event start").
func (a *App) StartEvent(ctx context.Context, name string) (*referee.Event, error) {
	var e *referee.Event
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		se, loaded, err := a.eventByName(tx, name)
		if err != nil {
			return err
		}
		if referee.EventStatus(se.Status) != referee.EventOpen {
			return fmt.Errorf("%w: event %s is %s already; only an open event can start", ErrInput, se.Name, se.Status)
		}
		// The event as loaded, with its new games added to it: one load.
		e = loaded
		return a.startEventTx(tx, se, e)
	})
	if err != nil {
		return nil, fmt.Errorf("starting event %s: %w", name, err)
	}
	return e, nil
}

// startEventTx starts an event with the games its format pairs first
// (every game of a round robin, a knockout's first round), the seats being
// the entry list's numbers. All in tx. e is se as loaded in tx (nil to
// load it); it is brought up to date with the games started.
func (a *App) startEventTx(tx *store.Tx, se *store.Event, e *referee.Event) error {
	var err error
	if e == nil {
		if e, err = a.eventTx(tx, se); err != nil {
			return err
		}
	}
	f, n := e.Rules(), len(e.Players)
	if !f.Fits(n) {
		return fmt.Errorf("%w: event %s has %d entrants; %s (\"referee event show %s\" lists them)", ErrInput, se.Name, n, f.SizeText(), se.Name)
	}
	games, err := f.Start(e)
	if err != nil {
		return fmt.Errorf("%w: event %s: %v", ErrInput, se.Name, err)
	}
	if err := tx.SetEventStatus(se.ID, string(referee.EventRunning), a.opts.Now().UTC()); err != nil {
		return err
	}
	se.Status, e.Status = string(referee.EventRunning), referee.EventRunning
	return a.addEventGames(tx, se, e, games, fmt.Sprintf("event %s started: %d players", se.Name, n))
}

// addEventGames creates the games the format of e asks for (specs,
// without ids) through the path of every new game, and adds them to e;
// each player of them first gets one mail listing their new games with
// the reply addresses, then the games' opening mails.
func (a *App) addEventGames(tx *store.Tx, se *store.Event, e *referee.Event, specs []referee.EventGame, audit string) error {
	playing := func(seat int) string { return e.Players[seat-1].Playing() }
	now := a.opts.Now().UTC().Truncate(time.Second)
	games := map[int][]*referee.Game{} // by seat
	var all []*referee.Game
	for _, eg := range specs {
		sp := store.EventGame{Season: eg.Season, Division: eg.Division, Round: eg.Round, Board: eg.Board, Leg: eg.Leg, White: eg.White, Black: eg.Black}
		g, err := a.prepareGame(se.Variant, playing(sp.White), playing(sp.Black), nil, se.TimeControl)
		if err != nil {
			return fmt.Errorf("event %s round %d board %d: %w", se.Name, sp.Round, sp.Board, err)
		}
		g.Rated = se.Rated
		id, err := tx.CreateGame(toStoreGame(g))
		if err != nil {
			return err
		}
		g.ID, sp.GameID = id, id
		if err := tx.AddEventGame(se.ID, sp); err != nil {
			return err
		}
		g.Event = gameEvent(store.GamePlace{Event: se.Name, Format: se.Format, EventGame: sp})
		games[sp.White] = append(games[sp.White], g)
		games[sp.Black] = append(games[sp.Black], g)
		all = append(all, g)
		eg.GameID, eg.Status = id, referee.StatusActive
		e.Games = append(e.Games, eg)
	}
	// The listing first (it is queued first, at the priority of the
	// openings after it: behind the mails of moves in games in play), then
	// each game's opening mails.
	for _, p := range e.Players {
		if mine := games[p.Seat]; len(mine) > 0 {
			if err := a.queue(tx, 0, []referee.Mail{a.ref.EventStartMail(e, p.Seat, mine, now)}); err != nil {
				return err
			}
		}
	}
	for _, g := range all {
		if err := a.openGame(tx, g, true); err != nil {
			return err
		}
	}
	return tx.Audit(nil, "event", fmt.Sprintf("%s: %d games", audit, len(all)))
}

// StartDueEvents starts the open events whose start date has come (the
// daemon's tick); it returns how many started.
func (a *App) StartDueEvents(ctx context.Context) (int, error) {
	now := a.opts.Now().UTC()
	started := 0
	var due []store.Event
	err := a.st.View(ctx, func(tx *store.Tx) error {
		open, err := tx.Events(string(referee.EventOpen))
		for _, e := range open {
			if e.Starts != nil && !e.Starts.After(now) {
				due = append(due, e)
			}
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("listing events due to start: %w", err)
	}
	for i := range due {
		se := &due[i]
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			cur, err := tx.EventByName(se.Name)
			if err != nil || referee.EventStatus(cur.Status) != referee.EventOpen {
				return err // started meanwhile
			}
			ents, err := tx.Entrants(se.ID)
			if err != nil {
				return err
			}
			f, err := referee.LookupFormat(se.Format)
			if err != nil {
				return err
			}
			if err := checkSize(f, 0, len(ents)); err != nil || len(ents) == 0 {
				// The start date came with a number of players the
				// format cannot pair: closed, not retried every minute.
				if err := tx.SetEventStatus(se.ID, string(referee.EventClosed), now); err != nil {
					return err
				}
				return tx.Audit(nil, "event", fmt.Sprintf("event %s closed at its start date: %d players, which a %s cannot pair",
					se.Name, len(ents), f.Title()))
			}
			started++
			return a.startEventTx(tx, cur, nil)
		})
		if err != nil {
			return started, fmt.Errorf("starting event %s at its date: %w", se.Name, err)
		}
	}
	return started, nil
}

// runningSeat finds the running event name and address's seat in it, for
// an organiser's command; why says what needs the event running.
func (a *App) runningSeat(tx *store.Tx, name, address, why string) (*store.Event, *referee.Event, int, error) {
	se, e, err := a.eventByName(tx, name)
	if err != nil {
		return nil, nil, 0, err
	}
	seat := e.Seat(address)
	if p, ok := e.ReplacedIn(address); ok && seat == 0 {
		return nil, nil, 0, fmt.Errorf("%w: %s no longer plays in event %s: %s took over their seat; name %s instead", ErrInput, address, se.Name, p.ReplacedBy, p.ReplacedBy)
	}
	if seat == 0 {
		return nil, nil, 0, fmt.Errorf("%w: %s does not play in event %s; \"referee event show %s\" lists its players", ErrInput, address, se.Name, se.Name)
	}
	if referee.EventStatus(se.Status) != referee.EventRunning {
		return nil, nil, 0, fmt.Errorf("%w: event %s is %s; %s", ErrInput, se.Name, se.Status, why)
	}
	return se, e, seat, nil
}

// WithdrawFromEvent withdraws a player from a running event for the
// organiser ("event withdraw NAME ADDR"), under ICCF's rule.
func (a *App) WithdrawFromEvent(ctx context.Context, name, address string) (int, error) {
	kind := 0
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		se, e, seat, err := a.runningSeat(tx, name, address, "a withdrawal applies to a running event (before the start, players leave by mail)")
		if err != nil {
			return err
		}
		if e.Players[seat-1].Withdrawn != referee.NotWithdrawn {
			return fmt.Errorf("%w: %s has withdrawn from event %s already", ErrInput, address, se.Name)
		}
		if kind, err = a.withdrawTx(tx, se, e, seat, referee.ByOrganiser); err != nil {
			return err
		}
		return a.afterEventChange(tx, se, nil)
	})
	if err != nil {
		return 0, fmt.Errorf("withdrawing %s from event %s: %w", address, name, err)
	}
	return kind, nil
}

// withdrawTx applies ICCF's rule to seat: with at least half their games
// completed their unfinished games are lost; otherwise all their games are
// annulled (the unfinished ones aborted, the finished ones left out of the
// scores). how is how the player left (referee.ByMail, ByOrganiser,
// BySilence). The games end without a board mail each: every person
// concerned gets one mail (referee.WithdrawalMails) saying who withdrew
// and what became of each of their games with that player.
func (a *App) withdrawTx(tx *store.Tx, se *store.Event, e *referee.Event, seat int, how string) (int, error) {
	kind := e.WithdrawalKind(seat)
	w := referee.Withdrawal{Seat: seat, Kind: kind, How: how}
	if err := tx.SetWithdrawn(se.ID, seat, kind); err != nil {
		return 0, err
	}
	now := a.opts.Now().UTC().Truncate(time.Second)
	reason := e.WithdrawalReason(w)
	eventGames, games, err := a.gamesInPlay(tx, e, seat)
	if err != nil {
		return 0, err
	}
	for i, g := range games {
		eg := eventGames[i]
		var ng *referee.Game
		if kind == referee.WithdrawnLost {
			loser := rules.White
			if eg.Black == seat {
				loser = rules.Black
			}
			ng, _, err = a.ref.Forfeit(g, loser, reason, now)
		} else {
			ng, _, err = a.ref.Abort(g, reason, now)
		}
		if err != nil {
			return 0, err
		}
		if err := tx.UpdateGame(toStoreGame(ng)); err != nil {
			return 0, err
		}
		if err := tx.Audit(&ng.ID, "event", reason); err != nil {
			return 0, err
		}
	}
	if err := a.queue(tx, 0, a.ref.WithdrawalMails(e, w, now)); err != nil {
		return 0, err
	}
	rule := "unfinished games lost"
	if kind == referee.WithdrawnAnnulled {
		rule = "all games annulled"
	}
	completed, total := e.SeatGames(seat)
	return kind, tx.Audit(nil, "event", fmt.Sprintf("event %s: %s, after %d of %d games: %s", se.Name,
		strings.TrimPrefix(reason, referee.AnnulledPrefix), completed, total, rule))
}

// gamesInPlay loads seat's games of e still in play, with their places.
func (a *App) gamesInPlay(tx *store.Tx, e *referee.Event, seat int) ([]referee.EventGame, []*referee.Game, error) {
	var egs []referee.EventGame
	var gs []*referee.Game
	for _, eg := range e.Games {
		if eg.Status != referee.StatusActive || (eg.White != seat && eg.Black != seat) {
			continue
		}
		g, err := a.gameTx(tx, eg.GameID)
		if err != nil {
			return nil, nil, err
		}
		egs, gs = append(egs, eg), append(gs, g)
	}
	return egs, gs, nil
}

// ReplaceInEvent hands a withdrawn player's unfinished games to a
// substitute ("event replace NAME OLD NEW"): the games go on, the
// substitute plays them under new reply secrets, and both are told. Only
// games still in play can be handed on: replace before withdrawing, or
// the withdrawal has ended them.
func (a *App) ReplaceInEvent(ctx context.Context, name, old, sub string) (int, error) {
	w, err := cleanAddress("NEW", sub)
	if err != nil {
		return 0, err
	}
	moved := 0
	err = a.st.Update(ctx, func(tx *store.Tx) error {
		se, e, seat, err := a.runningSeat(tx, name, old, "a substitute takes over games of a running event")
		if err != nil {
			return err
		}
		moved, err = a.replaceTx(tx, se, e, seat, w)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("replacing %s in event %s: %w", old, name, err)
	}
	return moved, nil
}

// replaceTx hands seat's unfinished games of e to the substitute w (the
// organiser's "event replace", a team captain's "replace" by mail); it
// returns how many games moved.
func (a *App) replaceTx(tx *store.Tx, se *store.Event, e *referee.Event, seat int, w string) (int, error) {
	moved := 0
	if e.Named(w) {
		return 0, fmt.Errorf("%w: %s plays (or played) in event %s already; a substitute must be new to it", ErrInput, w, se.Name)
	}
	p := e.Players[seat-1]
	if p.ReplacedBy != "" {
		return 0, fmt.Errorf("%w: %s took over from %s already, and a seat is handed on once", ErrInput, p.ReplacedBy, p.Address)
	}
	now := a.opts.Now().UTC().Truncate(time.Second)
	eventGames, games, err := a.gamesInPlay(tx, e, seat)
	if err != nil {
		return 0, err
	}
	code, err := tx.Language(w) // the substitute's, for their board mails (issue 42)
	if err != nil {
		return 0, err
	}
	for i, g := range games {
		eg := eventGames[i]
		c := rules.White
		if eg.Black == seat {
			c = rules.Black
		}
		g.Players[c] = referee.Player{Address: addr.Mailbox(w), Secret: newSecret(), Language: code}
		if err := tx.ReplacePlayer(g.ID, int(c), g.Players[c].Address, g.Players[c].Secret); err != nil {
			return 0, err
		}
		// The substitute gets the board with their own reply address,
		// the opponent the news.
		mails, err := a.ref.Substituted(g, c, p.Address, now)
		if err != nil {
			return 0, err
		}
		if err := a.queue(tx, g.ID, mails); err != nil {
			return 0, err
		}
		if err := tx.Audit(&g.ID, "event", fmt.Sprintf("event %s: %s takes over from %s", se.Name, w, p.Address)); err != nil {
			return 0, err
		}
		moved++
	}
	if moved == 0 {
		return 0, fmt.Errorf("%w: %s has no game in play in event %s: there is nothing to hand over", ErrInput, p.Address, se.Name)
	}
	if err := tx.SetReplacedBy(se.ID, seat, addr.Mailbox(w)); err != nil {
		return 0, err
	}
	return moved, tx.Audit(nil, "event", fmt.Sprintf("event %s: %s replaces %s in %d games", se.Name, w, p.Address, moved))
}

// CloseEvent ends an event for the organiser: an open one never starts,
// a running one has its unfinished games aborted.
func (a *App) CloseEvent(ctx context.Context, name string) error {
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		se, e, err := a.eventByName(tx, name)
		if err != nil {
			return err
		}
		if referee.EventStatus(se.Status) == referee.EventClosed || referee.EventStatus(se.Status) == referee.EventFinished {
			return fmt.Errorf("%w: event %s is %s already", ErrInput, se.Name, se.Status)
		}
		now := a.opts.Now().UTC().Truncate(time.Second)
		for _, eg := range e.Games {
			if eg.Status != referee.StatusActive {
				continue
			}
			sg, err := tx.Game(eg.GameID)
			if err != nil {
				return err
			}
			g, err := a.loadTx(tx, sg)
			if err != nil {
				return err
			}
			ng, mails, err := a.ref.Abort(g, "the organiser closed "+se.Name, now)
			if err != nil {
				return err
			}
			if err := tx.UpdateGame(toStoreGame(ng)); err != nil {
				return err
			}
			if err := a.queue(tx, ng.ID, mails); err != nil {
				return err
			}
		}
		if err := tx.SetEventStatus(se.ID, string(referee.EventClosed), now); err != nil {
			return err
		}
		return tx.Audit(nil, "event", fmt.Sprintf("event %s closed by the organiser", se.Name))
	})
	if err != nil {
		return fmt.Errorf("closing event %s: %w", name, err)
	}
	return nil
}

// gameEnd is the end of a game as it touches its event: the event, loaded
// once after the game was stored, for what the end means to it (the mails'
// note, then the format's rules); none for a game outside any event or one
// still in play.
type gameEnd struct {
	se *store.Event
	e  *referee.Event
}

// endOfGame loads the event of g when g has just ended.
func (a *App) endOfGame(tx *store.Tx, g *referee.Game) (gameEnd, error) {
	if g == nil || g.Status == referee.StatusActive {
		return gameEnd{}, nil
	}
	eventID, _, found, err := tx.EventOfGame(g.ID)
	if err != nil || !found {
		return gameEnd{}, err
	}
	se, err := tx.EventByID(eventID)
	if err != nil {
		return gameEnd{}, err
	}
	e, err := a.eventTx(tx, se)
	if err != nil {
		return gameEnd{}, err
	}
	return gameEnd{se, e}, nil
}

// follow is what follows the end for the event (afterEventChange): a
// player who lost half their games on time is treated as withdrawn, the
// format's next games start, and when the last game ended every player
// gets the final crosstable. Nothing for a game outside any event.
func (ge gameEnd) follow(a *App, tx *store.Tx) error {
	if ge.se == nil {
		return nil
	}
	return a.afterEventChange(tx, ge.se, ge.e)
}

// afterEventChange applies the silence rule, starts what the format asks
// for next and ends the event when it is over; e is se as loaded in tx, or
// nil to load it.
func (a *App) afterEventChange(tx *store.Tx, se *store.Event, e *referee.Event) error {
	if referee.EventStatus(se.Status) != referee.EventRunning {
		return nil
	}
	var err error
	if e == nil {
		if e, err = a.eventTx(tx, se); err != nil {
			return err
		}
	}
	for _, p := range e.Players {
		if p.Withdrawn == referee.NotWithdrawn && e.Silent(p.Seat) {
			if _, err := a.withdrawTx(tx, se, e, p.Seat, referee.BySilence); err != nil {
				return err
			}
			if e, err = a.eventTx(tx, se); err != nil {
				return err
			}
		}
	}
	step, err := e.Rules().Next(e)
	if err != nil {
		return err
	}
	for _, line := range step.Audit {
		if err := tx.Audit(nil, "event", line); err != nil {
			return err
		}
	}
	for _, id := range step.Decided {
		if err := tx.DecideLadderChallenge(id, a.opts.Now().UTC().Truncate(time.Second)); err != nil {
			return err
		}
		if err := tx.Audit(nil, "event", fmt.Sprintf("event %s: challenge %d decided", se.Name, id)); err != nil {
			return err
		}
	}
	if len(step.Games) > 0 {
		return a.addEventGames(tx, se, e, step.Games, step.Why)
	}
	if !e.Over() {
		return nil
	}
	now := a.opts.Now().UTC().Truncate(time.Second)
	if err := tx.SetEventStatus(se.ID, string(referee.EventFinished), now); err != nil {
		return err
	}
	e.Status = referee.EventFinished
	watchers, err := tx.EventWatchers(se.ID)
	if err != nil {
		return err
	}
	languages := map[string]string{} // the observers', for their mails (issue 42)
	for _, w := range watchers {
		if languages[addr.Mailbox(w)], err = tx.Language(w); err != nil {
			return err
		}
	}
	if err := a.queue(tx, 0, a.ref.EventEndMails(e, watchers, languages, now)); err != nil {
		return err
	}
	var leaders []string
	for _, s := range e.Rules().Winners(e) {
		leaders = append(leaders, e.Players[s-1].Address)
	}
	return tx.Audit(nil, "event", fmt.Sprintf("event %s finished: first %s", se.Name, strings.Join(leaders, ", ")))
}

// eventsView loads the events "events" lists into the lobby view: the
// open ones and the sender's, each with whether the sender may join it.
func (a *App) eventsView(tx *store.Tx, lb *referee.Lobby, mb string) error {
	ses, err := tx.Events("")
	if err != nil {
		return err
	}
	for i := range ses {
		if referee.EventStatus(ses[i].Status) == referee.EventClosed {
			continue
		}
		e, err := a.eventTx(tx, &ses[i])
		if err != nil {
			return err
		}
		if e.TakesEntries() || e.Seat(mb) != 0 {
			lb.Events = append(lb.Events, *e)
			may, err := mayJoin(tx, &ses[i], mb)
			if err != nil {
				return err
			}
			if lb.MayJoin == nil {
				lb.MayJoin = map[string]bool{}
			}
			lb.MayJoin[e.Name] = may
		}
	}
	return nil
}

// eventView loads the event a command names into the lobby view, and
// whether the sender may join it under its entry rule; an unknown name
// loads nothing.
func (a *App) eventView(tx *store.Tx, lb *referee.Lobby, mb, name string) error {
	se, err := tx.EventByName(strings.ToLower(name))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if lb.Event, err = a.eventTx(tx, se); err != nil {
		return err
	}
	lb.EventAllowed, err = mayJoin(tx, se, mb)
	return err
}

// mayJoin says whether the player at mb may join se by mail under its
// entry rule: anyone (open), the addresses of its list, or (known) those
// who played here or whom the organiser added.
func mayJoin(tx *store.Tx, se *store.Event, mb string) (bool, error) {
	switch {
	case referee.Players(se.Entry) == referee.PlayersOpen:
		return true, nil
	case strings.HasPrefix(se.Entry, "list:"):
		for _, p := range strings.Split(strings.TrimPrefix(se.Entry, "list:"), ",") {
			if p != "" && addr.SameMailbox(p, mb) {
				return true, nil
			}
		}
		return false, nil
	}
	kp, found, err := tx.KnownPlayer(mb)
	if err != nil {
		return false, err
	}
	if found {
		return kp.Allowed, nil
	}
	return tx.PlayedGame(mb)
}

// applyEvent stores a player's join, leave or withdrawal by mail; a join
// that fills the event starts it, in the same transaction.
func (a *App) applyEvent(tx *store.Tx, ch *referee.EventChange, mails *[]referee.Mail) error {
	se, e, err := a.eventByName(tx, ch.Name)
	if err != nil {
		return err
	}
	now := a.opts.Now().UTC().Truncate(time.Second)
	switch {
	case ch.Join != "" && ch.Team != "":
		if err := tx.AddJoinRequest(se.ID, store.JoinRequest{Address: ch.Join, Team: ch.Team, At: now}); err != nil {
			return err
		}
		return tx.Audit(nil, "event", fmt.Sprintf("event %s: %s asks by mail to play for team %s", se.Name, ch.Join, ch.Team))
	case ch.Join != "":
		if err := tx.AddEntrant(se.ID, ch.Join, now); err != nil {
			return err
		}
		if err := tx.Audit(nil, "event", fmt.Sprintf("event %s: %s joined by mail", se.Name, ch.Join)); err != nil {
			return err
		}
		if referee.EventStatus(se.Status) == referee.EventOpen && se.Places > 0 && len(e.Players)+1 >= se.Places {
			// The mails so far (the join's answer) go first.
			if err := a.queue(tx, 0, *mails); err != nil {
				return err
			}
			*mails = nil
			return a.startEventTx(tx, se, nil) // the event with its new entrant
		}
	case ch.Leave != "":
		if _, err := tx.RemoveEntrant(se.ID, ch.Leave); err != nil {
			return err
		}
		return tx.Audit(nil, "event", fmt.Sprintf("event %s: %s left by mail", se.Name, ch.Leave))
	case ch.Withdraw != "":
		seat := e.Seat(ch.Withdraw)
		if seat == 0 {
			return fmt.Errorf("event %s: %s is no player of it", se.Name, ch.Withdraw)
		}
		if _, err := a.withdrawTx(tx, se, e, seat, referee.ByMail); err != nil {
			return err
		}
		return a.afterEventChange(tx, se, nil)
	}
	return nil
}

// ExportEvent returns the records of an event's games, by round and
// board, each tagged with the event's name, its round and its board (a
// knockout's: Round ROUND.GAME, Board the match), as each game's own
// record is (Export).
func (a *App) ExportEvent(ctx context.Context, name string) ([]*game.Record, error) {
	e, err := a.Event(ctx, name)
	if err != nil {
		return nil, err
	}
	var out []*game.Record
	for _, eg := range e.Games {
		rec, err := a.Export(ctx, eg.GameID)
		if err != nil {
			return nil, fmt.Errorf("exporting game #%d of event %s: %w", eg.GameID, e.Name, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

package referee

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/notation"
	"referee/internal/render"
	"referee/internal/rules"
)

func notationSAN(pos rules.Position, m rules.Move) string { return notation.SAN(pos, m) }

// helpSection is the in-game help in p's language: how to reply, the
// game's commands from the table, the lobby's commands that also work
// here, and the rules in short (rulesIn).
func (r *Referee) helpSection(p *lang.Printer, g *Game, pos rules.Position) []render.Section {
	var b strings.Builder
	b.WriteString(p.Sprintf("Reply to the referee's latest mail. The FIRST line of your reply is your action; "+
		"anything on the lines after it is passed on to your opponent. Quoted text and signatures are ignored.") + "\n\n")
	moves := p.Sprintf("Moves: algebraic notation, e.g. %s.", `"Nf3", "Ng1-f3", "g1f3", "exd5", "e8=Q", "O-O"`)
	if h, ok := g.Variant.(rules.VariantHands); (ok && h.HasHands()) || len(pos.Hand(rules.White))+len(pos.Hand(rules.Black)) > 0 {
		moves += " " + p.Sprintf("Drops and placements: %s.", `"N@b3"`)
	}
	b.WriteString(moves + "\n\n" + p.Sprintf("Commands (alone on the first line):") + "\n")
	for _, c := range r.helpRows(p, g, pos) {
		b.WriteString(helpRow(c[0], c[1]))
	}
	// Each command stays whole on one line ("standings EVENT", never
	// "standings" and "EVENT" on two).
	names := r.names(Both, func(c *Command) bool { return c.Where == Both })
	for i, n := range names {
		names[i] = strings.ReplaceAll(n, " ", "\x00")
	}
	b.WriteString("\n" + strings.ReplaceAll(wrap(p.Sprintf("Also in a reply here, as in a mail to %s (\"help\" to it says more): %s.",
		r.cfg.Address, strings.Join(names, ", "))), "\x00", " ") + "\n")
	return []render.Section{
		{Title: p.Sprintf("How to play by mail"), Body: b.String()},
		{Title: p.Sprintf("The rules in short"), Body: rulesIn(p, g.Variant)},
	}
}

// helpRow is one line of the in-game help's two columns: the command in
// the first, its help wrapped under the second with a hanging indent, so
// that no line is longer than the mail's 72 columns. A command longer
// than the first column stands alone on its line, its help below it.
func helpRow(name, help string) string {
	const col, width = 12, 72
	indent := strings.Repeat(" ", col+3)
	lines := strings.Split(wrapAt(help, width-len(indent)), "\n")
	var b strings.Builder
	if len(name) > col {
		b.WriteString("  " + name + "\n" + indent + lines[0] + "\n")
	} else {
		fmt.Fprintf(&b, "  %-*s %s\n", col, name, lines[0])
	}
	for _, l := range lines[1:] {
		b.WriteString(indent + l + "\n")
	}
	return b.String()
}

func movesSection(p *lang.Printer, pos rules.Position, c rules.Color) []render.Section {
	if pos.Turn() != c {
		return []render.Section{{Title: p.Sprintf("Legal moves"), Body: bySide(pos.Turn(),
			p.Sprintf("It is White's turn, not yours: you have no moves to make now."), p.Sprintf("It is Black's turn, not yours: you have no moves to make now."))}}
	}
	legal := pos.Legal()
	if len(legal) == 0 {
		return []render.Section{{Title: p.Sprintf("Legal moves"), Body: p.Sprintf("None.")}}
	}
	list := make([]string, len(legal))
	for i, m := range legal {
		san := notation.SAN(pos, m)
		if p.Code() != lang.English || p.Figurines() {
			// In the reader's letters where they read back as this
			// move, else as it is read without doubt (ExampleIn).
			san = notation.ExampleIn(pos, m, p.ReaderTag())
		}
		if typed := notation.Typeable(san); typed != san {
			san += " (" + typed + ")" // the marks as a player may type them
		}
		list[i] = san
	}
	sort.Strings(list)
	// Commas between the items, or semicolons when an item has a comma of
	// its own (a deployment of two pieces, "K@e1,G@d1").
	sep := ", "
	if slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, ",") }) {
		sep = "; "
	}
	return []render.Section{{Title: p.Sprintf("Legal moves (%d)", len(list)), Body: strings.Join(list, sep)}}
}

// rollSection lists the rolls a mail announces, one short line each. The
// proof (each roll's Ed25519 signature, the seed's commitment, the
// referee's key) is one "record" away: the opening mail gives the
// commitment and the key once, and "record" lists every roll with its
// signature, so a mail read on a phone is not mostly hex.
func (r *Referee) rollSection(p *lang.Printer, rolls []Roll) render.Section {
	var b strings.Builder
	for _, x := range rolls {
		b.WriteString(p.Sprintf("Roll %d: %d", x.N, x.Value) + "\n")
	}
	b.WriteString(p.Sprintf("Every roll is signed by the referee: reply \"record\" for the signatures, the seed's commitment and the key."))
	return render.Section{Title: p.Sprintf("The die"), Body: b.String()}
}

// revealSection tells the seed of a game that ended, in p's language.
func (r *Referee) revealSection(p *lang.Printer, g *Game) render.Section {
	return render.Section{Title: p.Sprintf("The die seed, revealed"), Body: p.Sprintf(
		"Seed: %s\nCommitment (SHA-256 of the seed): %s\nReferee key: %s\n"+
			"Roll n is recomputed as HMAC-SHA256(seed, \"%d:<n>:<c>\") for c = 0, 1, ...: the first byte b "+
			"below 252 gives b mod 6 + 1. `referee verify` does this for you.",
		g.Seed.Hex(), g.Commitment, r.cfg.Key.PublicHex(), g.ID)}
}

// Start begins a new game: it rolls the die where the first turn needs a
// roll, and returns the game with those rolls and the opening mails. Each
// player learns the game, the rules in short, their colour, and (with a die)
// the commitment and the referee's key.
func (r *Referee) Start(g *Game, now time.Time) (*Game, []Roll, []Mail, error) {
	rep, err := g.Replay()
	if err != nil {
		return nil, nil, nil, err
	}
	ng := g.clone()
	pos, rolls := r.rollAsNeeded(ng, rep.Final, len(ng.Actions))
	ng.Rolls = append(ng.Rolls, rolls...)
	g = ng
	var out []Mail
	for _, c := range []rules.Color{rules.White, rules.Black} {
		opp := g.Players[c.Other()]
		p := r.printer(g.Players[c].Language)
		body := render.Mail{
			Headline: openingHeadline(p, g, c, opp.named()),
			Sections: []render.Section{{Title: p.Sprintf("The rules in short"), Body: rulesIn(p, g.Variant)}},
		}
		if cl := g.clock(); cl != nil {
			body.Sections = append(body.Sections, render.Section{Title: p.Sprintf("The time control"), Body: cl.ExplainIn(p)})
		} else {
			body.Sections = append(body.Sections, render.Section{Title: p.Sprintf("The time control"),
				Body: p.Sprintf("None: this game has no clock. Take the time you need, and keep your opponent informed if you must pause.")})
		}
		// One section on the die: the commitment and the key, and the
		// first rolls when the first turn needed them.
		// The commitment and the key are given here once; later mails
		// list the rolls and leave the proof to "record".
		if g.Commitment != "" {
			text := p.Sprintf(
				"The referee rolls the die for you. Its secret seed is fixed now; its SHA-256 commitment is\n%s\n"+
					"Every roll is signed with the referee's Ed25519 key\n%s\n"+
					"The seed is revealed when the game ends, so that anyone can recompute every roll; "+
					"reply \"record\" at any time for every roll with its signature.",
				g.Commitment, r.cfg.Key.PublicHex())
			if len(rolls) > 0 {
				var b strings.Builder
				for _, x := range rolls {
					b.WriteString(p.Sprintf("Roll %d: %d", x.N, x.Value) + "\n")
				}
				text = p.Sprintf("The first turn's rolls:") + "\n" + b.String() + "\n" + text
			}
			body.Sections = append(body.Sections, render.Section{Title: p.Sprintf("The die"), Body: text})
		}
		if s, ok := openingRatingSection(p, g); ok {
			body.Sections = append(body.Sections, s)
		}
		out = append(out, r.boardMail(g, pos, c, body, nil, nil, KindOpening, "", now))
	}
	return ng, rolls, out, nil
}

// Abort ends g without a result and tells both players why.
func (r *Referee) Abort(g *Game, reason string, now time.Time) (*Game, []Mail, error) {
	if g.Status != StatusActive {
		return nil, nil, fmt.Errorf("game #%d is %s already: nothing to abort", g.ID, g.Status)
	}
	rep, err := g.Replay()
	if err != nil {
		return nil, nil, err
	}
	ng := g.clone()
	ng.Status = StatusAborted
	ng.AbortReason = reason
	ng.DrawOffer = nil
	ng.SeedRevealed = true
	var out []Mail
	for _, c := range []rules.Color{rules.White, rules.Black} {
		p := r.printer(ng.Players[c].Language)
		// The organiser's reason is quoted as the organiser wrote it.
		body := render.Mail{Headline: p.Sprintf("The organiser aborted this game: %s. It ends without a result.", reason)}
		if ng.Commitment != "" {
			body.Sections = append(body.Sections, r.revealSection(p, ng))
		}
		out = append(out, r.boardMail(ng, rep.Final, c, body, nil, nil, KindAbort, reason, now))
	}
	return ng, out, nil
}

// openingHeadline is the opening mail's first line to the player of side
// c, in p's language.
func openingHeadline(p *lang.Printer, g *Game, c rules.Color, opponent string) string {
	title := variantTitle(p, g.Variant)
	switch {
	case g.Event != nil && c == rules.White:
		return p.Sprintf("A new game of %s in the event %s: you play White against %s.", title, g.Event.PlaceText(), opponent)
	case g.Event != nil:
		return p.Sprintf("A new game of %s in the event %s: you play Black against %s.", title, g.Event.PlaceText(), opponent)
	case c == rules.White:
		return p.Sprintf("A new game of %s: you play White against %s.", title, opponent)
	}
	return p.Sprintf("A new game of %s: you play Black against %s.", title, opponent)
}

// rulesIn is v's short rules in p's language: the catalog's translation
// of a variant of the referee's own, else the variant's own text (in
// English; a variant file's text as its author wrote it).
func rulesIn(p *lang.Printer, v rules.Variant) string {
	if s, ok := p.Rules(v.Name()); ok {
		if own, err := rules.Lookup(v.Name()); err == nil && own == v {
			return s
		}
	}
	return render.Summary(v)
}

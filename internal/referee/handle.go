package referee

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/render"
	"referee/internal/rules"
)

// Handle decides what to do with one inbound mail. g is the game the mail's
// token names (nil when there is no token or no such game). It never panics
// on hostile input and never changes g: a changed game is returned in the
// Outcome.
func (r *Referee) Handle(in Inbound, g *Game, env Env) Outcome {
	m := in.Mail
	if m == nil {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("unreadable mail: %v", in.ReadErr)}
	}
	if m.Automatic != "" {
		return Outcome{Verdict: Ignored, Detail: "automatic mail, never answered: " + m.Automatic}
	}
	if m.From == "" && m.BadFrom != "" {
		// Nothing guessed: no one is answered, no one's move is played.
		return Outcome{Verdict: Ignored, Detail: m.BadFrom + ": not read as anyone's, not answered"}
	}
	if m.From == "" || addr.SameMailbox(m.From, r.cfg.Address) {
		return Outcome{Verdict: Ignored, Detail: "no usable sender, or the referee's own address"}
	}
	if tb := (*reader.TooBigError)(nil); errors.As(in.ReadErr, &tb) {
		return r.refuseIn(env, m, fmt.Sprintf("too big: %d bytes or more, the limit is %d", tb.Size, tb.Limit),
			lang.M("Your mail was not read: it is larger than the referee's limit of %s (attachments and pictures count).", byteSize(tb.Limit)),
			lang.M("Send your move as a short plain-text mail without attachments, as a reply to the referee's latest mail."))
	}
	if in.ReadErr != nil {
		// The reader's error is English (a MIME or charset failure).
		return r.refuseIn(env, m, fmt.Sprintf("unreadable mail: %v", in.ReadErr),
			lang.M("Your mail could not be read: %s.", in.ReadErr.Error()),
			lang.M("Send a short plain-text mail with your move on the first line."))
	}
	// Whatever is wrong with the game reference, a stranger learns nothing
	// from the answer: not whether the game exists, nor whether the reply
	// code is valid, nor whose it is. The detail (for the organiser's log)
	// says which check failed.
	stranger := func(detail string) Outcome {
		return r.refuseIn(env, m, detail,
			lang.M("Your mail could not be tied to a game of yours. The referee acts only on a reply to its "+
				"own latest mail for your game, sent from the address that mail was sent to."),
			lang.M("To play, reply to the referee's latest mail for your game (your mail program keeps the "+
				"reference) with your move on the first line. To start a game, ask the organiser."))
	}
	if m.Token == nil && env.Lobby != nil {
		return r.lobby(m, env) // commands outside a game (lobby_decide.go)
	}
	if m.Token == nil {
		return stranger("no game reference (no reply address or Message-ID of the referee)")
	}
	if g == nil || g.ID != m.Token.GameID {
		return stranger(fmt.Sprintf("unknown game #%d", m.Token.GameID))
	}
	color, ok := g.PlayerOf(m.Token.Secret)
	if !ok {
		return stranger(fmt.Sprintf("game #%d: wrong secret", g.ID))
	}
	player := g.Players[color]
	if !addr.SameMailbox(m.From, player.Address) {
		return stranger(fmt.Sprintf("game #%d: %s's reply code used from %s", g.ID, color, m.From))
	}
	if r.cfg.RequireAuth {
		if ok, why := r.authVerdict(m, env); !ok {
			// why is the mail server's verdict, in its own (English) words.
			return r.refuseIn(env, m, fmt.Sprintf("game #%d: authentication failed: %s", g.ID, why),
				lang.M("Your mail was not accepted because the mail server could not confirm it really comes from %s (%s).", m.From, why),
				lang.M("Send it again from your usual mail account (the one that signs its mail with DKIM)."))
		}
	}
	out := r.act(m, g, color, env)
	out.Player = strings.ToLower(color.String())
	out.Auth = "ok: the reply code belongs to " + out.Player + " and From is " + player.Address
	if r.cfg.RequireAuth {
		_, why := r.authVerdict(m, env)
		out.Auth += ", and " + why
	}
	return out
}

// act carries out the authenticated player's action: the first line read
// against the command table (commands.go), the row's conditions checked,
// its handler run. Every command other than "confirm" cancels the
// player's pending resignation, as the mail asking for it says.
func (r *Referee) act(m *reader.Mail, g *Game, color rules.Color, env Env) Outcome {
	pos, err := g.Position()
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	// Conditional lines are taken out of the whole message, never
	// relayed; what is left is checked for anything of the referee's
	// (relayable) and only then cut at 2,000 characters (issue 36: the cut
	// came first, and dropped lines of a valid tree without a word).
	cond, rest := splitConditional(wholeMessage(m))
	mm := *m
	mm.FullMessage = r.relayable(rest, g)
	mm.Message = reader.CapMessage(mm.FullMessage)
	m = &mm
	p := r.parseLine(m.Action, InGame, env.Lobby != nil)
	c := &call{cmd: p.cmd, args: p.args, m: m, env: env, g: g, color: color, pos: pos, cond: cond}
	if len(cond) > 0 && !p.cmd.conditions {
		return r.rejectActionIn(g, color, pos, m, env, "conditional lines with "+p.cmd.Words[0],
			lang.M("Your %q was not carried out: conditional lines (\"if ...\") go under a move, or alone on your opponent's turn, never with %q.",
				strings.TrimSpace(m.Action), p.cmd.Words[0]),
			lang.M("Send the command alone, and the \"if\" lines with your next move."))
	}
	rp := g.State.ResignPending
	if rp == nil || *rp != color || slices.Contains(p.cmd.Words, "confirm") {
		return r.dispatch(c)
	}
	// The command acts on the game without the resignation, so that its
	// mails show the game as it is after it.
	c.g = g.clone()
	c.g.State.ResignPending, c.g.State.ResignMessage = nil, ""
	out := r.dispatch(c)
	if out.Game == nil {
		out.Game = c.g
	}
	out.Detail += fmt.Sprintf("; %s's resignation request cancelled", color)
	for i, ml := range out.Mails {
		if ml.Board != nil && ml.To == g.Players[color].Address {
			b := *ml.Board
			b.Headline = strings.TrimSpace(b.Headline + " " + r.printer(g.Players[color].Language).Sprintf("Your request to resign is cancelled."))
			out.Mails[i].Board = &b
			break
		}
	}
	return out
}

// dispatch checks that the command may act in the game's state, and runs
// it.
func (r *Referee) dispatch(c *call) Outcome {
	g, color, pos, m, env := c.g, c.color, c.pos, c.m, c.env
	action := strings.TrimSpace(m.Action)
	if c.cmd.Where&Outside != 0 {
		return r.lobbyRun(c) // "games", "challenge ...", "record N" in a reply to a game mail
	}
	switch c.cmd.When {
	case Finished:
		if g.Status != StatusFinished {
			what := lang.M("Your %q was not carried out: game #%d is still being played.", action, g.ID)
			if g.Status == StatusAborted {
				what = lang.M("Your %q was not carried out: game #%d was %s, and has no result.", action, g.ID, overText{g})
			}
			return r.rejectActionIn(g, color, pos, m, env, fmt.Sprintf("%s: game #%d is %s", c.cmd.Name(), g.ID, g.Status), what,
				lang.M("Send %q once a game has ended with a result.", c.cmd.Name()))
		}
	case Playing:
		if g.Status != StatusActive {
			return r.rejectActionIn(g, color, pos, m, env, fmt.Sprintf("game #%d is over", g.ID),
				lang.M("Your action %q was not played: game #%d is over (%s).", action, g.ID, overText{g}),
				lang.M("Nothing more can be played in it. You can still ask for \"board\" or \"help\"."))
		}
		if action == "" {
			return r.rejectActionIn(g, color, pos, m, env, "empty action",
				lang.M("Your mail had no move or command on its first line."),
				lang.M("Reply with your move on the first line, or \"help\"."))
		}
		if m.Token.Ply != g.Ply() {
			what, todo := staleText(g, action, m.Token.Ply)
			return r.rejectActionIn(g, color, pos, m, env,
				fmt.Sprintf("stale: sent against ply %d, game at ply %d", m.Token.Ply, g.Ply()), what, todo)
		}
	}
	return c.cmd.run(r, c)
}

// resign asks the player to confirm: a stray word never ends a game.
func (r *Referee) resign(c *call) Outcome {
	g, color, m := c.g, c.color, c.m
	ng := g.clone()
	col := color
	ng.State.ResignPending = &col
	ng.State.ResignMessage = m.Message // passed on when the resignation is confirmed
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s asks to resign", g.ID, color), Game: ng}
	p := r.printer(g.Players[color].Language)
	out.Mails = []Mail{r.boardMail(ng, c.pos, color, render.Mail{Headline: p.Sprintf("You asked to resign. To resign, reply \"confirm\"; any other action cancels it.")},
		lang.M("Confirm your resignation"), m, KindResignAsk, "", c.env.Now)}
	return out
}

// confirm resigns, when the player asked to.
func (r *Referee) confirm(c *call) Outcome {
	g, color, pos, m := c.g, c.color, c.pos, c.m
	if p := g.State.ResignPending; p != nil && *p == color {
		if strings.TrimSpace(m.Message) == "" && g.State.ResignMessage != "" {
			withNote := *m
			withNote.Message = g.State.ResignMessage
			m = &withNote
		}
		headline := bySideText(color, lang.M("White resigned."), lang.M("Black resigned."))
		if early := unratedEarly(g); early != nil {
			g, headline = early, lang.Join(" ", headline, earlyResignNote())
		}
		return r.finish(g, color, pos, m, c.env.Now, rules.Result{Over: true, Winner: color.Other(), Reason: color.String() + " resigned"},
			game.EndResigned, headline)
	}
	return r.rejectActionIn(g, color, pos, m, c.env, "nothing to confirm",
		lang.M("There is nothing to confirm: \"confirm\" follows \"resign\"."), lang.M("To resign, reply \"resign\" and then \"confirm\"."))
}

// accept agrees to the opponent's takeback request, or to their draw
// offer. With neither pending there is nothing to accept: the answer says
// so, as "confirm" does, and nothing is offered in the player's name (a
// stray "accept" never becomes a draw offer).
func (r *Referee) accept(c *call) Outcome {
	g, color := c.g, c.color
	if tb := g.State.TakebackBy; tb != nil && *tb == color.Other() {
		return r.takeback(g, color, c.pos, c.m, c.env)
	}
	if o := g.DrawOffer; o != nil && o.By == color.Other() {
		return r.draw(g, color, c.pos, c.m, c.env)
	}
	return r.nothingToAccept(c)
}

// acceptDraw is "accept draw": the opponent's draw offer accepted, or
// nothing to accept; never an offer of the player's own.
func (r *Referee) acceptDraw(c *call) Outcome {
	if o := c.g.DrawOffer; o != nil && o.By == c.color.Other() {
		return r.draw(c.g, c.color, c.pos, c.m, c.env)
	}
	return r.nothingToAccept(c)
}

// nothingToAccept refuses an "accept" with no offer or request of the
// opponent pending.
func (r *Referee) nothingToAccept(c *call) Outcome {
	g, color := c.g, c.color
	what := lang.M("There is nothing to accept: your opponent has offered no draw and asked for no takeback.")
	switch {
	case g.DrawOffer != nil && g.DrawOffer.By == color:
		what = lang.M("There is nothing to accept: the draw offer pending is your own, and it waits for your opponent's answer.")
	case g.State.TakebackBy != nil && *g.State.TakebackBy == color.Other():
		what = lang.M("There is no draw offer to accept: your opponent asked to take back their last move; reply \"accept\" alone to agree to that.")
	case g.State.TakebackBy != nil && *g.State.TakebackBy == color:
		what = lang.M("There is nothing to accept: the takeback pending is your own request, and it waits for your opponent's answer.")
	}
	return r.rejectActionIn(g, color, c.pos, c.m, c.env, "nothing to accept", what,
		lang.M("\"accept\" answers your opponent's draw offer or takeback request. To offer a draw yourself, reply \"draw\"; to play on, reply with your move."))
}

// gameRecord sends the game's record to the player.
func (r *Referee) gameRecord(c *call) Outcome {
	rec, err := r.Record(c.g)
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	var b strings.Builder
	rec.Width = mailWidth // no mail client folds a line mid-move
	rec.WriteTo(&b)
	p := r.printer(c.g.Players[c.color].Language)
	return r.answerIn(c.g, c.color, c.pos, c.m, c.env.Now, KindRecord, lang.M("Here is the record of your game."), lang.M("Record"),
		[]render.Section{{Title: p.Sprintf("Record"), Body: b.String(), Pre: true}})
}

// move reads and plays a move.
func (r *Referee) move(g *Game, color rules.Color, pos rules.Position, m *reader.Mail, action string, env Env) Outcome {
	now := env.Now
	if pos.Turn() != color {
		what := lang.M("Your move %q (game #%d) was not played: it is White's turn.", action, g.ID)
		if pos.Turn() == rules.Black {
			what = lang.M("Your move %q (game #%d) was not played: it is Black's turn.", action, g.ID)
		}
		return r.rejectActionIn(g, color, pos, m, env, "not your turn", what,
			lang.M("Wait for the referee's mail saying it is your move."))
	}
	reading, err := notation.ReadFor(pos, action, notation.Options{Language: g.Players[color].Language})
	if err != nil {
		// The mail's footer says how to reply: the headline says what was
		// read and why it was not played, once.
		return r.rejectActionIn(g, color, pos, m, env, "illegal or unreadable: "+err.Error(), unreadText(g, pos, action, err), nil)
	}
	mv := reading.Move
	san := notation.SAN(pos, mv)
	coord := notation.Coord(pos, mv)
	next, err := pos.Play(mv)
	if err != nil {
		// A move read as legal that the rules refuse to play: a bug in
		// the rules, in their own (English) words.
		return r.rejectActionIn(g, color, pos, m, env, "illegal: "+err.Error(),
			lang.M("Your move %q (game #%d, move %d) was not played: %s", action, g.ID, pos.MoveNumber(), lang.Raw(sentence(err.Error()))), nil)
	}
	ng := g.clone()
	ng.DrawOffer = nil // any action other than accepting declines or withdraws an offer (docs/rules/README.md#common-ground)
	ng.State.ResignPending, ng.State.ResignMessage, ng.State.TakebackBy = nil, "", nil
	if cl := ng.clock(); cl != nil {
		cl.moved(color, now)
	}
	var rolls []Roll
	next, rolls = r.rollAsNeeded(ng, next, g.Ply()+1)
	act := Action{Ply: g.Ply(), Color: color, SAN: san, Coord: coord, Position: next.String(), Message: m.Message}
	ng.Actions = append(ng.Actions, act)
	ng.Rolls = append(ng.Rolls, rolls...)
	// The headline is written in each reader's language (issue 42), the
	// move in their letters; what is not translated yet (a variant's
	// effect, conditional lines) is English.
	sanT := sanText{pos.Variant(), san}
	headline := lang.Join(" ", bySideText(color, lang.M("White played %s.", sanT), lang.M("Black played %s.", sanT)))
	if ef, ok := pos.(rules.ActionEffect); ok {
		// What the action brought beyond its notation, with the rolls
		// that followed it: the apocalypse's victims, a re-roll's value.
		if e := ef.Effect(mv, next); e != "" {
			headline = lang.Raw(e)
		}
	}
	detail := fmt.Sprintf("game #%d: %s played %s", g.ID, color, san)
	newActs := []Action{act}
	var notice [2]lang.Text
	if res := next.Result(); res.Over {
		ng.setResult(res, game.EndBoard)
		headline = lang.Join(" ", headline, resultSentence(res))
	} else if reading.OfferDraw && ng.State.Cond != nil && ng.State.Cond.Trees[color.Other()] != nil {
		// A draw offer waits for the opponent's own answer: their lines
		// are cleared, never played over it.
		ng.DrawOffer = &DrawOffer{By: color, Ply: ng.Ply()}
		headline = lang.Join(" ", headline, drawWithIt(color))
		detail += " and offers a draw"
		ng.State.Cond = ng.State.Cond.clone()
		ng.State.Cond.Trees[color.Other()] = nil
		notice[color.Other()] = bySideText(color,
			lang.M("White offered a draw with %s: your conditional lines are cleared, so that you answer the offer yourself.", sanT),
			lang.M("Black offered a draw with %s: your conditional lines are cleared, so that you answer the offer yourself.", sanT))
	} else if ng.State.Cond != nil && ng.State.Cond.Trees[color.Other()] != nil {
		// The opponent's conditional lines answer this move at once, or
		// are cleared by it.
		var condActs []Action
		var words lang.Text
		next, condActs, words, notice = r.playConditions(ng, next, env)
		newActs = append(newActs, condActs...)
		if words != nil {
			headline = lang.Join(" ", headline, words)
			detail += "; " + words.In(r.english())
		}
	} else if reading.OfferDraw {
		// "Nc3 draw": the move, and a draw offer made with it (docs/rules/README.md#common-ground:
		// the opponent accepts before their next action or declines by it).
		ng.DrawOffer = &DrawOffer{By: color, Ply: ng.Ply()}
		headline = lang.Join(" ", headline, drawWithIt(color))
		detail += " and offers a draw"
	}
	// The mover sees how the line was read, so that a misreading can never
	// pass unnoticed.
	var note lang.Text
	written := strings.TrimSpace(action)
	if (written != san && written != notation.WriteIn(pos.Variant(), san, g.Players[color].Language)) || len(reading.Notes) > 0 {
		// How a letter of another language or ICCF digits were read.
		notes := lang.Join("; ", reading.NoteTexts...)
		offer := reading.OfferDraw && ng.DrawOffer != nil
		switch {
		case offer && len(reading.Notes) > 0:
			note = lang.M("Your line %q was read as %s with a draw offer (%s).", action, sanT, notes)
		case offer:
			note = lang.M("Your line %q was read as %s with a draw offer.", action, sanT)
		case len(reading.Notes) > 0:
			note = lang.M("Your line %q was read as %s (%s).", action, sanT, notes)
		default:
			note = lang.M("Your line %q was read as %s.", action, sanT)
		}
	}
	out := Outcome{Verdict: Applied, Detail: detail, Game: ng, NewActions: newActs, NewRolls: rolls}
	out.Mails = r.boardMailsIn(ng, next, lang.Join(" ", headline, note), headline, color, m, rolls, now)
	for c, n := range notice {
		if n != nil {
			p := r.printer(ng.Players[c].Language)
			addSection(out.Mails, ng, rules.Color(c), render.Section{Title: p.Sprintf("Your conditional moves"), Body: n.In(p)})
		}
	}
	codes, mailWhy := reading.Languages, ""
	if len(codes) == 0 && m != nil && !languageSet(g.Players[color].Language) && !languageSet(env.Language) && !env.LanguageHinted {
		// Only a player who may be hinted: reading a long mail's quote
		// header costs as much as reading the mail.
		codes, mailWhy = mailLanguages(m)
	}
	if s, ok := r.languageHint(g.Players[color], env, codes, mailWhy); ok {
		addSection(out.Mails, ng, color, s)
		out.Lobby = &LobbyChange{LanguageHint: &LanguageHintChange{Address: g.Players[color].Address, Codes: codes}}
		out.Detail += "; told how to set " + strings.Join(codes, " or ")
	}
	return out
}

// draw handles offers, acceptances and claims.
func (r *Referee) draw(g *Game, color rules.Color, pos rules.Position, m *reader.Mail, env Env) Outcome {
	now := env.Now
	if o := g.DrawOffer; o != nil && o.By == color.Other() {
		return r.finish(g, color, pos, m, now, rules.Result{Over: true, Draw: true, Reason: "agreed"}, game.EndAgreed,
			bySideText(color, lang.M("White accepted Black's draw offer."), lang.M("Black accepted White's draw offer.")))
	}
	if pos.Turn() == color {
		if claim := pos.Claimable(); claim != "" {
			why := textFunc(func(p *lang.Printer) string { return reasonText(p, claim) })
			return r.finish(g, color, pos, m, now, rules.Result{Over: true, Draw: true, Reason: claim + " (claimed)"}, game.EndClaimed,
				bySideText(color, lang.M("White claimed a draw by %s.", why), lang.M("Black claimed a draw by %s.", why)))
		}
	}
	if o := g.DrawOffer; o != nil && o.By == color {
		return r.rejectActionIn(g, color, pos, m, env, "draw already offered",
			lang.M("You have already offered a draw; your opponent has not answered yet."),
			lang.M("Wait for their answer, or play on."))
	}
	ng := g.clone()
	ng.DrawOffer = &DrawOffer{By: color, Ply: g.Ply()}
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s offers a draw", g.ID, color), Game: ng}
	out.Mails = r.boardMailsIn(ng, pos,
		lang.M("Your draw offer was sent to %s, who can accept it by replying \"draw\"; any other action of theirs declines it.", colorText(color.Other())),
		bySideText(color, lang.M("White offers a draw."), lang.M("Black offers a draw.")), color, m, nil, now) // the prompt says how to accept (howToReply)
	return out
}

// finish ends the game with res, by an action that is not a move.
func (r *Referee) finish(g *Game, color rules.Color, pos rules.Position, m *reader.Mail, now time.Time, res rules.Result, end game.Ending, headline lang.Text) Outcome {
	ng := g.clone()
	ng.DrawOffer = nil
	ng.setResult(res, end)
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s", g.ID, res), Game: ng}
	h := lang.Join(" ", headline, resultSentence(res))
	out.Mails = r.boardMailsIn(ng, pos, h, h, color, m, nil, now)
	return out
}

// textFunc is a text written by a function of the reader's printer.
type textFunc func(p *lang.Printer) string

// In is f's text in p's language.
func (f textFunc) In(p *lang.Printer) string { return f(p) }

func (g *Game) setResult(res rules.Result, end game.Ending) {
	g.Status = StatusFinished
	g.Result = res.Score()
	g.ResultReason = res.Reason
	g.Ending = end
	g.SeedRevealed = true
}

// rollAsNeeded rolls the die for as long as the position waits for a roll;
// ply is the number of actions played before these rolls.
func (r *Referee) rollAsNeeded(g *Game, pos rules.Position, ply int) (rules.Position, []Roll) {
	var rolls []Roll
	for {
		roller, ok := pos.(rules.Roller)
		if !ok || !roller.NeedsRoll() {
			return pos, rolls
		}
		n := len(g.Rolls) + len(rolls) + 1
		id := fmt.Sprint(g.ID)
		v := dice.Roll(g.Seed, id, n)
		next, err := roller.Roll(v)
		if err != nil {
			// The rules asked for a roll and refused a die value: a bug in the
			// rules, never the player's doing. Stop rolling rather than loop.
			return pos, rolls
		}
		rolls = append(rolls, Roll{N: n, Ply: ply, Value: v, Sig: r.cfg.Key.Sign(id, n, v)})
		pos = next
	}
}

func (g *Game) clone() *Game {
	ng := *g
	ng.Actions = append([]Action(nil), g.Actions...)
	ng.Rolls = append([]Roll(nil), g.Rolls...)
	if g.DrawOffer != nil {
		o := *g.DrawOffer
		ng.DrawOffer = &o
	}
	ng.State = g.State.clone()
	ng.Watchers = append([]string(nil), g.Watchers...)
	return &ng
}

// overText is gameOverText for a text written later.
type overText struct{ g *Game }

// In is how the game is over, in p's language.
func (o overText) In(p *lang.Printer) string { return gameOverText(p, o.g) }

func gameOverText(p *lang.Printer, g *Game) string {
	switch g.Status {
	case StatusAborted:
		if strings.HasPrefix(g.AbortReason, AnnulledPrefix) {
			return g.AbortReason // "annulled: bob@example.org withdrew from autumn"
		}
		if g.AbortReason != "" {
			return p.Sprintf("aborted by the organiser: %s", g.AbortReason)
		}
		return p.Sprintf("aborted by the organiser")
	default:
		return resultText(p, g)
	}
}

// resultText is how g ended, in p's language: "White won, checkmate".
func resultText(p *lang.Printer, g *Game) string {
	switch g.Result {
	case "1-0":
		return p.Sprintf("White won, %s", reasonText(p, g.ResultReason))
	case "0-1":
		return p.Sprintf("Black won, %s", reasonText(p, g.ResultReason))
	case "1/2-1/2":
		return p.Sprintf("drawn, %s", reasonText(p, g.ResultReason))
	}
	return p.Sprintf("finished")
}

// bySideText is white when c is White, else black.
func bySideText(c rules.Color, white, black lang.Text) lang.Text {
	if c == rules.White {
		return white
	}
	return black
}

// drawWithIt is the sentence a move with a draw offer adds.
func drawWithIt(c rules.Color) lang.Text {
	return bySideText(c, lang.M("White offers a draw with it."), lang.M("Black offers a draw with it."))
}

// reasonOf is why a move was not read or played, without the input it
// quotes (the headline quotes it already), in p's language: the notation
// reader's reason (notation.Error.Why), or, from an Error without one,
// its English. The moves an ambiguous text fits at pos are written in
// p's piece letters where the reader reads them back as the same move
// (candidateIn).
func reasonOf(p *lang.Printer, pos rules.Position, err error) string {
	var ne *notation.Error
	if !errors.As(err, &ne) {
		return err.Error()
	}
	var cands lang.Text
	if len(ne.Candidates) > 0 {
		written := make([]lang.Text, len(ne.Candidates))
		for i, c := range ne.Candidates {
			written[i] = lang.Raw(candidateIn(pos, c, p.ReaderTag()))
		}
		cands = rules.OrList(written...)
	}
	switch {
	case ne.Kind == notation.Ambiguous:
		if ne.Why != nil {
			return p.Sprintf("it fits more than one legal move (%s): %s. Reply with the one you mean, written as it is here", ne.Why, cands)
		}
		return p.Sprintf("it fits more than one legal move: %s. Reply with the one you mean, written as it is here", cands)
	case ne.Kind == notation.NotPlayed && ne.Why != nil:
		return ne.Why.In(p)
	case ne.Kind == notation.Unread && ne.Why != nil:
		return p.Sprintf("it %s", ne.Why) // "is not a move the referee can read: ..."
	}
	if len(ne.Candidates) > 0 {
		// Why, where the reader says more than that: how a letter of
		// another language was read both ways, what a promotion digit is.
		// (The reader's own English words.)
		why := strings.TrimPrefix(strings.TrimPrefix(ne.Reason, "more than one legal move fits"), ": ")
		if why != "" {
			return p.Sprintf("it fits more than one legal move (%s): %s. Reply with the one you mean, written as it is here", why, cands)
		}
		return p.Sprintf("it fits more than one legal move: %s. Reply with the one you mean, written as it is here", cands)
	}
	reason := strings.TrimPrefix(ne.Reason, "was not played: ")
	if reason == ne.Reason {
		reason = "it " + reason // "is not a move the referee can read: ..."
	}
	return reason
}

// candidateIn is the candidate move c of an ambiguous text at pos (as
// the notation reader wrote it, read as one move by a player of the
// language tag code, lang.Tag) in the reader's piece letters or
// figurines (notation.WriteIn), where
// the player's reply with it is read as the same move; c itself where it
// would not be (a Dutch "Pc3" is a knight's move and a pawn's) or where
// there is no position to check it in.
func candidateIn(pos rules.Position, c, code string) string {
	if pos == nil {
		return c
	}
	w := notation.WriteIn(pos.Variant(), c, code)
	if w == c {
		return c
	}
	opts := notation.Options{Language: code}
	want, err := notation.ReadFor(pos, c, opts)
	if err != nil {
		return c
	}
	if got, err := notation.ReadFor(pos, w, opts); err != nil || got.Move != want.Move || got.OfferDraw != want.OfferDraw {
		return c
	}
	return w
}

// byteSize writes n bytes for people: "2 MiB", "640 KiB", "300 bytes".
func byteSize(n int64) lang.Text {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return lang.Raw(fmt.Sprintf("%d MiB", n>>20))
	case n >= 1<<20:
		return lang.Raw(fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)))
	case n >= 1<<10:
		return lang.Raw(fmt.Sprintf("%d KiB", n>>10))
	}
	return lang.M("%d bytes", int(n))
}

// sentence ends s with a full stop, unless it has one: at its end, or
// inside the closing bracket of a note that ends it ("... (S is the
// knight in German.)").
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, ".)") {
		s += "."
	}
	return s
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// takeback offers to take back the last action, or accepts the opponent's
// offer. It is refused once a die has been rolled after that action.
func (r *Referee) takeback(g *Game, color rules.Color, pos rules.Position, m *reader.Mail, env Env) Outcome {
	now := env.Now
	if len(g.Actions) == 0 {
		return r.rejectActionIn(g, color, pos, m, env, "nothing to take back",
			lang.M("There is no move to take back yet."), lang.M("Reply with your move."))
	}
	last := g.Actions[len(g.Actions)-1]
	for _, x := range g.Rolls {
		if x.Ply > last.Ply {
			return r.rejectActionIn(g, color, pos, m, env, "takeback after a roll",
				lang.M("%s cannot be taken back: the die has been rolled since (roll %d), and a roll is never undone.", last.SAN, x.N),
				lang.M("Reply with your action."))
		}
	}
	if tb := g.State.TakebackBy; tb != nil && *tb == color.Other() {
		ng := g.clone()
		ng.Actions = ng.Actions[:len(ng.Actions)-1]
		ng.State.TakebackBy, ng.DrawOffer, ng.State.ResignPending, ng.State.ResignMessage = nil, nil, nil, ""
		if ng.State.Cond != nil {
			ng.State.Cond.Trees = [2]*CondTree{} // a takeback clears both trees; the log stays, to be revealed
		}
		rep, err := ng.Replay()
		if err != nil {
			return Outcome{Verdict: Ignored, Detail: err.Error()}
		}
		out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s taken back", g.ID, last.SAN), Game: ng, Undo: true}
		h := bySideText(color, lang.M("White agreed: %s is taken back.", sanText{g.Variant, last.SAN}), lang.M("Black agreed: %s is taken back.", sanText{g.Variant, last.SAN}))
		out.Mails = r.boardMailsIn(ng, rep.Final, h, h, color, m, nil, now)
		return out
	}
	if tb := g.State.TakebackBy; tb != nil && *tb == color {
		return r.rejectActionIn(g, color, pos, m, env, "takeback already asked",
			lang.M("You have already asked to take back the last move; your opponent has not answered."), lang.M("Wait for the answer, or play on."))
	}
	ng := g.clone()
	c := color
	ng.State.TakebackBy = &c
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s asks to take back %s", g.ID, color, last.SAN), Game: ng}
	san := sanText{g.Variant, last.SAN}
	out.Mails = r.boardMailsIn(ng, pos,
		lang.M("Your request to take back %s was sent to %s, who can agree by replying \"accept\".", san, colorText(color.Other())),
		bySideText(color, lang.M("White asks to take back %s. To agree, reply \"accept\"; any other action declines.", san),
			lang.M("Black asks to take back %s. To agree, reply \"accept\"; any other action declines.", san)), color, m, nil, now)
	return out
}

func (s State) clone() State {
	out := s // every plain field; the pointers are copied below
	if s.ResignPending != nil {
		c := *s.ResignPending
		out.ResignPending = &c
	}
	if s.TakebackBy != nil {
		c := *s.TakebackBy
		out.TakebackBy = &c
	}
	if s.Clock != nil {
		c := *s.Clock
		out.Clock = &c
	}
	out.Cond = s.Cond.clone()
	return out
}

package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/render"
	"referee/internal/rules"
)

// Referee is the core. It holds only configuration, the command table
// (commands.go) and the message catalogs (i18n.go), none of which change.
type Referee struct {
	cfg  Config
	cmds []Command
	cat  *lang.Catalog
}

// New returns a core with cfg.
func New(cfg Config) *Referee {
	if cfg.MaxRefusalsPerHour <= 0 {
		cfg.MaxRefusalsPerHour = 10
	}
	if cfg.MaxGameRefusalsPerHour <= 0 {
		cfg.MaxGameRefusalsPerHour = 3
	}
	if cfg.Name == "" {
		cfg.Name = "Referee"
	}
	cfg.Address = strings.ToLower(strings.TrimSpace(cfg.Address))
	cat := cfg.Catalog
	if cat == nil {
		cat = lang.MustLoad()
	}
	return &Referee{cfg: cfg, cmds: commandTable(), cat: cat}
}

// Config returns the core's configuration.
func (r *Referee) Config() Config { return r.cfg }

// ReplyAddress is the address a player replies to: the referee's address
// with the token as its plus-detail.
func (r *Referee) ReplyAddress(g *Game, c rules.Color) string {
	return addr.Plus(r.cfg.Address, r.token(g, c).String())
}

func (r *Referee) token(g *Game, c rules.Color) reader.Token {
	return reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}
}

func (r *Referee) domain() string {
	if at := strings.LastIndexByte(r.cfg.Address, '@'); at >= 0 {
		return r.cfg.Address[at+1:]
	}
	return "referee.invalid"
}

// threadID is the Message-ID every mail of one player's thread refers to.
func (r *Referee) threadID(g *Game, c rules.Color) string {
	return fmt.Sprintf("<game-%d-%s-%s@%s>", g.ID, strings.ToLower(c.String()), r.nonce("thread"), r.domain())
}

// nonce is a short hex digest of parts and the deployment's IDSalt.
func (r *Referee) nonce(parts ...string) string {
	h := sha256.Sum256([]byte(r.cfg.IDSalt + "\x00" + strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:10])
}

// messageID derives a stable Message-ID from what the mail is about, so that
// a repeated decision produces the same identifiers.
func (r *Referee) messageID(parts ...string) string {
	return fmt.Sprintf("<%s@%s>", r.nonce(parts...), r.domain())
}

// subject builds "[variant #id] text". It never carries a player's secret:
// subjects leak (forwards, notifications, screenshots, digests).
func (r *Referee) subject(g *Game, text string) string { return r.subjectIn(nil, g, text) }

// subjectIn is subject with the event's place in p's language.
func (r *Referee) subjectIn(p *lang.Printer, g *Game, text string) string {
	if g.Event != nil {
		// The event's game: its place first, so that a season's mails
		// sort and read apart.
		return fmt.Sprintf("[%s #%d] %s - %s", g.Variant.Name(), g.ID, g.Event.PlaceText().In(p), text)
	}
	return fmt.Sprintf("[%s #%d] %s", g.Variant.Name(), g.ID, text)
}

// refuse answers mail that could not be tied to a player, briefly and at
// most MaxRefusalsPerHour times an hour per sender.
func (r *Referee) refuse(env Env, m *reader.Mail, detail, what, todo string) Outcome {
	return r.refuseIn(env, m, detail, lang.Raw(what), lang.Raw(todo))
}

// refuseIn is refuse with what and todo written in the sender's language
// (Env.Language), as the mail's frame is; detail is the log's, in
// English.
func (r *Referee) refuseIn(env Env, m *reader.Mail, detail string, what, todo lang.Text) Outcome {
	if env.RecentRefusals >= r.cfg.MaxRefusalsPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("%s (not answered: %d refusals to %s in the last hour, the limit is %d)",
			detail, env.RecentRefusals, m.From, r.cfg.MaxRefusalsPerHour)}
	}
	p := r.senderPrinter(env)
	subj := m.Subject
	if subj == "" {
		subj = p.Sprintf("your mail")
	}
	if !strings.HasPrefix(strings.ToLower(subj), "re:") {
		subj = "Re: " + subj
	}
	text := wrap(what.In(p)) + "\n\n" + wrap(todo.In(p)) + "\n\n" +
		p.Sprintf("(This is an automatic reply from the referee at %s.)", r.cfg.Address) + "\n"
	l := Mail{Kind: KindRefusal, To: m.From, Subject: subj, MessageID: r.messageID("refuse", m.MessageID, m.From, detail),
		InReplyTo: m.MessageID, Text: text, Date: env.Now}
	if m.MessageID != "" {
		l.References = []string{m.MessageID}
	}
	return Outcome{Verdict: Rejected, Detail: detail, Mails: []Mail{l}}
}

// rejectAction answers an authenticated player whose action was refused:
// what was read, why, what to do, and the current board.
//
// A player is refused at most MaxGameRefusalsPerHour times an hour per
// game, and never twice in a row with the same refusal: a bot that answers
// every mail (an out-of-office reply that keeps the subject and no
// Auto-Submitted) cannot start a loop. What is not answered is recorded
// with the reason, and "referee show" lists it.
func (r *Referee) rejectAction(g *Game, c rules.Color, pos rules.Position, m *reader.Mail, env Env, detail, what, todo string) Outcome {
	var t lang.Text
	if todo != "" {
		t = lang.Raw(todo)
	}
	return r.rejectActionIn(g, c, pos, m, env, detail, lang.Raw(what), t)
}

// rejectActionIn is rejectAction with what and todo written in the
// player's language (todo nil for none).
func (r *Referee) rejectActionIn(g *Game, c rules.Color, pos rules.Position, m *reader.Mail, env Env, detail string, what, todo lang.Text) Outcome {
	if env.LastRefusal == detail {
		return Outcome{Verdict: Ignored, Detail: detail + " (not answered: the same refusal answered this player's previous mail)"}
	}
	if env.GameRefusals >= r.cfg.MaxGameRefusalsPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("%s (not answered: %d refusals to %s about game #%d in the last hour, the limit is %d)",
			detail, env.GameRefusals, c, g.ID, r.cfg.MaxGameRefusalsPerHour)}
	}
	if env.GameRefusals == r.cfg.MaxGameRefusalsPerHour-1 {
		// The last refusal before the limit says so: the silence that
		// follows must not read as "it was played".
		todo = lang.Join(" ", todo, r.limitNotice(g, env))
	}
	p := r.printer(g.Players[c].Language)
	body := render.Mail{Headline: what.In(p)}
	if todo != nil {
		if s := strings.TrimSpace(todo.In(p)); s != "" {
			body.Sections = []render.Section{{Title: p.Sprintf("What to do"), Body: s}}
		}
	}
	mail := r.boardMail(g, pos, c, body, lang.M("Not played: %s", strings.TrimSpace(firstWords(m.Action, 6))), m, KindReject, detail, env.Now)
	return Outcome{Verdict: Rejected, Detail: detail, Mails: []Mail{mail}}
}

// unreadText is the headline of a refused move: what was read and why it
// was not played. A first line that is prose, not a move ("Thanks for the
// game, ..."), is not called a move: the player is told that the first
// line must be the action and greetings go below it.
//
// The reason comes from the notation reader (notation.Error.Why), written
// in the player's language as the sentence around it.
func unreadText(g *Game, pos rules.Position, action string, err error) lang.Text {
	var ne *notation.Error
	if errors.As(err, &ne) && strings.HasPrefix(ne.Reason, "is not a move the referee can read") && looksLikeProse(action) {
		return lang.M("The first line of your mail, %q, is not a move or a command, so nothing was played in game #%d. "+
			"The referee reads only the first line as your action: put the move there alone (e.g. %q) or a command "+
			"(\"board\", \"help\"), and write greetings and messages on the lines below it, where they are passed on to your opponent.",
			firstWords(action, 8), g.ID, exampleText{pos, suggestionMove(pos, pos.Legal())})
	}
	return lang.M("Your move %q (game #%d, move %d) was not played: %s", action, g.ID, pos.MoveNumber(), sentenceText{whyText{err, pos}})
}

// whyText is why a move was not read or played (reasonOf), for the
// reader's language.
type whyText struct {
	err error
	pos rules.Position // where the move was read
}

// In is the reason in p's language.
func (w whyText) In(p *lang.Printer) string { return reasonOf(p, w.pos, w.err) }

// sentenceText is a text ended as a sentence (sentence).
type sentenceText struct{ t lang.Text }

// In is the text in p's language, with a full stop at its end.
func (s sentenceText) In(p *lang.Printer) string { return sentence(s.t.In(p)) }

// looksLikeProse reports whether a first line reads as words to a person
// rather than a try at a move: three words or more, or a word and a
// greeting's punctuation ("Hello!", "Thanks,").
func looksLikeProse(s string) bool {
	f := strings.Fields(s)
	return len(f) >= 3 || (len(f) >= 1 && strings.ContainsAny(s[len(s)-1:], ",!") && len(strings.Trim(f[0], ",!")) > 3)
}

// orList joins "a", "a or b", "a, b or c".
func orList(items []string) string {
	if n := len(items); n > 1 {
		return strings.Join(items[:n-1], ", ") + " or " + items[n-1]
	}
	return strings.Join(items, "")
}

// staleText is the refusal of an action sent in reply to a mail that
// showed the game after seen actions while the game stands at another
// count. Fewer: the game moved on. More: the mail refers to a position the
// referee does not have, because its database was restored from a backup
// taken before that mail was sent; the actions after the backup are gone,
// and the game goes on from the board the referee has.
func staleText(g *Game, action string, seen int) (what, todo lang.Text) {
	if seen > g.Ply() {
		lost := seen - g.Ply()
		return lang.M("Your action %q was not played: the mail you replied to showed game #%d %s, "+
				"but the referee's record of the game ends %s. The referee was restored from a backup "+
				"taken before that mail was sent, so it does not have the position you answered: %s "+
				"of the game as you saw it are not in its record. The board below is the game as the referee has it now, "+
				"and play goes on from it.",
				action, g.ID, lang.M("after %d actions", seen), lang.M("after %d actions", g.Ply()), lang.M("the last %d actions", lost)),
			lang.M("Check the board below: a move you (or your opponent) sent after the backup has to be sent again. " +
				"Reply to THIS mail with your action.")
	}
	return lang.M("Your action %q was not played: you replied to an older mail (it showed the game "+
			"%s; %s). The board below is the current one.",
			action, lang.M("after %d actions", seen), lang.M("%d have been played since", g.Ply()-seen)),
		lang.M("Check the board, then reply to THIS mail with your action.")
}

// limitNotice is what the last refusal before the limit adds: until when
// further refusals in the game go unanswered, and that a legal move is
// always answered. The count drops below the limit an hour after the
// oldest refusal of the last hour (this one, when it is the only one).
func (r *Referee) limitNotice(g *Game, env Env) lang.Text {
	until := env.Now.Add(time.Hour)
	if env.GameRefusals > 0 && !env.OldestGameRefusal.IsZero() {
		until = env.OldestGameRefusal.Add(time.Hour)
	}
	until = until.Add(time.Minute - 1).Truncate(time.Minute) // never earlier than the true time
	return limitText{n: r.cfg.MaxGameRefusalsPerHour, id: g.ID, until: until.UTC()}
}

// limitText is limitNotice's sentence.
type limitText struct {
	n     int
	id    int64
	until time.Time
}

// In is the sentence in p's language.
func (t limitText) In(p *lang.Printer) string {
	return p.Sprintf("This is the %s refusal in game #%d within an hour: until %s, further mails in this game that cannot be "+
		"played get no answer (this keeps the referee out of loops with automatic replies). A legal move, and any command "+
		"that is valid, is always answered.", ordinalIn(p, t.n), t.id, whenFor(p, t.until, time.UTC))
}

// ordinalIn is ordinal in p's language.
func ordinalIn(p *lang.Printer, n int) string {
	switch n {
	case 1:
		return p.Sprintf("first")
	case 2:
		return p.Sprintf("second")
	case 3:
		return p.Sprintf("third")
	}
	return p.Sprintf("%dth", n)
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}

// answer replies to a command that changes nothing.
func (r *Referee) answer(g *Game, c rules.Color, pos rules.Position, m *reader.Mail, now time.Time, kind MailKind, headline string, sections []render.Section) Outcome {
	return r.answerIn(g, c, pos, m, now, kind, lang.Raw(headline), lang.Raw(capital(string(kind))), sections)
}

// answerIn is answer with the headline and the subject's text written in
// the player's language (sections come written in it).
func (r *Referee) answerIn(g *Game, c rules.Color, pos rules.Position, m *reader.Mail, now time.Time, kind MailKind, headline, subject lang.Text, sections []render.Section) Outcome {
	body := render.Mail{Headline: headline.In(r.printer(g.Players[c].Language)), Sections: sections}
	mail := r.boardMail(g, pos, c, body, subject, m, kind, "", now)
	return Outcome{Verdict: Answered, Detail: fmt.Sprintf("game #%d: %s sent %q", g.ID, c, kind), Mails: []Mail{mail}}
}

// boardMails tells both players what happened after an applied action.
func (r *Referee) boardMails(g *Game, pos rules.Position, headline string, mover rules.Color, m *reader.Mail, rolls []Roll, now time.Time) []Mail {
	return r.boardMailsIn(g, pos, lang.Raw(headline), lang.Raw(headline), mover, m, rolls, now)
}

// boardMailsTo is boardMails with one headline for the mover and another
// for the opponent (and spectators): "you offered a draw" against "White
// offers a draw: to accept, reply draw".
func (r *Referee) boardMailsTo(g *Game, pos rules.Position, moverHeadline, headline string, mover rules.Color, m *reader.Mail, rolls []Roll, now time.Time) []Mail {
	return r.boardMailsIn(g, pos, lang.Raw(moverHeadline), lang.Raw(headline), mover, m, rolls, now)
}

// boardMailsIn is boardMailsTo with the headlines written in each
// reader's language. The English headline names the mails (the
// Message-ID's salt), as before; spectators get it in English.
func (r *Referee) boardMailsIn(g *Game, pos rules.Position, moverHeadlineText, headlineText lang.Text, mover rules.Color, m *reader.Mail, rolls []Roll, now time.Time) []Mail {
	var out []Mail
	headline := headlineText.In(r.english())
	for _, c := range []rules.Color{mover, mover.Other()} {
		p := r.printer(g.Players[c].Language)
		body := render.Mail{Headline: headlineText.In(p)}
		if c == mover {
			body.Headline = moverHeadlineText.In(p)
		}
		if c != mover && m != nil && strings.TrimSpace(r.relayable(m.Message, g)) != "" {
			body.Relay = r.relayable(m.Message, g) // the last check (relay.go)
			body.RelayFrom = g.Players[mover].displayName(mover)
		}
		if len(rolls) > 0 {
			body.Sections = append(body.Sections, r.rollSection(p, rolls))
		}
		if g.Status == StatusFinished && g.Commitment != "" {
			body.Sections = append(body.Sections, r.revealSection(p, g))
		}
		if s, ok := finalRatingSection(p, g); ok {
			body.Sections = append(body.Sections, s)
		}
		if s, ok := condRevealSection(p, g); ok {
			body.Sections = append(body.Sections, s)
		}
		mail := r.boardMail(g, pos, c, body, nil, m, KindBoard, headline, now)
		// The outbox sends the mail that asks a player to act first
		// (store.PriorityGame), the mover's confirmation after it. (The
		// Message-ID keeps "board" as its nonce.)
		mail.Kind = KindMove
		switch {
		case g.Status != StatusActive:
			mail.Kind = KindGameEnd // at once, even to a digest player
		case c == mover:
			mail.Kind = KindConfirmation
		}
		out = append(out, mail)
	}
	return append(out, r.spectatorMailsIn(g, pos, headlineText, now)...)
}

// spectatorMails send watchers the board, with no Reply-To: nothing they
// send back can act in the game. In a game shown late (State.WatchDelay)
// they get the position of Shown() actions, and only when an action was
// just played: a draw offer or a takeback tells them nothing.
func (r *Referee) spectatorMails(g *Game, pos rules.Position, headline string, now time.Time) []Mail {
	return r.spectatorMailsIn(g, pos, lang.Raw(headline), now)
}

// spectatorMailsIn is spectatorMails with the headline written in each
// spectator's language.
func (r *Referee) spectatorMailsIn(g *Game, pos rules.Position, headline lang.Text, now time.Time) []Mail {
	if len(g.Watchers) == 0 || g.State.Private {
		return nil
	}
	view := g.SpectatorView()
	if n := view.Ply(); n < g.Ply() {
		if n == 0 || !justPlayed(g) {
			return nil
		}
		p, err := view.Position()
		if err != nil {
			return nil
		}
		last := view.Actions[n-1]
		pos = p
		headline = bySideText(last.Color,
			lang.M("White played %s. This game is shown %s late.", sanText{g.Variant, last.SAN}, lang.M("%d moves", g.State.WatchDelay)),
			lang.M("Black played %s. This game is shown %s late.", sanText{g.Variant, last.SAN}, lang.M("%d moves", g.State.WatchDelay)))
	}
	return r.spectatorMailsOf(g, view, pos, headline, now)
}

// spectatorMailsOf writes the spectator mails of view (g as spectators
// see it), each in its spectator's language (Game.WatcherLanguages).
func (r *Referee) spectatorMailsOf(g, view *Game, pos rules.Position, headline lang.Text, now time.Time) []Mail {
	var out []Mail
	english := headline.In(r.english())
	for _, w := range g.Watchers {
		if _, plays := g.colorOf(w); plays {
			continue // a player of the event who observes it gets their own games' mails
		}
		p := r.printer(g.WatcherLanguages[w])
		body := render.Mail{GameID: g.ID, Variant: g.Variant, Pos: pos, Viewer: rules.White, Spectator: true, Lang: p,
			Status: r.statusLine(p, view, pos, now), Headline: headline.In(p), MoveList: played(view), MoveNote: notation.MarksNote(sans(view)),
			Footer: p.Sprintf("You are watching game #%d (%s v %s). To stop, send \"%s\" to %s.",
				g.ID, PublicName(g.Players[0]), PublicName(g.Players[1]), g.unobserveWord(w), r.cfg.Address)}
		if g.watchesViaEvent(w) {
			body.Footer = p.Sprintf("You are watching game #%d (%s v %s) as a game of the event %s. To stop the mails of all its games, send \"%s\" to %s.",
				g.ID, PublicName(g.Players[0]), PublicName(g.Players[1]), g.Event.Name, g.unobserveWord(w), r.cfg.Address)
		}
		out = append(out, Mail{Kind: KindSpectator, To: w, Subject: r.subjectIn(p, g, p.Sprintf("%s (watching)", headline.In(p))),
			MessageID: r.messageID("watch", fmt.Sprint(g.ID), fmt.Sprint(view.Ply()), w, english),
			InReplyTo: r.watchThreadID(g), References: []string{r.watchThreadID(g)},
			Board: &body, LastMove: lastSquares(view), Date: now})
	}
	return out
}

// watchThreadID is the Message-ID every spectator mail of a game refers to.
func (r *Referee) watchThreadID(g *Game) string {
	return fmt.Sprintf("<game-%d-watch-%s@%s>", g.ID, r.nonce("thread"), r.domain())
}

func (p Player) displayName(c rules.Color) string {
	if p.Name != "" {
		return p.Name
	}
	return c.String()
}

// boardMail composes one board mail to the player of colour c, in their
// language: body's headline and sections come written in it, subject is
// the subject's text (nil: whose turn it is).
func (r *Referee) boardMail(g *Game, pos rules.Position, c rules.Color, body render.Mail, subject lang.Text, m *reader.Mail, kind MailKind, salt string, now time.Time) Mail {
	p := r.printer(g.Players[c].Language)
	body.Lang = p
	body.GameID = g.ID
	body.Variant = g.Variant
	body.Pos = pos
	body.Viewer = c
	body.Status = r.statusLine(p, g, pos, now)
	if cl := g.clock(); cl != nil && g.Status == StatusActive && pos.Turn() == c {
		// The deadline, in the reader's own time zone.
		body.Status += p.Sprintf(" - your time runs out %s", whenFor(p, cl.Deadline(c), g.Players[c].Location()))
	}
	body.MoveList = played(g)
	for i := range body.MoveList {
		body.MoveList[i].SAN = notation.WriteIn(g.Variant, body.MoveList[i].SAN, p.ReaderTag())
	}
	body.MoveNote = notation.MarksNote(sans(g))
	if len(g.Actions) > 0 {
		body.LastMove = notation.WriteIn(g.Variant, g.Actions[len(g.Actions)-1].SAN, p.ReaderTag())
	}
	if g.Status == StatusActive {
		body.Prompt, body.Commands, body.Example = r.howToReply(p, g, pos, c)
	} else {
		body.Prompt = p.Sprintf("The game is over: %s.", gameOverText(p, g)) + r.eventOver(p, g)
		body.Commands = r.footer(g, pos, c, nil)
	}
	body.Footer = p.Sprintf("Referee for game #%d. Reply to this mail to act.", g.ID)
	subjectText := ""
	if subject == nil {
		subjectText = r.turnSubject(p, g, pos, c)
	} else {
		subjectText = subject.In(p)
	}
	inReplyTo := r.threadID(g, c)
	refs := []string{r.threadID(g, c)}
	if m != nil && m.MessageID != "" {
		inReplyTo = m.MessageID
		refs = append(refs, m.MessageID)
	}
	msgid := ""
	if m != nil {
		msgid = m.MessageID
	}
	return Mail{
		Kind:    kind,
		To:      g.Players[c].Address,
		ToName:  g.Players[c].Name,
		Subject: r.subjectIn(p, g, subjectText),
		// Finished and aborted games keep a reply address too: "board",
		// "help" and "record" work on them.
		ReplyTo: r.ReplyAddress(g, c),
		// The Message-ID carries the player's token as well as the Reply-To:
		// every client copies it into In-Reply-To, so a reply names its game
		// even where the provider drops plus-addresses.
		MessageID:  r.token(g, c).MessageID(r.nonce(string(kind), fmt.Sprint(g.ID), fmt.Sprint(g.Ply()), c.String(), msgid, salt), r.domain()),
		InReplyTo:  inReplyTo,
		References: refs,
		Board:      &body,
		LastMove:   lastSquares(g),
		Date:       now,
	}
}

// statusLine is the mail's first line in p's language: the game, the
// move, whose turn, the die and the clocks, or the result.
func (r *Referee) statusLine(p *lang.Printer, g *Game, pos rules.Position, now time.Time) string {
	s := p.Sprintf("Game #%d - %s - move %d", g.ID, variantTitle(p, g.Variant), pos.MoveNumber())
	if g.Event != nil {
		s = p.Sprintf("Game #%d (%s) - %s - move %d", g.ID, g.Event.PlaceText(), variantTitle(p, g.Variant), pos.MoveNumber())
	}
	switch g.Status {
	case StatusActive:
		s += bySide(pos.Turn(), p.Sprintf(" - White to play"), p.Sprintf(" - Black to play"))
		if d := dieWords(p, pos); d != "" {
			s += p.Sprintf(" - die %s", d)
		}
		if c := g.clock(); c != nil {
			s += " - " + c.textIn(p, pos.Turn(), now)
		}
	case StatusFinished:
		s += " - " + g.Result + " (" + reasonText(p, g.ResultReason) + ")"
	case StatusAborted:
		s += p.Sprintf(" - aborted")
	}
	return s
}

// bySide is white when c is White, else black: a sentence whose subject
// is a side has a message per side, since languages inflect them apart.
func bySide(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}

func (r *Referee) turnSubject(p *lang.Printer, g *Game, pos rules.Position, c rules.Color) string {
	switch g.Status {
	case StatusFinished:
		return p.Sprintf("Game over: %s", resultText(p, g))
	case StatusAborted:
		return p.Sprintf("Game aborted")
	}
	var s string
	if pos.Turn() == c {
		s = p.Sprintf("Move %d: your turn (%s)", pos.MoveNumber(), sideName(p, c))
	} else if pos.Turn() == rules.White {
		s = p.Sprintf("Move %d: White to play (%s)", pos.MoveNumber(), sideName(p, c))
	} else {
		s = p.Sprintf("Move %d: Black to play (%s)", pos.MoveNumber(), sideName(p, c))
	}
	if d := dieWords(p, pos); d != "" && pos.Turn() == c {
		s += p.Sprintf(", die %s", d)
	}
	return s
}

// dieWords is what the die stands at, in the words the prompt uses ("shows
// 4 (after a void 6)") in p's language, or "" in a game without a die.
func dieWords(p *lang.Printer, pos rules.Position) string {
	if d, ok := pos.(rules.DieDescriber); ok {
		return d.DieWords().In(p)
	}
	if roller, ok := pos.(rules.Roller); ok {
		return roller.DieState()
	}
	return ""
}

// howToReply is a running game's footer for c: what is expected, the
// commands the table offers now, and an example move when it is c's turn.
func (r *Referee) howToReply(lp *lang.Printer, g *Game, pos rules.Position, c rules.Color) (prompt string, commands []string, example string) {
	var legal []rules.Move
	if pos.Turn() == c {
		if p, ok := pos.(rules.Prompter); ok {
			prompt = p.PromptText().In(lp)
		} else {
			prompt = lp.Sprintf("It is your move.")
		}
		legal = pos.Legal()
		example = exampleText{pos, suggestionMove(pos, legal)}.In(lp)
	} else {
		prompt = bySide(pos.Turn(), lp.Sprintf("Waiting for White; you will get a mail when it is your turn."),
			lp.Sprintf("Waiting for Black; you will get a mail when it is your turn."))
	}
	if g.DrawOffer != nil && g.DrawOffer.By != c {
		// The offer itself is the headline of the mail that brings it;
		// the prompt says only how to answer it.
		prompt = bySide(g.DrawOffer.By, lp.Sprintf("To accept White's draw offer, reply \"draw\"; any other action declines it."),
			lp.Sprintf("To accept Black's draw offer, reply \"draw\"; any other action declines it.")) + " " + prompt
	}
	return prompt, r.footer(g, pos, c, legal), example
}

// exampleText is a legal move as a board mail offers it to copy, in the
// reader's letters where they read it back as that move
// (notation.ExampleIn); "" for none.
type exampleText struct {
	pos rules.Position
	m   *rules.Move
}

// In is the example for a reader of p's language.
func (e exampleText) In(p *lang.Printer) string {
	if e.m == nil {
		return ""
	}
	if p.Code() == lang.English && !p.Figurines() {
		return notationSAN(e.pos, *e.m)
	}
	return notation.ExampleIn(e.pos, *e.m, p.ReaderTag())
}

// suggestion is the example move a board mail offers: a move that does
// not lose on the spot when there is one (in Toto40 a piece leaving the
// fighting line empty loses at once), and an ordinary move rather than a
// command such as "pass".
func suggestion(pos rules.Position, legal []rules.Move) string {
	if m := suggestionMove(pos, legal); m != nil {
		return notationSAN(pos, *m)
	}
	return ""
}

// suggestionMove is the move suggestion writes, or nil for none.
func suggestionMove(pos rules.Position, legal []rules.Move) *rules.Move {
	best, bestRank := -1, 4
	for i, m := range legal {
		rank := 0
		if m.Kind == rules.Reroll || m.Kind == rules.Roll || m.Kind == rules.Pass {
			rank = 1
		}
		if next, err := pos.Play(m); err == nil {
			if res := next.Result(); res.Over && !res.Draw && res.Winner != pos.Turn() {
				rank = 3 // loses at once
			} else if res.Over && res.Draw {
				rank = max(rank, 2)
			}
		}
		if rank < bestRank {
			best, bestRank = i, rank
		}
		if rank == 0 {
			break
		}
	}
	if best < 0 {
		return nil
	}
	return &legal[best]
}

// played is g's move list numbered by turn: each action with its side
// and the move number of the position it was played in, the number the
// status line shows for that turn (a Chec Toe re-roll and the move after
// it share one).
func played(g *Game) []render.Played {
	out := make([]render.Played, len(g.Actions))
	before, n := g.Start, 0
	for i, a := range g.Actions {
		if mn, err := rules.MoveNumberOf(before); err == nil {
			n = mn // the position's last field, without reading the whole position
		} else if i > 0 && a.Color == rules.White {
			n++ // an unreadable stored position: go on counting
		}
		out[i] = render.Played{SAN: a.SAN, Side: a.Color, Number: max(n, 1)}
		before = a.Position
	}
	return out
}

func sans(g *Game) []string {
	out := make([]string, len(g.Actions))
	for i, a := range g.Actions {
		out[i] = a.SAN
	}
	return out
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = append(f[:n], "...")
	}
	out := strings.Join(f, " ")
	if len(out) > 60 {
		out = out[:60] + "..."
	}
	return out
}

// wrap folds a paragraph at 72 columns.
func wrap(s string) string { return wrapAt(s, 72) }

// wrapAt folds a paragraph at width columns (characters, not bytes: a
// translation's letters outside ASCII take one column each). A mark that
// French sets apart with a space (" :", " ;", " ?", " !") stays on the
// line of the word before it.
func wrapAt(s string, width int) string {
	var b strings.Builder
	line := 0
	var words []string
	for _, w := range strings.Fields(s) {
		if n := len(words); n > 0 && (w == ":" || w == ";" || w == "?" || w == "!") {
			words[n-1] += " " + w
			continue
		}
		words = append(words, w)
	}
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		if line > 0 && line+1+n > width {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String()
}

// lastSquares are the squares of g's last action, for the picture's
// highlight: read again from the stored position before it and its
// coordinate form. Nil when there is none, or it cannot be read there.
func lastSquares(g *Game) []rules.Square {
	n := len(g.Actions)
	if n == 0 {
		return nil
	}
	before := g.Start
	if n > 1 {
		before = g.Actions[n-2].Position
	}
	pos, err := g.Variant.ParsePosition(before)
	if err != nil {
		return nil
	}
	m, err := notation.ParseCoord(pos, g.Actions[n-1].Coord)
	if err != nil {
		return nil
	}
	return render.MoveSquares(m)
}

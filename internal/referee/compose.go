package referee

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
)

// Referee is the core. It holds only configuration.
type Referee struct {
	cfg Config
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
	return &Referee{cfg: cfg}
}

// Config returns the core's configuration.
func (r *Referee) Config() Config { return r.cfg }

// ReplyAddress is the address a player replies to: the referee's address
// with the token as its plus-detail.
func (r *Referee) ReplyAddress(g *Game, c rules.Color) string {
	return plusAddress(r.cfg.Address, r.token(g, c).String())
}

func (r *Referee) token(g *Game, c rules.Color) reader.Token {
	return reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}
}

func plusAddress(base, detail string) string {
	at := strings.LastIndexByte(base, '@')
	if at < 0 {
		return base
	}
	return base[:at] + "+" + detail + base[at:]
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

// letter is what compose needs to write one mail.
type letter struct {
	to        string
	toName    string
	subject   string
	replyTo   string // "" for none
	messageID string
	inReplyTo string
	refs      []string
	text      string
	html      string // "" for a plain-text mail
	png       []byte
	date      time.Time
}

func (r *Referee) compose(l letter) Mail {
	var h gomail.Header
	h.SetDate(l.date)
	h.SetAddressList("From", []*gomail.Address{{Name: r.cfg.Name, Address: r.cfg.Address}})
	h.SetAddressList("To", []*gomail.Address{{Name: l.toName, Address: l.to}})
	if l.replyTo != "" {
		h.SetAddressList("Reply-To", []*gomail.Address{{Name: r.cfg.Name, Address: l.replyTo}})
	}
	h.SetSubject(l.subject)
	h.SetMessageID(strings.Trim(l.messageID, "<>"))
	if l.inReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{strings.Trim(l.inReplyTo, "<>")})
	}
	if len(l.refs) > 0 {
		ids := make([]string, len(l.refs))
		for i, x := range l.refs {
			ids[i] = strings.Trim(x, "<>")
		}
		h.SetMsgIDList("References", ids)
	}
	// Loop guards (RFC 3834): mark every mail as automatic, and ask Exchange
	// not to answer it with out-of-office mail.
	h.Set("Auto-Submitted", "auto-replied")
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("Precedence", "bulk")

	boundary := func(kind string) string {
		s := sha256.Sum256([]byte(l.messageID + kind))
		return "=_" + kind + "_" + hex.EncodeToString(s[:12])
	}
	var buf bytes.Buffer
	textHeader := func() message.Header {
		var th message.Header
		th.SetContentType("text/plain", map[string]string{"charset": "utf-8", "format": "fixed"})
		th.Set("Content-Transfer-Encoding", "quoted-printable")
		return th
	}
	if l.html == "" {
		th := textHeader()
		for _, f := range []string{"Content-Type", "Content-Transfer-Encoding"} {
			h.Set(f, th.Get(f))
		}
		w, err := message.CreateWriter(&buf, h.Header)
		if err == nil {
			_, err = w.Write([]byte(crlf(l.text)))
			if err == nil {
				err = w.Close()
			}
		}
		if err != nil {
			// Only a bug in the fixed headers above can get here.
			panic(fmt.Sprintf("composing mail: %v", err))
		}
		return Mail{To: l.to, From: r.cfg.Address, MessageID: l.messageID, Raw: buf.Bytes()}
	}

	h.SetContentType("multipart/alternative", map[string]string{"boundary": boundary("alt")})
	must := func(err error) {
		if err != nil {
			panic(fmt.Sprintf("composing mail: %v", err))
		}
	}
	top, err := message.CreateWriter(&buf, h.Header)
	must(err)
	tw, err := top.CreatePart(textHeader())
	must(err)
	_, err = tw.Write([]byte(crlf(l.text)))
	must(err)
	must(tw.Close())

	var rh message.Header
	rh.SetContentType("multipart/related", map[string]string{"boundary": boundary("rel"), "type": "text/html"})
	rel, err := top.CreatePart(rh)
	must(err)
	var hh message.Header
	hh.SetContentType("text/html", map[string]string{"charset": "utf-8"})
	hh.Set("Content-Transfer-Encoding", "quoted-printable")
	hw, err := rel.CreatePart(hh)
	must(err)
	_, err = hw.Write([]byte(crlf(l.html)))
	must(err)
	must(hw.Close())
	if len(l.png) > 0 {
		var ph message.Header
		ph.SetContentType("image/png", map[string]string{"name": "board.png"})
		ph.SetContentDisposition("inline", map[string]string{"filename": "board.png"})
		ph.Set("Content-ID", "<board.png>")
		ph.Set("Content-Transfer-Encoding", "base64")
		pw, err := rel.CreatePart(ph)
		must(err)
		_, err = pw.Write(l.png)
		must(err)
		must(pw.Close())
	}
	must(rel.Close())
	must(top.Close())
	return Mail{To: l.to, From: r.cfg.Address, MessageID: l.messageID, Raw: buf.Bytes()}
}

func crlf(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// subject builds "[variant #id] text". It never carries a player's secret:
// subjects leak (forwards, notifications, screenshots, digests).
func (r *Referee) subject(g *Game, text string) string {
	return fmt.Sprintf("[%s #%d] %s", g.Variant.Name(), g.ID, text)
}

// refuse answers mail that could not be tied to a player, briefly and at
// most MaxRefusalsPerHour times an hour per sender.
func (r *Referee) refuse(env Env, m *reader.Mail, detail, what, todo string) Outcome {
	if env.RecentRefusals >= r.cfg.MaxRefusalsPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("%s (not answered: %d refusals to %s in the last hour, the limit is %d)",
			detail, env.RecentRefusals, m.From, r.cfg.MaxRefusalsPerHour)}
	}
	subj := m.Subject
	if subj == "" {
		subj = "your mail"
	}
	if !strings.HasPrefix(strings.ToLower(subj), "re:") {
		subj = "Re: " + subj
	}
	text := wrap(what) + "\n\n" + wrap(todo) + "\n\n" +
		"(This is an automatic reply from the referee at " + r.cfg.Address + ".)\n"
	l := letter{to: m.From, subject: subj, messageID: r.messageID("refuse", m.MessageID, m.From, detail),
		inReplyTo: m.MessageID, text: text, date: env.Now}
	if m.MessageID != "" {
		l.refs = []string{m.MessageID}
	}
	return Outcome{Verdict: Rejected, Detail: detail, Mails: []Mail{r.compose(l)}}
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
	if env.LastRefusal == detail {
		return Outcome{Verdict: Ignored, Detail: detail + " (not answered: the same refusal answered this player's previous mail)"}
	}
	if env.GameRefusals >= r.cfg.MaxGameRefusalsPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("%s (not answered: %d refusals to %s about game #%d in the last hour, the limit is %d)",
			detail, env.GameRefusals, c, g.ID, r.cfg.MaxGameRefusalsPerHour)}
	}
	body := render.Mail{Headline: what}
	if todo != "" {
		body.Sections = []render.Section{{Title: "What to do", Body: todo}}
	}
	mail := r.boardMail(g, pos, c, body, "Not played: "+strings.TrimSpace(firstWords(m.Action, 6)), m, "reject", detail, env.Now)
	return Outcome{Verdict: Rejected, Detail: detail, Mails: []Mail{mail}}
}

// answer replies to a command that changes nothing.
func (r *Referee) answer(g *Game, c rules.Color, pos rules.Position, m *reader.Mail, now time.Time, kind, headline string, sections []render.Section) Outcome {
	body := render.Mail{Headline: headline, Sections: sections}
	mail := r.boardMail(g, pos, c, body, capital(kind), m, kind, "", now)
	return Outcome{Verdict: Answered, Detail: fmt.Sprintf("game #%d: %s sent %q", g.ID, c, kind), Mails: []Mail{mail}}
}

// boardMails tells both players what happened after an applied action.
func (r *Referee) boardMails(g *Game, pos rules.Position, headline string, mover rules.Color, m *reader.Mail, rolls []Roll, now time.Time) []Mail {
	return r.boardMailsTo(g, pos, headline, headline, mover, m, rolls, now)
}

// boardMailsTo is boardMails with one headline for the mover and another
// for the opponent (and spectators): "you offered a draw" against "White
// offers a draw: to accept, reply draw".
func (r *Referee) boardMailsTo(g *Game, pos rules.Position, moverHeadline, headline string, mover rules.Color, m *reader.Mail, rolls []Roll, now time.Time) []Mail {
	var out []Mail
	for _, c := range []rules.Color{mover, mover.Other()} {
		body := render.Mail{Headline: headline}
		if c == mover {
			body.Headline = moverHeadline
		}
		if c != mover && m != nil && strings.TrimSpace(m.Message) != "" {
			body.Relay = m.Message
			body.RelayFrom = g.Players[mover].displayName(mover)
		}
		if len(rolls) > 0 {
			body.Sections = append(body.Sections, r.rollSection(g, rolls))
		}
		if g.Status == StatusFinished && g.Commitment != "" {
			body.Sections = append(body.Sections, r.revealSection(g))
		}
		out = append(out, r.boardMail(g, pos, c, body, "", m, "board", headline, now))
	}
	return append(out, r.spectatorMails(g, pos, headline, now)...)
}

// spectatorMails send watchers the board, with no Reply-To: nothing they
// send back can act in the game.
func (r *Referee) spectatorMails(g *Game, pos rules.Position, headline string, now time.Time) []Mail {
	var out []Mail
	for _, w := range g.Watchers {
		body := render.Mail{GameID: g.ID, Variant: g.Variant, Pos: pos, Viewer: rules.White, Spectator: true,
			Status: r.statusLine(g, pos, now), Headline: headline, MoveList: sans(g),
			Footer: fmt.Sprintf("You are watching game #%d (%s v %s). The organiser can stop this with \"referee unwatch\".", g.ID, g.Players[0].Address, g.Players[1].Address)}
		png, _ := render.PNG(pos, rules.White)
		l := letter{to: w, subject: fmt.Sprintf("[%s #%d] %s (watching)", g.Variant.Name(), g.ID, headline),
			messageID: r.messageID("watch", fmt.Sprint(g.ID), fmt.Sprint(g.Ply()), w, headline),
			inReplyTo: r.watchThreadID(g), refs: []string{r.watchThreadID(g)},
			text: body.Text(), html: body.HTML(), png: png, date: now}
		out = append(out, r.compose(l))
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

// boardMail composes one board mail to the player of colour c.
func (r *Referee) boardMail(g *Game, pos rules.Position, c rules.Color, body render.Mail, subjectText string, m *reader.Mail, kind, salt string, now time.Time) Mail {
	body.GameID = g.ID
	body.Variant = g.Variant
	body.Pos = pos
	body.Viewer = c
	body.Status = r.statusLine(g, pos, now)
	body.MoveList = sans(g)
	if len(g.Actions) > 0 {
		body.LastMove = g.Actions[len(g.Actions)-1].SAN
	}
	if g.Status == StatusActive {
		body.Prompt, body.Commands, body.Example = r.howToReply(g, pos, c)
	} else {
		body.Prompt = "The game is over: " + gameOverText(g) + "."
		body.Commands = []string{"board", "record", "help"}
	}
	body.Footer = fmt.Sprintf("Referee for game #%d. Reply to this mail to act.", g.ID)
	if subjectText == "" {
		subjectText = r.turnSubject(g, pos, c)
	}
	png, err := render.PNG(pos, c)
	if err != nil {
		png = nil // the text and HTML parts still carry the board
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
	l := letter{
		to:      g.Players[c].Address,
		toName:  g.Players[c].Name,
		subject: r.subject(g, subjectText),
		// The Message-ID carries the player's token as well as the Reply-To:
		// every client copies it into In-Reply-To, so a reply names its game
		// even where the provider drops plus-addresses.
		messageID: r.token(g, c).MessageID(r.nonce(kind, fmt.Sprint(g.ID), fmt.Sprint(g.Ply()), c.String(), msgid, salt), r.domain()),
		inReplyTo: inReplyTo,
		refs:      refs,
		text:      body.Text(),
		html:      body.HTML(),
		png:       png,
		date:      now,
	}
	// Finished and aborted games keep a reply address too: "board",
	// "help" and "record" work on them.
	l.replyTo = r.ReplyAddress(g, c)
	return r.compose(l)
}

func (r *Referee) statusLine(g *Game, pos rules.Position, now time.Time) string {
	s := fmt.Sprintf("Game #%d - %s - move %d", g.ID, g.Variant.Title(), pos.MoveNumber())
	switch g.Status {
	case StatusActive:
		s += fmt.Sprintf(" - %s to play", pos.Turn())
		if roller, ok := pos.(rules.Roller); ok {
			s += " - die: " + roller.DieState()
		}
		if c := g.State.Clock; c != nil {
			s += " - " + c.text(pos.Turn(), now)
		}
	case StatusFinished:
		s += " - " + g.Result + " (" + g.ResultReason + ")"
	case StatusAborted:
		s += " - aborted"
	}
	return s
}

func (r *Referee) turnSubject(g *Game, pos rules.Position, c rules.Color) string {
	switch g.Status {
	case StatusFinished:
		return fmt.Sprintf("Game over: %s", resultText(g))
	case StatusAborted:
		return "Game aborted"
	}
	who := "your turn"
	if pos.Turn() != c {
		who = pos.Turn().String() + " to play"
	}
	s := fmt.Sprintf("Move %d: %s (%s)", pos.MoveNumber(), who, c)
	if roller, ok := pos.(rules.Roller); ok && pos.Turn() == c {
		s += ", die " + roller.DieState()
	}
	return s
}

func (r *Referee) howToReply(g *Game, pos rules.Position, c rules.Color) (prompt string, commands []string, example string) {
	commands = []string{"board", "moves", "help"}
	if pos.Turn() == c {
		if p, ok := pos.(rules.Prompter); ok {
			prompt = p.Prompt()
		} else {
			prompt = "It is your move."
		}
		legal := pos.Legal()
		example = suggestion(pos, legal)
		// The die's commands, when legal now (Chec Toe): reroll, roll, pass.
		var special []string
		for _, m := range legal {
			if m.Kind == rules.Reroll || m.Kind == rules.Roll || m.Kind == rules.Pass {
				special = append(special, notationSAN(pos, m))
			}
		}
		commands = append(append(special, "draw", "resign"), commands...)
	} else {
		prompt = fmt.Sprintf("Waiting for %s; you will get a mail when it is your turn.", pos.Turn())
		commands = append([]string{"draw", "resign"}, commands...)
	}
	if g.DrawOffer != nil && g.DrawOffer.By != c {
		prompt = fmt.Sprintf("%s offers a draw: reply \"draw\" to accept; any other action declines it. ", g.DrawOffer.By) + prompt
	}
	return prompt, commands, example
}

// suggestion is the example move a board mail offers: a move that does
// not lose on the spot when there is one (in Toto40 a piece leaving the
// fighting line empty loses at once), and an ordinary move rather than a
// command such as "pass".
func suggestion(pos rules.Position, legal []rules.Move) string {
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
		return ""
	}
	return notationSAN(pos, legal[best])
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
func wrap(s string) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(s) {
		if line > 0 && line+1+len(w) > 72 {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

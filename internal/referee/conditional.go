package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"referee/internal/game"
	"referee/internal/lang"
	"referee/internal/notation"
	"referee/internal/render"
	"referee/internal/rules"
)

// Conditional moves (docs/conditional.md): a player's reply may carry lines
// such as "if Nc6 Bb5 if a6 Ba4" after the move, or alone on the
// opponent's turn. Each "if" names the opponent's move and the player's
// answer; several lines make a tree. When the opponent plays a predicted
// move, the answer is played at once, in the same transaction; any other
// move clears the tree. Trees are never shown to the opponent; each is
// committed to with SHA-256(nonce || canonical text) and revealed when the
// game ends.

// Limits of a tree, as lichess's forecasts.
const (
	MaxCondLines = 30
	MaxCondPlies = 30
)

// CondTree is one player's standing conditional lines.
type CondTree struct {
	// From is the ply of the opponent's move each line starts with.
	From int `json:"from"`
	// Lines are the lines in canonical SAN: the opponent's move, the
	// answer, the opponent's move, ...
	Lines [][]string `json:"lines"`
	// Set is the index of the tree's entry in CondState.Log.
	Set int `json:"set"`
}

// CondSet is one tree as it was set: what the commitment binds, revealed
// when the game ends.
type CondSet struct {
	Color      rules.Color `json:"color"`
	From       int         `json:"from"`
	Text       string      `json:"text"`  // canonical text (CondText)
	Nonce      string      `json:"nonce"` // 16 bytes, hex
	Commitment string      `json:"commitment"`
}

// CondState is the conditional moves of a game.
type CondState struct {
	Trees [2]*CondTree `json:"trees"`
	Log   []CondSet    `json:"log,omitempty"`
}

func (s *CondState) clone() *CondState {
	if s == nil {
		return nil
	}
	out := &CondState{Log: slices.Clone(s.Log)}
	for c, t := range s.Trees {
		if t != nil {
			nt := *t
			nt.Lines = make([][]string, len(t.Lines))
			for i, l := range t.Lines {
				nt.Lines[i] = slices.Clone(l)
			}
			out.Trees[c] = &nt
		}
	}
	return out
}

// CondText is the canonical text of lines (docs/conditional.md): each line
// written "if X Y if Z W" (the last pair may lack its answer only when the
// line ends the game), the lines sorted by byte value, each ending in a
// line feed.
func CondText(lines [][]string) string {
	var out []string
	for _, l := range lines {
		var b strings.Builder
		for i, p := range l {
			if i%2 == 0 {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString("if ")
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(p)
		}
		out = append(out, b.String())
	}
	slices.Sort(out)
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// CondCommitment is hex(SHA-256(nonce || text)), nonce the 16 bytes the
// hex nonceHex names.
func CondCommitment(nonceHex, text string) (string, error) {
	nonce, err := hex.DecodeString(nonceHex)
	if err != nil || len(nonce) != 16 {
		return "", fmt.Errorf("the nonce %q is not 32 hex digits", nonceHex)
	}
	h := sha256.Sum256(append(nonce, text...))
	return hex.EncodeToString(h[:]), nil
}

// condNonce is the nonce of a tree: derived from the referee's secret salt
// and what the tree is, so that a repeated decision gives the same nonce,
// and no player can compute it before it is revealed.
func (r *Referee) condNonce(g *Game, c rules.Color, from int, text string) string {
	h := sha256.Sum256([]byte(r.cfg.IDSalt + "\x00cond\x00" + fmt.Sprint(g.ID) + "\x00" + c.String() + "\x00" + fmt.Sprint(from) + "\x00" + text))
	return hex.EncodeToString(h[:16])
}

// splitConditional takes the conditional lines out of a mail's message:
// the lines whose first word is "if" and whose other words all look like
// moves (hold a digit, or are a castling). They are never relayed.
func splitConditional(message string) (cond []string, rest string) {
	var keep []string
	for _, line := range strings.Split(message, "\n") {
		if isCondLine(line) {
			cond = append(cond, strings.TrimSpace(line))
			continue
		}
		keep = append(keep, line)
	}
	if len(cond) == 0 {
		return nil, message
	}
	return cond, strings.TrimSpace(strings.Join(keep, "\n"))
}

func isCondLine(line string) bool {
	f := strings.Fields(strings.TrimSpace(line))
	if len(f) < 2 || !strings.EqualFold(f[0], "if") {
		return false
	}
	for _, w := range f[1:] {
		if strings.EqualFold(w, "if") {
			continue
		}
		lw := strings.ToLower(strings.Trim(w, "+#!?"))
		if lw == "o-o" || lw == "o-o-o" || lw == "0-0" || lw == "0-0-0" {
			continue
		}
		if !strings.ContainsFunc(w, unicode.IsDigit) {
			return false
		}
	}
	return true
}

// condError is why conditional lines were refused: what, in the reader's
// language; its English is the error.
type condError struct{ what lang.Text }

func (e *condError) Error() string { return e.what.In(nil) }

// condText is why conditional lines were refused (err from
// readConditions), for the reader's language.
func condText(err error) lang.Text {
	var ce *condError
	if errors.As(err, &ce) {
		return ce.what
	}
	return lang.Raw(err.Error())
}

// condFail is the condError of what.
func condFail(what lang.Text) error { return &condError{what} }

// readConditions reads lines against pos, the position before the
// opponent's next move: each "if" names the opponent's move and the
// answer. Any unreadable or illegal part, a conflict between two lines or
// a line over the limits refuses them all.
func readConditions(pos rules.Position, lines []string) ([][]string, error) {
	return readConditionsFor(pos, lines, "")
}

// readConditionsFor is readConditions for a player whose language is
// code ("" for none set): its piece letters are read in both moves of
// each pair (notation.ReadFor), the lines kept in canonical SAN.
func readConditionsFor(pos rules.Position, lines []string, code string) ([][]string, error) {
	if len(lines) > MaxCondLines {
		return nil, condFail(lang.M("%d conditional lines, and at most %d are kept", len(lines), MaxCondLines))
	}
	if _, ok := pos.(rules.Roller); ok {
		return nil, condFail(lang.M("conditional moves are not available in Chec Toe: the die makes an \"if\" line ambiguous"))
	}
	var out [][]string
	answers := map[string]string{} // the line's moves so far -> the answer given there
	for n, line := range lines {
		f := strings.Fields(line)
		where := condLine{n + 1, line}
		// Pairs: "if" X Y.
		var plies []string
		for i := 0; i < len(f); {
			if !strings.EqualFold(f[i], "if") {
				return nil, condFail(lang.M("%s: %q stands where \"if\" was expected; write each pair as \"if THEIR-MOVE YOUR-ANSWER\"", where, f[i]))
			}
			j := i + 1
			for j < len(f) && !strings.EqualFold(f[j], "if") {
				j++
			}
			switch j - i - 1 {
			case 2:
			case 1:
				return nil, condFail(lang.M("%s: \"if %s\" has no answer; write \"if %s YOUR-ANSWER\"", where, f[i+1], f[i+1]))
			default:
				return nil, condFail(lang.M("%s: \"%s\" is not one move and one answer", where, strings.Join(f[i:j], " ")))
			}
			plies = append(plies, f[i+1], f[i+2])
			i = j
		}
		if len(plies) > MaxCondPlies {
			return nil, condFail(lang.M("%s has %d plies, and a line may have at most %d", where, len(plies), MaxCondPlies))
		}
		p := pos
		var canon []string
		for k, in := range plies {
			if res := p.Result(); res.Over {
				if k%2 == 1 {
					return nil, condFail(lang.M("%s: the game is over (%s) before your move %q", where, resultLower(res), in))
				}
				return nil, condFail(lang.M("%s: the game is over (%s) before your opponent's move %q", where, resultLower(res), in))
			}
			reading, err := notation.ReadFor(p, in, notation.Options{Language: code})
			if err != nil {
				return nil, notLegalThere(where, in, p.Turn(), trimmedText{whyText{err, p}})
			}
			if reading.OfferDraw {
				return nil, condFail(lang.M("%s: %q offers a draw; a conditional line holds moves only", where, in))
			}
			san := notation.SAN(p, reading.Move)
			next, err := p.Play(reading.Move)
			if err != nil {
				return nil, notLegalThere(where, in, p.Turn(), err.Error()) // the rules' own (English) words
			}
			if k%2 == 1 {
				key := strings.Join(canon, " ")
				if prev, ok := answers[key]; ok && prev != san {
					return nil, condFail(lang.M("%s answers %s with %s, but another line answers it with %s: give one answer to each move",
						where, canon[len(canon)-1], san, prev))
				}
				answers[key] = san
			}
			canon = append(canon, san)
			p = next
		}
		out = append(out, canon)
	}
	return out, nil
}

// notLegalThere refuses the move in of a conditional line: it is not legal
// for the side c to move, for the reason why (a text or a string).
func notLegalThere(where condLine, in string, c rules.Color, why any) error {
	if c == rules.White {
		return condFail(lang.M("%s: %q is not a legal move there for White (%s)", where, in, why))
	}
	return condFail(lang.M("%s: %q is not a legal move there for Black (%s)", where, in, why))
}

// condLine names a conditional line in a refusal: "line 2 ("if e5 Nf3")".
type condLine struct {
	n    int
	line string
}

// In is the line's name in p's language.
func (l condLine) In(p *lang.Printer) string { return p.Sprintf("line %d (%q)", l.n, l.line) }

// trimmedText is a text without the full stop at its end.
type trimmedText struct{ t lang.Text }

// In is the text in p's language, without a closing full stop.
func (t trimmedText) In(p *lang.Printer) string { return strings.TrimSuffix(t.t.In(p), ".") }

// resultLower is a result as rules.Result's String writes it ("draw
// (stalemate)", "White wins (checkmate)"), in the reader's language.
func resultLower(res rules.Result) lang.Text { return resultLowerText(res) }

type resultLowerText rules.Result

// In is the result in p's language.
func (t resultLowerText) In(p *lang.Printer) string {
	res := rules.Result(t)
	switch {
	case res.Draw:
		return p.Sprintf("draw (%s)", reasonText(p, res.Reason))
	case res.Winner == rules.White:
		return p.Sprintf("White wins (%s)", reasonText(p, res.Reason))
	}
	return p.Sprintf("Black wins (%s)", reasonText(p, res.Reason))
}

// setConditions makes lines c's standing tree in ng from ply from, and
// returns the section that shows the owner the tree and its commitment.
func (r *Referee) setConditions(ng *Game, c rules.Color, from int, lines [][]string) render.Section {
	text := CondText(lines)
	nonce := r.condNonce(ng, c, from, text)
	commit, _ := CondCommitment(nonce, text)
	cs := ng.State.Cond.clone()
	if cs == nil {
		cs = &CondState{}
	}
	cs.Log = append(cs.Log, CondSet{Color: c, From: from, Text: text, Nonce: nonce, Commitment: commit})
	cs.Trees[c] = &CondTree{From: from, Lines: lines, Set: len(cs.Log) - 1}
	ng.State.Cond = cs
	p := r.printer(ng.Players[c].Language)
	return render.Section{Title: p.Sprintf("Your conditional moves"),
		Body: p.Sprintf("Your lines, as the referee understood them (they replace any you set before; your opponent never sees them):\n%s\n"+
			"Commitment: %s\nIt is SHA-256 of a secret nonce and this text; both are revealed when the game ends, so that anyone can check "+
			"the lines were not changed (docs/conditional.md). \"conditions\" shows them, \"cancel\" clears them.", text, commit)}
}

// playConditions plays, after the move that led to pos, every answer a
// standing tree gives: the side to move's tree answers the last move when
// a line predicted it, and is cleared when none did. It returns the new
// position, the actions played, the headline's words, and what each tree's
// owner is told in the mail of this outcome (a deviation cleared the tree,
// the lines are used up).
func (r *Referee) playConditions(ng *Game, pos rules.Position, env Env) (rules.Position, []Action, lang.Text, [2]lang.Text) {
	var acts []Action
	var words []lang.Text
	var notice [2]lang.Text
	for range 2 * MaxCondPlies {
		cs := ng.State.Cond
		if cs == nil || ng.Status != StatusActive {
			break
		}
		side := pos.Turn()
		t := cs.Trees[side]
		if t == nil {
			break
		}
		cs = cs.clone()
		ng.State.Cond = cs
		last := ng.Actions[len(ng.Actions)-1]
		var rest [][]string
		answer := ""
		if t.From == last.Ply {
			for _, l := range t.Lines {
				if len(l) >= 2 && l[0] == last.SAN {
					answer = l[1]
					if len(l) > 2 {
						rest = append(rest, l[2:])
					}
				}
			}
		}
		if answer == "" {
			cs.Trees[side] = nil
			san := sanText{pos.Variant(), last.SAN}
			notice[side] = bySideText(side.Other(),
				lang.M("White played %s, which none of your conditional lines foresaw: they are cleared.", san),
				lang.M("Black played %s, which none of your conditional lines foresaw: they are cleared.", san))
			break
		}
		reading, err := notation.Read(pos, answer)
		var next rules.Position
		if err == nil {
			next, err = pos.Play(reading.Move)
		}
		if err != nil {
			// The lines were checked when set; a position they no longer
			// fit (a takeback clears them) is no reason to play blind.
			cs.Trees[side] = nil
			// err is the rules' own (English) words.
			notice[side] = lang.M("Your conditional answer %s could not be played (%s): your lines are cleared.",
				sanText{pos.Variant(), answer}, lang.Raw(err.Error()))
			break
		}
		if ng.State.Clock != nil {
			ng.State.Clock.moved(side, env.Now) // no time charged: the answer was given in advance
		}
		act := Action{Ply: ng.Ply(), Color: side, SAN: notation.SAN(pos, reading.Move), Coord: notation.Coord(pos, reading.Move),
			Position: next.String(), Cond: true, Time: env.Now}
		ng.Actions = append(ng.Actions, act)
		acts = append(acts, act)
		san := sanText{pos.Variant(), act.SAN}
		words = append(words, bySideText(side,
			lang.M("White answered %s at once (a conditional move).", san),
			lang.M("Black answered %s at once (a conditional move).", san)))
		if len(rest) == 0 {
			cs.Trees[side] = nil
			notice[side] = lang.M("Your conditional lines are used up.")
		} else {
			cs.Trees[side] = &CondTree{From: ng.Ply(), Lines: rest, Set: t.Set}
		}
		pos = next
		if res := next.Result(); res.Over {
			ng.setResult(res, game.EndBoard)
			words = append(words, resultSentence(res))
			break
		}
	}
	if len(words) == 0 {
		return pos, acts, nil, notice
	}
	return pos, acts, lang.Join(" ", words...), notice
}

// addSection appends s to the board mail of out addressed to the player of
// colour c in g (never to a spectator's).
func addSection(out []Mail, g *Game, c rules.Color, s render.Section) {
	for i, ml := range out {
		if ml.Board != nil && ml.Kind != KindSpectator && ml.To == g.Players[c].Address {
			b := *ml.Board
			b.Sections = append(slices.Clone(b.Sections), s)
			out[i].Board = &b
			return
		}
	}
}

// condRevealSection reveals every tree set in g, for the final mails, in
// p's language (the trees' lines, nonces and commitments as they are).
func condRevealSection(p *lang.Printer, g *Game) (render.Section, bool) {
	if g.Status != StatusFinished || g.State.Cond == nil || len(g.State.Cond.Log) == 0 {
		return render.Section{}, false
	}
	var b strings.Builder
	b.WriteString(p.Sprintf("Every conditional tree set in this game, with its nonce: SHA-256 of the nonce's 16 bytes followed by the text gives the commitment shown when it was set (docs/conditional.md).") + "\n")
	for i, s := range g.State.Cond.Log {
		head := bySide(s.Color, p.Sprintf("Tree %d, White's, from ply %d:", i+1, s.From), p.Sprintf("Tree %d, Black's, from ply %d:", i+1, s.From))
		fmt.Fprintf(&b, "\n%s\n%snonce %s\ncommitment %s\n", head, s.Text, s.Nonce, s.Commitment)
	}
	return render.Section{Title: p.Sprintf("Conditional moves revealed"), Body: strings.TrimRight(b.String(), "\n")}, true
}

// moveWithConditions plays the move of c's first line, and sets the
// conditional lines under it as the mover's tree; any part of them that
// does not read or is not legal refuses the whole mail, the move with it.
func (r *Referee) moveWithConditions(c *call) Outcome {
	g, color, pos, m, env := c.g, c.color, c.pos, c.m, c.env
	action := strings.TrimSpace(m.Action)
	if _, ok := pos.(rules.Roller); ok {
		return r.rejectActionIn(g, color, pos, m, env, "conditional lines in Chec Toe",
			lang.M("Your %q was not played: conditional moves are not available in Chec Toe, as the die makes an \"if\" line ambiguous.", action),
			lang.M("Send the move again without the \"if\" lines."))
	}
	out := r.move(g, color, pos, m, action, env)
	if out.Verdict != Applied || out.Game == nil || out.Game.Status != StatusActive {
		return out
	}
	ng := out.Game
	next, err := ng.Position()
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	if next.Turn() == color {
		p := r.printer(ng.Players[color].Language)
		addSection(out.Mails, ng, color, render.Section{Title: p.Sprintf("Your conditional moves"),
			Body: p.Sprintf("Your conditional lines were not set: your opponent's own conditional move answered yours at once, so they no longer start at their next move. Send them again under your next move.")})
		return out
	}
	lines, err := readConditionsFor(next, c.cond, g.Players[color].Language)
	if err != nil {
		return r.rejectActionIn(g, color, pos, m, env, "conditional: "+err.Error(),
			lang.M("Your move %q was not played, nor its conditional lines: %s.", action, condText(err)),
			lang.M("Send the move again with the lines corrected, or without them."))
	}
	addSection(out.Mails, ng, color, r.setConditions(ng, color, ng.Ply(), lines))
	out.Detail += fmt.Sprintf("; %d conditional lines set", len(lines))
	return out
}

// conditionsAlone sets conditional lines sent without a move, on the
// opponent's turn: the first line is one of them.
func (r *Referee) conditionsAlone(c *call) Outcome {
	g, color, pos, m, env := c.g, c.color, c.pos, c.m, c.env
	if pos.Turn() == color {
		return r.rejectActionIn(g, color, pos, m, env, "conditional lines on own turn",
			lang.M("Your conditional lines were not set: it is your move, and a line starts at your opponent's next move."),
			lang.M("Write your move on the first line and the \"if\" lines under it."))
	}
	lines, err := readConditionsFor(pos, append([]string{strings.TrimSpace(m.Action)}, c.cond...), g.Players[color].Language)
	if err != nil {
		return r.rejectActionIn(g, color, pos, m, env, "conditional: "+err.Error(),
			lang.M("Your conditional lines were not set: %s.", condText(err)), lang.M("Send them again corrected; your earlier lines, if any, stand."))
	}
	ng := g.clone()
	sec := r.setConditions(ng, color, g.Ply(), lines)
	p := r.printer(g.Players[color].Language)
	mail := r.boardMail(ng, pos, color, render.Mail{Headline: p.Sprintf("Your %d conditional lines are set.", len(lines)), Sections: []render.Section{sec}},
		lang.M("Conditional moves set"), m, "cond", fmt.Sprint(len(ng.State.Cond.Log)), env.Now)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s set %d conditional lines", g.ID, color, len(lines)), Game: ng, Mails: []Mail{mail}}
}

// standing is c's standing tree in g, or nil.
func standing(g *Game, c rules.Color) *CondTree {
	if g.State.Cond == nil {
		return nil
	}
	return g.State.Cond.Trees[c]
}

// showConditions answers "conditions".
func (r *Referee) showConditions(c *call) Outcome {
	g, color, pos, m, env := c.g, c.color, c.pos, c.m, c.env
	p := r.printer(g.Players[color].Language)
	subject := lang.M("Conditions")
	if _, ok := pos.(rules.Roller); ok {
		return r.answerIn(g, color, pos, m, env.Now, "conditions", lang.M("Conditional moves are not available in Chec Toe: the die makes an \"if\" line ambiguous."), subject, nil)
	}
	t := standing(g, color)
	if t == nil {
		return r.answerIn(g, color, pos, m, env.Now, "conditions", lang.M("You have no conditional moves standing."), subject,
			[]render.Section{{Title: p.Sprintf("Conditional moves"), Body: p.Sprintf("Write lines like \"if Nc6 Bb5 if a6 Ba4\" under your move, or alone on your opponent's turn.")}})
	}
	set := g.State.Cond.Log[t.Set]
	body := p.Sprintf("Standing now, from ply %d:\n%s\nSet as (from ply %d):\n%scommitment %s", t.From, CondText(t.Lines), set.From, set.Text, set.Commitment)
	return r.answerIn(g, color, pos, m, env.Now, "conditions", lang.M("Your conditional moves."), subject, []render.Section{{Title: p.Sprintf("Your conditional moves"), Body: body}})
}

// cancelConditions answers "cancel": the player's tree is cleared.
func (r *Referee) cancelConditions(c *call) Outcome {
	g, color, pos, m, env := c.g, c.color, c.pos, c.m, c.env
	if standing(g, color) == nil {
		return r.rejectActionIn(g, color, pos, m, env, "cancel: no conditional moves",
			lang.M("There is nothing to cancel: you have no conditional moves standing."), lang.M("Reply with your move, or \"help\"."))
	}
	ng := g.clone()
	ng.State.Cond.Trees[color] = nil
	p := r.printer(g.Players[color].Language)
	mail := r.boardMail(ng, pos, color, render.Mail{Headline: p.Sprintf("Your conditional moves are cleared.")}, lang.M("Conditional moves cleared"), m, "cond-cancel",
		fmt.Sprint(len(ng.State.Cond.Log)), env.Now)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s cleared the conditional moves", g.ID, color), Game: ng, Mails: []Mail{mail}}
}

// condTagPrefix names the record's tags that reveal the trees: CondTree1,
// CondTree2, ... in the order they were set.
const condTagPrefix = "CondTree"

// condTag is a revealed tree as a record tag's value: the colour, the ply
// the tree started at, the nonce, the commitment, then the text with " | "
// between its lines.
func condTag(s CondSet) string {
	return fmt.Sprintf("%s %d %s %s %s", s.Color, s.From, s.Nonce, s.Commitment,
		strings.Join(strings.Split(strings.TrimSuffix(s.Text, "\n"), "\n"), " | "))
}

// CondSetsFromTags reads the revealed trees of a record's tags (name,
// value pairs in order).
func CondSetsFromTags(tags [][2]string) ([]CondSet, error) {
	var out []CondSet
	for _, t := range tags {
		if !strings.HasPrefix(t[0], condTagPrefix) {
			continue
		}
		f := strings.SplitN(t[1], " ", 5)
		if len(f) != 5 {
			return nil, fmt.Errorf("the record's %s tag %q is not \"COLOUR PLY NONCE COMMITMENT LINES\"", t[0], t[1])
		}
		var s CondSet
		switch f[0] {
		case "White":
			s.Color = rules.White
		case "Black":
			s.Color = rules.Black
		default:
			return nil, fmt.Errorf("the record's %s tag names the colour %q: White or Black", t[0], f[0])
		}
		if _, err := fmt.Sscan(f[1], &s.From); err != nil {
			return nil, fmt.Errorf("the record's %s tag: the ply %q is not a number", t[0], f[1])
		}
		s.Nonce, s.Commitment = f[2], f[3]
		s.Text = strings.Join(strings.Split(f[4], " | "), "\n") + "\n"
		out = append(out, s)
	}
	return out, nil
}

// VerifyConditions recomputes the commitment of every revealed tree and
// says, one sentence each, what held and what did not.
func VerifyConditions(sets []CondSet) (checked, problems []string) {
	for i, s := range sets {
		got, err := CondCommitment(s.Nonce, s.Text)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("conditional tree %d (%s's, from ply %d): %v", i+1, s.Color, s.From, err))
		case got != s.Commitment:
			problems = append(problems, fmt.Sprintf("conditional tree %d (%s's, from ply %d): SHA-256 of its nonce and text is %s, not the commitment %s mailed when it was set",
				i+1, s.Color, s.From, got, s.Commitment))
		default:
			checked = append(checked, fmt.Sprintf("conditional tree %d (%s's, from ply %d) matches its commitment %s", i+1, s.Color, s.From, s.Commitment))
		}
	}
	return checked, problems
}

// RevealedConditions are the trees of g that may be shown: all of them
// once the game is over, none while it runs.
func RevealedConditions(g *Game) []CondSet {
	if g.Status == StatusActive || g.State.Cond == nil {
		return nil
	}
	return g.State.Cond.Log
}

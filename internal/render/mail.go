package render

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Section is an extra titled paragraph of a mail. A Pre section (a game
// record) keeps its lines as they are: its writer already kept them
// short, and folding one (a PGN tag) would break it.
type Section struct {
	Title, Body string
	Pre         bool
}

// Mail is the content of one board mail.
type Mail struct {
	GameID    int64
	Variant   rules.Variant
	Pos       rules.Position
	Viewer    rules.Color
	Spectator bool
	Status    string // one status line
	Headline  string // what happened
	LastMove  string
	MoveList  []Played // every action so far, in order
	MoveNote  string   // a line under the move list (how to type its marks)
	Relay     string   // the opponent's message
	RelayFrom string
	Prompt    string // what is expected now
	Commands  []string
	Example   string // a legal move to show as "e.g."
	Sections  []Section
	Footer    string
	// Lang writes the mail's own words (titles, prompts) in the reader's
	// language; nil writes English. The fields above come written in it.
	Lang *lang.Printer
}

// Played is one action of a move list: its canonical notation, the side
// that played it, and the move number of its turn (the position's move
// number before it). Consecutive actions of one side with one number are
// one turn (Chec Toe's re-roll and the move after it).
type Played struct {
	SAN    string
	Side   rules.Color
	Number int
}

// Alternating is sans as played from a usual start: White first, one
// action a turn, move 1 first.
func Alternating(sans []string) []Played {
	out := make([]Played, len(sans))
	for i, s := range sans {
		out[i] = Played{SAN: s, Side: rules.Color(i % 2), Number: i/2 + 1}
	}
	return out
}

// MoveListText numbers the moves by turn, "1. e4 e5  2. Nf3 Nc6", and
// wraps the list at 72 characters without ever separating a move from its
// number. A turn of several actions (a re-roll and the move after it)
// stays under its player's number; Black's turn is numbered "1..." when
// it would otherwise be unclear whose an action is: after a White turn of
// several actions, for a Black turn of several, and when the list starts
// with Black.
func MoveListText(moves []Played) string { return moveListIn(nil, moves) }

// moveListIn is MoveListText with its words in p's language.
func moveListIn(p *lang.Printer, moves []Played) string {
	if len(moves) == 0 {
		return p.Sprintf("Moves: none yet.")
	}
	buf, ends := appendMoveUnits(nil, nil, moves)
	var b strings.Builder
	b.Grow(len(buf) + len(buf)/8 + 16)
	label := p.Sprintf("Moves:")
	b.WriteString(label)
	width, from := utf8.RuneCountInString(label), 0 // runes on the line so far
	for i, end := range ends {
		unit := buf[from:end]
		from = end
		sep := "  "
		if i == 0 {
			sep = " "
		}
		n := utf8.RuneCount(unit)
		if width+len(sep)+n > 72 && i > 0 {
			b.WriteByte('\n')
			sep, width = "", 0
		}
		b.WriteString(sep)
		b.Write(unit)
		width += len(sep) + n
	}
	return b.String()
}

// appendMoveUnits appends the move list's unbreakable pieces to buf, one
// after the other, and the end of each in buf to ends: a move number with
// the actions under it ("12. Nf3 Nc6", "3... reroll N@c3"). It allocates
// only to grow buf and ends, so a long game's list costs no more
// allocations than a short one's.
func appendMoveUnits(buf []byte, ends []int, moves []Played) ([]byte, []int) {
	// turnEnd is the end of the turn (one side's actions under one move
	// number) that begins at i.
	turnEnd := func(i int) int {
		j := i + 1
		for j < len(moves) && moves[j].Side == moves[i].Side && moves[j].Number == moves[i].Number {
			j++
		}
		return j
	}
	sans := func(buf []byte, ms []Played) []byte {
		for k, m := range ms {
			if k > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, m.SAN...)
		}
		return buf
	}
	if buf == nil {
		buf = make([]byte, 0, 8*len(moves)+16)
		ends = make([]int, 0, len(moves)/2+2)
	}
	for i := 0; i < len(moves); {
		j := turnEnd(i)
		buf = strconv.AppendInt(buf, int64(moves[i].Number), 10)
		if moves[i].Side == rules.Black {
			buf = append(buf, "... "...)
			buf = sans(buf, moves[i:j])
			ends = append(ends, len(buf))
			i = j
			continue
		}
		buf = append(buf, ". "...)
		buf = sans(buf, moves[i:j])
		if j < len(moves) && moves[j].Side == rules.Black && moves[j].Number == moves[i].Number {
			k := turnEnd(j)
			buf = append(buf, ' ')
			if j-i > 1 || k-j > 1 {
				buf = strconv.AppendInt(buf, int64(moves[j].Number), 10)
				buf = append(buf, "... "...)
			}
			buf = sans(buf, moves[j:k])
			j = k
		}
		ends = append(ends, len(buf))
		i = j
	}
	return buf, ends
}

// moveListHTML is the move list for the HTML part: it flows with the
// screen's width (no hard line breaks), and a move never parts from its
// number.
func (m Mail) moveListHTML() string {
	e := html.EscapeString
	var b strings.Builder
	buf, ends := appendMoveUnits(nil, nil, m.MoveList)
	const span = ` <span style="white-space:nowrap; margin-right:0.5em">`
	b.Grow(len(buf) + len(ends)*(len(span)+len("</span>")) + 64)
	b.WriteString(`<p style="margin:8px 0">`)
	if len(m.MoveList) == 0 {
		b.WriteString(e(m.Lang.Sprintf("Moves: none yet.")))
	} else {
		b.WriteString(e(m.Lang.Sprintf("Moves:")))
	}
	from := 0
	for _, end := range ends {
		unit := buf[from:end]
		from = end
		b.WriteString(span)
		if bytes.ContainsAny(unit, `<>&'"`) {
			b.WriteString(e(string(unit)))
		} else {
			b.Write(unit)
		}
		b.WriteString("</span>")
	}
	b.WriteString("</p>")
	if m.MoveNote != "" {
		fmt.Fprintf(&b, `<p style="color:#555;font-size:13px">%s</p>`, e(m.MoveNote))
	}
	return b.String()
}

// moveListText is the move list and the note under it.
func (m Mail) moveListText() string {
	s := moveListIn(m.Lang, m.MoveList)
	if m.MoveNote != "" {
		s += "\n" + wrapText(m.MoveNote, 72)
	}
	return s
}

// replyHow says what is expected and how to reply; sep joins the commands
// (", " in the ASCII text part, " · " in the HTML part).
func (m Mail) replyHow(sep string) string {
	var b strings.Builder
	if m.Prompt != "" {
		b.WriteString(wrapText(m.Prompt, 72) + "\n")
	}
	if m.Spectator {
		b.WriteString(m.Lang.Sprintf("You are watching this game; replies to this mail are not read.") + "\n")
		return b.String()
	}
	if m.Example != "" {
		b.WriteString(wrapText(m.Lang.Sprintf("Reply with your move on the first line (e.g. %q), or one of:", m.Example), 72) + "\n")
	} else {
		b.WriteString(wrapText(m.Lang.Sprintf("Reply with one of these on the first line:"), 72) + "\n")
	}
	b.WriteString(strings.Join(m.Commands, sep) + "\n")
	return b.String()
}

// relayText quotes the opponent's message: `Bob writes: "..."` on one
// line when it is short, else the name and the message indented below it.
func (m Mail) relayText() string {
	msg := strings.TrimSpace(m.Relay)
	if msg == "" {
		return ""
	}
	from := cmp.Or(m.RelayFrom, m.Lang.Sprintf("Your opponent"))
	one := m.Lang.Sprintf("%s writes: \"%s\"", from, msg)
	if !strings.Contains(msg, "\n") && utf8.RuneCountInString(one) <= 72 {
		return one
	}
	lines := []string{m.Lang.Sprintf("%s writes:", from)}
	for _, l := range strings.Split(wrapText(msg, 70), "\n") {
		lines = append(lines, strings.TrimRight("  "+l, " "))
	}
	return strings.Join(lines, "\n")
}

// lastMoveLine names the last move, unless the headline already does.
func (m Mail) lastMoveLine() string {
	if m.LastMove == "" || strings.Contains(m.Headline, m.LastMove) {
		return ""
	}
	return m.Lang.Sprintf("Last move: %s", m.LastMove)
}

// Text is the plain-text body in the shape of STYLE.md's board mail:
// status line, headline, board with legend and hands, move list, the
// relayed message, extra sections, and how to reply. It is pure ASCII
// except where the game's notation needs more, with lines under 78
// characters.
func (m Mail) Text() string {
	var b strings.Builder
	b.WriteString(wrapText(m.Status, 72) + "\n\n")
	if m.Headline != "" {
		b.WriteString(wrapText(m.Headline, 72) + "\n\n")
	}
	if m.Pos != nil {
		b.WriteString(textIn(m.Lang, m.Pos, m.Viewer) + "\n")
	}
	if m.Pos != nil {
		b.WriteString(m.moveListText() + "\n")
	}
	if r := m.relayText(); r != "" {
		b.WriteString("\n" + r + "\n")
	}
	for _, s := range m.Sections {
		body := s.Body
		if !s.Pre {
			body = wrapText(body, 72)
		}
		fmt.Fprintf(&b, "\n%s:\n%s\n", s.Title, strings.TrimRight(body, "\n"))
	}
	b.WriteString("\n" + m.replyHow(", "))
	if m.Footer != "" {
		b.WriteString("\n" + wrapText(m.Footer, 72) + "\n")
	}
	return b.String()
}

// HTML is the HTML alternative, written for a phone first: the same
// content as the text part, with ONE board, the PNG picture referenced by
// Content-ID board.png, which shrinks to the screen's width; the text
// diagram follows it collapsed (in <details>), for clients that show no
// pictures. Long words (signatures, hashes) wrap instead of widening the
// page.
func (m Mail) HTML() string {
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1"><title>` + e(m.Status) + `</title></head>` +
		`<body style="margin:0; padding:8px; font-family: Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.4; color: #222; overflow-wrap: anywhere; word-break: break-word;">` +
		fmt.Sprintf(`<div style="max-width: %dpx;">`, mailMaxWidth))
	if m.Status != "" {
		fmt.Fprintf(&b, `<p style="color:#555">%s</p>`, e(m.Status))
	}
	if m.Headline != "" {
		fmt.Fprintf(&b, `<p style="font-size:17px"><b>%s</b></p>`, e(m.Headline))
	}
	if l := m.lastMoveLine(); l != "" {
		fmt.Fprintf(&b, `<p>%s</p>`, e(l))
	}
	if m.Pos != nil {
		w, h := PNGSize(m.Pos)
		fmt.Fprintf(&b, `<p style="margin:12px 0 4px"><img src="cid:board.png" width="%d" height="%d" alt="%s" style="display:block; max-width:100%%; height:auto; border:0;"></p>`,
			w, h, e(m.Lang.Sprintf("The board (it is also below as text).")))
		b.WriteString(`<details style="margin:0 0 12px"><summary style="color:#555; font-size:13px; cursor:pointer;">` + e(m.Lang.Sprintf("The board as text")) + `</summary>` +
			htmlIn(m.Lang, m.Pos, m.Viewer) + `</details>`)
	}
	if m.Pos != nil {
		b.WriteString(m.moveListHTML())
	}
	if strings.TrimSpace(m.Relay) != "" {
		fmt.Fprintf(&b, `<blockquote style="border-left:3px solid #aaa;margin:0;padding-left:10px"><b>%s</b><br>%s</blockquote>`,
			e(m.Lang.Sprintf("%s writes:", cmp.Or(m.RelayFrom, m.Lang.Sprintf("Your opponent")))), strings.ReplaceAll(e(strings.TrimSpace(m.Relay)), "\n", "<br>"))
	}
	for _, s := range m.Sections {
		fmt.Fprintf(&b, `<h3 style="font-size:15px;margin-bottom:4px">%s</h3><p style="white-space:pre-wrap;margin-top:0">%s</p>`, e(s.Title), e(s.Body))
	}
	fmt.Fprintf(&b, `<p style="white-space:pre-wrap">%s</p>`, e(m.replyHow(" \u00b7 ")))
	if m.Footer != "" {
		fmt.Fprintf(&b, `<p style="color:#777;font-size:12px">%s</p>`, e(m.Footer))
	}
	b.WriteString("</div></body></html>\n")
	return b.String()
}

// mailMaxWidth is the widest the HTML mail's column grows, in CSS pixels:
// a line of text stays readable on a wide screen, and a picture wider than
// that (a 16-file board) is shrunk to it.
const mailMaxWidth = 760

// Summary is a short rules summary for the opening mail (from RULES.md):
// the variant's own RulesText, or its one-line Summary when it has none.
func Summary(v rules.Variant) string {
	if t, ok := v.(rules.VariantRulesText); ok {
		return t.RulesText()
	}
	return v.Summary()
}

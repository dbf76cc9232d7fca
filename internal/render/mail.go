package render

import (
	"cmp"
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"referee/internal/rules"
)

// Section is an extra titled paragraph of a mail.
type Section struct{ Title, Body string }

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
	MoveList  []string // canonical moves, one per ply
	Relay     string   // the opponent's message
	RelayFrom string
	Prompt    string // what is expected now
	Commands  []string
	Example   string // a legal move to show as "e.g."
	Sections  []Section
	Footer    string
}

// MoveListText numbers the moves "1. e4 e5  2. Nf3 Nc6" (White's and
// Black's moves alternate, one per ply) and wraps the list at 72
// characters without ever separating a move from its number.
func MoveListText(moves []string) string {
	if len(moves) == 0 {
		return "Moves: none yet."
	}
	var lines []string
	line := "Moves:"
	for i := 0; i < len(moves); i += 2 {
		unit := fmt.Sprintf("%d. %s", i/2+1, moves[i])
		if i+1 < len(moves) {
			unit += " " + moves[i+1]
		}
		sep := "  "
		if line == "Moves:" {
			sep = " "
		}
		if utf8.RuneCountInString(line)+len(sep)+utf8.RuneCountInString(unit) > 72 && line != "Moves:" {
			lines = append(lines, line)
			line, sep = "", ""
		}
		line += sep + unit
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n")
}

// replyHow says what is expected and how to reply; sep joins the commands
// (", " in the ASCII text part, " · " in the HTML part).
func (m Mail) replyHow(sep string) string {
	var b strings.Builder
	if m.Prompt != "" {
		b.WriteString(wrapText(m.Prompt, 72) + "\n")
	}
	if m.Spectator {
		b.WriteString("You are watching this game; replies to this mail are not read.\n")
		return b.String()
	}
	if m.Example != "" {
		fmt.Fprintf(&b, "Reply with your move on the first line (e.g. %q), or one of:\n", m.Example)
	} else {
		b.WriteString("Reply with one of these on the first line:\n")
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
	from := cmp.Or(m.RelayFrom, "Your opponent")
	one := fmt.Sprintf("%s writes: \"%s\"", from, msg)
	if !strings.Contains(msg, "\n") && utf8.RuneCountInString(one) <= 72 {
		return one
	}
	lines := []string{from + " writes:"}
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
	return "Last move: " + m.LastMove
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
		b.WriteString(Text(m.Pos, m.Viewer) + "\n")
	}
	if m.Pos != nil {
		b.WriteString(MoveListText(m.MoveList) + "\n")
	}
	if r := m.relayText(); r != "" {
		b.WriteString("\n" + r + "\n")
	}
	for _, s := range m.Sections {
		fmt.Fprintf(&b, "\n%s:\n%s\n", s.Title, wrapText(s.Body, 72))
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
		`<div style="max-width: 760px;">`)
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
		fmt.Fprintf(&b, `<p style="margin:12px 0 4px"><img src="cid:board.png" width="%d" height="%d" alt="The board (it is also below as text)." style="display:block; max-width:100%%; height:auto; border:0;"></p>`, w, h)
		b.WriteString(`<details style="margin:0 0 12px"><summary style="color:#555; font-size:13px; cursor:pointer;">The board as text</summary>` +
			HTML(m.Pos, m.Viewer) + `</details>`)
	}
	if m.Pos != nil {
		fmt.Fprintf(&b, `<p style="white-space:pre-wrap">%s</p>`, e(MoveListText(m.MoveList)))
	}
	if strings.TrimSpace(m.Relay) != "" {
		fmt.Fprintf(&b, `<blockquote style="border-left:3px solid #aaa;margin:0;padding-left:10px"><b>%s writes:</b><br>%s</blockquote>`,
			e(cmp.Or(m.RelayFrom, "Your opponent")), strings.ReplaceAll(e(strings.TrimSpace(m.Relay)), "\n", "<br>"))
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

// Summary is a short rules summary for the opening mail (from RULES.md).
func Summary(v rules.Variant) string {
	switch v.Name() {
	case "chess":
		return "Orthodox chess under the FIDE laws: castling, en passant, promotion to Q, R, B or N. " +
			"Checkmate wins; stalemate is a draw. Draws: agreement, threefold repetition or 50 moves " +
			"without capture or pawn move (claimed with \"draw\"), and automatically fivefold repetition, " +
			"75 moves, or too little material to mate."
	case "toroidal", "cylindrical", "klein":
		s := "Chess on an 8x14 board whose ranks wrap (rank 14 is next to rank 1)"
		switch v.Name() {
		case "toroidal":
			s += " and whose files wrap (h is next to a)."
		case "cylindrical":
			s += "; files a and h are edges."
		case "klein":
			s += " and files wrap; stepping between ranks 11 and 12 mirrors the file (a<->h, b<->g, c<->f, d<->e)."
		}
		return s + " Each side has two pawn groups: White's move up from rank 2 and down from rank 14 " +
			"(written P'), Black's down from rank 7 (p') and up from rank 9. Pawns keep their direction, " +
			"may step two from their starting rank, capture diagonally forward, take en passant, and " +
			"promote on the enemy home rank (White on 8, Black on 1). Castling as in chess along the back rank. " +
			"Pieces move across the seams; check, mate and draws as in chess."
	case "cuarenta":
		return "Played on the 40 light squares of a 9x9 board. Diagonal steps go to the touching light " +
			"squares; orthogonal steps go two squares (e4-e6). King: one diagonal step, or one orthogonal step " +
			"forward or back without capturing. Bishop: slides diagonally. Vao: moves like a bishop, captures " +
			"only by jumping one piece (the screen) along a diagonal onto an enemy beyond. Guard: one or two " +
			"squares diagonally, leaping. Camel: (3,1) leaps. Frog: one orthogonal step, or jumps over a run of " +
			"its own pieces in any of 8 directions. Pawn: forward diagonal or sideways, never takes a pawn; " +
			"may promote to Camel in the last three ranks, or to any piece on the last rank. Castling O-O: king " +
			"and its camel trade places once. Checkmate wins; 80 plies without capture or promotion draw."
	case "toto40":
		return "A 40-square staircase board split by a fighting line (the diagonal a10-h3, marked *). " +
			"No piece may enter the enemy section, so captures happen only on the line. King: one step; Rook: " +
			"slides; Knight: as in chess; Hawk: leaps two squares straight or diagonally. Pawns step forward or " +
			"capture diagonally forward; on the line any piece may also step along the line, and a pawn on " +
			"the line only does that. There is no check: capturing the king wins. Once the line has been " +
			"entered, ending your turn with no piece on it loses; having no legal move loses. A move that " +
			"repeats an earlier arrangement of the pieces is illegal."
	case "toetotoe":
		return "Toe-to-Toe Chess on 8x8. Only pawns stand at the start (ranks 4 and 5). Phase 1: each player " +
			"places, in turn, K+G, E+E, N+N, R+R in their first three ranks (e.g. \"K@e1 G@d1\"). Phase 2: three " +
			"swaps each of two of your own pieces (\"e1<>d1\"); swapping alike pieces passes. Phase 3: play. " +
			"General: one or two squares any way. Chariot: a rook of range four. Horse: knight. Elephant: one " +
			"step forward or diagonally. Pawn: one step forward, captures diagonally forward, may leap over a " +
			"piece straight ahead onto an empty square; on the last rank it becomes a captured piece of its own " +
			"side (\"e8=G\"). Checkmate wins; stalemating your opponent is illegal; no legal move while not in check draws."
	case "chectoe":
		return "A 4x4 board, empty at the start; each player has a Pawn, Knight, Bishop and Rook in hand. " +
			"The referee rolls a die for every turn: 1-4 name P, N, B, R (move that piece, or drop it if in hand); " +
			"5 lets you drop any piece or move any piece as a Wizard (one diagonal step or a (3,1) leap); a 6 is " +
			"rolled again, and two 6s let you move or drop anything - or ask for the apocalypse roll (\"roll\"): " +
			"a third 6 sends every enemy piece back to hand. Once a turn you may \"reroll\" the first roll: then a " +
			"1-4 piece must be dropped or moved as a Checker (a two-square leap onto an empty square). You may " +
			"\"pass\". Four of your pieces on a line (a Toe) win if they survive your opponent's next turn."
	}
	return v.Summary()
}

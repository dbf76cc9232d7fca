// Package render draws boards and board mails: an ASCII diagram for the
// text part, the same in <pre> for the HTML part, and a PNG picture. Every
// board shape is drawn from its topology (holes, wrapped edges, seams), not
// from the variant's name.
package render

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Marker is implemented by variants that mark some squares (Toto40's
// fighting line).
type Marker interface {
	MarkedSquare(sq rules.Square) bool
	MarkLegend() string
}

type pieceNamer interface {
	PieceLetters() []byte
	PieceName(byte) string
}

// files and ranks in drawing order for the viewer: White sees rank 1 at the
// bottom and file a on the left; Black the other way round.
func order(b *rules.Board, viewer rules.Color) (files, ranks []int) {
	for f := range b.Width() {
		files = append(files, f)
	}
	for r := b.Height() - 1; r >= 0; r-- {
		ranks = append(ranks, r)
	}
	if viewer == rules.Black {
		for i, j := 0, len(files)-1; i < j; i, j = i+1, j-1 {
			files[i], files[j] = files[j], files[i]
		}
		for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
			ranks[i], ranks[j] = ranks[j], ranks[i]
		}
	}
	return files, ranks
}

// cell is the three characters of one square.
func cell(p rules.Position, sq rules.Square, marker Marker) string {
	b := p.Variant().Board()
	if !b.Exists(sq) {
		return "###"
	}
	pc := p.At(sq)
	mark := " "
	if marker != nil && marker.MarkedSquare(sq) {
		mark = "*"
	}
	if pc == rules.NoPiece {
		if mark == "*" {
			return " " + "*" + " "
		}
		return "   "
	}
	s := string(pc.FENLetter())
	if pc.Down() {
		return " " + s + "'"
	}
	return " " + s + mark
}

// Text draws the board as ASCII for viewer, with coordinates on every edge
// and a legend under it.
func Text(p rules.Position, viewer rules.Color) string { return textIn(nil, p, viewer) }

// TextIn is Text with the legend in lp's language.
func TextIn(lp *lang.Printer, p rules.Position, viewer rules.Color) string {
	return textIn(lp, p, viewer)
}

// textIn is Text with the legend in lp's language.
func textIn(lp *lang.Printer, p rules.Position, viewer rules.Color) string {
	b := p.Variant().Board()
	marker, _ := p.Variant().(Marker)
	files, ranks := order(b, viewer)
	var sb strings.Builder
	header := "     "
	for _, f := range files {
		header += fmt.Sprintf(" %c  ", 'a'+f)
	}
	header = strings.TrimRight(header, " ")
	frame := "    +" + strings.Repeat("---+", len(files))
	sb.WriteString(header + "\n" + frame + "\n")
	seam := b.KleinSeam()
	for i, r := range ranks {
		fmt.Fprintf(&sb, "%3d |", r+1)
		for _, f := range files {
			sb.WriteString(cell(p, b.Sq(f, r), marker) + "|")
		}
		fmt.Fprintf(&sb, " %d\n", r+1)
		if seam > 0 && i+1 < len(ranks) {
			next := ranks[i+1]
			if (r == seam && next == seam-1) || (r == seam-1 && next == seam) {
				sb.WriteString("    +" + strings.Repeat("~~~+", len(files)) + "  " + lp.Sprintf("twisted seam") + "\n")
			}
		}
	}
	sb.WriteString(frame + "\n" + header + "\n")
	for _, l := range legend(lp, p) {
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// legend explains the diagram: pieces, marks, wrapping, hands.
func legend(lp *lang.Printer, p rules.Position) []string {
	v := p.Variant()
	b := v.Board()
	var out []string
	if n, ok := v.(pieceNamer); ok {
		var parts []string
		for _, c := range n.PieceLetters() {
			parts = append(parts, fmt.Sprintf("%c %s", c, pieceName(lp, n.PieceName(c))))
		}
		out = append(out, lp.Sprintf("Pieces: %s. Upper case White, lower case Black.", strings.Join(parts, ", ")))
	}
	hasHoles, hasDown := false, false
	for sq := rules.Square(0); int(sq) < b.Size(); sq++ {
		if !b.Exists(sq) {
			hasHoles = true
		} else if p.At(sq).Down() {
			hasDown = true
		}
	}
	if hasHoles {
		out = append(out, lp.Sprintf("### squares are not part of the board."))
	}
	if hasDown {
		out = append(out, lp.Sprintf("P' p' pawns move down (toward rank 1); P p pawns move up."))
	}
	if m, ok := v.(Marker); ok {
		legend := m.MarkLegend()
		if t, ok := v.(interface{ MarkLegendText() lang.Text }); ok {
			legend = t.MarkLegendText().In(lp)
		}
		out = append(out, legend)
	}
	last := string(rune('a' + b.Width() - 1))
	switch {
	case b.WrapsFiles() && b.WrapsRanks():
		out = append(out, lp.Sprintf("The board wraps: rank %d is next to rank 1, file %s next to file a.", b.Height(), last))
	case b.WrapsRanks():
		out = append(out, lp.Sprintf("The board wraps top to bottom: rank %d is next to rank 1.", b.Height()))
	case b.WrapsFiles():
		out = append(out, lp.Sprintf("The board wraps sideways: file %s is next to file a.", last))
	}
	if s := b.KleinSeam(); s > 0 {
		out = append(out, lp.Sprintf("Crossing the seam between ranks %d and %d mirrors the file (a<->%s, b<->%c, ...).", s, s+1, last, 'a'+b.Width()-2))
	}
	if h := p.Hand(rules.White); len(h) > 0 || handVariant(p) {
		out = append(out, lp.Sprintf("White's hand: %s", handString(lp, h)))
	}
	if h := p.Hand(rules.Black); len(h) > 0 || handVariant(p) {
		out = append(out, lp.Sprintf("Black's hand: %s", handString(lp, h)))
	}
	// Every line folded at the legend's width: a translation runs longer
	// than the English ("La scacchiera si richiude: ..." is 99 wide).
	var folded []string
	for _, l := range out {
		folded = append(folded, wrapLine(l, legendWidth)...)
	}
	return folded
}

// legendWidth is the widest line of a diagram's legend.
const legendWidth = 76

func handVariant(p rules.Position) bool {
	type hander interface{ HasHands() bool }
	h, ok := p.Variant().(hander)
	return ok && h.HasHands()
}

// pieceName is the piece's name in lp's language (rules.PieceWord: the
// pieces of the referee's own variants; a variant file's as it gives it).
func pieceName(lp *lang.Printer, name string) string { return rules.PieceWord(name).In(lp) }

func handString(lp *lang.Printer, h []byte) string {
	if len(h) == 0 {
		return lp.Sprintf("(empty)")
	}
	parts := make([]string, len(h))
	for i, c := range h {
		parts[i] = string(c)
	}
	return strings.Join(parts, " ")
}

// HTML draws the same diagram in <pre>, which every mail client shows in a
// monospace font; on a narrow screen the <pre> scrolls sideways by itself
// rather than widening the page.
func HTML(p rules.Position, viewer rules.Color) string { return htmlIn(nil, p, viewer) }

// htmlIn is HTML with the legend in lp's language.
func htmlIn(lp *lang.Printer, p rules.Position, viewer rules.Color) string {
	return `<pre style="font-family: 'DejaVu Sans Mono', Menlo, Consolas, 'Courier New', monospace; font-size: 13px; line-height: 1.25; background: #f7f5ef; padding: 8px; border: 1px solid #ccc; margin: 4px 0; max-width: 100%; box-sizing: border-box; overflow-x: auto; overflow-wrap: normal; word-break: normal;">` +
		html.EscapeString(textIn(lp, p, viewer)) + `</pre>`
}

// wrapLine folds s into lines of at most width characters.
func wrapLine(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// wrapText folds every paragraph of s (lines starting with spaces, such as
// lists of moves, are folded too; blank lines are kept).
func wrapText(s string, width int) string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if strings.TrimSpace(para) == "" {
			out = append(out, "")
			continue
		}
		if utf8.RuneCountInString(para) <= width {
			out = append(out, para)
			continue
		}
		out = append(out, wrapLine(para, width)...)
	}
	return strings.Join(out, "\n")
}

package game

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"referee/internal/rules"
)

// Record is a game as `referee export` writes it: PGN-style tags, then the
// actions in canonical notation with die rolls as comments before the action
// they belong to, then the result.
//
//	[Variant "chectoe"]
//	...
//	1. {die 1 = 3 sig 9f0c...} P@b2 1... {die 2 = 5 sig ...} reroll {die 3 = 2 sig ...} N@c3 ...
//
// The moves are numbered by turn: the actions of one turn (a re-roll and
// the move after it) stand under one number, and Black's turn is numbered
// "1..." wherever a reader could otherwise take its actions for White's.
type Record struct {
	Tags  []Tag // in order of appearance
	Moves []string
	// Rolls are the die rolls in order, each with its signature (hex) when
	// known.
	Rolls []RecordRoll
	// RollsBefore[i] is how many rolls come before Moves[i].
	RollsBefore []int
	// Sides[i] played Moves[i], in the turn whose move number is
	// Numbers[i] (the position's move number before it). Without them
	// (a record read from text) the moves alternate from White at move 1.
	Sides   []rules.Color
	Numbers []int
	// Dates[i], when not "", is the date (YYYY.MM.DD, UTC) Moves[i] was
	// played, written after it as {[%date 2026.11.25]}, the embedded
	// command syntax of the PGN supplement ("[%name operand]" in a
	// comment), as correspondence databases keep the date of each move.
	Dates []string
	// Notes[i], when not "", is a comment written after Moves[i] (and its
	// date): "cond" marks a conditional move, played at once.
	Notes []string
	// Comment, when not "", is written as a comment just before the
	// result: how the game ended, in words.
	Comment string
	Result  string
	// Width is the longest line WriteTo writes (0: 79, the PGN export
	// habit); a mail uses its own text width, so that no mail client or
	// wrapper has to fold a line in the middle of a move.
	Width int
}

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// RecordRoll is one die roll in a record.
type RecordRoll struct {
	N     int
	Value int
	Sig   string // hex Ed25519 signature, or ""
}

// Tag returns the value of the named tag, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets (or adds) a tag.
func (r *Record) SetTag(name, value string) {
	for i, t := range r.Tags {
		if strings.EqualFold(t.Name, name) {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// Values returns the roll values in order.
func (r *Record) Values() []int {
	out := make([]int, len(r.Rolls))
	for i, x := range r.Rolls {
		out[i] = x.Value
	}
	return out
}

// WriteTo writes the record in its text form.
func (r *Record) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, t := range r.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, strconv.Quote(t.Value))
	}
	b.WriteString("\n")
	width := r.Width
	if width <= 0 {
		width = 79
	}
	// The movetext is written in units, one full move each (its number,
	// White's action, Black's, and their comments), and a line breaks
	// only between units, so "8. Be3 O-O" never stands on two lines. A
	// unit longer than a line (a signed die roll) breaks between its
	// tokens.
	line := 0
	put := func(tok string) {
		if line+1+len(tok) > width && (line > 0 || len(tok) > width) {
			if strings.HasPrefix(tok, "{") && len(tok) > width/2 {
				// A long comment breaks between its words and
				// commands, inside its braces (PGN §8.2.5), rather
				// than standing past the width on a line of its own.
				for i, w := range lineChunks(tok[1 : len(tok)-1]) {
					if i == 0 {
						w = "{" + w
					}
					if line > 0 && line+1+len(w) > width {
						b.WriteString("\n")
						line = 0
					} else if line > 0 {
						b.WriteString(" ")
						line++
					}
					b.WriteString(w)
					line += len(w)
				}
				b.WriteString("}")
				line++
				return
			}
			if line > 0 {
				b.WriteString("\n")
				line = 0
			}
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	var unit []string
	flush := func() {
		n := len(strings.Join(unit, " "))
		switch {
		case line > 0 && line+1+n <= width:
		case n <= width && line > 0:
			b.WriteString("\n")
			line = 0
		}
		for _, tok := range unit {
			put(tok)
		}
		unit = unit[:0]
	}
	emit := func(tok string) { unit = append(unit, tok) }
	// Comments that follow one another are written as one: PGN allows a
	// run of them, but chess.js (and so the tools built on it) refuses
	// "e5 {[%date 2026.11.22]} {White resigned.} 0-1".
	comment := func(text string) {
		if n := len(unit); n > 0 && strings.HasPrefix(unit[n-1], "{") {
			unit[n-1] = unit[n-1][:len(unit[n-1])-1] + " " + text + "}"
			return
		}
		emit("{" + text + "}")
	}
	number := func(tok string) {
		flush()
		emit(tok)
	}
	roll := 0
	prevLen := 0 // the number of actions of the turn before
	for i, m := range r.Moves {
		side, num := r.turnOf(i)
		upto := roll
		if i < len(r.RollsBefore) {
			upto = r.RollsBefore[i]
		}
		if i == 0 || !r.sameTurn(i-1, i) {
			n := 1
			for i+n < len(r.Moves) && r.sameTurn(i, i+n) {
				n++
			}
			switch {
			case side == rules.White:
				number(fmt.Sprintf("%d.", num))
			case i == 0 || prevLen > 1 || n > 1 || upto > roll || r.sideOf(i-1) != rules.White || r.numberOf(i-1) != num:
				number(fmt.Sprintf("%d...", num))
			}
			prevLen = n
		}
		for ; roll < upto && roll < len(r.Rolls); roll++ {
			comment(rollComment(r.Rolls[roll]))
		}
		emit(moveToken(m))
		if i < len(r.Dates) && r.Dates[i] != "" {
			comment("[%date " + r.Dates[i] + "]")
		}
		if i < len(r.Notes) && r.Notes[i] != "" {
			comment(commentText(r.Notes[i]))
		}
	}
	for ; roll < len(r.Rolls); roll++ {
		comment(rollComment(r.Rolls[roll]))
	}
	if c := commentText(r.Comment); c != "" {
		comment(c)
	}
	res := r.Result
	if res == "" {
		res = "*"
	}
	emit(res)
	flush()
	b.WriteString("\n")
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// turnOf is the side and move number of Moves[i].
func (r *Record) turnOf(i int) (rules.Color, int) { return r.sideOf(i), r.numberOf(i) }

func (r *Record) numbered() bool {
	return len(r.Sides) == len(r.Moves) && len(r.Numbers) == len(r.Moves)
}

func (r *Record) sideOf(i int) rules.Color {
	if r.numbered() {
		return r.Sides[i]
	}
	return rules.Color(i % 2)
}

func (r *Record) numberOf(i int) int {
	if r.numbered() {
		return r.Numbers[i]
	}
	return i/2 + 1
}

// sameTurn reports whether Moves[i] and Moves[j] belong to one turn.
func (r *Record) sameTurn(i, j int) bool {
	return r.numbered() && r.Sides[i] == r.Sides[j] && r.Numbers[i] == r.Numbers[j]
}

// rollComment is the text of a die roll's comment: "die 3 = 2 sig HEX".
func rollComment(x RecordRoll) string {
	if x.Sig == "" {
		return fmt.Sprintf("die %d = %d", x.N, x.Value)
	}
	return fmt.Sprintf("die %d = %d sig %s", x.N, x.Value, x.Sig)
}

// commentText is text made fit for a comment: one line, no closing brace.
func commentText(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "}", ")")), " ")
}

// lineChunks splits a comment's text into the pieces a line may break
// between: words, embedded commands ("[%date 2026.11.25]") and die rolls
// ("die 3 = 2 sig HEX") whole, so that a roll and its signature stand
// together, as a reader searching for them expects.
func lineChunks(c string) []string {
	words := commentChunks(c)
	var out []string
	for i := 0; i < len(words); i++ {
		if words[i] == "die" && i+3 < len(words) && words[i+2] == "=" {
			n := 4
			if i+5 < len(words) && words[i+4] == "sig" {
				n = 6
			}
			out = append(out, strings.Join(words[i:i+n], " "))
			i += n - 1
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// commentChunks splits a comment's text into words, and embedded commands
// ("[%date 2026.11.25]") whole.
func commentChunks(c string) []string {
	var out []string
	for c = strings.TrimSpace(c); c != ""; c = strings.TrimSpace(c) {
		end := strings.IndexFunc(c, unicode.IsSpace)
		if strings.HasPrefix(c, "[%") {
			if e := strings.IndexByte(c, ']'); e > 0 {
				end = e + 1
			}
		}
		if end < 0 {
			end = len(c)
		}
		out = append(out, c[:end])
		c = c[end:]
	}
	return out
}

// moveToken keeps a move one token: canonical notation writes a deployment
// with commas ("K@e1,G@d1"); one written with spaces, as older records and
// docs/rules/toetotoe.md do ("K@e1 G@d1"), is joined with commas too.
func moveToken(m string) string { return strings.Join(strings.Fields(m), ",") }

// ParseRecord reads a record written by WriteTo (and tolerates ordinary PGN:
// move numbers, comments, NAGs, a result token).
func ParseRecord(rd io.Reader) (*Record, error) {
	r := &Record{}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	var movetext strings.Builder
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && movetext.Len() == 0 {
			inner := strings.TrimSpace(line[1 : len(line)-1])
			sp := strings.IndexFunc(inner, unicode.IsSpace)
			if sp < 0 {
				return nil, fmt.Errorf("record line %d: tag %q has no value; write it as [Name \"value\"]", lineNo, line)
			}
			name, raw := inner[:sp], strings.TrimSpace(inner[sp:])
			val, err := strconv.Unquote(raw)
			if err != nil {
				return nil, fmt.Errorf("record line %d: the value of tag %s is not a quoted string (%s); write it as [%s \"value\"]", lineNo, name, raw, name)
			}
			r.Tags = append(r.Tags, Tag{name, val})
			continue
		}
		movetext.WriteString(line)
		movetext.WriteString("\n")
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading record: %w", err)
	}
	text := movetext.String()
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("record: a comment opened with { is never closed; close it with }")
			}
			if err := r.comment(text[i+1 : i+end]); err != nil {
				return nil, err
			}
			i += end + 1
		case c == ';':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			i += end
		default:
			end := strings.IndexAny(text[i:], " \n\t\r{")
			if end < 0 {
				end = len(text) - i
			}
			tok := text[i : i+end]
			i += end
			r.token(tok)
		}
	}
	if r.Result == "" {
		r.Result = r.Tag("Result")
	}
	for len(r.Dates) > 0 && len(r.Dates) < len(r.Moves) {
		r.Dates = append(r.Dates, "")
	}
	return r, nil
}

// comment reads a comment of the movetext: the date commands in it date
// the move before it, the die rolls in it ("die N = V sig HEX", several in
// one comment when they follow one another) are the record's next rolls,
// and any other text is an ordinary comment.
func (r *Record) comment(c string) error {
	chunks := commentChunks(c)
	for i := 0; i < len(chunks); i++ {
		if d, ok := dateCommand(chunks[i]); ok {
			if len(r.Moves) > 0 {
				for len(r.Dates) < len(r.Moves) {
					r.Dates = append(r.Dates, "")
				}
				r.Dates[len(r.Moves)-1] = d
			}
			continue
		}
		if chunks[i] != "die" || i+3 >= len(chunks) || chunks[i+2] != "=" {
			continue // ordinary text
		}
		n, err1 := strconv.Atoi(chunks[i+1])
		v, err2 := strconv.Atoi(chunks[i+3])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("record: die comment {%s} is not of the form {die N = V sig HEX}", c)
		}
		x := RecordRoll{N: n, Value: v}
		i += 3
		if i+2 < len(chunks) && chunks[i+1] == "sig" {
			x.Sig = chunks[i+2]
			i += 2
		}
		r.Rolls = append(r.Rolls, x)
	}
	return nil
}

// dateCommand reads one [%date YYYY.MM.DD] command.
func dateCommand(c string) (string, bool) {
	c = strings.TrimSpace(c)
	if !strings.HasPrefix(c, "[%date ") || !strings.HasSuffix(c, "]") {
		return "", false
	}
	return strings.TrimSpace(c[len("[%date ") : len(c)-1]), true
}

func (r *Record) token(tok string) {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "½-½", "*":
		r.Result = strings.ReplaceAll(tok, "½-½", "1/2-1/2")
		return
	}
	if strings.HasPrefix(tok, "$") {
		return // a NAG
	}
	// Move numbers: "12." or "12..." possibly glued to the move ("12.e4").
	j := 0
	for j < len(tok) && tok[j] >= '0' && tok[j] <= '9' {
		j++
	}
	if j > 0 && j < len(tok) && tok[j] == '.' {
		tok = strings.TrimLeft(tok[j:], ".")
		if tok == "" {
			return
		}
	}
	r.RollsBefore = append(r.RollsBefore, len(r.Rolls))
	r.Moves = append(r.Moves, tok)
}

// SortedTags returns the tags with the seven PGN roster tags first.
func SortedTags(tags []Tag) []Tag {
	order := map[string]int{"Event": 0, "Site": 1, "Date": 2, "Round": 3, "White": 4, "Black": 5, "Result": 6}
	out := append([]Tag(nil), tags...)
	sort.SliceStable(out, func(i, j int) bool {
		oi, ok1 := order[out[i].Name]
		oj, ok2 := order[out[j].Name]
		if !ok1 {
			oi = 100
		}
		if !ok2 {
			oj = 100
		}
		return oi < oj
	})
	return out
}

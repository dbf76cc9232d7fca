// Package variantfile reads chess variants defined as data, in the
// variants.ini syntax of Fairy-Stockfish: a section per variant, `key = value`
// lines, inheritance from another section or a built-in variant. It knows the
// keys of Fairy-Stockfish that the referee can honour, the piece types it
// names and the subset of Betza notation it reads, plus a few keys of the
// referee's own (wrapped boards, the Klein seam, holes) that Fairy-Stockfish
// ignores. A key it does not know is refused with its line, never ignored.
//
// A definition is data, never code: every size is bounded (the file, its
// lines, the board, the inheritance chain), so a hostile file is refused or
// costs little.
package variantfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on what a file may hold. They bound the work a hostile file can
// cause; an honest variant file is far below them.
const (
	MaxFileBytes    = 1 << 20 // the whole file
	MaxLineBytes    = 4096    // one line
	MaxSections     = 512     // variants in one file
	MaxInheritDepth = 16      // [a:b], [b:c], ... at most this many links
	MaxBoardSide    = 16      // files and ranks
	MaxBetzaBytes   = 128     // one piece's Betza string
	MaxHandPieces   = 256     // pieces in the hands of a start position
	maxErrors       = 20      // errors reported for one section
)

// Error is a problem of a variants file, tied to a line when it has one.
// Its message says what was read, what is wrong and what to write instead.
type Error struct {
	Line    int    // 1-based; 0 for the file as a whole
	Section string // the section the line belongs to, or ""
	Msg     string
	Err     error // a cause, for errors.Is/As; may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Section != "" {
		fmt.Fprintf(&b, "[%s] ", e.Section)
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrUnknownKey is wrapped by the error for a key that is not a key of
// variants.ini (nor one of the referee's own).
var ErrUnknownKey = errors.New("unknown key")

// ErrUnsupported is wrapped by the error for something Fairy-Stockfish
// reads but the referee does not (yet): a key, a Betza modifier, a value.
var ErrUnsupported = errors.New("not supported by the referee")

// tagged is an error whose message is msg and which wraps a sentinel
// (ErrUnknownKey, ErrUnsupported) without printing it.
type tagged struct {
	msg string
	tag error
}

func (t *tagged) Error() string { return t.msg }
func (t *tagged) Unwrap() error { return t.tag }

func tag(sentinel error, format string, args ...any) error {
	return &tagged{msg: fmt.Sprintf(format, args...), tag: sentinel}
}

// entry is one `key = value` line.
type entry struct {
	key, value string
	line       int
}

// section is one `[name]` or `[name:parent]` and its lines.
type section struct {
	name, parent string
	line         int
	entries      []entry
	seen         map[string]int // key -> its line
	errs         []error        // syntax errors of its lines
}

// splitSections reads the ini text: lines before the first section must be
// blank or comments; comments are whole lines starting with # or ;
// (Fairy-Stockfish reads a # after a value as part of the value, and so
// does this reader: the value is then refused by its key).
func splitSections(src []byte) ([]*section, []error) {
	var out []*section
	var errs []error
	if len(src) > MaxFileBytes {
		return nil, []error{&Error{Msg: fmt.Sprintf("the file has %d bytes; a variants file may have at most %d", len(src), MaxFileBytes)}}
	}
	if !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 {
		return nil, []error{&Error{Msg: "the file is not text (it is not UTF-8, or holds NUL bytes); a variants file is plain text in variants.ini syntax"}}
	}
	var cur *section
	for i, raw := range strings.Split(string(src), "\n") {
		n := i + 1
		line := strings.TrimRight(raw, "\r")
		if len(line) > MaxLineBytes {
			err := &Error{Line: n, Msg: fmt.Sprintf("the line has %d bytes; a line may have at most %d", len(line), MaxLineBytes)}
			switch {
			case cur != nil && len(cur.errs) < maxErrors:
				err.Section = cur.name
				cur.errs = append(cur.errs, err)
			case cur == nil && len(errs) < maxErrors:
				errs = append(errs, err)
			}
			continue
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			s, err := readHeader(t, n)
			if err != nil {
				errs = append(errs, err)
				cur = &section{name: "", line: n} // its lines are read and dropped
				continue
			}
			if len(out) == MaxSections {
				errs = append(errs, &Error{Line: n, Msg: fmt.Sprintf("a file may define at most %d variants; split it", MaxSections)})
				return out, errs
			}
			cur = s
			out = append(out, s)
			continue
		}
		if cur == nil {
			if len(errs) >= maxErrors {
				continue
			}
			errs = append(errs, &Error{Line: n, Msg: fmt.Sprintf("%q comes before the first section; start a variant with a line like [myvariant] or [myvariant:chess]", clip(t))})
			continue
		}
		key, value, ok := strings.Cut(t, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || key == "" {
			if len(cur.errs) < maxErrors {
				cur.errs = append(cur.errs, &Error{Line: n, Section: cur.name, Msg: fmt.Sprintf("%q is not a `key = value` line; write e.g. maxFile = 10, or start the line with # for a comment", clip(t))})
			}
			continue
		}
		if len(cur.errs) >= maxErrors {
			continue // enough said about this section
		}
		if first, dup := cur.seen[key]; dup {
			cur.errs = append(cur.errs, &Error{Line: n, Section: cur.name, Msg: fmt.Sprintf("%s is set again (first on line %d); keep one of the two lines", clip(key), first)})
			continue
		}
		if cur.seen == nil {
			cur.seen = map[string]int{}
		}
		cur.seen[key] = n
		cur.entries = append(cur.entries, entry{key: key, value: value, line: n})
	}
	return out, errs
}

// readHeader reads `[name]` or `[name:parent]`.
func readHeader(t string, n int) (*section, error) {
	end := strings.IndexByte(t, ']')
	if end < 0 {
		return nil, &Error{Line: n, Msg: fmt.Sprintf("the section header %q has no closing ]; write [myvariant] or [myvariant:chess]", clip(t))}
	}
	if rest := strings.TrimSpace(t[end+1:]); rest != "" && rest[0] != '#' && rest[0] != ';' {
		return nil, &Error{Line: n, Msg: fmt.Sprintf("%q follows the section header; put it on a line of its own", clip(rest))}
	}
	name, parent, _ := strings.Cut(t[1:end], ":")
	name, parent = strings.TrimSpace(name), strings.TrimSpace(parent)
	if err := checkName(name); err != nil {
		return nil, &Error{Line: n, Msg: fmt.Sprintf("the variant name %q: %v", clip(name), err)}
	}
	if strings.Contains(t[1:end], ":") {
		if err := checkName(parent); err != nil {
			return nil, &Error{Line: n, Section: name, Msg: fmt.Sprintf("the parent name %q: %v", clip(parent), err)}
		}
	}
	return &section{name: name, parent: parent, line: n}, nil
}

// checkName accepts names of letters, digits, - and _, up to 40 bytes.
func checkName(s string) error {
	if s == "" {
		return errors.New("a name is needed, e.g. [myvariant]")
	}
	if len(s) > 40 {
		return errors.New("a name has at most 40 characters")
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("%q may not be part of a name; use letters, digits, - and _", c)
		}
	}
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 57
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

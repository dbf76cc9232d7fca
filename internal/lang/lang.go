// Package lang writes the referee's texts in each reader's language
// (issue 42). The texts live in message catalogs, one embedded file per
// language (locales/<code>.json), keyed by the English format string, so
// that a call site reads as the English it writes:
//
//	p.Sprintf("Your move %q (game #%d, move %d) was not played: %s", action, id, n, why)
//
// English needs no lookup: a key that a catalog does not hold is
// formatted as it is. A count that changes a word has a plural entry,
// selected with golang.org/x/text/feature/plural by the language's CLDR
// rules (Polish and Russian "one", "few", "many", "other").
//
// The lookup and the plural selection are golang.org/x/text/message's
// catalog; the formatting is package fmt's. message.Printer formats
// numbers the locale's way ("#1.234" for game 1234 in German, "1,234" in
// English), which would change game numbers that players copy into
// commands and every English mail; fmt leaves them as they are.
//
// Adding a language is one file in locales and one line in
// notation.Languages (its piece letters): the catalog loads every file
// there, and a test fails while the two lists differ or a file lacks a
// message the English master list (locales/en.json) has.
//
// The variants' short rules (the opening mail's "The rules in short") are
// paragraphs, not messages: rules/<code>.json holds them by variant name,
// for the languages that have them (Printer.Rules); a language without
// them gets the English text.
package lang

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

//go:embed locales/*.json rules/*.json
var locales embed.FS

// English is the code of the language the keys are written in.
const English = "en"

// Catalog holds every language's messages. It is built once (Load) and
// never changed after, so one Catalog serves any number of goroutines.
type Catalog struct {
	cat      *catalog.Builder
	printers map[string]*Printer
	codes    []string
}

// Entry is one message of a catalog file: a plain translation (a JSON
// string), or a plural one (a JSON object) whose form is chosen by the
// count in argument Arg (1 is the first argument), with a text for each
// of the language's plural categories. In the English master list a
// plain entry is a note for translators (where the text appears, what its
// arguments are), not a text: English writes the key.
type Entry struct {
	Text  string
	Arg   int               `json:"arg"`
	Forms map[string]string `json:"-"`
	Note  string            `json:"note,omitempty"`
}

// Plural reports whether e has plural forms.
func (e Entry) Plural() bool { return len(e.Forms) > 0 }

// UnmarshalJSON reads a string or a plural object.
func (e *Entry) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Text)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("an entry is a string or an object of plural forms: %w", err)
	}
	e.Forms = map[string]string{}
	for k, v := range raw {
		switch k {
		case "arg":
			if err := json.Unmarshal(v, &e.Arg); err != nil {
				return fmt.Errorf("\"arg\": %w", err)
			}
		case "note":
			if err := json.Unmarshal(v, &e.Note); err != nil {
				return fmt.Errorf("\"note\": %w", err)
			}
		default:
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("plural form %q: %w", k, err)
			}
			e.Forms[k] = s
		}
	}
	if e.Arg < 1 {
		return fmt.Errorf("a plural entry names its count with \"arg\" (1 for the first argument)")
	}
	return nil
}

// ReadFile reads the catalog file of the language code.
func ReadFile(code string) (map[string]Entry, error) {
	b, err := locales.ReadFile(path.Join("locales", code+".json"))
	if err != nil {
		return nil, fmt.Errorf("the catalog of %q: %w", code, err)
	}
	var m map[string]Entry
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the catalog locales/%s.json: %w", code, err)
	}
	return m, nil
}

// Codes lists the languages that have a catalog file, English first, the
// others in the order of their codes.
func Codes() []string {
	files, _ := fs.Glob(locales, "locales/*.json")
	var out []string
	for _, f := range files {
		if c := strings.TrimSuffix(path.Base(f), ".json"); c != English {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return append([]string{English}, out...)
}

// Load builds the catalog of every language from the embedded files.
func Load() (*Catalog, error) {
	c := &Catalog{cat: catalog.NewBuilder(), printers: map[string]*Printer{}, codes: Codes()}
	for _, code := range c.codes {
		tag, err := language.Parse(code)
		if err != nil {
			return nil, fmt.Errorf("the catalog file %s.json: %w", code, err)
		}
		entries, err := ReadFile(code)
		if err != nil {
			return nil, err
		}
		for _, key := range slices.Sorted(maps.Keys(entries)) {
			e := entries[key]
			switch {
			case e.Plural():
				var cases []any
				for _, f := range pluralOrder {
					if s, ok := e.Forms[f]; ok {
						cases = append(cases, f, s)
					}
				}
				if err := c.cat.Set(tag, key, plural.Selectf(e.Arg, "%d", cases...)); err != nil {
					return nil, fmt.Errorf("locales/%s.json, %q: %w", code, key, err)
				}
			case code == English:
				// A note: English writes the key.
			default:
				if err := c.cat.SetString(tag, key, e.Text); err != nil {
					return nil, fmt.Errorf("locales/%s.json, %q: %w", code, key, err)
				}
			}
		}
		rules, err := readRules(code)
		if err != nil {
			return nil, err
		}
		c.printers[code] = &Printer{code: code, tag: tag, cat: c.cat, rules: rules}
	}
	return c, nil
}

// MustLoad is Load for a caller that cannot go on without the catalog:
// the files are embedded in the binary and checked by the package's
// tests, so an error is a build that should never have been made.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

// pluralOrder is the order the forms are tried in: "other" last, as the
// catch-all.
var pluralOrder = [...]string{"zero", "one", "two", "few", "many", "other"}

// Codes lists the catalog's languages, English first.
func (c *Catalog) Codes() []string { return slices.Clone(c.codes) }

// Printer returns the printer of the reader's language tag (Tag): the
// language code, English for "" or a code without a catalog, with the
// figurines when the tag asks for them.
func (c *Catalog) Printer(tag string) *Printer {
	code, fig := SplitTag(tag)
	p, ok := c.printers[code]
	if !ok {
		p = c.printers[English]
	}
	if fig {
		q := *p
		q.figurines = true
		return &q
	}
	return p
}

// figurineSubtag is the private-use subtag (BCP 47, section 2.2.7) of a
// reader's language tag that asks for the moves in figurines ("de-x-fig":
// German, its moves written "♘f3"; "x-fig": no language set, figurines).
const figurineSubtag = "x-fig"

// Tag is the language tag of a reader of the language code ("" for none)
// who asked, or not, for figurines: what a player's language setting
// holds, and what Catalog.Printer and notation.WriteIn read.
func Tag(code string, figurines bool) string {
	switch {
	case !figurines:
		return code
	case code == "":
		return figurineSubtag
	}
	return code + "-" + figurineSubtag
}

// SplitTag is Tag's inverse: the language code of tag ("" for none) and
// whether it asks for figurines.
func SplitTag(tag string) (code string, figurines bool) {
	if tag == figurineSubtag {
		return "", true
	}
	if c, ok := strings.CutSuffix(tag, "-"+figurineSubtag); ok {
		return c, true
	}
	return tag, false
}

// Printer writes texts in one language. A nil *Printer writes English
// without the catalog: keys as they are, and no plural forms (use it
// only where no count is shown).
type Printer struct {
	code      string
	tag       language.Tag
	cat       *catalog.Builder
	rules     map[string]string // variant name -> its short rules (rules/<code>.json)
	figurines bool              // the reader asked for figurines (Tag)
}

// Rules is the short rules of the built-in variant name (rules.Variant's
// Name) in p's language, as the opening mail and the help give them, or
// false where the language has no translation of them: the caller writes
// the variant's own English text.
func (p *Printer) Rules(variant string) (string, bool) {
	if p == nil {
		return "", false
	}
	s, ok := p.rules[variant]
	return s, ok
}

// readRules reads the short rules of the variants in the language code:
// rules/<code>.json, a JSON object from variant name to text. A language
// may have none (English has none: its texts are the variants' own).
func readRules(code string) (map[string]string, error) {
	b, err := locales.ReadFile(path.Join("rules", code+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the short rules in %q: %w", code, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the short rules rules/%s.json: %w", code, err)
	}
	return m, nil
}

// Code is the printer's language code ("en" for a nil printer).
func (p *Printer) Code() string {
	if p == nil {
		return English
	}
	return p.code
}

// Error is an error whose reason is a Text, written in each reader's
// language (an address refused, a time control, a name); Error() is its
// English. Err is what caused it, when anything did.
type Error struct {
	Why Text
	Err error
}

// Error is the reason in English.
func (e *Error) Error() string { return e.Why.In(nil) }

// Unwrap is the error that caused e, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Why is err's reason for a reader: the Text of the *Error it is or
// wraps, else its own (English) words.
func Why(err error) Text {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Why
	}
	return Raw(err.Error())
}

// Figurines reports whether p's reader asked for the moves in figurines.
func (p *Printer) Figurines() bool { return p != nil && p.figurines }

// ReaderTag is the language tag of p's reader (Tag): its code, and
// whether they asked for figurines. notation.WriteIn writes their moves
// from it.
func (p *Printer) ReaderTag() string { return Tag(p.Code(), p.Figurines()) }

// Sprintf writes the message key in p's language with args, as
// fmt.Sprintf does. An argument that is a Text is written in p's
// language first.
func (p *Printer) Sprintf(key string, args ...any) string {
	args = p.resolve(args)
	if p != nil {
		r := &renderer{args: args}
		if err := p.cat.Context(p.tag, r).Execute(key); err == nil {
			return r.b.String()
		}
	}
	return fmt.Sprintf(key, args...)
}

// resolve writes the Text arguments in p's language.
func (p *Printer) resolve(args []any) []any {
	var out []any
	for i, a := range args {
		if t, ok := a.(Text); ok {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i] = t.In(p)
		}
	}
	if out == nil {
		return args
	}
	return out
}

// renderer formats the message the catalog chose (the plural form) with
// fmt. It implements the catalog's Renderer.
type renderer struct {
	args []any
	b    strings.Builder
}

// Render writes msg formatted with the arguments.
func (r *renderer) Render(msg string) { fmt.Fprintf(&r.b, msg, r.args...) }

// Arg is the i-th argument (1 is the first), for the plural selection.
func (r *renderer) Arg(i int) any {
	if i >= 1 && i <= len(r.args) {
		return r.args[i-1]
	}
	return nil
}

// Text is a text to be written later in its reader's language: a mail
// decided once and sent to readers of several languages.
type Text interface {
	// In writes the text in p's language.
	In(p *Printer) string
}

// M is the message key with args, written in the reader's language.
func M(key string, args ...any) Text { return message{key, args} }

type message struct {
	key  string
	args []any
}

func (m message) In(p *Printer) string { return p.Sprintf(m.key, m.args...) }

// Raw is a text written the same in every language: a name, a notation,
// or a text not translated yet.
type Raw string

// In is r itself.
func (r Raw) In(*Printer) string { return string(r) }

// Join is the texts joined by sep, each in the reader's language; empty
// ones are left out.
func Join(sep string, texts ...Text) Text { return joined{sep, texts} }

type joined struct {
	sep   string
	texts []Text
}

func (j joined) In(p *Printer) string {
	var parts []string
	for _, t := range j.texts {
		if t == nil {
			continue
		}
		if s := t.In(p); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, j.sep)
}

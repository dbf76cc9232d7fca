package letters

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"referee/internal/lang"
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
)

// dataVersion is the version of the form Encode writes. Decode refuses
// any other, so that a mail queued by a newer referee is never written
// half-understood by an older one. Version 2 is version 1 with the
// reader's language (issue 42): a board mail in a language other than
// English is written so, and one in English stays version 1, as before.
const (
	dataVersion     = 1
	dataVersionLang = 2
)

// data is a referee.Mail as the outbox keeps it: everything Write needs,
// with the position as its string (RULES.md §2) and the variant by name.
type data struct {
	V          int            `json:"v"`
	Kind       string         `json:"kind"`
	To         string         `json:"to"`
	ToName     string         `json:"to_name,omitempty"`
	Subject    string         `json:"subject"`
	ReplyTo    string         `json:"reply_to,omitempty"`
	MessageID  string         `json:"message_id"`
	InReplyTo  string         `json:"in_reply_to,omitempty"`
	References []string       `json:"references,omitempty"`
	Date       time.Time      `json:"date"`
	Text       string         `json:"text,omitempty"`
	HTML       string         `json:"html,omitempty"`
	LastMove   []rules.Square `json:"last_move,omitempty"`
	Board      *boardData     `json:"board,omitempty"`
}

// boardData is a render.Mail as the outbox keeps it.
type boardData struct {
	GameID    int64            `json:"game_id"`
	Variant   string           `json:"variant"`
	Position  string           `json:"position,omitempty"` // "" for none
	Viewer    rules.Color      `json:"viewer"`
	Spectator bool             `json:"spectator,omitempty"`
	Status    string           `json:"status,omitempty"`
	Headline  string           `json:"headline,omitempty"`
	LastMove  string           `json:"last_move,omitempty"`
	MoveList  []render.Played  `json:"move_list,omitempty"`
	MoveNote  string           `json:"move_note,omitempty"`
	Relay     string           `json:"relay,omitempty"`
	RelayFrom string           `json:"relay_from,omitempty"`
	Prompt    string           `json:"prompt,omitempty"`
	Commands  []string         `json:"commands,omitempty"`
	Example   string           `json:"example,omitempty"`
	Sections  []render.Section `json:"sections,omitempty"`
	Footer    string           `json:"footer,omitempty"`
	Lang      string           `json:"lang,omitempty"` // the reader's language code; "" for English
}

// Encode returns m as data for the outbox: JSON that Decode turns back into
// a mail that Write writes to the same bytes as m. The decision is recorded
// as this data inside the write transaction; the text, HTML, picture, MIME
// and signature are written from it at send time.
func Encode(m referee.Mail) ([]byte, error) {
	d := data{V: dataVersion, Kind: string(m.Kind), To: m.To, ToName: m.ToName, Subject: m.Subject, ReplyTo: m.ReplyTo,
		MessageID: m.MessageID, InReplyTo: m.InReplyTo, References: m.References, Date: m.Date, Text: m.Text,
		HTML: m.HTML, LastMove: m.LastMove}
	if b := m.Board; b != nil {
		bd := &boardData{GameID: b.GameID, Viewer: b.Viewer, Spectator: b.Spectator, Status: b.Status,
			Headline: b.Headline, LastMove: b.LastMove, MoveList: b.MoveList, MoveNote: b.MoveNote, Relay: b.Relay,
			RelayFrom: b.RelayFrom, Prompt: b.Prompt, Commands: b.Commands, Example: b.Example, Sections: b.Sections,
			Footer: b.Footer}
		v := b.Variant
		if v == nil && b.Pos != nil {
			v = b.Pos.Variant()
		}
		if v == nil {
			return nil, fmt.Errorf("the board mail to %s names no variant: it cannot be written later", m.To)
		}
		bd.Variant = v.Name()
		if b.Pos != nil {
			bd.Position = b.Pos.String()
		}
		if code := b.Lang.Code(); code != lang.English {
			bd.Lang = code
			d.V = dataVersionLang
		}
		d.Board = bd
	}
	out, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("recording the mail to %s as data: %w", m.To, err)
	}
	return out, nil
}

// Decode turns the data Encode wrote back into the mail, for a mail in
// English (DecodeIn writes any language).
func Decode(raw []byte) (referee.Mail, error) { return DecodeIn(raw, nil) }

// DecodeIn turns the data Encode wrote back into the mail, its words in
// the reader's language from cat.
func DecodeIn(raw []byte, cat *lang.Catalog) (referee.Mail, error) { return DecodeFor(raw, cat, nil) }

// DecodeFor is DecodeIn for a referee that hosts variants beyond its own
// (a board mail of a file variant names it).
func DecodeFor(raw []byte, cat *lang.Catalog, variants *rules.Catalog) (referee.Mail, error) {
	var d data
	if err := json.Unmarshal(raw, &d); err != nil {
		return referee.Mail{}, fmt.Errorf("reading a queued mail's data: %w", err)
	}
	if d.V != dataVersion && d.V != dataVersionLang {
		return referee.Mail{}, fmt.Errorf("a queued mail's data has format version %d, this referee writes only version %d: use the referee binary that queued it", d.V, dataVersion)
	}
	m := referee.Mail{Kind: referee.MailKind(d.Kind), To: d.To, ToName: d.ToName, Subject: d.Subject, ReplyTo: d.ReplyTo,
		MessageID: d.MessageID, InReplyTo: d.InReplyTo, References: d.References, Date: d.Date, Text: d.Text,
		HTML: d.HTML, LastMove: d.LastMove}
	if bd := d.Board; bd != nil {
		v, err := variants.Lookup(bd.Variant)
		if err != nil {
			return referee.Mail{}, fmt.Errorf("the queued mail to %s: %w", d.To, err)
		}
		b := &render.Mail{GameID: bd.GameID, Variant: v, Viewer: bd.Viewer, Spectator: bd.Spectator, Status: bd.Status,
			Headline: bd.Headline, LastMove: bd.LastMove, MoveList: bd.MoveList, MoveNote: bd.MoveNote, Relay: bd.Relay,
			RelayFrom: bd.RelayFrom, Prompt: bd.Prompt, Commands: bd.Commands, Example: bd.Example, Sections: bd.Sections,
			Footer: bd.Footer}
		if bd.Lang != "" {
			if cat == nil {
				return referee.Mail{}, fmt.Errorf("the queued mail to %s is in the language %q: writing it needs the catalogs", d.To, bd.Lang)
			}
			b.Lang = cat.Printer(bd.Lang)
		}
		if bd.Position != "" {
			if b.Pos, err = v.ParsePosition(bd.Position); err != nil {
				return referee.Mail{}, fmt.Errorf("the queued mail to %s: its %s position %q: %w", d.To, v.Name(), bd.Position, err)
			}
		}
		m.Board = b
	}
	if m.To == "" {
		return referee.Mail{}, errors.New("a queued mail's data names no recipient")
	}
	return m, nil
}

package app

import (
	"context"
	"fmt"
	"strings"

	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// Inspection is how the referee reads one mail, for `referee inspect`.
type Inspection struct {
	Game    *int64  `json:"game"`
	Player  *string `json:"player"`
	Auth    Auth    `json:"auth"`
	Action  *string `json:"action"`
	Message string  `json:"message"`
	Reject  *string `json:"reject"`
	Verdict string  `json:"verdict"`
	// Read is what the reader took from the mail.
	Read struct {
		From        string   `json:"from"`
		Subject     string   `json:"subject"`
		Token       string   `json:"token"`
		TokenSource string   `json:"token_source"`
		Automatic   string   `json:"automatic"`
		FirstLine   string   `json:"first_line"`
		Warnings    []string `json:"warnings"`
	} `json:"read"`
}

// Auth is the authentication verdict of an inspected mail.
type Auth struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

// Inspect decides about raw exactly as Process would (the same decide
// path, in a read transaction), but stores nothing, sends nothing and
// writes no mail.
func (a *App) Inspect(ctx context.Context, raw []byte) (*Inspection, error) {
	m, readErr := mailreader.Read(raw, a.opts.Address, a.limits)
	in := referee.Inbound{Mail: m, ReadErr: readErr, Digest: digest(raw), DKIM: a.checkDKIM(ctx, raw, m)}
	out := &Inspection{}
	var g *referee.Game
	var res referee.Outcome
	err := a.st.View(ctx, func(tx *store.Tx) error {
		var err error
		g, res, _, err = a.decide(tx, in)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("deciding about the mail: %w", err)
	}
	if g != nil {
		id := g.ID
		out.Game = &id
	}
	if res.Player != "" {
		p := res.Player
		out.Player = &p
		out.Auth = Auth{OK: true, Reason: res.Auth}
	} else {
		out.Auth = Auth{OK: false, Reason: res.Detail}
	}
	if len(res.NewActions) > 0 {
		san := res.NewActions[0].SAN
		out.Action = &san
	} else if res.Verdict == referee.Applied || res.Verdict == referee.Answered {
		cmd := strings.ToLower(strings.TrimSpace(m.Action))
		out.Action = &cmd
	}
	if res.Verdict == referee.Rejected || res.Verdict == referee.Ignored {
		d := res.Detail
		out.Reject = &d
	}
	out.Verdict = string(res.Verdict)
	if m != nil {
		out.Message = m.Message
		if len(res.NewActions) > 0 {
			out.Message = res.NewActions[0].Message // what the opponent is sent: read knowing the referee's mail, checked, conditional lines out
		}
		out.Read.From, out.Read.Subject, out.Read.Automatic = m.From, m.Subject, m.Automatic
		out.Read.TokenSource, out.Read.FirstLine, out.Read.Warnings = m.TokenSource, m.Action, m.Warnings
		if m.Token != nil {
			out.Read.Token = m.Token.String()
		}
	}
	return out, nil
}

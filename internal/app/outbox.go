package app

import (
	"fmt"
	"time"

	"referee/internal/letters"
	"referee/internal/referee"
	"referee/internal/store"
)

// DefaultMaxStrangerAnswers is the default of Options.MaxStrangerAnswers:
// 30 answers an hour across all senders.
const DefaultMaxStrangerAnswers = 30

// NoStrangerAnswers as Options.MaxStrangerAnswers answers no stranger.
const NoStrangerAnswers = -2

// priorityOf says in which order the outbox serves a mail of kind (see
// store.PriorityGame): the mail that asks a player to move first, then
// answers to a player's own mail, reminders and notices, spectators'
// boards, and answers to strangers last.
func priorityOf(kind referee.MailKind) int {
	switch kind {
	case referee.KindMove, referee.KindGameEnd, referee.KindOpening, referee.KindAbort, referee.KindDigest:
		return store.PriorityGame
	case referee.KindReminder, referee.KindNotice, referee.KindInvitation:
		return store.PriorityReminder
	case referee.KindSpectator, referee.KindEventOpening, referee.KindEventEnd:
		return store.PriorityBulk
	case referee.KindRefusal, referee.KindProof:
		return store.PriorityStranger
	}
	return store.PriorityPlayer
}

// Render writes one outbox mail as it goes to the SMTP server: from its
// data (letters.Encode, recorded by the decision's transaction) the text,
// HTML, picture and MIME, DKIM-signed when a key is configured, with the
// mail's own Date as the signing time. The same data gives the same bytes,
// so a mail sent again after a crash is the same mail. A mail queued before
// the outbox kept data (schema version 7) is sent as it was written then.
func (a *App) Render(o store.Outgoing) ([]byte, error) {
	if len(o.Data) == 0 {
		if len(o.Raw) == 0 {
			return nil, fmt.Errorf("outbox mail #%d to %s has neither data nor text (pruned after it was sent?): there is nothing to send", o.ID, o.To)
		}
		return o.Raw, nil
	}
	m, err := letters.DecodeFor(o.Data, a.ref.Catalog(), a.Variants())
	if err != nil {
		return nil, fmt.Errorf("outbox mail #%d to %s: %w", o.ID, o.To, err)
	}
	return a.write(m)
}

// write writes one mail as MIME, DKIM-signed when a key is configured.
func (a *App) write(m referee.Mail) ([]byte, error) {
	l, err := a.letters.Write(m)
	if err != nil {
		return nil, err
	}
	if a.opts.DKIM == nil {
		return l.Raw, nil
	}
	signed, err := a.opts.DKIM.Sign(l.Raw, m.Date)
	if err != nil {
		return nil, fmt.Errorf("mail to %s: %w", m.To, err)
	}
	return signed, nil
}

// capStrangers enforces the hourly cap on answers to strangers across all
// senders (Options.MaxStrangerAnswers): once that many were queued in the
// last hour, a further refusal is not answered, and the inbound mail's
// record says why. A flood of mail from forged senders thus queues at most
// the cap, whatever the number of senders.
func (a *App) capStrangers(tx *store.Tx, out *referee.Outcome) error {
	limit := a.opts.MaxStrangerAnswers
	switch {
	case limit == NoStrangerAnswers:
		limit = 0
	case limit < 0:
		return nil
	case limit == 0:
		limit = DefaultMaxStrangerAnswers
	}
	var keep []referee.Mail
	strangers := 0
	for _, m := range out.Mails {
		if priorityOf(m.Kind) == store.PriorityStranger {
			strangers++
			continue
		}
		keep = append(keep, m)
	}
	if strangers == 0 {
		return nil
	}
	n, err := tx.QueuedSince(store.PriorityStranger, a.opts.Now().UTC().Add(-time.Hour))
	if err != nil {
		return err
	}
	if n+strangers <= limit {
		return nil
	}
	out.Mails = keep
	out.Verdict = referee.Ignored
	out.Detail = fmt.Sprintf("%s (not answered: %d answers to strangers in the last hour, the limit across all senders is %d)", out.Detail, n, limit)
	return nil
}

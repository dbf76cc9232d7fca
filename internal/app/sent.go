package app

import (
	"slices"
	"strings"

	"referee/internal/letters"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// answering gives the core a mail read knowing what the referee itself
// wrote in the mails the reply answers (issue 36: "the referee knows what
// it sent"): the mails its In-Reply-To and References name on the
// referee's domain, else the referee's latest mail of the game to the
// player, are loaded from the outbox (kept as data), written to their
// text and HTML as they were sent, and handed to the reader, which ends
// the player's words at the first line of them and its quote header. m is
// returned unchanged when there is nothing to compare with: no game, an
// unknown player, mails pruned from the outbox.
func (a *App) answering(tx *store.Tx, m *mailreader.Mail, g *referee.Game) (*mailreader.Mail, error) {
	if m == nil || m.Token == nil || g == nil || m.Text == "" {
		return m, nil
	}
	c, ok := g.PlayerOf(m.Token.Secret)
	if !ok {
		return m, nil
	}
	dom := "@" + strings.ToLower(a.opts.Address[strings.LastIndexByte(a.opts.Address, '@')+1:]) + ">"
	var ids []string
	refs := slices.Clone(m.References)
	slices.Reverse(refs) // the newest first
	for _, id := range append([]string{m.InReplyTo}, refs...) {
		if id != "" && strings.HasSuffix(strings.ToLower(id), dom) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	datas, err := tx.SentData(g.Players[c].Address, ids, g.ID)
	if err != nil || len(datas) == 0 {
		return m, err
	}
	var texts []string
	for _, d := range datas {
		sent, err := letters.DecodeFor(d, a.ref.Catalog(), a.Variants())
		if err != nil {
			continue // a mail this referee cannot write: nothing to compare with
		}
		if sent.Board != nil {
			texts = append(texts, sent.Board.Text(), sent.Board.HTML())
		} else {
			texts = append(texts, sent.Text, sent.HTML)
		}
	}
	return m.Answering(mailreader.NewSent(texts...)), nil
}

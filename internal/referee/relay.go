package referee

import (
	"regexp"
	"strings"

	"referee/internal/mail/reader"
)

// tokenShapeRE finds anything shaped like a game reference
// ("17.k3fux2ab7q.23"): the local part of a reply address, the start of
// one of the referee's Message-IDs.
var tokenShapeRE = regexp.MustCompile(`(?i)(^|[^0-9a-z])[0-9]{1,12}\.[a-z2-7]{10}\.[0-9]{1,9}([^0-9a-z]|$)`)

// relayable is the last check on a message before it is relayed to an
// opponent (issue 36): whatever the reader concluded, the message is cut
// before its first line that holds the referee's address or a reply
// address of it (a plus-address: it carries a player's secret), a game
// reference or Message-ID of the referee's, or either player's secret of
// g. Such a line is a quote the reader did not recognise, and what follows
// it is the rest of that quote.
func (r *Referee) relayable(msg string, g *Game) string {
	if msg == "" {
		return ""
	}
	base := strings.ToLower(r.cfg.Address)
	local, domain, _ := strings.Cut(base, "@")
	var secrets []string
	if g != nil {
		for _, p := range g.Players {
			if len(p.Secret) >= 6 {
				secrets = append(secrets, strings.ToLower(p.Secret))
			}
		}
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		low := strings.ToLower(l)
		leak := base != "" && strings.Contains(low, base) ||
			local != "" && strings.Contains(low, local+"+") && strings.Contains(low, "@"+domain) ||
			domain != "" && strings.Contains(low, "@"+domain+">") ||
			tokenShapeRE.MatchString(low)
		for _, s := range secrets {
			leak = leak || strings.Contains(low, s)
		}
		if leak {
			return strings.TrimSpace(strings.Join(lines[:i], "\n"))
		}
	}
	return msg
}

// wholeMessage is the player's message before the reader's cut at 2,000
// characters (the reader's FullMessage), or Message for a mail that has
// none.
func wholeMessage(m *reader.Mail) string {
	if m.FullMessage != "" {
		return m.FullMessage
	}
	return m.Message
}

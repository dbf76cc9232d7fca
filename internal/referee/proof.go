package referee

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
)

// Proving an address (issue 38). A lobby command acts on From alone, and
// From is forged at will: a "join" would put anyone in an event that then
// mails them and their opponents, and a "start" would undo the "stop" of
// someone who asked for no more invitations. For these the referee asks
// the address itself: it answers with a mail whose reply address (and
// Message-ID) carries a proof token, and acts only on the command sent
// again in a reply to it, from the same address. The token's secret is
// derived, not stored: an HMAC, keyed with the deployment's secret
// IDSalt, of what the reply confirms and the address's mailbox, so that
// a reply from another address, or confirming something else, does not
// match.

// proofLen is the characters of a proof secret: 80 bits of base32.
const proofLen = 16

// proofSecret is the secret of the proof token that confirms what (words
// such as "join", the event's name) for the mailbox of address.
func (r *Referee) proofSecret(address string, what ...string) string {
	mac := hmac.New(sha256.New, []byte("proof\x00"+r.cfg.IDSalt))
	mac.Write([]byte(addr.Mailbox(address) + "\x00" + strings.Join(what, "\x00")))
	return strings.ToLower(base32.StdEncoding.EncodeToString(mac.Sum(nil)))[:proofLen]
}

// proved reports whether m replies to the referee's request to prove its
// sender's address for what.
func (r *Referee) proved(m *reader.Mail, what ...string) bool {
	return m.Proof != "" && hmac.Equal([]byte(m.Proof), []byte(r.proofSecret(m.From, what...)))
}

// joinProof and startProof are what a join of e and a "start" prove: the
// event by name (an event's name is never reused), the stop by its time,
// so that the reply to an older stop's request does not undo a new one.
func joinProof(e *Event) []string         { return []string{"join", e.Name} }
func startProof(since time.Time) []string { return []string{"start", fmt.Sprint(since.UnixMilli())} }

// askProof answers a command that waits for its sender to prove the
// address: a mail to that address, and only to it, whose reply address
// carries the proof of what; the reply must say again (line). It changes
// nothing, counts as an answer to the sender (MaxAnswersPerHour), and is
// served as an answer to a stranger (KindProof): the hourly cap on those,
// across all senders, bounds what forged mail can make the referee send.
func (r *Referee) askProof(c *call, kind, detail, subject, lead, line, ignore string, what ...string) Outcome {
	return r.askProofIn(r.english(), c, kind, detail, subject, lead, line, ignore, what...)
}

// askProofIn is askProof with the mail's own sentences in p's language
// (subject, lead and ignore come written in it).
func (r *Referee) askProofIn(p *lang.Printer, c *call, kind, detail, subject, lead, line, ignore string, what ...string) Outcome {
	m, env, lc := c.m, c.env, r.lobbyCfg()
	if env.Lobby != nil && env.Lobby.RecentAnswers >= lc.MaxAnswersPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("%s (not asked for proof: %d answers to %s in the last hour, the limit is %d)",
			detail, env.Lobby.RecentAnswers, m.From, lc.MaxAnswersPerHour)}
	}
	secret := r.proofSecret(m.From, what...)
	text := wrap(lead) + "\n\n" +
		wrap(p.Sprintf("Anyone can put another's address on a mail, so the referee acts only on a reply to this mail, "+
			"which came to you alone: to go ahead, reply to it with %q on the first line (your mail program keeps the "+
			"referee's reply address, which carries the proof).", line)) + "\n\n" +
		wrap(p.Sprintf("If you did not ask for this, ignore this mail: %s", ignore)) + "\n"
	l := Mail{Kind: KindProof, To: m.From, Subject: subject, ReplyTo: addr.Plus(r.cfg.Address, reader.ProofToken(secret)),
		InReplyTo: m.MessageID, MessageID: reader.ProofMessageID(secret, r.nonce("proof", kind, m.MessageID, env.Now.UTC().Format(time.RFC3339)), r.domain()),
		Text: text + lobbyFooterIn(p, r.cfg.Address), Date: env.Now}
	if m.MessageID != "" {
		l.References = []string{m.MessageID}
	}
	return Outcome{Verdict: Answered, Detail: detail, Mails: []Mail{l}}
}

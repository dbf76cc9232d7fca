// Package reader reads one raw inbound mail the way the referee needs it:
// who sent it, which game and player it claims (the token), whether it is
// automatic mail that must never be answered, and the player's action and
// message, taken from the body whatever the mail client did to it. It does
// no I/O.
package reader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // ISO-8859-x, Windows-125x, ... bodies and headers
	gomail "github.com/emersion/go-message/mail"

	"referee/internal/mail/addr"
)

// Limits caps what one mail may cost.
type Limits struct {
	MaxBytes     int64 // the whole raw message
	MaxParts     int   // MIME parts walked
	MaxLineBytes int   // longer lines are cut
	MaxTextBytes int   // body text kept
}

// DefaultLimits are the limits the daemon uses.
func DefaultLimits() Limits {
	return Limits{MaxBytes: 2 << 20, MaxParts: 64, MaxLineBytes: 8 << 10, MaxTextBytes: 64 << 10}
}

// Token names a game, a player's secret and the number of actions the
// player had seen: "<game>.<secret>.<ply>", e.g. 17.k3fux2ab7q.23.
type Token struct {
	GameID int64
	Secret string
	Ply    int
}

// String writes the token.
func (t Token) String() string { return fmt.Sprintf("%d.%s.%d", t.GameID, t.Secret, t.Ply) }

var tokenRE = regexp.MustCompile(`^([0-9]{1,12})\.([a-zA-Z2-7]{10})\.([0-9]{1,9})$`)

// ParseToken reads a token (case-insensitive secret).
func ParseToken(s string) (Token, bool) {
	m := tokenRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Token{}, false
	}
	id, err1 := strconv.ParseInt(m[1], 10, 64)
	ply, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil || id <= 0 {
		return Token{}, false
	}
	return Token{GameID: id, Secret: strings.ToLower(m[2]), Ply: ply}, true
}

// Mail is one inbound mail as the referee reads it. Nothing in it is
// verified: From is whatever the sender wrote (the referee core checks it
// against the token's player), the token may be stale or wrong.
type Mail struct {
	MessageID string // with its angle brackets
	From      string // bare address, lower case ("" when there is none)
	FromName  string // display name, decoded
	// BadFrom says why From is "" although the mail has a From header:
	// it does not parse as exactly one valid address. Such a mail is
	// never answered, and never read as anyone's.
	BadFrom    string
	ReturnPath string // bare address; "" for a bounce's "<>"
	Subject    string // decoded, runs of white space collapsed
	InReplyTo  string
	References []string
	Date       time.Time // zero when missing or unreadable
	Recipients []string  // To, Cc, Delivered-To, X-Original-To, Envelope-To (lower case)
	// Token is the game reference, nil when none was found. It comes
	// from a plus-address of the referee among the recipients
	// ("referee+17.k3fux2ab7q.23@example.test"), else from a Message-ID of
	// the referee's that the mail replies to (Token.MessageID), never from
	// the subject: subjects are copied by forwards and shown in
	// notifications.
	Token *Token
	// TokenSource is where Token was found: "to", "cc", "delivered-to",
	// "x-original-to", "envelope-to" (a plus-address), "in-reply-to" or
	// "references" (a Message-ID of the referee's, the newest first).
	TokenSource string
	// Invite is the invitation token (a challenge to a game, see Invite),
	// nil when none was found; InviteSource says where it was found:
	// "recipient", "in-reply-to" or "references".
	Invite       *Invite
	InviteSource string
	// Proof is the secret of a proof token (see ProofToken): the mail
	// replies to one the referee sent to an address to prove it. "" when
	// none was found; ProofSource says where it was found, as InviteSource.
	Proof       string
	ProofSource string
	Variant     string // from the subject tag "[variant #id]", or "": information only
	// Automatic is why no reply may be sent ("" for mail from a person):
	// "Auto-Submitted: auto-replied", "bounce (empty Return-Path)", "From
	// mailer-daemon@...", "Precedence: bulk", "mailing list (List-Id)",
	// "X-Autoreply", "X-Auto-Response-Suppress: ...", "Outlook inbox rule
	// (X-MS-Exchange-Inbox-Rules-Loop)", "X-MS-Exchange-Generated-Message-Source:
	// ...", "auto-reply subject "Out of Office"", "delivery or read report
	// (multipart/report)", "from the referee itself".
	Automatic string
	Text      string // the chosen body text, decoded, at most MaxTextBytes; "" for a mail over MaxBytes
	Action    string // the first meaningful line the player wrote, trimmed (see Clean); "" for a mail over MaxBytes
	Message   string // the player's following lines, for relaying (see Clean), at most 2,000 characters
	// FullMessage is Message before the cut at 2,000 characters: the
	// referee reads conditional lines from the whole of it, then cuts
	// what it relays (CapMessage).
	FullMessage string
	// Warnings say what was damaged or odd and how it was read ("text
	// truncated at 64 KiB", "unknown charset "x-foo": read as UTF-8").
	Warnings    []string
	AuthResults []AuthResult // every Authentication-Results field, in header order
	// ContentLanguage is the language its client declared
	// (Content-Language: "de-DE" gives "de"), "" when none: a hint for the
	// referee, never a reading. (The quote header's language is
	// QuoteLanguage(Text), worked out only when the referee may hint.)
	ContentLanguage string

	head []headField // the top of the header, for AuthVerdict
}

// ErrTooBig is the error (see errors.Is) of a mail over Limits.MaxBytes:
// Read then still returns its header fields, but no body. Its concrete
// type is *TooBigError.
var ErrTooBig = errors.New("mail over the size limit")

// TooBigError says how big a mail over Limits.MaxBytes was.
type TooBigError struct {
	Size  int64 // the bytes Read was given (the daemon may fetch only MaxBytes+1 of a larger mail)
	Limit int64 // Limits.MaxBytes
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("read a mail of %d bytes or more, over the referee's limit of %d bytes (attachments count): "+
		"send your move as a short plain-text mail without attachments", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrTooBig) true.
func (e *TooBigError) Is(target error) bool { return target == ErrTooBig }

var subjectTagRE = regexp.MustCompile(`\[(chess|toroidal|cylindrical|klein|cuarenta|toto40|toetotoe|chectoe) #([0-9]{1,12})\]`)

// Read reads raw. base is the referee's own address (e.g.
// referee@example.test): tokens are looked for in plus-addresses of it and
// in Message-IDs on its domain. Damaged parts, unknown charsets, malformed
// header lines and junk degrade into Warnings. Zero fields of lim take
// their DefaultLimits values.
//
// A mail over lim.MaxBytes (raw may be only its first MaxBytes+1 bytes, cut
// anywhere) is read for its header alone: Read returns the Mail with the
// header's fields (From, Message-ID, token, Automatic, Subject,
// AuthResults) and no body (Action ""), together with a *TooBigError that
// errors.Is ErrTooBig; a header cut by the limit loses its last, possibly
// incomplete, field. Read returns a nil Mail only for input without a
// single mail header field.
func Read(raw []byte, base string, lim Limits) (*Mail, error) {
	lim = lim.withDefaults()
	m := &Mail{}
	size := len(raw) // what was read; an oversized mail is cut to its header below
	var tooBig error
	if int64(len(raw)) > lim.MaxBytes {
		tooBig = &TooBigError{Size: int64(len(raw)), Limit: lim.MaxBytes}
		raw = headerPart(raw, lim.MaxBytes, m)
	}
	e, err := message.Read(bytes.NewReader(raw))
	if e == nil {
		// The header could not be parsed: drop the lines that are not header
		// fields (an mbox "From " line, junk) and try once more.
		fixed, dropped := repairHeader(raw)
		if len(dropped) > 0 {
			e, err = message.Read(bytes.NewReader(fixed))
			for _, d := range dropped {
				m.warn("a malformed header line was ignored: %s", snippet(d))
			}
		}
		if e == nil {
			return nil, fmt.Errorf("read %d bytes that are not a mail (%s; first line %s): "+
				"send a normal mail with your move on the first line of its text", size, headerProblem(err), snippet(firstLine(raw)))
		}
	}
	if err != nil {
		m.warn("%s", partProblem("the mail", e, err))
	}
	if e.Header.Len() == 0 {
		return nil, fmt.Errorf("read %d bytes without a single mail header field (From:, To:, Subject: ...; first line %s): "+
			"send a normal mail with your move on the first line of its text", size, snippet(firstLine(raw)))
	}
	h := gomail.Header{Header: e.Header}
	readHeaders(m, h, base)
	m.Automatic = automatic(h, m, base)
	if tooBig != nil {
		return m, tooBig
	}
	text, warns := bodyText(e, lim)
	m.Warnings = append(m.Warnings, warns...)
	m.Text = text
	m.Action, m.FullMessage = clean(text, nil)
	m.Message = CapMessage(m.FullMessage)
	return m, nil
}

// Answering returns a copy of m whose message is read again knowing what
// the referee itself wrote in the mails the reply answers (see Sent): a
// line of them, quoted or not, and the quote header directly above the
// first one end the player's words, whatever the client and its language.
// The action is never changed: what the referee wrote only ever shortens
// the message.
func (m *Mail) Answering(sent *Sent) *Mail {
	c := *m
	if sent == nil || len(sent.lines) == 0 || m.Text == "" {
		return &c
	}
	action, whole := clean(m.Text, sent)
	if action != m.Action {
		return &c // cannot happen: the referee's lines count only after the action
	}
	c.FullMessage, c.Message = whole, CapMessage(whole)
	return &c
}

// withDefaults fills the zero fields of lim from DefaultLimits.
func (lim Limits) withDefaults() Limits {
	d := DefaultLimits()
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = d.MaxBytes
	}
	if lim.MaxParts <= 0 {
		lim.MaxParts = d.MaxParts
	}
	if lim.MaxLineBytes <= 0 {
		lim.MaxLineBytes = d.MaxLineBytes
	}
	if lim.MaxTextBytes <= 0 {
		lim.MaxTextBytes = d.MaxTextBytes
	}
	return lim
}

func (m *Mail) warn(f string, a ...any) {
	if len(m.Warnings) < maxWarnings {
		m.Warnings = append(m.Warnings, fmt.Sprintf(f, a...))
	}
}

const maxWarnings = 20

var headerKeyRE = regexp.MustCompile(`^[!-9;-~]+[ \t]*:`)

// repairHeader returns raw with the header lines that are neither a field
// ("Name: value") nor the continuation of one removed, and those lines.
func repairHeader(raw []byte) (fixed []byte, dropped []string) {
	var out bytes.Buffer
	rest := raw
	keep := false // whether the previous line was kept, so continuations follow it
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		line := rest
		if i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		// Only "\r\n" or "\n" ends the header: a line of a stray carriage
		// return ("\r\r\n") is junk to drop, as the parser reads it.
		bare := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		switch {
		case len(bare) == 0: // end of the header
			out.Write(line)
			out.Write(rest)
			return out.Bytes(), dropped
		case (bare[0] == ' ' || bare[0] == '\t') && keep:
			out.Write(line)
		case headerKeyRE.Match(bare):
			out.Write(line)
			keep = true
		default:
			if len(dropped) < maxWarnings {
				dropped = append(dropped, string(bare))
			}
			keep = false
		}
	}
	return out.Bytes(), dropped
}

// headerProblem words a header parse error for a person.
func headerProblem(err error) string {
	if err == nil {
		return "no header"
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, ':'); i >= 0 && strings.HasPrefix(msg, "message") {
		msg = msg[i+1:]
	}
	if j := strings.LastIndexByte(msg, ':'); j >= 0 {
		msg = msg[:j]
	}
	return strings.TrimSpace(msg)
}

// partProblem words an unknown-charset or unknown-encoding error.
func partProblem(what string, e *message.Entity, err error) string {
	switch {
	case message.IsUnknownCharset(err):
		_, params, _ := e.Header.ContentType()
		return fmt.Sprintf("%s: unknown charset %s: read as UTF-8", what, snippet(params["charset"]))
	case message.IsUnknownEncoding(err):
		return fmt.Sprintf("%s: unknown Content-Transfer-Encoding %s: read as is", what, snippet(e.Header.Get("Content-Transfer-Encoding")))
	}
	return fmt.Sprintf("%s: %v", what, err)
}

// snippet quotes at most 60 bytes of s for a message.
func snippet(s string) string {
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "..."
	}
	return strconv.Quote(s)
}

func firstLine(raw []byte) string {
	if i := bytes.IndexByte(raw, '\n'); i >= 0 {
		raw = raw[:i]
	}
	if len(raw) > 200 {
		raw = raw[:200]
	}
	return strings.TrimRight(string(raw), "\r")
}

// offerToken takes t, found in source, as the mail's token when it has
// none yet, and warns when it names another one. An older token of the same
// game and player in References is no conflict: References lists the
// referee's earlier mails of the thread.
func (m *Mail) offerToken(t Token, source string) {
	switch {
	case m.Token == nil:
		m.Token, m.TokenSource = &t, source
	case t == *m.Token:
	case source == "references" && t.GameID == m.Token.GameID && t.Secret == m.Token.Secret:
	default:
		m.warn("the %s header names game reference %s but the %s header names %s: using the first", m.TokenSource, m.Token, source, t)
	}
}

// readHeaders reads the header fields of m, its token among them.
func readHeaders(m *Mail, h gomail.Header, base string) {
	readFrom(m, h)
	m.ReturnPath = strings.Trim(strings.TrimSpace(h.Get("Return-Path")), "<>")
	m.ContentLanguage = contentLanguage(h.Get("Content-Language"))
	if s, err := h.Subject(); err == nil {
		m.Subject = s
	} else {
		m.Subject = h.Get("Subject")
	}
	m.Subject = strings.Join(strings.Fields(m.Subject), " ")
	if id, err := h.MessageID(); err == nil && id != "" {
		m.MessageID = "<" + id + ">"
	} else if raw := strings.TrimSpace(h.Get("Message-Id")); raw != "" {
		m.MessageID = raw
	}
	inReplyTo := msgIDs(h.Get("In-Reply-To"))
	if len(inReplyTo) > 0 {
		m.InReplyTo = inReplyTo[0]
	}
	m.References = msgIDs(h.Get("References"))
	if d, err := h.Date(); err == nil {
		m.Date = d
	}
	for _, field := range []string{"To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"} {
		for _, v := range h.Values(field) {
			for _, a := range addresses(v) {
				m.Recipients = append(m.Recipients, a)
				if t, ok := tokenOf(a, base); ok {
					m.offerToken(t, strings.ToLower(field))
				}
			}
		}
	}
	dom := domainOf(strings.ToLower(base))
	for _, id := range inReplyTo {
		if t, ok := TokenFromMessageID(id, dom); ok {
			m.offerToken(t, "in-reply-to")
		}
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if t, ok := TokenFromMessageID(m.References[i], dom); ok {
			m.offerToken(t, "references")
		}
	}
	m.findInvite(base, inReplyTo)
	m.findProof(base, inReplyTo)
	if tm := subjectTagRE.FindStringSubmatch(strings.ToLower(m.Subject)); tm != nil {
		m.Variant = tm[1]
	}
	readAuthResults(m, h)
}

// readFrom reads the sender. A From that does not parse as exactly one
// valid address is refused, never guessed: "alice@example.test
// <mallory@evil.test>" names no one (issue 28: it was read as alice), so
// m.From stays "" and m.BadFrom says what was there.
func readFrom(m *Mail, h gomail.Header) {
	raw := strings.TrimSpace(h.Get("From"))
	if raw == "" {
		return
	}
	if all := h.Values("From"); len(all) > 1 {
		// RFC 5322 §3.6 allows exactly one From field: a mail with two
		// is nobody's (issue 36: the first one was used).
		m.BadFrom = fmt.Sprintf("the mail has %d From header fields (%s and %s), and a mail has exactly one",
			len(all), snippet(strings.TrimSpace(all[0])), snippet(strings.TrimSpace(all[len(all)-1])))
		m.warn("%s: the sender was not guessed, the mail not answered", m.BadFrom)
		return
	}
	from, err := h.AddressList("From")
	switch {
	case err != nil:
		m.BadFrom = fmt.Sprintf("the From header %s is not a mail address (%v)", snippet(raw), err)
	case len(from) != 1:
		m.BadFrom = fmt.Sprintf("the From header %s names %d senders, not one", snippet(raw), len(from))
	default:
		// The referee's spelling: a quoted local part keeps its quotes, as
		// the players' addresses are stored ("john doe"@example.org).
		c, err := addr.FromParsed(from[0].Address)
		if err != nil {
			m.BadFrom = fmt.Sprintf("the From header %s: %v", snippet(raw), err)
			break
		}
		m.From, m.FromName = c, from[0].Name
		return
	}
	m.warn("%s: the sender was not guessed, the mail not answered", m.BadFrom)
}

// addresses reads an address-list header leniently.
func addresses(v string) []string {
	dec := mime.WordDecoder{}
	if d, err := dec.DecodeHeader(v); err == nil {
		v = d
	}
	if list, err := gomail.ParseAddressList(v); err == nil {
		out := make([]string, 0, len(list))
		for _, a := range list {
			out = append(out, strings.ToLower(a.Address))
		}
		return out
	}
	var out []string
	for _, part := range strings.Split(v, ",") {
		if a := looseAddress(part); a != "" {
			out = append(out, a)
		}
	}
	return out
}

var looseAddrRE = regexp.MustCompile(`[A-Za-z0-9._%+\-=]+@[A-Za-z0-9.\-]+`)

func looseAddress(s string) string {
	return strings.ToLower(looseAddrRE.FindString(s))
}

// tokenOf returns the token of a plus-address of base.
func tokenOf(addr, base string) (Token, bool) {
	addr, base = strings.ToLower(addr), strings.ToLower(base)
	at, bat := strings.LastIndexByte(addr, '@'), strings.LastIndexByte(base, '@')
	if at < 0 || bat < 0 || addr[at:] != base[bat:] {
		return Token{}, false
	}
	local, detail, ok := strings.Cut(addr[:at], "+")
	if !ok || local != base[:bat] {
		return Token{}, false
	}
	return ParseToken(detail)
}

func domainOf(addr string) string {
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		return addr[at+1:]
	}
	return addr
}

// autoSubjectRE matches the subjects that vacation responders and
// Outlook's automatic replies begin with, in the common languages. Only at
// the start: "Re: [chess #1] ..." from a person who mentions being out of
// office later on is a person's mail.
var autoSubjectRE = regexp.MustCompile(`(?i)^\s*(out of (?:the )?office|automatic reply|automatische antwort|auto:|autoreply|auto-reply|autosvar|abwesenheitsnotiz|absence|réponse automatique|respuesta automática|risposta automatica|automatisch antwoord)`)

// automatic says why mail must not be answered (RFC 3834 and common
// practice), or "".
func automatic(h gomail.Header, m *Mail, base string) string {
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && v != "no" {
		return "Auto-Submitted: " + v
	}
	if h.Has("Return-Path") && (m.ReturnPath == "" || m.ReturnPath == "<>") {
		return "bounce (empty Return-Path)"
	}
	local := m.From
	if at := strings.IndexByte(local, '@'); at >= 0 {
		local = local[:at]
	}
	switch local {
	case "mailer-daemon", "postmaster", "mail-daemon", "noreply", "no-reply", "donotreply", "do-not-reply":
		return "From " + m.From
	}
	if m.From == "" && strings.Contains(strings.ToLower(h.Get("From")), "mailer-daemon") {
		return "From MAILER-DAEMON" // "From: MAILER-DAEMON (Mail Delivery System)", no domain
	}
	if p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p == "bulk" || p == "junk" || p == "list" || p == "auto_reply" {
		return "Precedence: " + p
	}
	if h.Has("List-Id") || h.Has("List-Unsubscribe") || h.Has("List-Post") {
		return "mailing list (List-Id)"
	}
	if h.Has("X-Autoreply") || h.Has("X-Autorespond") || h.Has("X-Autoresponder") {
		return "X-Autoreply"
	}
	if v := strings.ToLower(h.Get("X-Auto-Response-Suppress")); strings.Contains(v, "all") || strings.Contains(v, "oof") {
		return "X-Auto-Response-Suppress: " + v
	}
	if h.Has("X-MS-Exchange-Inbox-Rules-Loop") {
		return "Outlook inbox rule (X-MS-Exchange-Inbox-Rules-Loop)" // an auto-reply or forward by a rule, never typed
	}
	if v := strings.TrimSpace(h.Get("X-MS-Exchange-Generated-Message-Source")); v != "" {
		// Exchange stamps the messages its agents generate: "Mailbox Rules
		// Agent" (rule replies and forwards), "Transport Rule Agent",
		// "Journal Agent", ... never one a person wrote.
		return "X-MS-Exchange-Generated-Message-Source: " + oneLine(v)
	}
	if sm := autoSubjectRE.FindStringSubmatch(m.Subject); sm != nil {
		return "auto-reply subject " + strconv.Quote(sm[1])
	}
	if ct, _, _ := h.ContentType(); ct == "multipart/report" {
		return "delivery or read report (multipart/report)"
	}
	if m.From != "" && addr.SameMailbox(m.From, base) {
		return "from the referee itself"
	}
	return ""
}

// bodyText walks the MIME tree and returns the best text: the first
// text/plain part that is not an attachment, else the first text/html one
// converted to text.
func bodyText(e *message.Entity, lim Limits) (string, []string) {
	w := walker{lim: lim}
	w.walk(e, 0)
	text := w.plain
	if w.havePlain && w.flowed {
		text = unflow(text, w.delsp)
	}
	if !w.havePlain && w.haveHTML {
		text = htmlText(w.html, &w)
	}
	return normalise(text, lim, &w), w.warnings
}

// htmlText converts an HTML body to text, in one linear pass of the
// tokenizer (linearHTMLText): no tree is built, so no shape of hostile
// HTML (thousands of nested or misnested elements) costs more than its
// size. The converter runs on hostile input: a panic in it becomes a
// warning and no text, never a crash.
func htmlText(html string, w *walker) (text string) {
	defer func() {
		if r := recover(); r != nil {
			w.warn("the HTML body could not be converted to text (%v): ignored", r)
			text = ""
		}
	}()
	text = linearHTMLText(html, w.lim.MaxTextBytes+1)
	if len(text) > w.lim.MaxTextBytes && len(normaliseChars(text)) <= w.lim.MaxTextBytes {
		// The converter stopped at its limit, but characters normalise
		// drops (zero-width spaces, soft hyphens) made the text shorter
		// than the cap: normalise would not say that the rest is unread.
		w.warn("text truncated at %s", size(w.lim.MaxTextBytes))
	}
	return text
}

// unflow joins the soft line breaks of a format=flowed text (RFC 3676): a
// line ending in a space continues on the next line of the same quote
// depth; the signature separator "-- " is not flowed.
func unflow(text string, delsp bool) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []string
	cur, curDepth, open := "", 0, false
	for _, l := range lines {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		body := strings.TrimPrefix(l[depth:], " ") // space-stuffing
		if open && (depth != curDepth || body == "-- ") {
			out = append(out, strings.Repeat(">", curDepth)+cur)
			open = false
		}
		if open {
			cur += body
		} else {
			cur, curDepth = body, depth
			if depth > 0 {
				cur = " " + body
			}
		}
		if strings.HasSuffix(body, " ") && body != "-- " {
			if delsp {
				cur = strings.TrimSuffix(cur, " ")
			}
			open = true
			continue
		}
		out = append(out, strings.Repeat(">", curDepth)+cur)
		open = false
	}
	if open {
		out = append(out, strings.Repeat(">", curDepth)+cur)
	}
	return strings.Join(out, "\n")
}

type walker struct {
	lim                 Limits
	parts               int
	plain, html         string
	havePlain, haveHTML bool
	flowed, delsp       bool // of the plain part
	warnings            []string
	tooMany             bool
}

func (w *walker) warn(f string, a ...any) {
	msg := fmt.Sprintf(f, a...)
	if len(w.warnings) < maxWarnings && !slices.Contains(w.warnings, msg) {
		w.warnings = append(w.warnings, msg)
	}
}

func (w *walker) walk(e *message.Entity, depth int) {
	w.parts++
	if w.parts > w.lim.MaxParts {
		if !w.tooMany {
			w.warn("more than %d MIME parts: the rest was not read", w.lim.MaxParts)
			w.tooMany = true
		}
		return
	}
	if depth > maxDepth {
		w.warn("MIME parts nested more than %d deep: not read", maxDepth)
		return
	}
	ct, params, err := e.Header.ContentType()
	if err != nil {
		// A damaged parameter: the type before it still counts.
		ct, _, _ = mime.ParseMediaType(e.Header.Get("Content-Type"))
	}
	if ct == "" {
		ct = "text/plain" // RFC 2045 §5.2: the default, also for a Content-Type without a readable type
	}
	if strings.HasPrefix(ct, "multipart/") {
		if params["boundary"] == "" {
			w.warn("a %s part has no boundary: read as plain text", ct)
			ct = "text/plain"
		} else {
			w.walkMultipart(e, depth)
			return
		}
	}
	disp, dparams, _ := e.Header.ContentDisposition()
	if disp == "attachment" || dparams["filename"] != "" || params["name"] != "" {
		return // attachments, even text ones, are not the player's words
	}
	switch ct {
	case "text/plain", "text/html":
	default:
		return // images, message/rfc822 forwards, application/*: not the player's words
	}
	if (ct == "text/plain" && w.havePlain) || (ct == "text/html" && w.haveHTML) {
		return
	}
	b, err := io.ReadAll(io.LimitReader(e.Body, int64(w.lim.MaxTextBytes)*4+1))
	if err != nil {
		w.warn("a %s part could not be decoded completely (%v): read what could be", ct, err)
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
		w.warn("invalid UTF-8 in the %s part: replaced", ct)
	}
	if ct == "text/plain" {
		w.plain, w.havePlain = string(b), true
		w.flowed = strings.EqualFold(params["format"], "flowed")
		w.delsp = strings.EqualFold(params["delsp"], "yes")
	} else {
		w.html, w.haveHTML = string(b), true
	}
}

const maxDepth = 10

// walkMultipart walks the parts of a multipart entity. A damaged structure
// (no closing boundary, a broken part header) ends the walk with a warning,
// keeping what was read so far.
func (w *walker) walkMultipart(e *message.Entity, depth int) {
	mr := e.MultipartReader()
	for !w.tooMany {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			if p == nil || !(message.IsUnknownCharset(err) || message.IsUnknownEncoding(err)) {
				if strings.Contains(err.Error(), "EOF") {
					w.warn("the MIME structure ends without its closing boundary: read what came before")
				} else {
					w.warn("damaged MIME structure (%v): read what came before", err)
				}
				return
			}
			w.warn("%s", partProblem("a part", p, err))
		}
		w.walk(p, depth+1)
	}
}

// normalise makes line endings "\n", drops NULs and zero-width characters,
// cuts over-long lines and caps the text.
func normalise(s string, lim Limits, w *walker) string {
	s = normaliseChars(s)
	if len(s) > lim.MaxTextBytes {
		cut := lim.MaxTextBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
		w.warn("text truncated at %s", size(lim.MaxTextBytes))
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) > lim.MaxLineBytes {
			cut := lim.MaxLineBytes
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut]
			w.warn("a line of %d bytes was cut at %s", len(l), size(lim.MaxLineBytes))
		}
	}
	return strings.Join(lines, "\n")
}

// size writes n bytes as "64 KiB" when it is a whole number of KiB.
func size(n int) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// headerPart returns the header of an oversized raw mail, ended by a blank
// line, without its body. Only the first max+1 bytes are looked at: a
// header cut there loses its incomplete last line and its last complete
// field (a folded field may go on in the bytes that are missing), and m
// gets a warning saying so.
func headerPart(raw []byte, max int64, m *Mail) []byte {
	if int64(len(raw)) > max+1 {
		raw = raw[:max+1]
	}
	// The header ends at the first empty line (a bare "\n" or "\r\n").
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			break
		}
		if line := raw[i : i+j]; len(line) == 0 || (len(line) == 1 && line[0] == '\r') {
			return raw[:i+j+1]
		}
		i += j + 1
	}
	// Cut inside the header: keep the complete fields only. The last
	// complete line ends its field if the next line has begun and is no
	// continuation; else that field may go on in the missing bytes.
	keep := raw[:bytes.LastIndexByte(raw, '\n')+1]
	last := len(keep)
	if next := raw[len(keep):]; len(next) == 0 || next[0] == ' ' || next[0] == '\t' {
		for last > 0 { // drop the last field, its continuation lines and all
			start := bytes.LastIndexByte(keep[:last-1], '\n') + 1
			last = start
			if c := keep[start]; c != ' ' && c != '\t' {
				break
			}
		}
	}
	if dropped := strings.TrimSpace(string(raw[last:])); dropped != "" {
		m.warn("the mail's header was cut at %d bytes: its last field %s was not read", len(raw), snippet(oneLine(dropped)))
	}
	return append(keep[:last:last], "\r\n"...)
}

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
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // ISO-8859-x, Windows-125x, ... bodies and headers
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/authres"
	"github.com/inbucket/html2text"
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

// AuthResult is one Authentication-Results header.
type AuthResult struct {
	Server     string // authserv-id
	DKIM       string // pass, fail, none, ... or ""
	DKIMDomain string
	SPF        string
	SPFDomain  string // of smtp.mailfrom
	DMARC      string
}

// Mail is one inbound mail as the referee reads it.
type Mail struct {
	MessageID   string
	From        string // bare address, lower case
	FromName    string
	ReturnPath  string
	Subject     string // decoded
	InReplyTo   string
	References  []string
	Date        time.Time
	Recipients  []string // To, Cc, Delivered-To, X-Original-To, Envelope-To (lower case)
	Token       *Token
	TokenSource string // "to", "cc", "delivered-to", "x-original-to", "envelope-to", "subject"
	Variant     string // from the subject tag [variant #id], or ""
	// Automatic is why no reply may be sent ("" for mail from a person).
	Automatic   string
	Text        string // the chosen body text, decoded
	Action      string // the first meaningful line
	Message     string // what follows, for relaying
	Warnings    []string
	AuthResults []AuthResult
}

var subjectTagRE = regexp.MustCompile(`\[([a-z0-9]+) #([0-9]{1,12})\]`)
var subjectTokenRE = regexp.MustCompile(`\(ref:([^)\s]+)\)`)

// Read reads raw. base is the referee's own address (e.g.
// referee@example.test); tokens are looked for in plus-addresses of it. Read
// fails only when nothing usable can be read; damaged parts, unknown
// charsets and junk degrade into Warnings.
func Read(raw []byte, base string, lim Limits) (*Mail, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits()
	}
	if int64(len(raw)) > lim.MaxBytes {
		return nil, fmt.Errorf("the mail is %d bytes, over the limit of %d: send your move as a short plain-text mail without attachments", len(raw), lim.MaxBytes)
	}
	e, err := message.Read(bytes.NewReader(raw))
	m := &Mail{}
	if err != nil {
		if e == nil {
			return nil, fmt.Errorf("this is not a mail the referee can read (%v): send a plain-text mail with your move on the first line", err)
		}
		m.Warnings = append(m.Warnings, "top-level: "+err.Error())
	}
	h := gomail.Header{Header: e.Header}
	readHeaders(m, h, base)
	m.Automatic = automatic(h, m, base)
	text, warns := bodyText(e, lim)
	m.Warnings = append(m.Warnings, warns...)
	m.Text = text
	m.Action, m.Message = Clean(text)
	return m, nil
}

func readHeaders(m *Mail, h gomail.Header, base string) {
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		m.From, m.FromName = strings.ToLower(from[0].Address), from[0].Name
	} else if raw := h.Get("From"); raw != "" {
		// A malformed From: take the first thing that looks like an address.
		if a := looseAddress(raw); a != "" {
			m.From = a
			m.Warnings = append(m.Warnings, "malformed From header: read as "+a)
		}
	}
	m.ReturnPath = strings.Trim(strings.TrimSpace(h.Get("Return-Path")), "<>")
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
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = "<" + ids[0] + ">"
	}
	if ids, err := h.MsgIDList("References"); err == nil {
		for _, id := range ids {
			m.References = append(m.References, "<"+id+">")
		}
	}
	if d, err := h.Date(); err == nil {
		m.Date = d
	}
	for _, field := range []string{"To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"} {
		for _, v := range h.Values(field) {
			for _, a := range addresses(v) {
				m.Recipients = append(m.Recipients, a)
				if m.Token == nil {
					if t, ok := tokenOf(a, base); ok {
						m.Token, m.TokenSource = &t, strings.ToLower(field)
					}
				} else if t, ok := tokenOf(a, base); ok && t != *m.Token {
					m.Warnings = append(m.Warnings, fmt.Sprintf("conflicting game references %s and %s: using the first", m.Token, t))
				}
			}
		}
	}
	if sm := subjectTokenRE.FindStringSubmatch(m.Subject); sm != nil {
		if t, ok := ParseToken(sm[1]); ok {
			if m.Token == nil {
				m.Token, m.TokenSource = &t, "subject"
			} else if t != *m.Token {
				m.Warnings = append(m.Warnings, fmt.Sprintf("the subject names %s but the address names %s: using the address", t, m.Token))
			}
		}
	}
	if tm := subjectTagRE.FindStringSubmatch(strings.ToLower(m.Subject)); tm != nil {
		m.Variant = tm[1]
	}
	for _, v := range h.Values("Authentication-Results") {
		id, results, err := authres.Parse(v)
		if err != nil {
			m.Warnings = append(m.Warnings, "unreadable Authentication-Results header")
			continue
		}
		ar := AuthResult{Server: strings.ToLower(id)}
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DKIMResult:
				if ar.DKIM != "pass" {
					ar.DKIM, ar.DKIMDomain = string(r.Value), strings.ToLower(r.Domain)
				}
			case *authres.SPFResult:
				ar.SPF = string(r.Value)
				ar.SPFDomain = strings.ToLower(domainOf(r.From))
			case *authres.DMARCResult:
				ar.DMARC = string(r.Value)
			}
		}
		m.AuthResults = append(m.AuthResults, ar)
	}
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

func sameMailbox(a, base string) bool {
	a, base = strings.ToLower(a), strings.ToLower(base)
	at, bat := strings.LastIndexByte(a, '@'), strings.LastIndexByte(base, '@')
	if at < 0 || bat < 0 || a[at:] != base[bat:] {
		return false
	}
	local, _, _ := strings.Cut(a[:at], "+")
	return local == base[:bat]
}

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
	if p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p == "bulk" || p == "junk" || p == "list" {
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
	if ct, _, _ := h.ContentType(); ct == "multipart/report" {
		return "delivery or read report (multipart/report)"
	}
	if m.From != "" && sameMailbox(m.From, base) {
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
	if !w.havePlain && w.haveHTML {
		t, err := html2text.FromString(w.html, html2text.Options{OmitLinks: true})
		if err != nil {
			w.warn("the HTML body could not be converted to text: %v", err)
		}
		text = t
	}
	return normalise(text, lim, &w), w.warnings
}

type walker struct {
	lim                 Limits
	parts               int
	plain, html         string
	havePlain, haveHTML bool
	warnings            []string
	tooMany             bool
}

func (w *walker) warn(f string, a ...any) {
	if len(w.warnings) < 20 {
		w.warnings = append(w.warnings, fmt.Sprintf(f, a...))
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
	if depth > 10 {
		w.warn("MIME parts nested more than 10 deep: not read")
		return
	}
	ct, params, err := e.Header.ContentType()
	if err != nil {
		ct = "text/plain"
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if message.IsUnknownCharset(err) || message.IsUnknownEncoding(err) {
					w.warn("a part: %v (read as is)", err)
				} else {
					w.warn("damaged MIME structure: %v", err)
					return
				}
			}
			if p == nil {
				return
			}
			w.walk(p, depth+1)
		}
	}
	disp, _, _ := e.Header.ContentDisposition()
	if disp == "attachment" {
		return
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
	if cs := strings.ToLower(params["charset"]); cs != "" && !knownCharset(cs) && !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
		w.warn("unknown charset %s: read as UTF-8", cs)
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
		w.warn("invalid UTF-8 in the %s part: replaced", ct)
	}
	if ct == "text/plain" {
		w.plain, w.havePlain = string(b), true
	} else {
		w.html, w.haveHTML = string(b), true
	}
}

func knownCharset(cs string) bool {
	switch cs {
	case "utf-8", "us-ascii", "utf8", "ascii":
		return true
	}
	return false
}

// normalise makes line endings "\n", drops NULs and zero-width characters,
// cuts over-long lines and caps the text.
func normalise(s string, lim Limits, w *walker) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimPrefix(s, "\uFEFF")
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\uFEFF':
			return -1
		case '\u00a0', '\u202f':
			return ' '
		}
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1 // NULs and other control characters: junk, never the player's words
		}
		return r
	}, s)
	if len(s) > lim.MaxTextBytes {
		cut := lim.MaxTextBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
		w.warn("text cut at %d bytes", lim.MaxTextBytes)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) > lim.MaxLineBytes {
			cut := lim.MaxLineBytes
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut]
			w.warn("a line of %d bytes was cut at %d", len(l), lim.MaxLineBytes)
		}
	}
	return strings.Join(lines, "\n")
}

// AuthVerdict says whether mail is authenticated by the trusted server's
// Authentication-Results: DKIM passing for the From domain, or SPF passing
// for a mail-from in the From domain.
func AuthVerdict(m *Mail, trustedServer string) (ok bool, reason string) {
	trustedServer = strings.ToLower(strings.TrimSpace(trustedServer))
	if trustedServer == "" {
		return false, "no trusted authentication server is configured (--trusted-authserv)"
	}
	dom := domainOf(m.From)
	seen := false
	for _, ar := range m.AuthResults {
		if ar.Server != trustedServer {
			continue
		}
		seen = true
		if ar.DKIM == "pass" && ar.DKIMDomain == dom {
			return true, "dkim=pass for " + dom + " from " + trustedServer
		}
		if ar.SPF == "pass" && ar.SPFDomain == dom {
			return true, "spf=pass for " + dom + " from " + trustedServer
		}
	}
	if !seen {
		return false, "no Authentication-Results header from " + trustedServer
	}
	return false, "neither DKIM nor SPF passed for " + dom + " according to " + trustedServer
}

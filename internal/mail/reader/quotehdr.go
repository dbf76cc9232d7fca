package reader

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote headers as mail clients write them, in the languages
// correspondence players write in (issue 36). A client writes one of two
// shapes above the mail it quotes: an attribution ("On <date>, <name>
// <addr> wrote:", in any language, often wrapped over two to four lines)
// or a block of header fields ("From:", "Sent:", "To:", "Subject:", in any
// language and any order). Where a line only looks like one, the reader
// takes it as one: it relays less, never more.

// attributionVerbs are the verbs of attribution lines, lower case:
// English, German, French, Spanish, Italian, Portuguese, Dutch, the Nordic
// languages, Polish, Czech, Slovak, Russian, Ukrainian, Hungarian,
// Finnish, Turkish, Romanian, Croatian, Chinese, Japanese.
var attributionVerbs = []string{"wrote", "writes", "schrieb", "écrit", "escribió", "escrito", "scritto", "scrisse",
	"escreveu", "pisze", "schreef", "geschreven", "skrev", "skriver", "napisał", "napisal", "napsal", "napísal",
	"написал", "написав", "пишет", "пише", "írta", "kirjoitti", "yazdı", "a scris", "napisao", "napisala",
	"写道", "寫道", "書きました", "のメッセージ"}

func hasAttributionVerb(line string) bool {
	low := strings.ToLower(line)
	for _, v := range attributionVerbs {
		if strings.Contains(low, v) {
			return true
		}
	}
	return false
}

var (
	// endsWithVerbRE: the verb closes the line ("Bob wrote:", "… wrote",
	// "… napisał(a):", "… a écrit :").
	endsWithVerbRE = regexp.MustCompile(`(?i)(wrote|writes|schrieb|écrit|escribió|scritto|scrisse|escreveu|pisze|schreef|geschreven|skrev|skriver|napisał|napisal|napsal|napísal|написал|написала|написав|написала|пишет|пише|írta|kirjoitti|yazdı|a scris|napisao|napisala|写道|寫道|書きました)(\s*\(\s*(a|а|ла)\s*\))?\s*[:：]?$`)
	// leadRE: the words attribution lines begin with.
	leadRE = regexp.MustCompile(`(?i)^(on|am|le|el|il giorno|il|in data|op|den|em|w dniu|dnia|dne|på|в|у)\s`)
	// emailRE finds an address.
	emailRE = regexp.MustCompile(`[^\s<>()"':;,\[\]]+@[\p{L}0-9-]+(\.[\p{L}0-9-]+)+`)
	// dateRE finds a time of day or a year.
	dateRE = regexp.MustCompile(`\d{1,2}[:.h]\d{2}|(^|\D)(19|20)\d{2}(\D|$)|\d{4}年|\d{1,2}月`)
)

// isAttribution reports whether line is a whole attribution line: the
// verb of the attribution and a colon at its end (after a date, a name or
// an address), the verb at its end after a date ("On … Bob <b@x> wrote",
// Zoho's "---- On … wrote ----"), or a date and an address before a colon
// (Gmail's "2017-11-24 16:32 GMT+01:00 Bob <b@x>:", Mail.ru's and
// Yandex's "ср, 30 апр. 2025 г. в 15:19, Bob <b@x>:").
func isAttribution(line string) bool {
	if len(line) > maxMarkerLine {
		return false // cheap tests first: the patterns are slow on long lines
	}
	l := strings.TrimSpace(strings.Trim(line, " \t-–—*_"))
	if l == "" {
		return false
	}
	colon := strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：")
	digit := strings.ContainsFunc(l, unicode.IsDigit)
	if hasAttributionVerb(l) {
		switch {
		case colon && (digit || strings.Contains(l, "@")):
			return true
		case endsWithVerbRE.MatchString(l) && (colon || digit && (leadRE.MatchString(l) || strings.Contains(l, "@"))):
			return true
		}
		for _, re := range attributionREs {
			if re.MatchString(l) {
				return true
			}
		}
	}
	return colon && emailRE.MatchString(l) && dateRE.MatchString(l)
}

// startsHeader reports whether line may be the first line of an
// attribution that the client wrapped: it holds a date or an address, or
// it begins as attributions do and has a number on it.
func startsHeader(line string) bool {
	if utf8.RuneCountInString(line) < 12 || len(line) > 300 {
		return false // a move ("K@e1 G@d1") is never one
	}
	return dateRE.MatchString(line) || emailRE.MatchString(line) || strings.HasSuffix(line, "<") ||
		leadRE.MatchString(line) && strings.ContainsFunc(line, unicode.IsDigit)
}

// wrappedAttribution returns the index of the last line of an attribution
// that begins at lines[i] and was wrapped over up to four lines, blank
// lines and quote marks of its continuation aside ("On Sun, 22 Nov 2026
// at 10:02, Referee" + "<r@x.test>" + "wrote:"), or -1. A one-line
// attribution is not one (cuts finds it).
func wrappedAttribution(lines []string, i int) int {
	first := strings.TrimSpace(lines[i])
	if !startsHeader(first) {
		return -1
	}
	joined, blanks, n := first, 0, 0
	for j := i + 1; j < len(lines) && n < 3; j++ {
		next := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines[j]), ">"))
		if next == "" {
			if blanks++; blanks > 2 {
				return -1
			}
			continue
		}
		if len(next) > 300 {
			return -1
		}
		n++
		joined += " " + next
		if isAttribution(joined) {
			return j
		}
	}
	return -1
}

// headerLabels are the names of the header fields that clients write
// above a quoted mail (Outlook, Windows Mail, Hotmail, Yahoo, Zimbra,
// Thunderbird's "Original Message", Apple Mail's forward), lower case, in
// the languages of attributionVerbs. fromLabels are those that name the
// sender.
var (
	fromLabels = []string{"from", "von", "de", "da", "van", "från", "fra", "od", "от", "від", "odesílatel", "od koho",
		"feladó", "lähettäjä", "kimden", "gönderen", "发件人", "發件人", "寄件者", "差出人", "送信者", "envoyé par", "afzender", "avsändare", "avsender"}
	otherLabels = []string{"sent", "date", "to", "cc", "bcc", "subject", "reply-to", "gesendet", "an", "betreff", "datum",
		"kopie", "envoyé", "envoyé le", "date d'envoi", "à", "a", "objet", "copie à", "sujet", "message du", "para", "asunto", "enviado",
		"enviado el", "fecha", "inviato", "inviato il", "oggetto", "assunto", "data", "verzonden", "aan", "onderwerp", "skickat", "till",
		"ämne", "sendt", "til", "emne", "dato", "kopi", "wysłano", "do", "temat", "dw", "отправлено", "кому", "тема", "дата",
		"копия", "надіслано", "відправлено", "odesláno", "komu", "předmět", "küldve", "elküldve", "címzett", "tárgy", "dátum",
		"lähetetty", "vastaanottaja", "aihe", "päivämäärä", "kopio", "gönderildi", "kime", "konu", "tarih", "bilgi",
		"发送时间", "收件人", "主题", "抄送", "日期", "时间", "寄件日期", "收件者", "主旨", "副本", "送信日時", "宛先", "件名", "日付", "時間"}
	labelRE = regexp.MustCompile(`(?i)^[>\s]*\**\s*(` + alternation(fromLabels, otherLabels) + `)\s*\**\s*[:：]`)
)

func alternation(lists ...[]string) string {
	var all []string
	for _, l := range lists {
		for _, w := range l {
			all = append(all, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(all, "|")
}

// label returns the header field name that line begins with, lower case,
// or "".
func label(line string) string {
	if len(line) > maxMarkerLine {
		return ""
	}
	m := labelRE.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1])
}

func isFromLabel(l string) bool {
	for _, f := range fromLabels {
		if l == f {
			return true
		}
	}
	return false
}

// headerBlock catches a quoted header block beginning at lines[i]: header
// fields in any order ("From:"/"Sent:"/"To:"/"Subject:", "De :"/"Envoyé le
// :"/"À :"/"Objet :", "发件人:"/"发送时间:"/"收件人:"/"主题:", Hotmail's
// "Date:"/"Subject:"/"From:"/"To:"), three of them within the next lines,
// or two when one names the sender. A field that wrapped (a long subject)
// may put one line of its own between them.
func headerBlock(lines []string, i int) bool {
	first := label(strings.TrimSpace(lines[i]))
	if first == "" {
		return false
	}
	n, from, other := 1, isFromLabel(first), !isFromLabel(first)
	loose := 0
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" {
			break
		}
		lb := label(l)
		if lb == "" {
			if loose++; loose > 1 {
				break
			}
			continue
		}
		n++
		if isFromLabel(lb) {
			from = true
		} else {
			other = true
		}
	}
	return n >= 3 || n >= 2 && from && other
}

var (
	// ruleRE: a line drawn with dashes, equals signs or underscores.
	ruleRE = regexp.MustCompile(`^[-=_—–─\s]{4,}$`)
	// namedRuleRE: a rule with words in it, in any language: "-----
	// Original Message -----", "-------- Oprindelig besked --------",
	// "-------- Message d'origine --------".
	namedRuleRE = regexp.MustCompile(`^(-{2,}|={2,})\s*[\p{L}][\p{L}\s'’.]{2,40}?\s*(-{2,}|={2,})$`)
	// underscoresRE: Outlook's rule above its header block, and the rule
	// above a mailing list's footer.
	underscoresRE = regexp.MustCompile(`^_{2,}$`)
)

// ruleAboveHeader reports whether lines[i] is a rule (dashes, equals
// signs, underscores) with a quote header within the next three lines:
// Outlook mobile's dash line, Zimbra's and Yahoo's rules.
func ruleAboveHeader(lines []string, i int) bool {
	l := strings.TrimSpace(lines[i])
	if !ruleRE.MatchString(l) || strings.Count(l, "-")+strings.Count(l, "=")+strings.Count(l, "_")+strings.Count(l, "—")+strings.Count(l, "–")+strings.Count(l, "─") < 4 {
		return false
	}
	for j, n := i+1, 0; j < len(lines) && n < 3; j++ {
		next := strings.TrimSpace(lines[j])
		if next == "" {
			continue
		}
		n++
		if label(next) != "" || isAttribution(next) || wrappedAttribution(lines, j) >= 0 {
			return true
		}
	}
	return false
}

// headerAboveQuote catches a header line that is neither a field nor an
// attribution but names an address and a date right above quoted lines:
// "2013/7/20 Bob via Discourse <b@x>" followed by "| ..." or "> ...".
func headerAboveQuote(line string, lines []string, i int) bool {
	if len(line) > 300 || !emailRE.MatchString(line) || !dateRE.MatchString(line) {
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		next := strings.TrimSpace(lines[j])
		if next == "" {
			continue
		}
		return strings.HasPrefix(next, ">") || strings.HasPrefix(next, "|")
	}
	return false
}

// quoteMark is the line the HTML converter writes where a client's quote
// container begins (Gmail's gmail_quote, Outlook's divRplyFwdMsg and its
// rule, Yahoo's yahoo_quoted, Thunderbird's moz-cite-prefix): what
// follows it is quoted. It is framed by invisible separators, which no
// one types.
const quoteMark = "\u2063[quoted text]\u2063"

package reader

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Where the player's own words end: everything from a line matching one of
// these on is a quote of an earlier mail, a forward, or a signature.
var cutREs = []*regexp.Regexp{
	// Outlook and others.
	regexp.MustCompile(`(?i)^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|opprinnelig melding)\s*-{2,}\s*$`),
	regexp.MustCompile(`(?i)^-{2,}\s*forwarded message\s*-{2,}\s*$`),
	regexp.MustCompile(`(?i)^-{2,}\s*(weitergeleitete nachricht|message transféré|mensaje reenviado)\s*-{2,}\s*$`),
	regexp.MustCompile(`(?i)^begin forwarded message:\s*$`),
	namedRuleRE,
	underscoresRE,
	// Signatures.
	regexp.MustCompile(`^-- ?$`),
	// A copy of the referee's own board mail quoted without ">" marks
	// (top-posting clients): its status line, the board frame, its reply help.
	regexp.MustCompile(`^\s*Game #[0-9]+ - `),
	regexp.MustCompile(`^\s*\+(-{3}\+){2,}\s*$`),
	regexp.MustCompile(`^\s*Reply with your move on the first line`),
}

// attributionREs match the line a client writes above a quoted mail: "On
// Mon, 3 Nov 2026 at 10:00, Referee <referee@example.test> wrote:" and its
// siblings in other languages ("Am … schrieb …:", "Le … a écrit :", "El …
// escribió:", "Il giorno … ha scritto:", "Op … schreef …:", "… написал(а):",
// "Den … skrev …:").
var attributionREs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(on|am|le|el|il giorno|op|den|em|w dniu|dne)\s.*\s(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|escreveu|napisał|napsal)([\s,][^:]*)?\s*:\s*$`),
	// Unanchored (cheaper than a bounded ".{0,n}" prefix); lines over
	// maxMarkerLine bytes are never tested.
	regexp.MustCompile(`(?i)(написал|написала|написал\(а\)|пишет)\s*:\s*$`),
	regexp.MustCompile(`(?i)<[^>@\s]+@[^>\s]+>\s*(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev)\s*:\s*$`),
}

// Lines that client software adds below what the player wrote: the
// player's words end there (what follows is the client's quote).
var footerREs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^sent from\b`),
	regexp.MustCompile(`(?i)^sent (via|with|using|by) `),
	regexp.MustCompile(`(?i)^get outlook for `),
	regexp.MustCompile(`(?i)^(obtenir|télécharger) outlook pour `),
	regexp.MustCompile(`(?i)^outlook (für|for|pour) (ios|android)`),
	regexp.MustCompile(`(?i)^von meinem .* gesendet`),
	regexp.MustCompile(`(?i)^diese nachricht wurde von meinem .* gesendet`),
	regexp.MustCompile(`(?i)^gesendet (von|mit|vom|über) `),
	regexp.MustCompile(`(?i)^envoyé (de|depuis|à partir de|avec|via) `),
	regexp.MustCompile(`(?i)^enviado (desde|do|de|con|com|a partir) `),
	regexp.MustCompile(`(?i)^inviato da `),
	regexp.MustCompile(`(?i)^(verzonden|verstuurd) (vanaf|met|van) `),
	regexp.MustCompile(`(?i)^skickat från `),
	regexp.MustCompile(`(?i)^sendt fra `),
	regexp.MustCompile(`(?i)^lähetetty `),
	regexp.MustCompile(`(?i)^wysłane (z|ze) `),
	regexp.MustCompile(`(?i)^odesláno z `),
	regexp.MustCompile(`(?i)^(отправлено|надіслано|відправлено) (с|из|з) `),
	regexp.MustCompile(`(?i)^iphone'umdan gönderildi`),
	regexp.MustCompile(`^(发自我的|從我的|来自我的)`),
	regexp.MustCompile(`(から送信|より送信)$`),
	regexp.MustCompile(`(?i)^(<<|\()sent (by|from) .*(>>|\))$`),
}

// Outlook on the web and phone clients may put a whole quoted header on
// one line: "From: Referee <...> Sent: Monday ... To: ... Subject: ...".
var (
	hdrFromRE    = regexp.MustCompile(`(?i)^\*?(from|von|de|da|van|från|fra|od)\s*:\*?\s`)
	inlineSentRE = regexp.MustCompile(`(?i)\s\*?(sent|date|gesendet|datum|envoyé|enviado|fecha|inviato|verzonden|skickat|sendt|dato)\s*:\*?\s`)
	inlineToRE   = regexp.MustCompile(`(?i)\s\*?(to|an|à|para|aan|till|til|subject|betreff|objet|asunto|oggetto|onderwerp|ämne|emne)\s*:\*?\s`)
)

// maxMessage is the most characters (runes) of a player's message kept for
// relaying, the " [...]" marker of a cut message included.
const maxMessage = 2000

// Clean takes a mail's body text and returns the action (the first
// meaningful line of what the player wrote) and the message (the lines
// after it, trimmed, runs of blank lines collapsed, at most 2,000
// characters), dropping quoted text, quote headers, forwards, signatures,
// client footers and copies of the referee's own board mail.
func Clean(text string) (action, message string) {
	action, whole := clean(text, nil)
	return action, CapMessage(whole)
}

// clean is Clean without the cut at 2,000 characters, and with the lines
// of the referee's own mail that the reply answers (nil when they are not
// known): those lines, quoted or not, and the header lines directly above
// the first of them end the player's words.
func clean(text string, sent *Sent) (action, message string) {
	lines := strings.Split(normaliseChars(text), "\n")
	var kept []string
	var from []int // from[k] is the index in lines of kept[k]
	acted := false // whether the line that may be the action was kept: the cuts that only follow words wait for it
	for i := 0; i < len(lines); i++ {
		trim := strings.TrimSpace(lines[i])
		if !acted {
			// Bottom-posting: the quote comes first, the player's words
			// follow it (a greeting may stand above it).
			if trim == quoteMark || isAttribution(trim) || introducesQuote(trim, lines, i) || isFooter(trim) {
				continue
			}
			if j := wrappedAttribution(lines, i); j >= 0 {
				i = j
				continue
			}
		}
		if end := quoteStart(lines, i, trim, acted, sent); end >= 0 {
			// A header wrapped above the line ends the player's words
			// there, but never takes the action away.
			keep := actionLine(kept) + 1
			for len(from) > keep && from[len(from)-1] >= end {
				kept, from = kept[:len(kept)-1], from[:len(from)-1]
			}
			break
		}
		if strings.HasPrefix(trim, ">") || strings.HasPrefix(trim, "|>") {
			continue
		}
		kept, from = append(kept, trim), append(from, i)
		acted = acted || trim != "" && strings.Trim(trim, "*") != "" && !isGreeting(trim)
	}
	// The first meaningful line is the action: blank lines, lines of
	// stars (an HTML heading's rule) and greetings ("Hi Bob,") come
	// before it. A greeting is relayed with the message.
	var greetings []string
	i := 0
	for ; i < len(kept); i++ {
		switch {
		case kept[i] == "" || strings.Trim(kept[i], "*") == "":
			continue
		case len(greetings) < maxGreetings && isGreeting(kept[i]) && anyAfter(kept, i):
			greetings = append(greetings, kept[i])
			continue
		}
		break
	}
	if i == len(kept) {
		return "", ""
	}
	action = unwrap(strings.Join(strings.Fields(kept[i]), " "))
	return action, joinLines(append(greetings, kept[i+1:]...))
}

// quoteStart returns the index of the line where the quote that lines[i]
// belongs to begins (i, or a line above it for a header the client
// wrapped), or -1 when lines[i] is not a quote's beginning. Before the
// line that may be the action was kept (acted), only the marks that no
// reply begins with count (a forward, a signature, a header block), as
// they always did: quotes above the player's words are skipped by the
// caller, and the action is never cut away by what the reader learnt since.
func quoteStart(lines []string, i int, trim string, acted bool, sent *Sent) int {
	if acted && sent.has(trim) {
		return sentHeaderTop(lines, i)
	}
	if strings.HasPrefix(trim, ">") {
		return -1 // a quoted line is dropped, whatever it says
	}
	if cuts(trim) || headerBlock(lines, i) || inlineHeader(trim) || introducesQuote(trim, lines, i) {
		return headerTop(lines, i)
	}
	if !acted {
		return -1
	}
	if trim == quoteMark || isFooter(trim) || wrappedAttribution(lines, i) >= 0 || ruleAboveHeader(lines, i) ||
		headerAboveQuote(trim, lines, i) {
		return headerTop(lines, i)
	}
	return -1
}

// headerTop returns where the quote header that lines[i] ends begins: the
// first line of an attribution wrapped above it ("02.04.2012 14:20
// пользователь "Bob" <" above "b@x> написал:"), else i. A line that ends
// a sentence is the player's, and a line that on its own begins a quote or
// ends the player's words (an attribution, a footer, a line introducing
// ">" lines) is no header's first line: what lies
// below it is the player's ("On …, Referee <r@x> wrote:" + "e4" + "thanks"
// above another attribution).
func headerTop(lines []string, i int) int {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		trim := strings.TrimSpace(lines[k])
		if strings.HasSuffix(trim, ".") || strings.ContainsAny(lastRune(lines[k]), "!?…") ||
			cuts(trim) || introducesQuote(trim, lines, k) || isFooter(trim) {
			break
		}
		if j := wrappedAttribution(lines, k); j >= i {
			return k
		}
		if strings.TrimSpace(lines[k]) == "" {
			break
		}
	}
	return i
}

func lastRune(s string) string {
	s = strings.TrimSpace(s)
	_, n := utf8.DecodeLastRuneInString(s)
	return s[len(s)-n:]
}

// actionLine returns the index in kept of the line that may be the
// action: the first one with words that is not a greeting.
func actionLine(kept []string) int {
	for i, l := range kept {
		if l != "" && strings.Trim(l, "*") != "" && !isGreeting(l) {
			return i
		}
	}
	return len(kept) - 1
}

// maxGreetings is the most greeting lines skipped before the action.
const maxGreetings = 2

// anyAfter reports whether a line after lines[i] has a word or sign on it.
func anyAfter(lines []string, i int) bool {
	for _, l := range lines[i+1:] {
		if strings.Trim(l, "*") != "" {
			return true
		}
	}
	return false
}

var (
	// A greeting word, then at most three words of a name, then
	// punctuation: "Hi Bob,", "Hello,", "Dear Alice,", "Good morning!".
	greetingRE = regexp.MustCompile(`(?i)^(?:hi|hello|hey|hiya|hallo|dear|greetings|good\s+(?:morning|afternoon|evening|day)|morning|howdy|bonjour|salut|hola|ciao|moin|servus|hej|guten\s+(?:morgen|tag|abend))((?:[\s,]+[\p{L}'’.-]+){0,3})\s*[,!.:]*$`)
	// A lone name and a comma: "Bob,", "Anne-Marie,", "Alice Smith,".
	nameRE = regexp.MustCompile(`^\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)?,$`)
)

// notNames are words that may follow a greeting word or stand before a
// comma and are an action, never a name: the commands, and castling.
var notNames = map[string]bool{
	"resign": true, "draw": true, "pass": true, "roll": true, "reroll": true, "re-roll": true, "board": true,
	"moves": true, "help": true, "accept": true, "confirm": true, "yes": true, "takeback": true, "undo": true,
	"claim": true, "offer": true, "swap": true, "vacation": true, "o-o": true, "o-o-o": true, "apocalypse": true,
}

// isGreeting reports whether line is only a greeting: a short line of a
// greeting word and a name, or a lone name followed by a comma. A line
// with a digit, a command or castling is never one.
func isGreeting(line string) bool {
	if utf8.RuneCountInString(line) > 40 {
		return false
	}
	var words string
	if m := greetingRE.FindStringSubmatch(line); m != nil {
		words = m[1]
	} else if nameRE.MatchString(line) {
		words = line
	} else {
		return false
	}
	for _, w := range strings.FieldsFunc(words, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		w = strings.ReplaceAll(strings.ToLower(strings.TrimRight(w, ".")), "0", "o")
		if notNames[w] {
			return false
		}
	}
	return true
}

// unwrap takes off what wraps the whole action or its first word and is
// not notation: the marks of bold or italic text that survive HTML-to-text
// conversion or that clients write for them ("*Nc3*", "**Nc3**", "_Nc3_",
// "*Nc3* draw"), and a pair of quotation marks. A mark that only closes is
// kept: "Nb3*" is Chec Toe's Wizard move, and bold "*Nb3**" is "Nb3*".
func unwrap(s string) string {
	for range 4 {
		t, ok := unwrapEmphasis(s)
		if !ok {
			t, ok = unwrapQuotes(s)
		}
		if !ok {
			break
		}
		s = strings.TrimSpace(t)
	}
	return s
}

// unwrapEmphasis removes one pair of emphasis marks at the start of s.
func unwrapEmphasis(s string) (string, bool) {
	for _, mk := range []string{"**", "__", "*", "_"} {
		if !strings.HasPrefix(s, mk) {
			continue
		}
		for j := len(mk) + 1; j+len(mk) <= len(s); j++ {
			if s[j:j+len(mk)] != mk || s[j-1] == ' ' || s[len(mk)] == ' ' {
				continue
			}
			end := j + len(mk)
			if end < len(s) && !strings.ContainsRune(" ,;.!?)", rune(s[end])) {
				continue // "*Nb3**": the first star after the move is the Wizard's
			}
			return s[len(mk):j] + s[end:], true
		}
		return s, false
	}
	return s, false
}

// unwrapQuotes removes a pair of quotation marks around s.
func unwrapQuotes(s string) (string, bool) {
	first, n := utf8.DecodeRuneInString(s)
	last, m := utf8.DecodeLastRuneInString(s)
	if len(s) <= n+m || !strings.ContainsRune("\"'“‘„‚«»", first) || !strings.ContainsRune("\"'”’“‘»«", last) {
		return s, false
	}
	return s[n : len(s)-m], true
}

// joinLines joins the player's lines after the action: blank runs
// collapsed to one blank line.
func joinLines(lines []string) string {
	var b strings.Builder
	blank := false
	for _, l := range lines {
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteString("\n\n")
		} else if b.Len() > 0 {
			b.WriteString("\n")
		}
		blank = false
		b.WriteString(l)
	}
	return b.String()
}

// CapMessage cuts a message to be relayed at 2,000 characters (runes),
// marking a cut message with " [...]". The referee cuts a message only
// after it took out the conditional lines, which are read from the whole
// of it.
func CapMessage(msg string) string {
	if utf8.RuneCountInString(msg) <= maxMessage {
		return msg
	}
	const more = " [...]"
	r := []rune(msg)[:maxMessage-len(more)]
	return strings.TrimRight(string(r), " \n") + more
}

// normaliseChars makes line endings "\n", drops a byte-order mark,
// zero-width characters, NULs and other control characters, and turns
// non-breaking spaces into spaces.
func normaliseChars(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\uFEFF', '\u00ad':
			return -1
		case '\u00a0', '\u202f', '\u2007':
			return ' '
		}
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 {
			return -1 // NULs and other control characters: junk, never the player's words
		}
		return r
	}, s)
}

// maxMarkerLine is the longest line tested against the cut patterns: real
// attribution lines are far shorter, and the limit keeps hostile long
// lines cheap.
const maxMarkerLine = 400

func cuts(line string) bool {
	if len(line) > maxMarkerLine {
		return false // no attribution, separator or marker is this long
	}
	if isAttribution(line) {
		return true
	}
	for _, re := range cutREs {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// isFooter reports whether line is a client's footer. Footers are short:
// a longer line is never tested.
func isFooter(line string) bool {
	if len(line) > 200 {
		return false
	}
	for _, re := range footerREs {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// introducesQuote catches any other attribution line ("* Referee <r@x>
// [date]:", "Referee wrote on ...:") by its shape: it ends with ':' and the
// next non-blank line is quoted with '>'.
func introducesQuote(line string, lines []string, i int) bool {
	if !strings.HasSuffix(line, ":") || len(line) > 300 {
		return false
	}
	for j := i + 1; j < len(lines); j++ {
		next := strings.TrimSpace(lines[j])
		if next == "" {
			continue
		}
		return strings.HasPrefix(next, ">")
	}
	return false
}

// inlineHeader catches Outlook's quoted header written on one line.
func inlineHeader(line string) bool {
	return len(line) <= maxMarkerLine && hdrFromRE.MatchString(line) && inlineSentRE.MatchString(line) && inlineToRE.MatchString(line)
}

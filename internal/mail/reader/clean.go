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
	regexp.MustCompile(`^_{20,}\s*$`),
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

// Lines that client software adds and the player did not write.
var footerREs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^sent from my \w+`),
	regexp.MustCompile(`(?i)^sent from (mail|outlook) for`),
	regexp.MustCompile(`(?i)^sent from (yahoo mail|gmail mobile|proton ?mail|samsung|huawei|outlook)`),
	regexp.MustCompile(`(?i)^sent via `),
	regexp.MustCompile(`(?i)^sent with proton ?mail`),
	regexp.MustCompile(`(?i)^get outlook for (ios|android)`),
	regexp.MustCompile(`(?i)^von meinem .* gesendet`),
	regexp.MustCompile(`(?i)^envoyé de mon `),
	regexp.MustCompile(`(?i)^enviado desde mi `),
	regexp.MustCompile(`(?i)^inviato da `),
	regexp.MustCompile(`(?i)^verzonden (vanaf|met) `),
	regexp.MustCompile(`(?i)^verstuurd vanaf mijn `),
	regexp.MustCompile(`(?i)^gesendet (von|mit) `),
	regexp.MustCompile(`(?i)^enviado (do|desde) (meu|mi) `),
	regexp.MustCompile(`(?i)^skickat från min `),
	regexp.MustCompile(`(?i)^sendt fra min `),
	regexp.MustCompile(`(?i)^отправлено (с|из) `),
}

// Outlook's quoted-header block: "From: ..." followed closely by "Sent:" or
// "Date:" and "To:" or "Subject:".
var (
	hdrFromRE = regexp.MustCompile(`(?i)^\*?(from|von|de|da|van|från|fra|od)\s*:\*?\s`)
	hdrDateRE = regexp.MustCompile(`(?i)^\*?(sent|date|gesendet|datum|envoyé|date d'envoi|enviado|fecha|inviato|data|verzonden|skickat|sendt|dato)\s*:`)
	// The same fields within one line, after the From field.
	inlineSentRE = regexp.MustCompile(`(?i)\s\*?(sent|date|gesendet|datum|envoyé|enviado|fecha|inviato|verzonden|skickat|sendt|dato)\s*:\*?\s`)
	inlineToRE   = regexp.MustCompile(`(?i)\s\*?(to|an|à|para|aan|till|til|subject|betreff|objet|asunto|oggetto|onderwerp|ämne|emne)\s*:\*?\s`)
	hdrToRE      = regexp.MustCompile(`(?i)^\*?(to|an|à|pour|para|a|aan|till|til|subject|betreff|objet|asunto|oggetto|onderwerp|ämne|emne)\s*:`)
)

// maxMessage is the most characters (runes) of a player's message kept for
// relaying, the " [...]" marker of a cut message included.
const maxMessage = 2000

// Clean takes a mail's body text and returns the action (the first
// meaningful line of what the player wrote) and the message (the lines
// after it, trimmed, runs of blank lines collapsed, at most 2,000
// characters), dropping quoted text, quoted headers, forwards, signatures,
// client footers and copies of the referee's own board mail.
func Clean(text string) (action, message string) {
	lines := strings.Split(normaliseChars(text), "\n")
	var kept []string
	written := false // whether the player wrote anything yet
	for i := 0; i < len(lines); i++ {
		trim := strings.TrimSpace(lines[i])
		if !written && (isAttribution(trim) || introducesQuote(trim, lines, i)) {
			continue // bottom-posting: the quote comes first, the player's words follow it
		}
		if !written && wrappedAttribution(trim, lines, i) {
			i++
			continue
		}
		if cuts(trim) || wrappedAttribution(trim, lines, i) || outlookBlock(lines, i) || introducesQuote(trim, lines, i) {
			break
		}
		if strings.HasPrefix(trim, ">") || strings.HasPrefix(trim, "|>") || isFooter(trim) {
			continue
		}
		kept = append(kept, trim)
		written = written || trim != ""
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
	return action, joinMessage(append(greetings, kept[i+1:]...))
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

// joinMessage joins the player's lines after the action: blank runs
// collapsed to one blank line, at most maxMessage runes.
func joinMessage(lines []string) string {
	var b strings.Builder
	blank, n := false, 0
	for _, l := range lines {
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		sep := ""
		if blank {
			sep = "\n\n"
		} else if b.Len() > 0 {
			sep = "\n"
		}
		blank = false
		b.WriteString(sep)
		b.WriteString(l)
		n += len(sep) + utf8.RuneCountInString(l)
		if n > maxMessage {
			break
		}
	}
	msg := b.String()
	if n <= maxMessage {
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

// attributionVerbs are the verbs of attributionREs, lower case.
var attributionVerbs = []string{"wrote", "schrieb", "écrit", "escribió", "scritto", "schreef", "skrev", "escreveu",
	"napisał", "napsal", "написал", "пишет"}

func hasAttributionVerb(line string) bool {
	low := strings.ToLower(line)
	for _, v := range attributionVerbs {
		if strings.Contains(low, v) {
			return true
		}
	}
	return false
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

func isFooter(line string) bool {
	for _, re := range footerREs {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// wrappedAttribution catches an attribution line that the client wrapped
// over two lines: "On Sun, 22 Nov 2026 at 10:02, Referee <r@x>" + "wrote:".
// The player's own line just above a one-line attribution is not one.
func wrappedAttribution(line string, lines []string, i int) bool {
	if line == "" || len(line) > 300 || i+1 >= len(lines) {
		return false
	}
	next := strings.TrimSpace(lines[i+1])
	if next == "" || len(next) > 300 {
		return false
	}
	return isAttribution(line+" "+next) && !isAttribution(next) // else the next line is cut on its own
}

func isAttribution(line string) bool {
	if len(line) > maxMarkerLine || !strings.HasSuffix(line, ":") || !hasAttributionVerb(line) {
		return false // cheap tests first: the patterns are slow on long lines
	}
	for _, re := range attributionREs {
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

// outlookBlock catches a quoted header block: "From:" followed within the
// next lines by a date line ("Sent:", "Date:", ...) and a recipient or
// subject line ("To:", "Subject:", ...), in the client's language.
func outlookBlock(lines []string, i int) bool {
	first := strings.TrimSpace(lines[i])
	if !hdrFromRE.MatchString(first) {
		return false
	}
	// Outlook on the web and phone clients may put the whole quoted header
	// on one line: "From: Referee <...> Sent: Monday ... To: ... Subject: ...".
	if inlineSentRE.MatchString(first) && inlineToRE.MatchString(first) {
		return true
	}
	date, to := false, false
	for j := i + 1; j < len(lines) && j <= i+6; j++ {
		l := strings.TrimSpace(lines[j])
		date = date || hdrDateRE.MatchString(l)
		to = to || hdrToRE.MatchString(l)
	}
	return date && to
}

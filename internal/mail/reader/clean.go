package reader

import (
	"regexp"
	"strings"
)

// Where the player's own words end: everything from a line matching one of
// these on is a quote of an earlier mail, a forward, or a signature.
var cutREs = []*regexp.Regexp{
	// "On Mon, 3 Nov 2026 at 10:00, Referee <referee@example.test> wrote:" and
	// its siblings in other languages.
	regexp.MustCompile(`(?i)^(on|am|le|el|il giorno|op|den|em|w dniu|dne)\s.*\s(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|escreveu|napisał|napsal)([\s,][^:]*)?\s*:\s*$`),
	regexp.MustCompile(`(?i)^.{0,200}(написал|написала|написал\(а\)|пишет)\s*:\s*$`),
	regexp.MustCompile(`(?i)^.{0,200}<[^>@\s]+@[^>\s]+>\s*(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev)\s*:\s*$`),
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

// Lines that client software adds and the player did not write.
var footerREs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^sent from my \w+`),
	regexp.MustCompile(`(?i)^sent from (mail|outlook) for`),
	regexp.MustCompile(`(?i)^sent from (yahoo mail|gmail mobile|proton ?mail|samsung|huawei)`),
	regexp.MustCompile(`(?i)^sent with proton ?mail`),
	regexp.MustCompile(`(?i)^get outlook for (ios|android)`),
	regexp.MustCompile(`(?i)^von meinem .* gesendet`),
	regexp.MustCompile(`(?i)^envoyé de mon `),
	regexp.MustCompile(`(?i)^enviado desde mi `),
	regexp.MustCompile(`(?i)^inviato da `),
	regexp.MustCompile(`(?i)^verzonden vanaf mijn `),
}

// Outlook's quoted-header block: "From: ..." followed closely by "Sent:" or
// "Date:" and "To:" or "Subject:".
var (
	hdrFromRE = regexp.MustCompile(`(?i)^\*?(from|von|de|da|van|från|fra|od)\s*:\*?\s`)
	hdrNextRE = regexp.MustCompile(`(?i)^\*?(sent|date|gesendet|datum|envoyé|enviado|inviato|verzonden|skickat|sendt|to|an|à|para|a|aan|till|til|subject|betreff|objet|asunto|oggetto|onderwerp|ämne|emne|cc)\s*:`)
)

const maxMessage = 2000

// Clean takes a mail's body text and returns the action (the first
// meaningful line of what the player wrote) and the message (the lines
// after it), dropping quoted text, quoted headers, forwards, signatures and
// client footers.
func Clean(text string) (action, message string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trim := strings.TrimSpace(line)
		if cuts(trim) || wrappedAttribution(trim, lines, i) || outlookBlock(lines, i) || introducesQuote(trim, lines, i) {
			break
		}
		if strings.HasPrefix(trim, ">") || strings.HasPrefix(trim, "|>") {
			continue
		}
		if isFooter(trim) {
			continue
		}
		kept = append(kept, trim)
	}
	// The first non-empty line is the action.
	i := 0
	for i < len(kept) && kept[i] == "" {
		i++
	}
	if i == len(kept) {
		return "", ""
	}
	action = strings.Join(strings.Fields(kept[i]), " ")
	if len(action) >= 2 && action[0] == '*' && action[len(action)-1] == '*' {
		action = strings.Trim(action, "*") // bold from an HTML mail
	}
	action = strings.Trim(action, "\"'“”‘’")
	var b strings.Builder
	blank := false
	for _, l := range kept[i+1:] {
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
		if b.Len() > maxMessage {
			break
		}
	}
	message = b.String()
	if len(message) > maxMessage {
		message = message[:maxMessage]
		for len(message) > 0 && message[len(message)-1]&0xC0 == 0x80 {
			message = message[:len(message)-1]
		}
		message = strings.TrimRight(message, "\n") + " [...]"
	}
	return action, message
}

func cuts(line string) bool {
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

// wrappedAttribution catches "On ..., X <x@y>" + "wrote:" split over two lines.
func wrappedAttribution(line string, lines []string, i int) bool {
	if i+1 >= len(lines) {
		return false
	}
	low := strings.ToLower(line)
	if !(strings.HasPrefix(low, "on ") || strings.HasPrefix(low, "am ") || strings.HasPrefix(low, "le ")) {
		return false
	}
	joined := line + " " + strings.TrimSpace(lines[i+1])
	return cuts(joined)
}

// introducesQuote catches any attribution line ("* Referee <r@x> [date]:",
// "Referee wrote on ...:") by its shape: it ends with ':' and the next
// non-blank line is quoted with '>'.
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

func outlookBlock(lines []string, i int) bool {
	if !hdrFromRE.MatchString(strings.TrimSpace(lines[i])) {
		return false
	}
	hits := 0
	for j := i + 1; j < len(lines) && j <= i+5; j++ {
		if hdrNextRE.MatchString(strings.TrimSpace(lines[j])) {
			hits++
		}
	}
	return hits >= 2
}

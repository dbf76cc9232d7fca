package referee

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/mail/addr"
)

// A player's display name (the "name" command, issue 37): the name other
// people see instead of the masked address, on the web pages, in
// crosstables and in the mails of spectators and opponents. It is set
// only by the player's own "name" command: the display name of a mail's
// From is never taken. One player per name on a referee, compared without
// case: two players could otherwise pass for each other in a crosstable.

// The bounds of a display name, in characters.
const (
	MinNameLength = 2
	MaxNameLength = 24
)

// NameChange sets (or with Name "", clears) a player's display name.
type NameChange struct {
	Address string // addr.Mailbox of the player
	Name    string // as it is shown
	Key     string // NameKey(Name): what uniqueness compares
}

// NameKey is what two names are compared by: lower case, one space
// between words.
func NameKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// reservedNames would pass for something else in a mail or on a page.
var reservedNames = map[string]bool{"white": true, "black": true, "referee": true, "organiser": true, "organizer": true,
	"postmaster": true, "mailer-daemon": true, "a player": true, "nobody": true, "none": true, "clear": true}

// domainRE finds text that reads as a host or mail domain ("ann.example",
// "www.x"): a name holds no address of any kind.
var domainRE = regexp.MustCompile(`(?i)[\p{L}\p{N}-]\.[\p{L}]{2,}|://|^www\.`)

// nameError is the error of CleanName that says t: what is wrong and
// what may be used, in each reader's language.
func nameError(t lang.Text) error { return &lang.Error{Why: t} }

// CleanName checks a display name as the player wrote it and returns it
// as it is shown (runs of spaces made one), or an error (a *lang.Error)
// that says what is wrong and what may be used.
func CleanName(s string) (string, error) {
	name := strings.Join(strings.Fields(s), " ")
	n := utf8.RuneCountInString(name)
	allowed := lang.M("A name is %d to %d characters: letters, digits, spaces and . - ' _", MinNameLength, MaxNameLength)
	switch {
	case n < MinNameLength || n > MaxNameLength:
		return "", nameError(lang.M("%q is %d characters long. %s", name, n, allowed))
	case strings.Contains(name, "@"):
		return "", nameError(lang.M("%q holds an @: a name may not be or look like a mail address, which it would show to everyone. %s", name, allowed))
	}
	letter := false
	for _, r := range name {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r) || r == ' ' || r == '.' || r == '-' || r == '\'' || r == '_':
		default:
			return "", nameError(lang.M("%q holds %q, which a name may not. %s", name, r, allowed))
		}
	}
	if !letter {
		return "", nameError(lang.M("%q has no letter. %s", name, allowed))
	}
	if domainRE.MatchString(name) {
		return "", nameError(lang.M("%q reads like a web or mail address (a word, a dot and a word, with no space after the dot); "+
			"a name may not show one. Write \"J. Smith\" rather than \"j.smith\"", name))
	}
	if reservedNames[NameKey(name)] {
		return "", nameError(lang.M("%q would read as something else than a player in the referee's mails; choose another", name))
	}
	return name, nil
}

// nameWords is the name a "name" line gives, as the player wrote it (the
// command's arguments come lower case): everything after the first word.
func nameWords(action string) string {
	f := strings.Fields(action)
	if len(f) < 2 {
		return ""
	}
	return strings.Join(f[1:], " ")
}

// nameClears reports whether a "name" line asks to remove the name.
func nameClears(args []string) bool {
	return len(args) == 1 && (args[0] == "clear" || args[0] == "none" || args[0] == "-" || args[0] == "off")
}

// nameNeed is the key of the name a "name" line asks for, for the app to
// look up who holds it; "" for none.
func nameNeed(action string, args []string) string {
	if len(args) == 0 || nameClears(args) {
		return ""
	}
	name, err := CleanName(nameWords(action))
	if err != nil {
		return ""
	}
	return NameKey(name)
}

// setName answers "name" (the current name), "name NAME" and "name
// clear", in the sender's language.
func (r *Referee) setName(c *call) Outcome {
	m, env := c.m, c.env
	p := r.senderPrinter(env)
	current := env.Name
	if len(c.args) == 0 {
		var text string
		if current == "" {
			text = p.Sprintf("You have no name here: others see your address masked, as %q.", MaskAddress(m.From)) + " "
			if from := strings.TrimSpace(m.FromName); from != "" {
				if clean, err := CleanName(from); err == nil {
					text += p.Sprintf("Your mail program signs your mail %q; the referee shows it only if you ask: send \"name %s\".", clean, clean) + " "
				}
			}
			text += p.Sprintf("Send \"name\" and the name you want, e.g. \"name Ann Smith\": %d to %d characters, letters, digits, spaces and . - ' _; no address; one player per name on this referee.",
				MinNameLength, MaxNameLength)
		} else {
			text = p.Sprintf("Your name here is %q: others see it instead of your address. \"name clear\" removes it; "+
				"to change it, send \"name\" and the new name: %d to %d characters, letters, digits, spaces and . - ' _; no address; one player per name on this referee.",
				current, MinNameLength, MaxNameLength)
		}
		return r.lobbyAnswerIn(p, m, env, "name", p.Sprintf("Your name"), wrap(text)+"\n")
	}
	if nameClears(c.args) {
		if current == "" {
			return r.refuseIn(env, m, "name clear: no name", lang.M("You have no name here, so there is none to remove."),
				lang.M("Others see your address masked. Send e.g. \"name Ann Smith\" to choose a name."))
		}
		out := r.lobbyAnswerIn(p, m, env, "name", p.Sprintf("Your name is removed"),
			wrap(p.Sprintf("Your name %q is removed: others see your address masked again, as %q.", current, MaskAddress(m.From)))+"\n")
		out.Verdict = Applied
		out.Detail = fmt.Sprintf("%s removed the name %q", m.From, current)
		out.Lobby = &LobbyChange{Name: &NameChange{Address: addr.Mailbox(m.From)}}
		return out
	}
	name, err := CleanName(nameWords(m.Action))
	if err != nil {
		return r.refuseIn(env, m, "name: "+firstWords(nameWords(m.Action), 6), lang.M("Your name was not changed: %s.", lang.Why(err)),
			lang.M("Send \"name\" and the name you want, e.g. \"name Ann Smith\"."))
	}
	if owner := env.Lobby.NameOwner; owner != "" && !addr.SameMailbox(owner, m.From) && NameKey(name) != NameKey(current) {
		// Whose it is stays unsaid: the name is public, the address not.
		return r.refuseIn(env, m, "name: "+name+" taken", lang.M("Your name was not changed: another player here is called %q.", name),
			lang.M("Choose another, e.g. with your initial or your town (\"name %s B.\").", name))
	}
	if name == current {
		return r.lobbyAnswerIn(p, m, env, "name", p.Sprintf("Your name: %s", name), wrap(p.Sprintf("Your name is %q already.", name))+"\n")
	}
	out := r.lobbyAnswerIn(p, m, env, "name", p.Sprintf("Your name: %s", name),
		wrap(p.Sprintf("Your name is now %q. Others see it instead of your address: on the web pages, in crosstables, "+
			"and in the mails of your opponents and spectators, in your games present and past. Your address is never shown with it. "+
			"\"name clear\" removes it.", name))+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s chose the name %q", m.From, name)
	out.Lobby = &LobbyChange{Name: &NameChange{Address: addr.Mailbox(m.From), Name: name, Key: NameKey(name)}}
	return out
}

// label is how a crosstable names the seat's player: the name they chose,
// or their address (the crosstable goes to the event's players).
func (p EventPlayer) label() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Address
}

// subLabel is label for the seat's substitute.
func (p EventPlayer) subLabel() string {
	if p.SubName != "" {
		return p.SubName
	}
	return p.ReplacedBy
}

// named is how a player's own opponent is told who they play: the name
// they chose with their address, or the address.
func (p Player) named() string {
	if p.Name != "" && !strings.Contains(p.Name, "@") {
		return p.Name + " (" + p.Address + ")"
	}
	return p.Address
}

package referee

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // the zone names load on any machine, with or without /usr/share/zoneinfo

	"referee/internal/lang"
)

// zoneLocation loads an IANA zone name; "" and names that no longer load
// are UTC.
func zoneLocation(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// parseZone reads a time zone as a player writes it: an IANA name in any
// case ("europe/berlin"), or UTC. It returns the name as the zone
// database spells it ("" for UTC).
func parseZone(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "utc", "gmt", "z", "none", "off":
		return "", nil
	}
	if _, err := time.LoadLocation(s); err == nil && s != "Local" && s != "" {
		return s, nil
	}
	// Players write "europe/berlin" or "america/new_york": each part is
	// capitalised as the zone database has it.
	parts := strings.Split(s, "/")
	for i, p := range parts {
		words := strings.Split(strings.ToLower(p), "_")
		for j, w := range words {
			if len(w) > 0 {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		parts[i] = strings.Join(words, "_")
	}
	if name := strings.Join(parts, "/"); name != "Local" {
		if _, err := time.LoadLocation(name); err == nil && strings.Contains(name, "/") {
			return name, nil
		}
	}
	return "", &lang.Error{Why: lang.M("%q is not a time zone the referee knows; write a zone name as in the tz database, e.g. \"timezone Europe/Berlin\", \"timezone America/New_York\" or \"timezone UTC\"", s)}
}

// whenIn writes t for a player in loc: "Mon 26 Oct 13:00 CET".
func whenIn(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("Mon 2 Jan 15:04 MST")
}

// timezone sets the sender's time zone for all their games.
func (r *Referee) timezone(c *call) Outcome {
	m, env := c.m, c.env
	if len(c.args) != 1 {
		return r.refuseIn(env, m, "timezone: no zone",
			lang.M("\"timezone\" needs one zone name, e.g. \"timezone Europe/Berlin\" (or \"timezone UTC\")."),
			lang.M("Send \"timezone\" and your zone's name as in the tz database (Region/City)."))
	}
	// The arguments come lower case; the original spelling is on the line.
	arg := c.args[0]
	if f := strings.Fields(m.Action); len(f) == 2 {
		arg = f[1]
	}
	zone, err := parseZone(arg)
	if err != nil {
		return r.refuseIn(env, m, "timezone: unknown "+arg, sentenceText{lang.Why(err)}, lang.M("Send e.g. \"timezone Europe/Berlin\"."))
	}
	shown := zone
	if shown == "" {
		shown = "UTC"
	}
	p := r.senderPrinter(env)
	text := wrap(p.Sprintf("Your time zone is now %s: deadlines, reminders and dates in the mails of all your games are shown in it. It is %s there now.",
		shown, whenFor(p, env.Now, zoneLocation(zone)))) + "\n"
	out := r.lobbyAnswerIn(p, m, env, "timezone", p.Sprintf("Your time zone: %s", shown), text)
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s set the time zone %s", m.From, shown)
	out.Lobby = &LobbyChange{TimeZone: &ZoneChange{Address: m.From, Zone: zone}}
	return out
}

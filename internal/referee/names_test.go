package referee

import (
	"strings"
	"testing"

	"referee/internal/mail/reader"
)

// TestCleanName: a display name is 2 to 24 letters, digits, spaces and
// . - ' _, with a letter; never an address or anything that reads like
// one, never a word the referee's mails use for something else.
func TestCleanName(t *testing.T) {
	for _, tt := range []struct {
		in, want, refusal string
	}{
		{"Ann Smith", "Ann Smith", ""},
		{"  Ann   Smith ", "Ann Smith", ""},
		{"J. R. R. Tolkien", "J. R. R. Tolkien", ""},
		{"O'Brien-Łukasz", "O'Brien-Łukasz", ""},
		{"Ян", "Ян", ""},
		{"a", "", "1 characters long"},
		{strings.Repeat("x", 25), "", "25 characters long"},
		{"ann@example.org", "", "holds an @"},
		{"ann.smith", "", "reads like a web or mail address"},
		{"www.chess", "", "reads like a web or mail address"},
		{"Ann <ann>", "", `holds '<'`},
		{"Ann\tSmith\x00", "", `holds '\x00'`},
		{"2024", "", "has no letter"},
		{"White", "", "would read as something else"},
		{"referee", "", "would read as something else"},
	} {
		got, err := CleanName(tt.in)
		if tt.refusal == "" {
			if err != nil || got != tt.want {
				t.Errorf("%q: %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.refusal) {
			t.Errorf("%q: %q, %v; want a refusal saying %q", tt.in, got, err, tt.refusal)
		}
	}
}

// TestNameCommand: "name NAME" sets the sender's display name, for the
// app to store; a name another player holds, or a bad one, is refused
// and changes nothing; "name" alone says the current one and, when none
// is set, offers the From display name without taking it; "name clear"
// removes it.
func TestNameCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	send := func(line, fromName, current, owner string) Outcome {
		m := &reader.Mail{From: "ann@example.org", FromName: fromName, MessageID: "<" + line + "@example.org>", Subject: "name", Action: line}
		return r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Name: current,
			Lobby: &Lobby{Allowed: true, NameOwner: owner, Active: map[string]int{}}})
	}
	var mails []Mail
	for _, tt := range []struct {
		name, line, fromName, current, owner string
		verdict                              Verdict
		change                               *NameChange
	}{
		{"show, none set", "name", "Ann Smith", "", "", Answered, nil},
		{"set", "name Ann  Smith", "", "", "", Applied, &NameChange{Address: "ann@example.org", Name: "Ann Smith", Key: "ann smith"}},
		{"taken", "name ann smith", "", "", "bob@example.org", Rejected, nil},
		{"own name again, other case", "name ANN SMITH", "", "Ann Smith", "ann@example.org", Applied,
			&NameChange{Address: "ann@example.org", Name: "ANN SMITH", Key: "ann smith"}},
		{"an address", "name ann@example.org", "", "", "", Rejected, nil},
		{"show, set", "name", "", "Ann Smith", "", Answered, nil},
		{"clear", "name clear", "", "Ann Smith", "", Applied, &NameChange{Address: "ann@example.org"}},
	} {
		out := send(tt.line, tt.fromName, tt.current, tt.owner)
		if out.Verdict != tt.verdict {
			t.Errorf("%s: %s %s; want %s", tt.name, out.Verdict, out.Detail, tt.verdict)
			continue
		}
		var got *NameChange
		if out.Lobby != nil {
			got = out.Lobby.Name
		}
		if (got == nil) != (tt.change == nil) || (got != nil && *got != *tt.change) {
			t.Errorf("%s: change %+v; want %+v", tt.name, got, tt.change)
		}
		mails = append(mails, out.Mails...)
	}
	mailGolden(t, "name-command", mails...)
}

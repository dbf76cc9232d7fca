package reader

import "testing"

// TestInviteToken: an invitation token reads back from the reply address
// and from the Message-ID of an invitation, and never passes for a game
// token (nor a game token for an invitation).
func TestInviteToken(t *testing.T) {
	inv := Invite{ChallengeID: 12, Secret: "k3fux2ab7q"}
	if got, want := inv.MessageID("5f3a9c01", "Example.Test"), "<i12.k3fux2ab7q.5f3a9c01@example.test>"; got != want {
		t.Fatalf("MessageID = %q, want %q", got, want)
	}
	const base = "referee@example.test"
	tests := []struct {
		name, raw string
		want      *Invite
		source    string
		game      bool // a game token is found instead
	}{
		{"reply address", "To: referee+i12.k3fux2ab7q@example.test\r\n", &inv, "recipient", false},
		{"upper case", "To: Referee+I12.K3FUX2AB7Q@Example.Test\r\n", &inv, "recipient", false},
		{"In-Reply-To only", "To: referee@example.test\r\nIn-Reply-To: <i12.k3fux2ab7q.5f3a9c01@example.test>\r\n", &inv, "in-reply-to", false},
		{"References only", "To: referee@example.test\r\nReferences: <a@b> <i12.k3fux2ab7q.5f3a9c01@example.test>\r\n", &inv, "references", false},
		// The invitation began the thread: later replies name it first.
		{"References, the thread's first mail", "To: referee@example.test\r\nIn-Reply-To: <a@b>\r\nReferences: <i12.k3fux2ab7q.5f3a9c01@example.test> <c@d> <a@b>\r\n", &inv, "references", false},
		{"another domain", "To: referee+i12.k3fux2ab7q@evil.example\r\n", nil, "", false},
		{"another mailbox", "To: other+i12.k3fux2ab7q@example.test\r\n", nil, "", false},
		{"short secret", "To: referee+i12.k3fux2ab7@example.test\r\n", nil, "", false},
		{"game token", "To: referee+12.k3fux2ab7q.3@example.test\r\n", nil, "", true},
		{"foreign Message-ID", "To: referee@example.test\r\nIn-Reply-To: <i12.k3fux2ab7q.5f3a9c01@evil.example>\r\n", nil, "", false},
	}
	for _, tt := range tests {
		raw := "From: bob@example.org\r\nSubject: Re: invitation\r\n" + tt.raw + "\r\naccept\r\n"
		m, err := Read([]byte(raw), base, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		switch {
		case tt.want == nil && m.Invite != nil:
			t.Errorf("%s: found invitation %v", tt.name, *m.Invite)
		case tt.want != nil && (m.Invite == nil || *m.Invite != *tt.want || m.InviteSource != tt.source):
			t.Errorf("%s: invitation %v from %q, want %v from %q", tt.name, m.Invite, m.InviteSource, *tt.want, tt.source)
		}
		if (m.Token != nil) != tt.game {
			t.Errorf("%s: game token %v, want one: %v", tt.name, m.Token, tt.game)
		}
	}
}

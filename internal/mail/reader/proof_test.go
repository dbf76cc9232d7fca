package reader

import "testing"

// TestProofToken: a proof token reads back from the reply address and from
// the Message-ID of the referee's mail that asked for it, and is never
// taken for a game or an invitation token (nor they for it).
func TestProofToken(t *testing.T) {
	const secret = "ab2cd3ef4gh5ij6k"
	if got, want := ProofMessageID(secret, "5f3a9c01", "Example.Test"), "<cab2cd3ef4gh5ij6k.5f3a9c01@example.test>"; got != want {
		t.Fatalf("ProofMessageID = %q, want %q", got, want)
	}
	tests := []struct {
		name, raw    string
		want, source string
		game, invite bool // a game or invitation token is found instead
	}{
		{"reply address", "To: referee+cab2cd3ef4gh5ij6k@example.test\r\n", secret, "recipient", false, false},
		{"upper case", "To: Referee+CAB2CD3EF4GH5IJ6K@Example.Test\r\n", secret, "recipient", false, false},
		{"In-Reply-To only", "To: referee@example.test\r\nIn-Reply-To: <cab2cd3ef4gh5ij6k.5f3a9c01@example.test>\r\n", secret, "in-reply-to", false, false},
		{"References only", "To: referee@example.test\r\nReferences: <a@b> <cab2cd3ef4gh5ij6k.5f3a9c01@example.test>\r\n", secret, "references", false, false},
		// The referee's mail that asked for the proof began the thread:
		// later replies name it first in References.
		{"References, the thread's first mail", "To: referee@example.test\r\nIn-Reply-To: <a@b>\r\nReferences: <cab2cd3ef4gh5ij6k.5f3a9c01@example.test> <c@d> <a@b>\r\n", secret, "references", false, false},
		// A broken Message-ID without "@" (one that is the referee's
		// domain alone) is no proof, and no trouble.
		{"a Message-ID without @", "To: referee@example.test\r\nIn-Reply-To: <example.test>\r\nReferences: <example.test>\r\n", "", "", false, false},
		{"another domain", "To: referee+cab2cd3ef4gh5ij6k@evil.example\r\n", "", "", false, false},
		{"another mailbox", "To: other+cab2cd3ef4gh5ij6k@example.test\r\n", "", "", false, false},
		{"short secret", "To: referee+cab2cd3ef4gh5ij6@example.test\r\n", "", "", false, false},
		{"foreign Message-ID", "To: referee@example.test\r\nIn-Reply-To: <cab2cd3ef4gh5ij6k.5f3a9c01@evil.example>\r\n", "", "", false, false},
		{"game token", "To: referee+12.k3fux2ab7q.3@example.test\r\n", "", "", true, false},
		{"invitation token", "To: referee+i12.k3fux2ab7q@example.test\r\n", "", "", false, true},
	}
	for _, tt := range tests {
		raw := "From: bob@example.org\r\nSubject: Re: confirm\r\n" + tt.raw + "\r\njoin autumn\r\n"
		m, err := Read([]byte(raw), "referee@example.test", Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.Proof != tt.want || m.ProofSource != tt.source {
			t.Errorf("%s: proof %q from %q, want %q from %q", tt.name, m.Proof, m.ProofSource, tt.want, tt.source)
		}
		if (m.Token != nil) != tt.game || (m.Invite != nil) != tt.invite {
			t.Errorf("%s: game token %v, invitation %v; want %v, %v", tt.name, m.Token, m.Invite, tt.game, tt.invite)
		}
	}
}

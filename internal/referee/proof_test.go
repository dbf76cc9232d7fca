package referee

import (
	"strings"
	"testing"

	"referee/internal/mail/reader"
)

// TestJoinWaitsForProof (issue 38): a join from an address not seen here
// is answered with a request for proof, to that address alone, and counts
// only in a reply carrying the proof of that address and that event. A
// seen address joins at once; an address no player can have (a host's
// IP address) is not answered at all.
func TestJoinWaitsForProof(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	r.cfg.IDSalt = "salt of this deployment"
	autumn := &Event{Name: "autumn", Variant: "chess", Format: FormatRR, Status: EventOpen, Places: 4, Entry: "open"}
	winter := &Event{Name: "winter", Variant: "chess", Format: FormatRR, Status: EventOpen, Places: 4, Entry: "open"}
	proof := func(who string, e *Event) string { return r.proofSecret(who, joinProof(e)...) }
	tests := []struct {
		name  string
		from  string
		seen  bool
		proof string
		want  Verdict
	}{
		{name: "new address: asked for proof", from: "newcomer@example.net", want: Answered},
		{name: "new address with its proof", from: "newcomer@example.net", proof: proof("newcomer@example.net", autumn), want: Applied},
		{name: "plus-address of the proved mailbox", from: "Newcomer+chess@example.net", proof: proof("newcomer@example.net", autumn), want: Applied},
		{name: "another address's proof", from: "mallory@example.net", proof: proof("newcomer@example.net", autumn), want: Answered},
		{name: "the proof of another event", from: "newcomer@example.net", proof: proof("newcomer@example.net", winter), want: Answered},
		{name: "seen address", from: "ann@example.org", seen: true, want: Applied},
		{name: "host address", from: "eve@1.2.3.4", want: Ignored},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lb := &Lobby{Allowed: true, Active: map[string]int{}, Event: autumn, EventAllowed: true, Seen: tt.seen}
			m := &reader.Mail{From: strings.ToLower(tt.from), MessageID: "<j1@example.net>", Subject: "join", Action: "join autumn", Proof: tt.proof}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			joined := out.Lobby != nil && out.Lobby.Event != nil && out.Lobby.Event.Join != ""
			if joined != (tt.want == Applied) {
				t.Errorf("joined: %v, want %v", joined, tt.want == Applied)
			}
			if tt.want == Ignored && len(out.Mails) != 0 {
				t.Errorf("%d mails to a host address, want none", len(out.Mails))
			}
			if tt.want != Answered {
				return
			}
			ml := out.Mails[0]
			want := "referee+" + reader.ProofToken(proof(tt.from, autumn)) + "@example.test"
			if len(out.Mails) != 1 || ml.To != m.From || ml.Kind != KindProof || ml.ReplyTo != want {
				t.Errorf("the request: %d mails, to %s, kind %s, Reply-To %s; want one %s mail to %s replying to %s",
					len(out.Mails), ml.To, ml.Kind, ml.ReplyTo, KindProof, m.From, want)
			}
			if s, ok := reader.ProofFromMessageID(ml.MessageID, "example.test"); !ok || s != proof(tt.from, autumn) {
				t.Errorf("the request's Message-ID %s does not carry the proof", ml.MessageID)
			}
			if !strings.Contains(norm(ml.Text), `reply to it with "join autumn" on the first line`) {
				t.Errorf("the request does not say what to reply:\n%s", ml.Text)
			}
		})
	}
	// The proof is keyed with the deployment's secret: another referee's
	// proof of the same address and event is another.
	other := lobbyReferee(t, LobbyConfig{})
	other.cfg.IDSalt = "another deployment"
	if other.proofSecret("newcomer@example.net", joinProof(autumn)...) == proof("newcomer@example.net", autumn) {
		t.Error("two deployments derive the same proof")
	}
}

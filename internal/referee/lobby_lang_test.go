package referee

import (
	"strings"
	"testing"

	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// lobbyIn is a lobby view with the languages of the other players.
func lobbyIn(languages map[string]string) *Lobby {
	return &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed,
		Languages: languages}
}

// onlyMailTo is the one mail of out to addr.
func onlyMailTo(t *testing.T, out Outcome, addr string) Mail {
	t.Helper()
	var found []Mail
	for _, m := range out.Mails {
		if m.To == addr {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d mails to %s (verdict %s, %s), want 1", len(found), addr, out.Verdict, out.Detail)
	}
	return found[0]
}

// TestLobbyTextsInTheReadersLanguage (issue 42): the in-game help, the
// help outside a game, an invitation, the notice that an invitation was
// declined and the confirmation of "language" are written in their
// reader's language: the game player's, the sender's (Env.Language), the
// invited player's and the challenger's (Lobby.Languages), and the
// language just set. Each language's sentences are its catalog's, with
// its own preposition before the game's name ("partie d'échecs", "партию
// в шахматы") and its own dates.
func TestLobbyTextsInTheReadersLanguage(t *testing.T) {
	tests := []struct {
		code string
		// The in-game help: its subject's text, headline, section
		// title and the help command's own line.
		helpSubject, helpHeadline, helpTitle, helpRow string
		// The help outside a game: its first sentences, and the policy.
		lobbyHelp, policy string
		// The invitation to a reader of code, and its subject.
		invitation, invitationSubject string
		// The notice to a challenger reading code that the invited
		// player declined challenge 7, and its subject.
		declined, declinedSubject string
		// The answer to "language CODE", and its subject.
		set, setSubject string
	}{
		{code: "de",
			helpSubject: "Hilfe", helpHeadline: "So spielen Sie per Mail.", helpTitle: "So spielen Sie per Mail:", helpRow: "help diese Hilfe",
			lobbyHelp: "Hier wird per Mail gespielt. Schicken Sie einen Befehl in der ERSTEN Zeile einer Mail an referee@example.test " +
				"(alles danach wird ignoriert) oder als Antwort auf eine beliebige Mail des Schiedsrichters.",
			policy: "Spieler, die hier schon gespielt haben oder die der Veranstalter aufgenommen hat, dürfen herausfordern; " +
				"eine an sie gerichtete Einladung darf jeder annehmen.",
			invitation: "carol@example.org lädt Sie zu einer Partie Schach per Mail ein, geleitet vom Schiedsrichter " +
				"referee@example.test. Bedenkzeit: 3 Tage pro Zug.",
			invitationSubject: "carol@example.org lädt Sie zu einer Partie Schach ein",
			declined: "bob@example.org hat Ihre Herausforderung 7 zu einer Partie Toto40 abgelehnt. Sie können sie oder ihn " +
				"nach Di, 24. Nov. 2026 10:00 UTC erneut einladen.",
			declinedSubject: "bob@example.org hat Ihre Herausforderung (Toto40) abgelehnt",
			set: "Ihre Sprache ist jetzt Deutsch (de): Der Schiedsrichter schreibt Ihnen seine Mails in dieser Sprache und liest " +
				"in allen Ihren Partien ihre Figurenbuchstaben, K D T L S (König, Dame, Turm, Läufer, Springer), in Ihren Zügen",
			setSubject: "Ihre Sprache: Deutsch (de)"},
		{code: "fr",
			helpSubject: "Aide", helpHeadline: "Voici comment jouer par courriel.", helpTitle: "Comment jouer par courriel:", helpRow: "help cette aide",
			lobbyHelp: "Ici, on joue par courriel. Envoyez une commande sur la PREMIÈRE ligne d'un courriel à referee@example.test " +
				"(tout ce qui suit est ignoré), ou en réponse à n'importe quel courriel de l'arbitre.",
			policy: "Les joueurs qui ont déjà joué ici, ou que l'organisateur a ajoutés, peuvent lancer un défi ; " +
				"n'importe qui peut accepter une invitation qui lui est adressée.",
			invitation: "carol@example.org vous invite à une partie d'échecs par courriel, arbitrée par referee@example.test. " +
				"Cadence : 3 jours par coup.",
			invitationSubject: "carol@example.org vous invite à une partie d'échecs",
			declined: "bob@example.org a décliné votre défi 7 pour une partie de Toto40. Vous pourrez l'inviter de nouveau " +
				"après le mar. 24 nov. 2026 10:00 UTC.",
			declinedSubject: "bob@example.org a décliné votre défi (Toto40)",
			set: "Votre langue est désormais le français (fr) : l'arbitre vous écrit ses courriels dans cette langue et, dans " +
				"toutes vos parties, lit ses lettres des pièces, R D T F C (roi, dame, tour, fou, cavalier), dans vos coups",
			setSubject: "Votre langue : français (fr)"},
		{code: "ru",
			helpSubject: "Справка", helpHeadline: "Вот как играть по почте.", helpTitle: "Как играть по почте:", helpRow: "help эта справка",
			lobbyHelp: "Здесь играют по почте. Отправьте команду в ПЕРВОЙ строке письма на referee@example.test " +
				"(всё, что дальше, не читается) или в ответ на любое письмо судьи.",
			policy: "Вызывать могут игроки, которые уже играли здесь или которых добавил организатор; " +
				"принять приглашение, адресованное ему, может любой.",
			invitation: "carol@example.org приглашает вас на партию в шахматы по почте, судья — referee@example.test. " +
				"Контроль времени: 3 дня на ход.",
			invitationSubject: "carol@example.org приглашает вас на партию в шахматы",
			declined: "bob@example.org отклонил ваш вызов 7 на партию Toto40. Вы сможете снова пригласить его после " +
				"вт, 24 нояб. 2026 10:00 UTC.",
			declinedSubject: "bob@example.org отклонил ваш вызов (Toto40)",
			set: "Ваш язык теперь — русский (ru): судья пишет вам письма на этом языке и во всех ваших партиях читает " +
				"в ваших ходах его буквы фигур, Кр Ф Л С К (король, ферзь, ладья, слон, конь)",
			setSubject: "Ваш язык: русский (ru)"},
	}
	has := func(t *testing.T, what, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(norm(text), norm(w)) {
				t.Errorf("%s does not say %q:\n%s", what, w, text)
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			// The in-game help, to White reading tt.code.
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language = tt.code
			help := act(t, r, g, rules.White, "help")
			if len(help.Mails) != 1 || help.Mails[0].Subject != "[chess #5] "+tt.helpSubject {
				t.Fatalf("help: %d mails, %+v", len(help.Mails), help.Mails)
			}
			has(t, "the in-game help", textOf(t, help.Mails[0]), tt.helpHeadline, tt.helpTitle, tt.helpRow)

			// The help outside a game, to a sender reading tt.code.
			lr := lobbyReferee(t, LobbyConfig{})
			out := lr.Handle(Inbound{Mail: observeMail("carol@example.org", "help")}, nil,
				Env{Now: lobbyNow, Language: tt.code, Lobby: lobbyIn(nil)})
			has(t, "the lobby's help", onlyMailTo(t, out, "carol@example.org").Text, tt.lobbyHelp, tt.policy)

			// An invitation from carol, who set no language, to bob, who
			// reads tt.code.
			m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Action: "challenge chess bob@example.org 3d"}
			out = lr.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lobbyIn(map[string]string{"bob@example.org": tt.code})})
			inv := onlyMailTo(t, out, "bob@example.org")
			has(t, "the invitation", inv.Text, tt.invitation)
			if inv.Subject != tt.invitationSubject {
				t.Errorf("the invitation's subject: %q, want %q", inv.Subject, tt.invitationSubject)
			}
			has(t, "carol's confirmation", onlyMailTo(t, out, "carol@example.org").Text,
				"Your challenge 41 is on its way: bob@example.org is invited to a game of Chess (3 days per move) against you.")

			// Bob, who set no language, declines carol's challenge 7:
			// carol reads tt.code.
			ch := invitedBob()
			m = &reader.Mail{From: "bob@example.org", MessageID: "<d1@example.org>", Action: "decline",
				Invite: &reader.Invite{ChallengeID: ch.ID, Secret: ch.Secret}}
			lb := lobbyIn(map[string]string{"carol@example.org": tt.code})
			lb.Challenge = ch
			out = lr.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			notice := onlyMailTo(t, out, "carol@example.org")
			has(t, "the declined notice", notice.Text, tt.declined)
			if notice.Subject != tt.declinedSubject {
				t.Errorf("the declined notice's subject: %q, want %q", notice.Subject, tt.declinedSubject)
			}
			has(t, "bob's own letter", onlyMailTo(t, out, "bob@example.org").Text,
				"You declined carol@example.org's invitation to a game of Toto40.")

			// "language CODE" is answered in the language it sets.
			set := act(t, r, g, rules.Black, "language "+tt.code)
			if set.Verdict != Applied || len(set.Mails) != 1 || set.Mails[0].Subject != tt.setSubject {
				t.Fatalf("language %s: %s %s %+v", tt.code, set.Verdict, set.Detail, set.Mails)
			}
			has(t, "the language's confirmation", set.Mails[0].Text, tt.set)
		})
	}
}

// TestInvitationToAGermanFromAnEnglishPlayer: the invitation is German
// through and through (its subject, sentences, dates, time control and
// footer), while the challenger's confirmation, sent by the same
// decision, stays English; golden files: the German in-game help and
// the German invitation.
func TestInvitationToAGermanFromAnEnglishPlayer(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Action: "challenge chess bob@example.org 10/50d white rated"}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Zone: "America/New_York",
		Lobby: &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 12, NewSecret: "rrrrrrrrr2", OpponentZone: "Europe/Berlin",
			Languages: map[string]string{"bob@example.org": "de"}}})
	if out.Verdict != Applied || len(out.Mails) != 2 {
		t.Fatalf("challenge: %s %s, %d mails", out.Verdict, out.Detail, len(out.Mails))
	}
	inv, conf := onlyMailTo(t, out, "bob@example.org"), onlyMailTo(t, out, "carol@example.org")
	for _, want := range []string{
		"Bedenkzeit: 10 Züge in 50 Tagen, nicht verbrauchte Zeit wird übertragen (10/50d).",
		"carol@example.org spielt Weiß. Die Partie wird gewertet",
		"Die Einladung läuft am Mo, 30. Nov. 2026 11:00 CET ab.",
		"Der Schiedsrichter unter referee@example.test.",
	} {
		if !strings.Contains(norm(inv.Text), want) {
			t.Errorf("the invitation does not say %q:\n%s", want, inv.Text)
		}
	}
	for _, want := range []string{"Your challenge 12 is on its way", "The invitation expires on Mon 30 Nov 2026 05:00 EST.",
		"The referee at referee@example.test."} {
		if !strings.Contains(norm(conf.Text), want) {
			t.Errorf("the confirmation does not say %q:\n%s", want, conf.Text)
		}
	}
	if strings.ContainsAny(conf.Text+conf.Subject, "äöüßÄÖÜ") {
		t.Errorf("German in the English challenger's confirmation:\n%s", conf.Text)
	}
	mailGolden(t, "invitation-de", inv)
	rg, g := newGame(t, rules.Chess())
	g.Players[rules.White].Language = "de"
	mailGolden(t, "help-in-game-de", act(t, rg, g, rules.White, "help").Mails...)
}

// TestHelpLinesAreOneText: the help mails and the README write the same
// catalog text, the README in English; the time syntax the challenge row
// names is timecontrol.Syntax's, and a time control is described as
// timecontrol.Control.Describe does in English.
func TestHelpLinesAreOneText(t *testing.T) {
	en := lang.MustLoad().Printer(lang.English)
	if got := timeSyntax().In(en); got != timecontrol.Syntax {
		t.Errorf("the time syntax's key %q is not timecontrol.Syntax %q", got, timecontrol.Syntax)
	}
	for _, tc := range []string{"", "1d", "3d", "10d+1d", "30d+1d/45d", "10/50d", "1/1d", "3d off sun", "10/50d off sat,sun",
		"3d off fri,sat,sun", "bogus"} {
		if got, want := controlFor(en, tc), controlText(tc); got != want {
			t.Errorf("controlFor(%q) = %q, Describe says %q", tc, got, want)
		}
	}
	md := CommandsMarkdown(Both)
	de := lang.MustLoad().Printer("de")
	for _, c := range Commands() {
		if len(c.Words) == 0 {
			continue
		}
		if help := c.Help.In(en); !strings.Contains(md, help) {
			t.Errorf("%s: the README table lacks its help %q", c.Name(), help)
		}
		if c.Help.In(de) == c.Help.In(en) {
			t.Errorf("%s: the help line %q is not translated", c.Name(), c.Help.In(en))
		}
	}
}

// TestChallengeRefusalsInTheSendersLanguage: a challenge refused for its
// opponent's address or its time control gives the reason (addr's,
// timecontrol's) in the sender's language, and in English to a sender
// who set none, as before.
func TestChallengeRefusalsInTheSendersLanguage(t *testing.T) {
	lr := lobbyReferee(t, LobbyConfig{})
	for _, tc := range []struct{ code, action, says string }{
		{"de", "challenge chess bob@localhost", `"localhost" hat keinen Punkt: es bezeichnet einen einzelnen Rechner, keine Mail-Domain`},
		{"", "challenge chess bob@localhost", `"localhost" has no dot: it names a single host, not a mail domain`},
		{"ru", "challenge chess bob@exa--mple.-org", `его часть "-org" начинается или оканчивается дефисом`},
		{"fr", "challenge chess 10d+1d/5d", `cadence "10d+1d/5d" : le plafond 5d est inférieur au temps initial 10d ; donnez un plafond d'au moins 10d.`},
		{"pl", "challenge chess 300/5d", `tempo "300/5d": "300" nie jest liczbą posunięć od 1 do 200`},
		{"", "challenge chess 300/5d", `time control "300/5d": "300" is not a number of moves from 1 to 200`},
		{"de", "challenge chess 0d", `Bedenkzeit "0d": geben Sie mindestens 1d pro Zug.`},
	} {
		m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Action: tc.action}
		out := lr.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Language: tc.code, Lobby: lobbyIn(nil)})
		if out.Verdict != Rejected {
			t.Errorf("%q (%s): %s %s", tc.action, tc.code, out.Verdict, out.Detail)
			continue
		}
		if text := norm(onlyMailTo(t, out, "carol@example.org").Text); !strings.Contains(text, tc.says) {
			t.Errorf("%q (%s) does not say %q:\n%s", tc.action, tc.code, tc.says, text)
		}
	}
}

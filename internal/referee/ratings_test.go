package referee

import (
	"strings"
	"testing"

	"referee/internal/mail/reader"
	"referee/internal/rating"
)

// TestRatingAndTopByMail: what "rating" and "top" load (Needs) and answer,
// and their refusals.
func TestRatingAndTopByMail(t *testing.T) {
	carolChess := rating.Standing{Address: "carol@example.org", Variant: "chess", Rating: rating.Rating{R: 1712.4, RD: 64, Sigma: 0.06},
		Games: 40, Wins: 25, Draws: 5, Losses: 10, LostOnTime: 1, Abandoned: 1}
	carolToto := rating.Standing{Address: "carol@example.org", Variant: "toto40", Rating: rating.Rating{R: 1490, RD: 250, Sigma: 0.06},
		Games: 2, Wins: 1, Losses: 1}
	bobChess := rating.Standing{Address: "bob@example.org", Variant: "chess", Rating: rating.Rating{R: 1810, RD: 90, Sigma: 0.06}, Games: 30}
	newChess := rating.Standing{Address: "new@example.org", Variant: "chess", Rating: rating.Rating{R: 1900, RD: 200, Sigma: 0.06}, Games: 3}
	tests := []struct {
		line      string
		ratingsOf string
		top       string
		lobby     func(lb *Lobby)
		want      Verdict
		says      []string
		not       []string
	}{
		{line: "rating", ratingsOf: "carol@example.org", lobby: func(lb *Lobby) { lb.Ratings = []rating.Standing{carolChess, carolToto} },
			want: Answered, says: []string{"You (carol@example.org): ratings.", "Chess: 1712 (deviation 64", "40 rated games: 25 won, 5 drawn, 10 lost",
				"reliability 95%: 1 lost on time, 1 abandoned", "Toto40: 1490? (deviation 250"}},
		{line: "rating toto40", ratingsOf: "carol@example.org", lobby: func(lb *Lobby) { lb.Ratings = []rating.Standing{carolChess, carolToto} },
			want: Answered, says: []string{"ratings of Toto40", "1490?"}, not: []string{"1712"}},
		{line: "Rating Bob@Example.org chess", ratingsOf: "bob@example.org", lobby: func(lb *Lobby) { lb.Ratings = []rating.Standing{bobChess} },
			want: Answered, says: []string{"bob@example.org: ratings of Chess", "Chess: 1810 "}},
		{line: "rating dave@example.org", ratingsOf: "dave@example.org",
			want: Answered, says: []string{"dave@example.org: no rated game yet. A new player starts at 1500?"}},
		{line: "rating checkers", ratingsOf: "carol@example.org", want: Rejected, says: []string{`the word "checkers" is neither`}},
		{line: "rating a@example.org b@example.org", ratingsOf: "a@example.org", want: Rejected, says: []string{`"b@example.org"`}},
		{line: "top chess", top: "chess", lobby: func(lb *Lobby) { lb.Top = []rating.Standing{newChess, bobChess, carolChess} },
			want: Answered, says: []string{"1. 1810", "bob@example.org", "2. 1712", "carol@example.org"}, not: []string{"new@example.org"}},
		{line: "top toto40", top: "toto40", lobby: func(lb *Lobby) { lb.Top = []rating.Standing{carolToto} },
			want: Answered, says: []string{"Toto40 has no established player yet"}},
		{line: "top", want: Rejected, says: []string{"names no game", "top chess"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "rating", Action: tt.line}
			n := r.Needs(m, nil)
			if n.RatingsOf != tt.ratingsOf || n.Top != tt.top {
				t.Errorf("needs ratings of %q, top %q; want %q, %q", n.RatingsOf, n.Top, tt.ratingsOf, tt.top)
			}
			lb := &Lobby{Allowed: true, Active: map[string]int{}}
			if tt.lobby != nil {
				tt.lobby(lb)
			}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != tt.want || len(out.Mails) != 1 {
				t.Fatalf("verdict %s (%s) with %d mails, want %s and one mail", out.Verdict, out.Detail, len(out.Mails), tt.want)
			}
			text := strings.Join(strings.Fields(out.Mails[0].Text), " ")
			if out.Mails[0].To != "carol@example.org" {
				t.Errorf("the answer goes to %s", out.Mails[0].To)
			}
			for _, s := range tt.says {
				if !strings.Contains(text, strings.Join(strings.Fields(s), " ")) {
					t.Errorf("the answer does not say %q:\n%s", s, out.Mails[0].Text)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(text, s) {
					t.Errorf("the answer says %q:\n%s", s, out.Mails[0].Text)
				}
			}
		})
	}
}

// TestRatingLimits: the organiser's --min-rating, --max-rating and
// --min-reliability keep a player outside them from challenging and from
// accepting, in the challenge's variant; the core asks for the sender's
// ratings only when there are limits.
func TestRatingLimits(t *testing.T) {
	strong := rating.Standing{Address: "carol@example.org", Variant: "chess", Rating: rating.Rating{R: 1900, RD: 60, Sigma: 0.06}, Games: 50}
	flaky := rating.Standing{Address: "carol@example.org", Variant: "chess", Rating: rating.Rating{R: 1700, RD: 60, Sigma: 0.06},
		Games: 10, LostOnTime: 2, Abandoned: 1}
	tests := []struct {
		name    string
		lc      LobbyConfig
		line    string
		ratings []rating.Standing
		want    Verdict
		says    string
	}{
		{"no limits", LobbyConfig{}, "challenge chess bob@example.org", nil, Applied, ""},
		{"new player under min", LobbyConfig{MinRating: 1600}, "challenge chess bob@example.org", nil, Rejected,
			"your Chess rating is 1500?, and the organiser asks for at least 1600"},
		{"strong over min", LobbyConfig{MinRating: 1600}, "challenge chess bob@example.org", []rating.Standing{strong}, Applied, ""},
		{"rating of another variant", LobbyConfig{MinRating: 1600}, "challenge toto40 bob@example.org", []rating.Standing{strong}, Rejected,
			"your Toto40 rating is 1500?"},
		{"over max", LobbyConfig{MaxRating: 1800}, "challenge chess", []rating.Standing{strong}, Rejected, "allows at most 1800"},
		{"unreliable", LobbyConfig{MinReliability: 0.9}, "challenge chess", []rating.Standing{flaky}, Rejected,
			"your reliability in Chess is 70% (3 of 10 rated games lost on time or abandoned), and the organiser asks for at least 90%"},
		{"reliable", LobbyConfig{MinReliability: 0.9}, "challenge chess", []rating.Standing{strong}, Applied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, tt.lc)
			m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "challenge", Action: tt.line}
			wantOf := ""
			if tt.lc.ratingLimits() {
				wantOf = "carol@example.org"
			}
			if n := r.Needs(m, nil); n.RatingsOf != wantOf {
				t.Errorf("needs the ratings of %q, want %q", n.RatingsOf, wantOf)
			}
			lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed, Ratings: tt.ratings}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			if tt.says != "" && (len(out.Mails) == 0 || !strings.Contains(strings.Join(strings.Fields(out.Mails[0].Text), " "), tt.says)) {
				t.Errorf("the refusal does not say %q: %+v", tt.says, out.Mails)
			}
		})
	}

	// Accepting bob's invitation to chess, as an unreliable player.
	r := lobbyReferee(t, LobbyConfig{MinReliability: 0.9})
	ch := invitedBob()
	ch.Challenger, ch.Opponent, ch.Variant = "bob@example.org", "carol@example.org", "chess"
	m := &reader.Mail{From: "carol@example.org", MessageID: "<c2@example.org>", Subject: "Re: invitation", Action: "accept",
		Invite: &reader.Invite{ChallengeID: ch.ID, Secret: ch.Secret}}
	if n := r.Needs(m, nil); n.RatingsOf != "carol@example.org" {
		t.Errorf("accept needs the ratings of %q", n.RatingsOf)
	}
	lb := &Lobby{Allowed: true, Active: map[string]int{}, Challenge: ch, Ratings: []rating.Standing{flaky}}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
	if out.Verdict != Rejected || out.Lobby != nil && out.Lobby.Start != nil {
		t.Fatalf("an unreliable player's accept: %s (%s)", out.Verdict, out.Detail)
	}
	lb.Ratings = []rating.Standing{strong}
	if out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb}); out.Verdict != Applied {
		t.Fatalf("a reliable player's accept: %s (%s)", out.Verdict, out.Detail)
	}
}

// TestRatingAndTopInTheSendersLanguage: "rating" and "top" answer a
// player who set a language in it: the rating's lines, the counts with
// their plural forms, the note on provisional ratings, and the subject.
func TestRatingAndTopInTheSendersLanguage(t *testing.T) {
	carolChess := rating.Standing{Address: "carol@example.org", Variant: "chess", Rating: rating.Rating{R: 1712.4, RD: 64, Sigma: 0.06},
		Games: 40, Wins: 25, Draws: 5, Losses: 10, LostOnTime: 1, Abandoned: 1}
	oneGame := rating.Standing{Address: "carol@example.org", Variant: "toto40", Rating: rating.Rating{R: 1490, RD: 250, Sigma: 0.06}, Games: 1, Wins: 1}
	for _, tt := range []struct {
		code, line, subject string
		says                []string
	}{
		{"de", "rating", "Wertungszahlen", []string{"Sie (carol@example.org): Wertungszahlen.", "Schach: 1712 (Abweichung 64, Volatilität 0.0600)",
			"40 gewertete Partien: 25 gewonnen, 5 remis, 10 verloren", "Zuverlässigkeit 95%: 1 durch Zeitüberschreitung verloren",
			"1 gewertete Partie: 1 gewonnen", `Ein "?" kennzeichnet eine vorläufige Wertungszahl`}},
		{"ru", "rating", "Рейтинги", []string{"Вы (carol@example.org): рейтинги.", "40 рейтинговых партий: 25 выиграно", "1 рейтинговая партия"}},
		{"pl", "top chess", "Najlepsi gracze w grze Szachy", []string{"Gracze z ustalonym rankingiem w grze Szachy"}},
		{"ru", "top chess", "Лучшие игроки в игре «Шахматы»", []string{"Игроки с установившимся рейтингом в игре «Шахматы»"}},
	} {
		r := lobbyReferee(t, LobbyConfig{})
		m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "rating", Action: tt.line}
		lb := &Lobby{Allowed: true, Active: map[string]int{}, Ratings: []rating.Standing{carolChess, oneGame}, Top: []rating.Standing{carolChess}}
		out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb, Language: tt.code})
		if out.Verdict != Answered || len(out.Mails) != 1 {
			t.Fatalf("%s %q: %s (%s)", tt.code, tt.line, out.Verdict, out.Detail)
		}
		text := strings.Join(strings.Fields(out.Mails[0].Text), " ")
		if !strings.Contains(out.Mails[0].Subject, tt.subject) {
			t.Errorf("%s %q: subject %q, want %q in it", tt.code, tt.line, out.Mails[0].Subject, tt.subject)
		}
		for _, s := range tt.says {
			if !strings.Contains(text, s) {
				t.Errorf("%s %q: the answer does not say %q:\n%s", tt.code, tt.line, s, out.Mails[0].Text)
			}
		}
	}
}

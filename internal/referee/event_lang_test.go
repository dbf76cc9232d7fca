package referee

import (
	"strings"
	"testing"

	"referee/internal/event"
	"referee/internal/rules"
)

// langEvent is a finished-or-running round robin of three players whose
// languages are German (a), Russian (b) and unset (c: English), playing
// chess at 3 days per move, rated.
func langEvent() *Event {
	e := rrEvent(FormatRR, 3)
	e.Variant, e.TimeControl, e.Rated, e.Status = "chess", "3d", true, EventRunning
	e.Players[0].Language, e.Players[1].Language = "de", "ru"
	e.Games = []EventGame{{GameID: 11, Round: 1, Board: 1, White: 1, Black: 2, Status: StatusActive},
		{GameID: 12, Round: 2, Board: 1, White: 3, Black: 1, Status: StatusActive},
		{GameID: 13, Round: 3, Board: 1, White: 2, Black: 3, Status: StatusActive}}
	return e
}

// langGames are langEvent's games as the start mail lists them.
func langGames() map[int64]*Game {
	return map[int64]*Game{
		11: {ID: 11, Players: [2]Player{{Address: "a@example.test", Secret: "aaaaaaaaaa"}, {Address: "b@example.test", Secret: "bbbbbbbbbb"}}},
		12: {ID: 12, Players: [2]Player{{Address: "c@example.test", Secret: "cccccccccc"}, {Address: "a@example.test", Secret: "dddddddddd"}}},
		13: {ID: 13, Players: [2]Player{{Address: "b@example.test", Secret: "eeeeeeeeee"}, {Address: "c@example.test", Secret: "ffffffffff"}}},
	}
}

// TestEventStartMailInThePlayersLanguage (issue 42): each player of a
// round robin gets the start mail in their own language (a German, a
// Russian and an English player of the same event): subject, first line,
// the line of each game, the odd-number note and the closing paragraph;
// commands and addresses stay as they are.
func TestEventStartMailInThePlayersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := langEvent()
	gs := langGames()
	tests := []struct {
		seat    int
		games   []int64
		subject string
		says    []string
	}{
		{1, []int64{11, 12}, "[club] Das Turnier hat begonnen: Ihre Partien", []string{
			"Das Turnier club (Schach, Rundenturnier, 3 Tage pro Zug, gewertet) hat begonnen.",
			"Runde 1, Brett 1: Partie #11, Sie spielen Weiß gegen b@example.test\n    Antwort an: ",
			"Runde 2, Brett 1: Partie #12, Sie spielen Schwarz gegen c@example.test\n",
			"Bei einer ungeraden Spielerzahl setzt jeder Spieler in einer Paarung der Tabelle aus.",
			"Schicken Sie jederzeit \"standings club\" an den Schiedsrichter",
			"Der Schiedsrichter unter referee@example.test.",
		}},
		{2, []int64{11, 13}, "[club] Турнир начался: ваши партии", []string{
			"Турнир club (Шахматы, круговой турнир, ",
			"Тур 1, доска 1: партия #11, вы играете чёрными против a@example.test\n",
			"Тур 3, доска 1: партия #13, вы играете белыми против c@example.test\n",
			"При нечётном числе игроков каждый пропускает одну пару таблицы.",
			"Отправьте судье \"standings club\" в любое время",
		}},
		{3, []int64{12, 13}, "[club] The event has started: your games", []string{
			"club (Chess, round robin, 3 days per move, rated) has started.",
			"Round 2, board 1: game #12, you play White against a@example.test\n    reply to: ",
			"Round 3, board 1: game #13, you play Black against b@example.test\n",
			"With an odd number of players, each player sits out one pairing of the table.",
			"Send \"standings club\" to the referee for the crosstable at any time.",
		}},
	}
	for _, tt := range tests {
		var games []*Game
		for _, id := range tt.games {
			games = append(games, gs[id])
		}
		m := r.EventStartMail(e, tt.seat, games, lobbyNow)
		if m.Subject != tt.subject {
			t.Errorf("seat %d: subject %q, want %q", tt.seat, m.Subject, tt.subject)
		}
		for _, s := range tt.says {
			if !strings.Contains(norm(m.Text), norm(s)) {
				t.Errorf("seat %d: the mail lacks %q:\n%s", tt.seat, s, m.Text)
			}
		}
		if tt.seat == 1 {
			mailGolden(t, "event-start-rr-de", m)
		}
	}
}

// tiedEvent is a finished round robin of a (German), b (Russian) and c
// (English) in which each beat one other: all on 1 point, tied on every
// tie-break, so that they share first place and the tie notes say so.
func tiedEvent() *Event {
	e := rrEvent(FormatRR, 3, numbered(fin(1, 2, "1-0", "checkmate"), fin(2, 3, "1-0", "checkmate"), fin(3, 1, "1-0", "checkmate"))...)
	e.Status, e.Variant, e.TimeControl, e.Rated, e.Chain = EventFinished, "chess", "3d", true, event.DefaultChain()
	e.Players[0].Language, e.Players[1].Language = "de", "ru"
	return e
}

// TestStandingsInTheSendersLanguage (issue 42): "standings EVENT" is
// answered in the sender's language: subject, summary line, the
// crosstable's headings (aligned), the legend with the tie-break chain,
// and the winners; English stays as it was.
func TestStandingsInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := tiedEvent()
	tests := []struct {
		from, code, subject string
		says                []string
	}{
		{"a@example.test", "de", "Stand von club", []string{
			"club: Schach, Rundenturnier, 3 Tage pro Zug, gewertet; beendet",
			"  #  Spieler            1 2 3   Pkt Siege    SB Rang\n  1  a@example.test     X 1 0     1     1     1    1\n",
			"Bei Punktgleichheit entscheidet die Anzahl der Siege, dann die Sonneborn-Berger-Wertung, dann die direkte Begegnung.",
			"a@example.test, b@example.test und c@example.test teilen sich den ersten Platz in club.",
		}},
		{"b@example.test", "ru", "Таблица турнира club", []string{
			"club: Шахматы, круговой турнир, ",
			"  #  Игрок              1 2 3  Очки  Поб  Берг Место\n  1  a@example.test     X 1 0     1    1     1     1\n",
			"При равенстве очков решает: число побед, затем коэффициент Зоннеборна-Бергера, затем результат личной встречи.",
			"a@example.test, b@example.test и c@example.test делят первое место в турнире club.",
		}},
		{"c@example.test", "", "Standings of club", []string{e.StandingsText(),
			"club: Chess, round robin, 3 days per move, rated; finished",
			"  #  Player             1 2 3   Pts Wins    SB Rank\n",
			"Ties are broken by the number of wins, then Sonneborn-Berger, then the direct encounter.",
			"a@example.test, b@example.test and c@example.test share first place in club.",
		}},
	}
	for _, tt := range tests {
		lb := &Lobby{Allowed: true, Active: map[string]int{}, Seen: true, Event: e, EventAllowed: true}
		out := r.Handle(Inbound{Mail: observeMail(tt.from, "standings club")}, nil, Env{Now: lobbyNow, Lobby: lb, Language: tt.code})
		if out.Verdict != Answered || len(out.Mails) != 1 {
			t.Fatalf("%s: %s, %q, %d mails", tt.from, out.Verdict, out.Detail, len(out.Mails))
		}
		m := out.Mails[0]
		if m.Subject != tt.subject {
			t.Errorf("%s: subject %q, want %q", tt.from, m.Subject, tt.subject)
		}
		for _, s := range tt.says {
			// The crosstable's lines exactly (aligned); a sentence
			// however it is wrapped.
			exact := strings.HasPrefix(s, "  #")
			if !strings.Contains(m.Text, s) && (exact || !strings.Contains(norm(m.Text), norm(s))) {
				t.Errorf("%s: the answer lacks %q:\n%s", tt.from, s, m.Text)
			}
		}
		// Its HTML part is in the same language (the table's headings).
		want := map[string]string{"de": "<th>Spieler</th>", "ru": "<th>Игрок</th>", "": "<th>Player</th>"}[tt.code]
		if !strings.Contains(m.HTML, want) {
			t.Errorf("%s: the HTML part lacks %q:\n%s", tt.from, want, m.HTML)
		}
	}
}

// TestEventEndMailsInEachReadersLanguage (issue 42): the final crosstable
// mail goes to each player in their language, and to an observer in the
// language the app loaded for them: subject, first sentence, winners,
// the tie notes' heading and notes; an English player's is the English.
func TestEventEndMailsInEachReadersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := tiedEvent()
	mails := r.EventEndMails(e, []string{"eve@example.test"}, map[string]string{"eve@example.test": "ru"}, lobbyNow)
	tests := []struct {
		to, subject string
		says        []string
	}{
		{"a@example.test", "[club] Endstand: a@example.test, b@example.test und c@example.test teilen sich den ersten Platz in club.", []string{
			"Die letzte Partie von club ist beendet. a@example.test, b@example.test und c@example.test teilen sich den ersten Platz in club.",
			"\nWie die Punktgleichheiten aufgelöst wurden:\n",
			"a@example.test und b@example.test, beide mit 1 Pkt.: Die Feinwertungen konnten sie nicht trennen, sie teilen sich Rang 1.",
			"Spieler",
			"Der Schiedsrichter unter referee@example.test.",
		}},
		{"b@example.test", "[club] Итоговая таблица: a@example.test, b@example.test и c@example.test делят первое место в турнире club.", []string{
			"Последняя партия турнира club завершилась.",
			"\nКак разрешено равенство очков:\n",
			"дополнительные показатели их не разделили, и они делят 1-е место.",
		}},
		{"c@example.test", "[club] Final crosstable: a@example.test, b@example.test and c@example.test share first place in club.", []string{
			"The last game of club has ended. a@example.test, b@example.test and c@example.test share first place in club.",
			"\n\n" + e.StandingsText() + "\nHow the ties on points were broken:\n",
			"a@example.test and b@example.test, both on 1: the tie-breaks could not separate them, and they share rank 1.",
		}},
		{"eve@example.test", "[club] Итоговая таблица: a@example.test, b@example.test и c@example.test делят первое место в турнире club.", []string{
			"Последняя партия турнира club, за которым вы следите, завершилась.",
		}},
	}
	if len(mails) != len(tests) {
		t.Fatalf("%d mails, want %d", len(mails), len(tests))
	}
	for i, tt := range tests {
		m := mails[i]
		if m.To != tt.to || m.Subject != tt.subject {
			t.Errorf("mail %d: to %s, %q; want to %s, %q", i, m.To, m.Subject, tt.to, tt.subject)
		}
		for _, s := range tt.says {
			if !strings.Contains(m.Text, s) && !strings.Contains(norm(m.Text), norm(s)) {
				t.Errorf("mail to %s lacks %q:\n%s", m.To, s, m.Text)
			}
		}
	}
	// The HTML part is in the reader's language too: its table's
	// headings, its legend and the tie notes' heading.
	for i, says := range [][]string{
		{"<th>Spieler</th><th>Pkt</th>", "Punkte: 1 für einen Sieg, ½ für ein Remis", "<p>Wie die Punktgleichheiten aufgelöst wurden:</p>",
			"Feinwertungen konnten sie nicht trennen"},
		{"Очки: 1 за победу", "<p>Как разрешено равенство очков:</p>"},
		{"<th>Player</th><th>Pts</th>", "Points: 1 a win, &frac12; a draw", "<p>How the ties on points were broken:</p>"},
	} {
		for _, s := range says {
			if !strings.Contains(mails[i].HTML, s) {
				t.Errorf("the HTML to %s lacks %q:\n%s", mails[i].To, s, mails[i].HTML)
			}
		}
	}
}

// TestEventLobbyInTheSendersLanguage (issue 42): "events", "join" and
// "leave" are answered in the sender's language, and so are their
// refusals; the commands quoted stay English.
func TestEventLobbyInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	tests := []struct {
		name, code, line string
		event            *Event
		subject          string
		says             []string
	}{
		{"events, German", "de", "events", nil, "Turniere", []string{
			"Turniere, denen Sie beitreten können (senden Sie \"join NAME\", um sich anzumelden):",
			"autumn: Schach, Rundenturnier, 3 Tage pro Zug, gewertet; 3 Plätze von 4 frei",
		}},
		{"events, Russian", "ru", "events", nil, "Турниры", []string{
			"autumn: Шахматы, круговой турнир, ",
			"; свободно: 3 места из 4",
		}},
		{"events, English", "", "events", nil, "Events", []string{
			"Events you may join (send \"join NAME\" to enter one):",
			"autumn: Chess, round robin, 3 days per move, rated; 3 places left of 4",
		}},
		{"join, German", "de", "join autumn", autumn(EventOpen, dan), "Sie sind autumn beigetreten", []string{
			"Sie sind autumn (Schach, Rundenturnier, 3 Tage pro Zug, gewertet) beigetreten.",
			"2 Plätze sind noch frei. Es beginnt, sobald es voll ist. Bis dahin nimmt Sie \"leave autumn\" wieder heraus.",
		}},
		{"join, Russian, one place", "ru", "join autumn", autumn(EventOpen, dan, erin), "Вы записались в autumn", []string{
			"Осталось 1 свободное место.",
		}},
		{"leave, Russian", "ru", "leave autumn", autumn(EventOpen, dan, carol), "Вы покинули autumn", []string{
			"Вы покинули турнир autumn. \"join autumn\" снова запишет вас, пока идёт запись.",
		}},
		{"leave a running event, German", "de", "leave autumn", autumn(EventRunning, dan, carol, erin), "", []string{
			"Sie können autumn nicht verlassen: Es hat begonnen.",
			"Um in einem laufenden Turnier nicht mehr zu spielen, senden Sie \"withdraw autumn\".",
		}},
		{"no such event, Russian", "ru", "standings winter", nil, "", []string{
			"В вашем письме сказано \"standings winter\", но турнира \"winter\", в котором вы играете или в который можете записаться, нет.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lb := &Lobby{Allowed: true, Active: map[string]int{}, Seen: true, Event: tt.event, EventAllowed: true,
				Events: []Event{*autumn(EventOpen, dan)}, MayJoin: map[string]bool{"autumn": true}}
			out := r.Handle(Inbound{Mail: observeMail(carol, tt.line)}, nil, Env{Now: lobbyNow, Lobby: lb, Language: tt.code})
			if len(out.Mails) != 1 {
				t.Fatalf("%s, %q: %d mails", out.Verdict, out.Detail, len(out.Mails))
			}
			m := out.Mails[0]
			if tt.subject != "" && m.Subject != tt.subject {
				t.Errorf("subject %q, want %q", m.Subject, tt.subject)
			}
			for _, s := range tt.says {
				if !strings.Contains(norm(m.Text), norm(s)) {
					t.Errorf("the answer lacks %q:\n%s", s, m.Text)
				}
			}
		})
	}
}

// TestSubstitutedInEachPlayersLanguage (issue 42): a substitute who set
// Russian is told in Russian that they take over, and an opponent who
// set German is told in German who took over.
func TestSubstitutedInEachPlayersLanguage(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	if out := act(t, r, g, rules.White, "e4"); out.Verdict != Applied {
		t.Fatalf("e4: %s", out.Detail)
	}
	g.Players[rules.White].Language = "de"
	g.Players[rules.Black] = Player{Address: "zoe@example.test", Secret: "zzzzzzzzzz", Language: "ru"}
	mails, err := r.Substituted(g, rules.Black, "bob@example.test", lobbyNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ to, says string }{
		{"zoe@example.test", "Вы занимаете место bob@example.test в этой партии: вы играете чёрными против alice@example.test."},
		{"alice@example.test", "zoe@example.test übernimmt in dieser Partie den Platz von Schwarz (bob@example.test); bob@example.test spielt sie nicht weiter."},
	}
	if len(mails) != len(want) {
		t.Fatalf("mails to %v, want to zoe and alice", mailsTo(Outcome{Mails: mails}))
	}
	for i, w := range want {
		if mails[i].To != w.to || !strings.Contains(norm(textOf(t, mails[i])), norm(w.says)) {
			t.Errorf("mail %d to %s:\n%s\nwant to %s, saying %q", i, mails[i].To, textOf(t, mails[i]), w.to, w.says)
		}
	}
}

// TestWithdrawalMailsInEachReadersLanguage (issue 42): a withdrawal's
// notices reach the opponent and the player each in their language:
// subject, who left and under which rule, each game's fate, the
// crosstable's marks as the reader's crosstable writes them; an English
// opponent's notice stays English.
func TestWithdrawalMailsInEachReadersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	// Seat 1 (a, German) completed 2 of 3: game 3 with d (Russian) runs.
	e := rrEvent(FormatRR, 4, numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4),
		fin(2, 3, "1-0", "resigned"), running(2, 4))...)
	e.Players[0].Language, e.Players[3].Language = "de", "ru"
	mails := r.WithdrawalMails(e, Withdrawal{Seat: 1, Kind: WithdrawnLost, How: ByOrganiser}, lobbyNow)
	tests := []struct {
		to, subject string
		says        []string
	}{
		{"d@example.test", "[club] a@example.test снят с турнира: ваша партия с этим игроком", []string{
			"a@example.test снят организатором с турнира club. Партий сыграно: 2 из 3, не меньше половины:",
			"Ваша партия с этим игроком:\n  партия #3, вы играли чёрными:\n    выиграна вами без игры\n",
			"аннулированная партия отмечена \"-\", а игрок — \"(в)\"",
			"Судья по адресу referee@example.test.",
		}},
		{"a@example.test", "[club] Sie wurden zurückgezogen", []string{
			"Der Veranstalter hat Sie aus club zurückgezogen. Sie hatten 2 von 3 Partien beendet, mindestens die Hälfte:",
			"Ihre Partien:\n  Partie #3 gegen d@example.test, Sie spielten Weiß:\n    kampflos verloren\n",
			"Ihre Gegner werden benachrichtigt, jeder mit einer Mail.",
		}},
	}
	if len(mails) != len(tests) {
		t.Fatalf("mails to %v, want to d and a", mailsTo(Outcome{Mails: mails}))
	}
	for i, tt := range tests {
		m := mails[i]
		if m.To != tt.to || m.Subject != tt.subject {
			t.Errorf("mail %d: to %s, %q; want to %s, %q", i, m.To, m.Subject, tt.to, tt.subject)
		}
		for _, s := range tt.says {
			if !strings.Contains(m.Text, s) && !strings.Contains(norm(m.Text), norm(s)) {
				t.Errorf("mail to %s lacks %q:\n%s", m.To, s, m.Text)
			}
		}
	}
}

// TestLadderNoticesInEachPlayersLanguage (issue 42): the ladder's
// notices to a player who did not write (a challenge not accepted in
// time, a drop for idleness) are in that player's language, the weeks
// with their plural form; a substitute's language is the substitute's.
func TestLadderNoticesInEachPlayersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := club([]string{ann, ben, carol})
	e.Players[0].ReplacedBy, e.Players[0].Language, e.Players[0].SubLanguage = "zoe@example.org", "en", "ru"
	e.Players[1].Language, e.Players[2].Language = "pl", "de"
	e.Ladder.Settings.IdleWeeks = 2
	c := LadderChallenge{ID: 7, Challenger: 3, Challenged: 1, Created: lobbyNow.Add(-8 * Day)}
	mails := append(r.LadderExpiredMails(e, c, lobbyNow), r.LadderDropMail(e, 2, lobbyNow))
	tests := []struct{ to, subject, says string }{
		{carol, "[club] Forderung 7 nicht rechtzeitig angenommen",
			"zoe@example.org hat Ihre Forderung auf club nicht rechtzeitig angenommen: Sie übernehmen den Platz, als hätten Sie gewonnen."},
		{"zoe@example.org", "[club] Вызов 7 не принят вовремя", "Вы не приняли вовремя вызов carol@example.org на лесенке club"},
		{ben, "[club] Spadasz na dół drabinki", "Przez 2 tygodnie nie miałeś partii na drabince club"},
	}
	if len(mails) != len(tests) {
		t.Fatalf("mails to %v", mailsTo(Outcome{Mails: mails}))
	}
	for i, tt := range tests {
		m := mails[i]
		if m.To != tt.to || m.Subject != tt.subject || !strings.Contains(norm(m.Text), norm(tt.says)) {
			t.Errorf("mail %d to %s, %q:\n%s\nwant to %s, %q, saying %q", i, m.To, m.Subject, m.Text, tt.to, tt.subject, tt.says)
		}
	}
}

// TestObserveEventInTheSendersLanguage (issue 42): "observe EVENT" is
// answered in the sender's language, the command to stop quoted as it is.
func TestObserveEventInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{Observers: ObserversOpen})
	e := autumn(EventRunning, dan, carol, erin)
	e.Games = []EventGame{{GameID: 12, White: 1, Black: 2, Status: StatusActive}}
	tests := []struct{ code, subject, says string }{
		{"de", "Sie beobachten das Turnier autumn", "Sie beobachten jetzt das Turnier autumn (Schach, Rundenturnier, 3 Tage pro Zug, gewertet). " +
			"Sie erhalten die Brettmails jeder seiner Partien"},
		{"ru", "Вы следите за турниром autumn", "Его текущие партии: #12; следующий ход в каждой принесёт её доску. " +
			"Отправьте \"unobserve autumn\" на referee@example.test, чтобы прекратить."},
		{"", "You observe the event autumn", "You now observe the event autumn (Chess, round robin, 3 days per move, rated)."},
	}
	for _, tt := range tests {
		lb := Lobby{MayObserve: true, Event: e}
		out := r.Handle(Inbound{Mail: observeMail("eve@example.org", "observe autumn")}, nil, Env{Now: lobbyNow, Lobby: &lb, Language: tt.code})
		if out.Verdict != Applied || len(out.Mails) != 1 {
			t.Fatalf("%q: %s, %q", tt.code, out.Verdict, out.Detail)
		}
		if m := out.Mails[0]; m.Subject != tt.subject || !strings.Contains(norm(m.Text), norm(tt.says)) {
			t.Errorf("%q: %q:\n%s\nwant %q, saying %q", tt.code, m.Subject, m.Text, tt.subject, tt.says)
		}
	}
}

package referee

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/internal/lang"
)

// TestJoinAndWithdrawInTheSendersLanguage (issue 42): the refusals of
// "join EVENT" to a player of it or to one outside its rating limits
// (the limits and the reason too), the request to prove a new address's
// entry, and "withdraw EVENT" (the question with its rule, the
// confirmation with each game's fate, the refusals) are written in the
// sender's language; commands quoted stay English. The English texts are
// TestJoinEvent's and TestWithdrawCommand's.
func TestJoinAndWithdrawInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	limited := autumn(EventOpen, dan)
	limited.Limits = RatingLimits{MinRating: 1600, MinReliability: 0.9}
	// carol is seat 1 of four; dan 2, erin 3, fay 4.
	lost := autumn(EventRunning, carol, dan, erin, fay)
	lost.Games = numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "1/2-1/2", "agreed"), running(1, 4), fin(2, 3, "1-0", "resigned"))
	annulled := autumn(EventRunning, carol, dan, erin, fay)
	annulled.Games = numbered(fin(1, 2, "1-0", "checkmate"), running(3, 1), running(1, 4), EventGame{White: 2, Black: 3, Status: StatusActive})
	withdraw := &LobbyChange{Event: &EventChange{Name: "autumn", Withdraw: carol}}
	const asked = `lobby: carol@example.org sent "withdraw"`
	tests := []eventCase{
		{name: "join a running event one plays in, German", lang: "de", line: "join autumn", event: autumn(EventRunning, carol, dan),
			verdict: Rejected, detail: "event: join autumn: carol@example.org plays in it, running",
			says: []string{"Sie spielen bereits in autumn; das Turnier läuft.", `Senden Sie "standings autumn" für den aktuellen Stand.`}},
		{name: "join a finished event one played in, Russian", lang: "ru", line: "join autumn", event: autumn(EventFinished, carol, dan),
			verdict: Rejected, detail: "event: join autumn: carol@example.org plays in it, finished",
			says: []string{"Вы уже играете в autumn; турнир закончился."}},
		{name: "outside the rating limits, German", lang: "de", line: "join autumn", event: limited,
			verdict: Rejected, detail: "event: join autumn: carol@example.org outside its rating limits",
			says: []string{"Sie können autumn nicht beitreten: Ihre Wertungszahl in Schach ist 1500?, und das Turnier autumn verlangt mindestens 1600.",
				"Der Veranstalter nimmt Anmeldungen per Mail nur von Spielern mit Wertungszahl mindestens 1600, Zuverlässigkeit mindestens 90% " +
					`in dieser Variante an. "rating" zeigt Ihre Wertungen;`}},
		{name: "outside the rating limits, Russian", lang: "ru", line: "join autumn", event: limited,
			verdict: Rejected, detail: "event: join autumn: carol@example.org outside its rating limits",
			says: []string{"Записаться в autumn нельзя: ваш рейтинг в игре «Шахматы» — 1500?, а турнир autumn требует не ниже 1600.",
				"у которых в этой игре рейтинг не ниже 1600, надёжность не ниже 90%."}},
		{name: "a new address is asked to prove its entry, Russian", lang: "ru", line: "join autumn", event: autumn(EventOpen, dan),
			lobby: func(lb *Lobby) { lb.Seen = false }, verdict: Answered,
			detail: "event autumn: join from carol@example.org, an address not seen here, waits for its proof", subject: "Подтвердите запись в autumn",
			says: []string{"Судья по адресу referee@example.test получил заявку на запись этого адреса, который ещё здесь не играл, " +
				"в autumn (Шахматы, круговой турнир, ",
				"Если вы об этом не просили, не обращайте внимания на это письмо: ничего не произойдёт, и вы не будете записаны."}},
		{name: "withdraw asked, German", lang: "de", line: "withdraw autumn", event: lost, verdict: Answered, detail: asked,
			subject: "Aus autumn zurückziehen?",
			says: []string{"Sie haben 2 Ihrer 3 Partien beendet, mindestens die Hälfte: Ihre unbeendeten Partien wären verloren, " +
				"und Ihre bisherigen Ergebnisse blieben bestehen.",
				`Um sich zurückzuziehen, senden Sie "withdraw autumn confirm". Alles andere lässt Sie im Turnier.`}},
		{name: "withdraw asked in a knockout, Polish", lang: "pl", line: "withdraw autumn", event: koOf(autumn(EventRunning, carol, dan)),
			verdict: Answered, detail: asked, subject: "Wycofać się z autumn?",
			says: []string{"Jeśli wycofasz się teraz, obowiązuje ta zasada: "}},
		{name: "withdraw confirmed, Russian", lang: "ru", line: "withdraw autumn confirm", event: annulled, verdict: Applied,
			detail: "event autumn: carol@example.org withdrew", change: withdraw, subject: "Вы выбыли из autumn",
			says: []string{"Вы завершили 1 из 3 своих партий, меньше половины: все ваши партии аннулируются и исключаются из подсчёта очков.",
				"Ваши партии:\n", "Ваши соперники получат извещение, каждый одним письмом."}},
		{name: "withdraw confirmed, German", lang: "de", line: "withdraw autumn confirm", event: lost, verdict: Applied,
			detail: "event autumn: carol@example.org withdrew", change: withdraw, subject: "Sie haben sich aus autumn zurückgezogen",
			says: []string{"Sie haben 2 Ihrer 3 Partien beendet, mindestens die Hälfte: Ihre unbeendeten Partien sind verloren, " +
				"und Ihre bisherigen Ergebnisse bleiben bestehen.", "Ihre Partien:\n"}},
		{name: "withdraw from an event not started, German", lang: "de", line: "withdraw autumn", event: autumn(EventOpen, carol, dan),
			verdict: Rejected, detail: "event: withdraw autumn: not started",
			says: []string{"autumn hat noch nicht begonnen: Es gibt nichts, woraus Sie sich zurückziehen könnten.",
				`Senden Sie "leave autumn", um es vor dem Beginn zu verlassen.`}},
		{name: "withdraw from an event over, Polish", lang: "pl", line: "withdraw autumn", event: autumn(EventFinished, carol, dan),
			verdict: Rejected, detail: "event: withdraw autumn: finished",
			says: []string{"autumn już się zakończył: nie ma się z czego wycofywać.", `Wyślij "standings autumn", aby zobaczyć tabelę.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// koOf is e as a knockout.
func koOf(e *Event) *Event {
	e.Format = FormatKO
	e.Games = numbered(EventGame{Round: 1, Board: 1, Leg: 1, White: 1, Black: 2, Status: StatusActive})
	return e
}

// TestObserveEventRefusalsInTheSendersLanguage (issue 42): "observe
// EVENT" refused (an event over, one observed already, too many games,
// with their plurals) and "unobserve EVENT" (answered, and refused) are
// written in the sender's language, the subject too; the commands quoted
// stay English. The English texts are TestObserveEventCommand's.
func TestObserveEventRefusalsInTheSendersLanguage(t *testing.T) {
	const eve = "eve@example.net"
	event := func(status EventStatus, running int) *Event {
		e := &Event{Name: "autumn", Variant: "chess", Format: FormatRR, Status: status}
		for i := range 3 {
			st := StatusFinished
			if i < running {
				st = StatusActive
			}
			e.Games = append(e.Games, EventGame{GameID: int64(20 + i), Round: i + 1, Board: 1, White: 1, Black: 2, Status: st})
		}
		return e
	}
	for _, tt := range []struct {
		name, code, line string
		max              int // the games one may observe; 0 for the default (20)
		lobby            Lobby
		want             Verdict
		subject          string
		says             []string
	}{
		{"over, German", "de", "observe autumn", 0, Lobby{MayObserve: true, Event: event(EventFinished, 0)}, Rejected, "", []string{
			`Ihre Anfrage "observe autumn" wurde nicht ausgeführt: das Turnier autumn ist beendet: Es stehen keine Partien mehr aus.`,
			`Senden Sie "standings autumn" für die Abschlusstabelle.`}},
		{"policy, German", "de", "observe autumn", 0, Lobby{Event: event(EventRunning, 2)}, Rejected, "", []string{
			`Ihre Anfrage "observe autumn" wurde nicht ausgeführt: Der Veranstalter hat Ihre Adresse aus dem Kreis derer entfernt`,
			`Wenden Sie sich an den Veranstalter ("referee player add ADDRESS" lässt Sie wieder zu).`}},
		{"again, Russian", "ru", "observe autumn", 0, Lobby{MayObserve: true, EventObserved: true, Event: event(EventRunning, 2)}, Rejected, "", []string{
			`Ваш запрос "observe autumn" не выполнен: вы уже следите за турниром autumn.`,
			`Отправьте "unobserve autumn" на referee@example.test, чтобы прекратить.`}},
		{"limit, Russian", "ru", "observe autumn", 0, Lobby{MayObserve: true, Observing: 19, Event: event(EventRunning, 2)}, Rejected, "", []string{
			"вы уже следите за 19 идущими партиями, а в турнире autumn идут 2 партии: вместе это больше разрешённых одновременно 20.",
			`Сначала отправьте "unobserve GAME" для части своих партий`}},
		{"limit, Polish", "pl", "observe autumn", 3, Lobby{MayObserve: true, Observing: 1, Event: event(EventRunning, 3)}, Rejected, "", []string{
			"obserwujesz już 1 trwającą partię, a w turnieju autumn trwają 3 partie: razem więcej niż dozwolone naraz 3."}},
		{"limit, German", "de", "observe autumn", 0, Lobby{MayObserve: true, Observing: 19, Event: event(EventRunning, 2)}, Rejected, "", []string{
			"Sie beobachten bereits 19 laufende Partien, und im Turnier autumn laufen 2 Partien: zusammen mehr als die 20, die gleichzeitig erlaubt sind."}},
		{"limit, English", "", "observe autumn", 3, Lobby{MayObserve: true, Observing: 1, Event: event(EventRunning, 3)}, Rejected, "", []string{
			`Your request "observe autumn" was not carried out: you observe 1 running game already, and the event autumn has 3 games running: ` +
				"together more than the 3 allowed at once."}},
		{"unobserve, German", "de", "unobserve autumn", 0, Lobby{EventObserved: true, Event: event(EventRunning, 1)}, Applied,
			"Sie beobachten das Turnier autumn nicht mehr", []string{
				`Sie erhalten keine Mails mehr über die Partien des Turniers autumn. Senden Sie "observe autumn" an referee@example.test, um es wieder zu verfolgen.`}},
		{"unobserve not observed, Polish", "pl", "unobserve autumn", 0, Lobby{Event: event(EventRunning, 1)}, Rejected, "", []string{
			"Nie obserwujesz turnieju autumn, więc nie ma czego wyłączać.",
			`Aby przestać dostawać wiadomości o jednej partii, wyślij "unobserve" i jej numer`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lb := tt.lobby
			lb.Active = map[string]int{}
			r := lobbyReferee(t, LobbyConfig{Observers: ObserversOpen, MaxObserved: tt.max})
			out := r.Handle(Inbound{Mail: observeMail(eve, tt.line)}, nil, Env{Now: lobbyNow, Lobby: &lb, Language: tt.code})
			if out.Verdict != tt.want || len(out.Mails) != 1 {
				t.Fatalf("%s (%s), %d mails; want %s and one mail", out.Verdict, out.Detail, len(out.Mails), tt.want)
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

// TestLadderCommandInTheSendersLanguage (issue 42): the "ladder" command's
// answers (a challenge, an accept) and refusals, with the reasons a
// challenge is refused and their plurals, are written in the sender's
// language; the commands quoted stay English. The English texts are
// TestLadderCommand's.
func TestLadderCommandInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	five := []string{ann, ben, carol, dan, erin} // places 1 to 5
	pending := func(id int64, challenger, target int) LadderChallenge {
		return LadderChallenge{ID: id, Challenger: challenger, Challenged: target, Created: lobbyNow.Add(time.Duration(id-10) * time.Hour)}
	}
	reachOne := club(five)
	reachOne.Ladder.Settings.Reach = 1
	tests := []eventCase{
		{name: "a challenge, German", lang: "de", line: "ladder club ann@example.org", event: club(five), verdict: Applied,
			detail: "ladder club: carol@example.org challenges ann@example.org", subject: "Sie haben ann@example.org gefordert",
			change: &LobbyChange{Ladder: &LadderChange{Event: "club", Challenger: 3, Challenged: 1}}, mails: 2,
			says: []string{"Sie haben ann@example.org auf club gefordert. Die Annahme ist bis Mo, 30. Nov. 2026 10:00 UTC möglich;"}},
		{name: "beyond the reach, Russian", lang: "ru", from: erin, line: "ladder club ann@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: ann@example.org is 4 places above you (place 1, you are 5), and this ladder lets you challenge at most 3 places up",
			says: []string{"Сейчас вызвать ann@example.org нельзя: ann@example.org стоит выше вас (разница в местах: 4; место 1, ваше — 5), " +
				"а эта лесенка позволяет вызывать не выше чем на 3 места вверх.",
				`"standings club" показывает лесенку и кто с кем играет.`}},
		{name: "beyond a reach of one, German", lang: "de", line: "ladder club ann@example.org", event: reachOne, verdict: Rejected,
			detail: "ladder club: ann@example.org is 2 places above you (place 1, you are 3), and this ladder lets you challenge at most 1 places up",
			says: []string{"Sie können ann@example.org jetzt nicht fordern: ann@example.org steht 2 Plätze über Ihnen (Platz 1, Sie sind 3), " +
				"und auf dieser Rangliste dürfen Sie höchstens 1 Platz nach oben fordern."}},
		{name: "below, Polish", lang: "pl", line: "ladder club dan@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: dan@example.org is below you (place 4, you are 3): challenge players above you",
			says:   []string{"Nie możesz teraz wyzwać dan@example.org: dan@example.org jest niżej od Ciebie (miejsce 4, Ty jesteś na 3): wyzywaj graczy powyżej."}},
		{name: "the sender at the most challenges, Russian", lang: "ru", line: "ladder club ann@example.org",
			event: club(five, pending(1, 3, 2), pending(2, 4, 3)), verdict: Rejected,
			detail: "ladder club: you have 2 challenges pending or in play, the most this ladder allows",
			says:   []string{"у вас 2 вызова ждут ответа или играются — больше эта лесенка не позволяет."}},
		{name: "no address, German", lang: "de", line: "ladder club", event: club(five), verdict: Rejected, detail: "ladder: no address",
			says: []string{`"ladder club" braucht, wen Sie fordern, oder "accept".`,
				`Senden Sie "ladder club their@address", um zu fordern, oder "ladder club accept", um eine Forderung an Sie anzunehmen;`}},
		{name: "accept, Russian", lang: "ru", from: ann, line: "ladder club accept", event: club(five, pending(7, 3, 1)), verdict: Applied,
			detail: "ladder club: ann@example.org accepts challenge 7", subject: "Вы приняли вызов",
			change: &LobbyChange{Ladder: &LadderChange{Event: "club", Accept: 7}},
			says:   []string{"Вы приняли вызов carol@example.org на club. Одно письмо назовёт партию, затем придёт первое письмо партии."}},
		{name: "nothing to accept, Polish", lang: "pl", from: dan, line: "ladder club accept", event: club(five), verdict: Rejected,
			detail: "ladder club: nothing to accept",
			says:   []string{"Żadne wyzwanie skierowane do Ciebie na club nie czeka na Twoją odpowiedź.", `"standings club" pokazuje drabinkę.`}},
		{name: "not on the ladder, German", lang: "de", from: "gil@example.org", line: "ladder club ann@example.org", event: club(five),
			verdict: Rejected, detail: "ladder club: gil@example.org not on it",
			says: []string{"Sie stehen nicht auf der Rangliste club, oder sie läuft nicht.",
				`Senden Sie "join club", um unten einzusteigen, und fordern Sie dann.`}},
		{name: "no ladder, Russian", lang: "ru", line: "ladder autumn dan@example.org", event: autumn(EventRunning, carol, dan, erin),
			verdict: Rejected, detail: "ladder: autumn is a round robin",
			says: []string{"autumn — турнир в формате «круговой турнир», а не лесенка: вызывать в нём некого."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestLadderStandingsInTheReadersLanguage (issue 42): the ladder's
// standings name who challenges and plays whom, and close with its
// rules, in the reader's language (the plurals of the reach, the days to
// accept and the idle weeks too); English is StandingsText's.
func TestLadderStandingsInTheReadersLanguage(t *testing.T) {
	accepted := LadderChallenge{ID: 1, Challenger: 3, Challenged: 2, Created: lobbyNow.Add(-48 * time.Hour)}
	at := lobbyNow.Add(-24 * time.Hour)
	accepted.Accepted = &at
	e := club([]string{ann, ben, carol, dan}, accepted, LadderChallenge{ID: 2, Challenger: 4, Challenged: 1, Created: lobbyNow})
	e.Ladder.Settings.IdleWeeks, e.Ladder.Settings.AcceptDays = 4, 1
	cat := lobbyReferee(t, LobbyConfig{}).Catalog()
	tests := []struct {
		code string
		says []string
	}{
		{"de", []string{
			"  1  ann@example.org  (gefordert von dan@example.org)\n  2  ben@example.org  (spielt gegen carol@example.org)\n",
			`Fordern Sie einen Spieler höchstens 3 Plätze über Ihnen mit "ladder club ADDRESS"; der Geforderte nimmt mit ` +
				`"ladder club accept" innerhalb von 1 Tag an, oder er verliert die Forderung. Eine Forderung besteht aus einer Partie.`,
			"Wer 4 Wochen lang keine Ranglistenpartie hat, fällt ans Ende.",
		}},
		{"ru", []string{
			"  4  dan@example.org  (вызывает ann@example.org)\n",
			`Вызывайте игрока не выше чем на 3 места над вами командой "ladder club ADDRESS"; вызванный принимает вызов командой ` +
				`"ladder club accept" в течение 1 дня, иначе проигрывает его. Вызов — это одна партия.`,
			"Игрок без партий на лесенке в течение 4 недель опускается в самый низ.",
		}},
		{"en", []string{e.StandingsText(),
			"  3  carol@example.org  (playing ben@example.org)\n  4  dan@example.org  (challenges ann@example.org)\n",
			`Challenge a player at most 3 places above you with "ladder club ADDRESS"; the challenged accepts with "ladder club accept" ` +
				"within 1 days, or loses the challenge. A challenge is one game.",
			"A player without a ladder game for 4 weeks drops to the bottom.",
		}},
	}
	for _, tt := range tests {
		got := e.StandingsIn(cat.Printer(tt.code))
		for _, s := range tt.says {
			if !strings.Contains(got, s) && !strings.Contains(norm(got), norm(s)) {
				t.Errorf("%s: the standings lack %q:\n%s", tt.code, s, got)
			}
		}
	}
}

// TestTeamCommandsInTheSendersLanguage (issue 42): a captain's "replace"
// (answered, and refused) and "join EVENT TEAM" (the request, and the
// refusal without a team) are written in the sender's language; the
// commands quoted stay English. The English texts are TestCaptainReplace's
// and TestJoinEvent's.
func TestTeamCommandsInTheSendersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	const zoe = "zoe@example.org"
	open := cup()
	open.Status, open.Entry, open.Games = EventOpen, "open", nil
	finished := cup()
	finished.Status = EventFinished
	tests := []eventCase{
		{name: "replace, German", lang: "de", from: dan, line: "replace cup erin@example.org zoe@example.org", event: cup(), verdict: Applied,
			detail: "event cup: captain dan@example.org replaces erin@example.org with zoe@example.org", subject: "Sie haben erin@example.org ersetzt",
			change: &LobbyChange{Replace: &ReplaceChange{Event: "cup", Seat: 2, New: zoe}},
			says: []string{"zoe@example.org übernimmt Brett 2 von Team Lions von erin@example.org; beide werden benachrichtigt, " +
				"die Gegner ebenfalls, jede Partie mit ihrem Brett."}},
		{name: "replace after the first move, Russian", lang: "ru", from: dan, line: "replace cup erin@example.org zoe@example.org",
			event: cup(0, 0, 2, 0), verdict: Rejected, detail: "replace cup: erin@example.org has started",
			says: []string{"erin@example.org уже начал играть (партия #23): доску можно передать только до первого хода.",
				`Обратитесь к организатору ("referee event replace"), если этому игроку нужно уйти.`}},
		{name: "replace by no captain, Polish", lang: "pl", from: erin, line: "replace cup erin@example.org zoe@example.org", event: cup(),
			verdict: Rejected, detail: "replace cup: erin@example.org is no captain",
			says: []string{"Tylko kapitan drużyny (pierwszy gracz do niej zgłoszony) może pocztą zastąpić gracza w cup.", "Zwróć się do swojego kapitana."}},
		{name: "replace in an event over, German", lang: "de", from: dan, line: "replace cup erin@example.org zoe@example.org", event: finished,
			verdict: Rejected, detail: "replace cup: finished", says: []string{"cup ist beendet.", "Es gibt nichts zu ersetzen."}},
		{name: "replace without addresses, Russian", lang: "ru", from: dan, line: "replace cup erin@example.org", event: cup(),
			verdict: Rejected, detail: "replace: two addresses needed",
			says: []string{`"replace" требует указать игрока, который уходит, и того, кто приходит.`,
				`Отправьте "replace cup OLD NEW": OLD — адрес игрока вашей команды, который ещё не начал, NEW — адрес того, кто займёт его доску.`}},
		{name: "replace in no team event, German", lang: "de", from: dan, line: "replace autumn erin@example.org zoe@example.org",
			event: autumn(EventRunning, dan, erin), verdict: Rejected, detail: "replace: not a team event",
			says: []string{"autumn ist ein Turnier im Format Rundenturnier: Nur der Kapitän eines Teams ersetzt per Mail einen Spieler."}},
		{name: "join a team, Russian", lang: "ru", line: "join cup tigers", event: open, verdict: Applied,
			detail: "event cup: carol@example.org asks to play for Tigers", subject: "Ваша заявка в команду Tigers",
			change: &LobbyChange{Event: &EventChange{Name: "cup", Join: carol, Team: "Tigers"}},
			says:   []string{"Ваша заявка играть за команду Tigers в cup (Шахматы, ", "ждёт одобрения организатора"}},
		{name: "join no team, German", lang: "de", line: "join cup", event: open, verdict: Rejected, detail: `event: join cup: no team ""`,
			says: []string{"cup wird von Teams gespielt (Lions, Tigers): Geben Sie an, für welches Sie spielen möchten.",
				`Senden Sie "join cup TEAM", z. B. "join cup Lions".`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}
}

// TestTeamRequestNoticeInThePlayersLanguage (issue 42): the organiser's
// decision on a team request reaches the player in their language,
// subject and text; in English it is the mail Notice wrote before, its
// Message-ID too.
func TestTeamRequestNoticeInThePlayersLanguage(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	tests := []struct {
		code     string
		approved bool
		subject  string
		text     string
	}{
		{"de", true, "[cup] Sie spielen für das Team Tigers", "Der Veranstalter von cup hat Sie in das Team Tigers aufgenommen, an Brett 3."},
		{"ru", false, "[cup] Ваша заявка в команду Tigers отклонена", "Организатор cup не принял вас в команду Tigers."},
		{"pl", true, "[cup] Grasz w drużynie Tigers", "Organizator cup przyjął Cię do drużyny Tigers, na szachownicę 3."},
	}
	for _, tt := range tests {
		m := r.TeamRequestNotice(carol, tt.code, "cup", "Tigers", 3, tt.approved, lobbyNow)
		if m.Kind != KindNotice || m.To != carol || m.Subject != tt.subject || !strings.Contains(norm(m.Text), norm(tt.text)) {
			t.Errorf("%s: %s to %s, %q:\n%s\nwant a notice to %s, %q, saying %q", tt.code, m.Kind, m.To, m.Subject, m.Text, carol, tt.subject, tt.text)
		}
	}
	for _, approved := range []bool{true, false} {
		subject, text := "[cup] Your request to join team Tigers is declined", "The organiser of cup did not take you into team Tigers."
		if approved {
			subject, text = "[cup] You play for team Tigers", "The organiser of cup took you into team Tigers, on board 3. "+
				"Your games start when the event starts; a mail lists them then."
		}
		got, want := r.TeamRequestNotice(carol, "", "cup", "Tigers", 3, approved, lobbyNow), r.notice(carol, subject, text, lobbyNow)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("approved %v: in English\n%+v\nwant\n%+v", approved, got, want)
		}
	}
}

// TestTeamStandingsInTheReadersLanguage (issue 42): a team event's
// standings in the reader's language: the table's headings, wider where a
// heading is (counting characters, not bytes), each match and each
// board's game, the scoring sentence and a shared first place; English
// is the text it was.
func TestTeamStandingsInTheReadersLanguage(t *testing.T) {
	e := cup()
	e.Games[0].Status, e.Games[0].Result = StatusFinished, "1-0"
	e.Games[1].Status, e.Games[1].Result = StatusFinished, "1-0"
	e.Games[2].Status, e.Games[2].Result = StatusFinished, "1/2-1/2"
	e.Games[3].Status, e.Games[3].Result = StatusFinished, "1/2-1/2"
	e.Status = EventFinished
	running := cup()
	running.Games[3].Status = StatusAborted
	cat := lobbyReferee(t, LobbyConfig{}).Catalog()
	tests := []struct {
		code string
		e    *Event
		says []string
	}{
		{"en", e, []string{
			"  Rank  Team                    MP      GP  Matches\n" +
				"     1  Lions                    1       2  1\n" +
				"     1  Tigers                   1       2  1\n\n" +
				"Round 1, match 1: Lions 2 - 2 Tigers\n" +
				"  board 1, game 1: dan@example.org - fay@example.org  1-0\n",
			"The first place is shared: team Lions and team Tigers.\n",
			"a match won counts 2 match points (MP), a drawn one 1;",
		}},
		{"en", running, []string{
			"Round 1, match 1: Lions 0 - 0 Tigers (under way)\n" +
				"  board 1, game 1: dan@example.org - fay@example.org  running\n",
			"  board 2, game 2: erin@example.org - gil@example.org  aborted\n",
		}},
		{"de", e, []string{
			"  Rang  Team                    MP      BP  Wettkämpfe\n" +
				"     1  Lions                    1       2  1\n" +
				"     1  Tigers                   1       2  1\n\n" +
				"Runde 1, Wettkampf 1: Lions 2 - 2 Tigers\n" +
				"  Brett 1, Partie 1: dan@example.org - fay@example.org  1-0\n",
			"Der erste Platz wird geteilt: Team Lions und Team Tigers.\n",
			"ein gewonnener Wettkampf zählt 2 Mannschaftspunkte (MP), ein unentschiedener 1;",
		}},
		{"ru", running, []string{
			"  Место  Команда                 КО      ИО  Матчи\n" +
				"      1  Lions                    0       0  0\n",
			"Тур 1, матч 1: Lions 0 - 0 Tigers (идёт)\n" +
				"  доска 1, партия 1: dan@example.org - fay@example.org  идёт\n",
			"  доска 2, партия 2: erin@example.org - gil@example.org  прервана\n",
		}},
	}
	for _, tt := range tests {
		got := tt.e.StandingsIn(cat.Printer(tt.code))
		for _, s := range tt.says {
			if !strings.Contains(got, s) && !strings.Contains(norm(got), norm(s)) {
				t.Errorf("%s: the standings lack %q:\n%s", tt.code, s, got)
			}
		}
	}
}

// TestKnockoutTextsInTheReadersLanguage (issue 42): a knockout's bracket
// (each round, each match, its winner and how) and the match note after a
// game are written in the reader's language, how a tied match was decided
// too (more wins with Black, a lot with its roll and name), while the
// stored How stays English (the audit log's and the web page's); English
// is BracketText and MatchNote.
func TestKnockoutTextsInTheReadersLanguage(t *testing.T) {
	cat := lobbyReferee(t, LobbyConfig{}).Catalog()
	points := tiedMatch(DeciderMatch, "1-0", "1/2-1/2")
	points.Players[1].Withdrawn = WithdrawnLost
	lot := tiedMatch(DeciderLot, "1-0", "1-0")
	// As TestBlackWinsDecider: seats 1 and 2 tie in round 2, seat 2 won
	// with Black in round 1.
	black := tiedMatch(DeciderBlack, "1-0", "1-0")
	black.Players = append(black.Players, EventPlayer{Seat: 3, Address: "c@x.test"}, EventPlayer{Seat: 4, Address: "d@x.test"})
	for i := range black.Games {
		black.Games[i].Round = 2
	}
	black.Games = append(black.Games, EventGame{GameID: 3, Round: 1, Board: 1, Leg: 1, White: 3, Black: 2, Status: StatusFinished, Result: "0-1"})
	more := tiedMatch(DeciderMatch, "1-0", "1-0")
	roll := lot.Lot(1, 1)
	tests := []struct {
		name, code string
		e          *Event
		got        func(p *lang.Printer, e *Event) string
		want       string
	}{
		{"bracket, German", "de", points, bracket, "Runde 1:\n  Wettkampf 1: a@x.test - b@x.test (z)  1.5-0.5\n           -> a@x.test (durch Rückzug)\n"},
		{"bracket, Russian", "ru", more, bracket, "Тур 1:\n  матч 1: a@x.test - b@x.test  1-1\n           -> ничья: ещё две партии\n"},
		{"bracket, English", "en", more, bracket, more.BracketText()},
		{"bracket by lot, Polish", "pl", lot, bracket, fmt.Sprintf("(remis, losowanie: rzut %d z cup/1/1, nieparzysty dla gracza wymienionego jako pierwszy)", roll)},
		{"note, German", "de", tiedMatch(DeciderMatch, "1-0", "1/2-1/2"), note(2),
			"Runde 1, Wettkampf 1 von cup: a@x.test 1.5, b@x.test 0.5. a@x.test gewinnt den Wettkampf (nach Punkten) und damit cup."},
		{"note, English", "en", tiedMatch(DeciderMatch, "1-0", "1/2-1/2"), note(2), tiedMatch(DeciderMatch, "1-0", "1/2-1/2").MatchNote(2)},
		{"note, more wins with Black, Russian", "ru", black, note(2), "(ничья, больше побед чёрными: 1 против 0)"},
		{"note, tied, Polish", "pl", more, note(2), "Mecz jest remisowy po 2 partiach: rozstrzygną go jeszcze dwie partie ze zmianą kolorów."},
	}
	for _, tt := range tests {
		if got := tt.got(cat.Printer(tt.code), tt.e); !strings.Contains(got, tt.want) && !strings.Contains(norm(got), norm(tt.want)) {
			t.Errorf("%s: %q lacks %q", tt.name, got, tt.want)
		}
		for _, round := range tt.e.Matches() {
			for _, m := range round {
				if m.How != "" && !strings.HasPrefix(m.How, "on points") && !strings.HasPrefix(m.How, "by withdrawal") && !strings.HasPrefix(m.How, "tied, ") {
					t.Errorf("%s: How is %q, not English", tt.name, m.How)
				}
			}
		}
	}
}

// bracket is e's bracket in p's language.
func bracket(p *lang.Printer, e *Event) string { return e.BracketTextIn(p) }

// note is the match note after game id, in p's language.
func note(id int64) func(p *lang.Printer, e *Event) string {
	return func(p *lang.Printer, e *Event) string { return e.MatchNoteIn(p, id) }
}

// TestLadderResultNoteInTheReadersLanguage (issue 42): what the end of a
// challenge's last game did to the ladder, in the reader's language: the
// challenger who scored more takes the place, or the challenged keeps it;
// English is MatchNote's.
func TestLadderResultNoteInTheReadersLanguage(t *testing.T) {
	cat := lobbyReferee(t, LobbyConfig{}).Catalog()
	accepted := lobbyNow.Add(-Day)
	challenge := func(result string) *Event {
		e := club([]string{ann, ben, carol}, LadderChallenge{ID: 1, Challenger: 3, Challenged: 1, Created: lobbyNow.Add(-2 * Day), Accepted: &accepted})
		e.Games = []EventGame{{GameID: 31, Round: 1, Leg: 1, White: 3, Black: 1, Status: StatusFinished, Result: result}}
		return e
	}
	tests := []struct {
		code, result, want string
	}{
		{"de", "1-0", "carol@example.org hat die Forderung gewonnen und übernimmt Platz 1 von club."},
		{"ru", "0-1", "ann@example.org сохраняет место 1 в club: вызвавший не набрал больше очков."},
		{"en", "1-0", "carol@example.org won the challenge and takes place 1 of club."},
		{"en", "1/2-1/2", "ann@example.org keeps place 1 of club: the challenger did not score more."},
	}
	for _, tt := range tests {
		e := challenge(tt.result)
		if got := e.MatchNoteIn(cat.Printer(tt.code), 31); got != tt.want {
			t.Errorf("%s, %s: %q, want %q", tt.code, tt.result, got, tt.want)
		}
		if tt.code == "en" {
			if got := e.MatchNote(31); got != tt.want {
				t.Errorf("MatchNote, %s: %q, want %q", tt.result, got, tt.want)
			}
		}
	}
}

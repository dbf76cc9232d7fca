package referee

import (
	"strings"
	"testing"
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
			says: []string{"Sie spielen bereits in autumn, und es läuft.", `Senden Sie "standings autumn" für den aktuellen Stand.`}},
		{name: "join a finished event one played in, Russian", lang: "ru", line: "join autumn", event: autumn(EventFinished, carol, dan),
			verdict: Rejected, detail: "event: join autumn: carol@example.org plays in it, finished",
			says: []string{"Вы уже играете в autumn, и он закончился."}},
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

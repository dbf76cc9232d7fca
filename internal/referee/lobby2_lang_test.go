package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestReminderInTheReadersLanguage (issue 42): the clock's reminder is
// written in the language of the player it reminds: its headline with
// the time left and the deadline in their words, and its subject.
func TestReminderInTheReadersLanguage(t *testing.T) {
	tests := []struct {
		code, headline, subject string
	}{
		{"en", "Reminder: it is your move in game #5, and your time runs out in 18h (Wed 4 Nov 12:00 UTC).", "[chess #5] Reminder: your move"},
		{"de", "Erinnerung: In Partie #5 sind Sie am Zug, und Ihre Bedenkzeit läuft in 18 Std. ab (Mi, 4. Nov. 12:00 UTC).", "[chess #5] Erinnerung: Sie sind am Zug"},
		{"ru", "Напоминание: в партии #5 ваш ход, и ваше время истекает через 18 ч (ср, 4 нояб. 12:00 UTC).", "[chess #5] Напоминание: ваш ход"},
		{"pl", "Przypomnienie: w partii #5 jest Twój ruch, a Twój czas upływa za 18 godz. (śr. 4 lis 12:00 UTC).", "[chess #5] Przypomnienie: Twój ruch"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language = tt.code
			t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			c, err := ParseTimeControl("3d")
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = t0
			g.State.Clock = c
			out := r.Tick(g, t0.Add(54*time.Hour))
			if len(out.Mails) != 1 || out.Mails[0].Board == nil {
				t.Fatalf("%d mails (%s)", len(out.Mails), out.Detail)
			}
			ml := out.Mails[0]
			if ml.Board.Headline != tt.headline || ml.Subject != tt.subject {
				t.Errorf("got %q, subject %q\nwant %q, subject %q", ml.Board.Headline, ml.Subject, tt.headline, tt.subject)
			}
		})
	}
}

// TestConditionalNoticesInTheReadersLanguage (issue 42): what a player
// is told of conditional lines, theirs or the opponent's, is in their
// language, the moves in their letters: an answer played at once (the
// opponent's headline), lines used up, lines a move did not foresee, and
// lines cleared by a draw offer.
func TestConditionalNoticesInTheReadersLanguage(t *testing.T) {
	type want struct{ answered, usedUp, deviation, offer string }
	tests := map[string]want{
		"en": {"White answered Nf3 at once (a conditional move).", "Your conditional lines are used up.",
			"Black played d5, which none of your conditional lines foresaw: they are cleared.",
			"White offered a draw with Nf3: your conditional lines are cleared, so that you answer the offer yourself."},
		"de": {"Weiß antwortete sofort mit Sf3 (ein bedingter Zug).", "Ihre bedingten Zeilen sind aufgebraucht.",
			"Schwarz zog d5, was keine Ihrer bedingten Zeilen vorsah: Diese sind nun gelöscht.",
			"Weiß bot mit Sf3 Remis an: Ihre bedingten Zeilen sind gelöscht, damit Sie selbst auf das Angebot antworten."},
		"ru": {"Белые сразу ответили ♘f3 (условный ход).", "Ваши условные строки исчерпаны.",
			"Чёрные сыграли d5, чего не предусматривала ни одна из ваших условных строк: они удалены.",
			"Белые предложили ничью ходом ♘f3: ваши условные строки удалены, чтобы вы сами ответили на предложение."},
	}
	for code, w := range tests {
		t.Run(code, func(t *testing.T) {
			check := func(what, got, want string) {
				t.Helper()
				if !strings.Contains(norm(got), want) {
					t.Errorf("%s: want %q in\n%s", what, want, got)
				}
			}
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			alice, bob := g.Players[rules.White].Address, g.Players[rules.Black].Address
			actMsg(t, r, g, rules.White, "e4", "if e5 Nf3", -1)
			out := actMsg(t, r, g, rules.Black, "e5", "", -1)
			if g.Ply() != 3 {
				t.Fatalf("the conditional answer was not played: %s", out.Detail)
			}
			check("the answer to Black", mailTo(t, out, bob), w.answered)
			check("used up", mailTo(t, out, alice), w.usedUp)

			r, g = newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			actMsg(t, r, g, rules.White, "e4", "if e5 Nf3", -1)
			out = actMsg(t, r, g, rules.Black, "d5", "", -1)
			check("a deviation", mailTo(t, out, alice), w.deviation)

			r, g = newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			actMsg(t, r, g, rules.White, "e4", "", -1)
			actMsg(t, r, g, rules.Black, "e5", "if Nf3 Nc6", -1)
			out = actMsg(t, r, g, rules.White, "Nf3 draw", "", -1)
			if g.DrawOffer == nil {
				t.Fatalf("no draw offer: %s", out.Detail)
			}
			check("a draw offer", mailTo(t, out, bob), w.offer)
		})
	}
}

// said is what a test checks in a mail: its subject, and a sentence its
// text holds (with runs of white space as one space).
type said struct{ subject, says string }

// checkSaid fails t when ml's subject is not w's or its text lacks w's
// sentence.
func checkSaid(t *testing.T, what string, ml Mail, w said) {
	t.Helper()
	if w.subject == "" || w.says == "" {
		t.Fatalf("%s: nothing to check", what)
	}
	text := norm(textOf(t, ml))
	if ml.Board != nil {
		text = norm(ml.Board.Headline + " " + text)
	}
	if ml.Subject != w.subject || !strings.Contains(text, w.says) {
		t.Errorf("%s: subject %q, text\n%s\nwant subject %q and %q", what, ml.Subject, text, w.subject, w.says)
	}
}

// TestVacationBookingsInTheReadersLanguage (issue 42): "vacation from",
// "vacation list" and "vacation cancel" answer and refuse in the
// sender's language, with its dates and its plural of days; the notice
// to the opponent of a booking and the headline when a booked vacation
// begins are in the opponent's language.
func TestVacationBookingsInTheReadersLanguage(t *testing.T) {
	const carol, dave = "carol@example.org", "dave@example.org"
	one := Booking{ID: 3, Start: lobbyNow.Add(10 * Day).Truncate(Day), Days: 5}
	two := Booking{ID: 8, Start: lobbyNow.Add(40 * Day).Truncate(Day), Days: 1}
	tests := []struct {
		name, line string
		bookings   []Booking
		// to is who the checked mail goes to (carol, the sender, or dave,
		// her opponent).
		to   string
		want map[string]said
	}{
		{name: "a bad date", line: "vacation from 2026-13-01 5", to: carol, want: map[string]said{
			"en": {"Re: vacation from 2026-13-01 5", `"2026-13-01" is not a date written as YYYY-MM-DD. Send e.g. "vacation from 2026-12-20 10": 10 days from 20 December (in your time zone, see "timezone").`},
			"de": {"Re: vacation from 2026-13-01 5", `"2026-13-01" ist kein Datum in der Form JJJJ-MM-TT. Schicken Sie z. B. "vacation from 2026-12-20 10": 10 Tage ab dem 20. Dezember (in Ihrer Zeitzone, siehe "timezone").`},
			"ru": {"Re: vacation from 2026-13-01 5", `"2026-13-01" — это не дата вида ГГГГ-ММ-ДД. Отправьте, например, "vacation from 2026-12-20 10": 10 дней с 20 декабря (в вашем часовом поясе, см. "timezone").`},
		}},
		{name: "a day past", line: "vacation from 2026-11-20 5", to: carol, want: map[string]said{
			"en": {"Re: vacation from 2026-11-20 5", `2026-11-20 has begun or is past (it is Mon 23 Nov 10:00 UTC in your time zone).`},
			"de": {"Re: vacation from 2026-11-20 5", `2026-11-20 hat schon begonnen oder ist vorbei (in Ihrer Zeitzone ist es Mo, 23. Nov. 10:00 UTC).`},
			"ru": {"Re: vacation from 2026-11-20 5", `2026-11-20 уже наступило или прошло (в вашем часовом поясе сейчас пн, 23 нояб. 10:00 UTC).`},
		}},
		{name: "booked", line: "vacation from 2026-12-20 1", to: carol, want: map[string]said{
			"en": {"Vacation booked: Sun 20 Dec 2026 for 1 day, until Mon 21 Dec 2026", `To cancel it before it begins, send "vacation cancel" (it is your only booking).`},
			"de": {"Urlaub gebucht: So, 20. Dez. 2026 für 1 Tag, bis Mo, 21. Dez. 2026", `Um ihn vor seinem Beginn zu stornieren, schicken Sie "vacation cancel" (es ist Ihre einzige Buchung).`},
			"ru": {"Отпуск забронирован: вс, 20 дек. 2026 на 1 день, до пн, 21 дек. 2026", `Чтобы отменить его до начала, отправьте "vacation cancel" (это ваша единственная бронь).`},
		}},
		{name: "the opponent's notice", line: "vacation from 2026-12-20 5", to: dave, want: map[string]said{
			"en": {"[chess #17] Your opponent booked a vacation", `Your opponent in game #17 (White) will be on vacation from Sun 20 Dec 00:00 UTC for 5 days: their clock will stop then.`},
			"de": {"[chess #17] Ihr Gegner hat Urlaub gebucht", `Ihr Gegner in Partie #17 (White) ist ab So, 20. Dez. 00:00 UTC für 5 Tage im Urlaub: Seine Uhr hält dann an.`},
			"ru": {"[chess #17] Ваш соперник забронировал отпуск", `Ваш соперник в партии #17 (White) будет в отпуске с вс, 20 дек. 00:00 UTC на 5 дней: его часы тогда остановятся.`},
		}},
		{name: "an overlap", line: "vacation from 2026-12-04 2", bookings: []Booking{one}, to: carol, want: map[string]said{
			"en": {"Re: vacation from 2026-12-04 2", `it overlaps your vacation 3 (Thu 3 Dec 2026, 5 days). Cancel that one first ("vacation cancel 3"), or book other days; "vacation list" lists yours.`},
			"de": {"Re: vacation from 2026-12-04 2", `Der gewünschte Urlaub überschneidet sich mit Ihrem Urlaub 3 (Do, 3. Dez. 2026, 5 Tage). Stornieren Sie zuerst diesen ("vacation cancel 3"), oder buchen Sie andere Tage; "vacation list" listet Ihre auf.`},
			"ru": {"Re: vacation from 2026-12-04 2", `Запрошенный отпуск пересекается с вашим отпуском 3 (чт, 3 дек. 2026, 5 дней). Сначала отмените тот ("vacation cancel 3") или забронируйте другие дни; "vacation list" перечисляет ваши.`},
		}},
		{name: "list", line: "vacation list", bookings: []Booking{one, two}, to: carol, want: map[string]said{
			"en": {"Your vacation", `3 Thu 3 Dec 2026, 5 days, until Tue 8 Dec 2026 (booked) 8 Sat 2 Jan 2027, 1 day, until Sun 3 Jan 2027 (booked)`},
			"de": {"Ihr Urlaub", `3 Do, 3. Dez. 2026, 5 Tage, bis Di, 8. Dez. 2026 (gebucht) 8 Sa, 2. Jan. 2027, 1 Tag, bis So, 3. Jan. 2027 (gebucht)`},
			"ru": {"Ваш отпуск", `3 чт, 3 дек. 2026, 5 дней, до вт, 8 дек. 2026 (забронирован) 8 сб, 2 янв. 2027, 1 день, до вс, 3 янв. 2027 (забронирован)`},
		}},
		{name: "which to cancel", line: "vacation cancel", bookings: []Booking{one, two}, to: carol, want: map[string]said{
			"en": {"Which vacation to cancel?", `"vacation cancel 8" cancels the one from Sat 2 Jan 2027, 1 day`},
			"de": {"Welchen Urlaub stornieren?", `"vacation cancel 8" storniert den ab Sa, 2. Jan. 2027, 1 Tag`},
			"ru": {"Какой отпуск отменить?", `"vacation cancel 8" отменяет отпуск с сб, 2 янв. 2027, 1 день`},
		}},
		{name: "cancelled", line: "vacation cancel 3", bookings: []Booking{one, two}, to: carol, want: map[string]said{
			"en": {"Vacation 3 cancelled", `Your vacation 3 (from Thu 3 Dec 2026, 5 days) is cancelled; its days are free again.`},
			"de": {"Urlaub 3 storniert", `Ihr Urlaub 3 (ab Do, 3. Dez. 2026, 5 Tage) ist storniert; seine Tage sind wieder frei.`},
			"ru": {"Отпуск 3 отменён", `Ваш отпуск 3 (с чт, 3 дек. 2026, 5 дней) отменён; его дни снова свободны.`},
		}},
		{name: "nothing to cancel", line: "vacation cancel", to: carol, want: map[string]said{
			"en": {"Re: vacation cancel", `You are not on vacation in any game with a clock, and you have no vacation booked, so there is nothing to cancel.`},
			"de": {"Re: vacation cancel", `Sie sind in keiner Partie mit Bedenkzeit im Urlaub und haben keinen Urlaub gebucht, also gibt es nichts zu stornieren.`},
			"ru": {"Re: vacation cancel", `Вы не в отпуске ни в одной партии с часами и у вас нет забронированного отпуска, так что отменять нечего.`},
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "ru"} {
			t.Run(tt.name+"/"+code, func(t *testing.T) {
				r := lobbyReferee(t, LobbyConfig{})
				g := carolsGame(t, 17, dave, true)
				g.Players[rules.Black].Language = code
				m := observeMail(carol, tt.line)
				lobby := lobbyIn(map[string]string{dave: code})
				lobby.Games = []*Game{g}
				out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Language: code, Bookings: tt.bookings, Lobby: lobby})
				checkSaid(t, tt.line, onlyMailTo(t, out, tt.to), tt.want[code])
			})
		}
	}
	for code, w := range map[string]said{
		"en": {"[chess #17] Move 1: White to play (Black)", "White's booked vacation has begun: their clock is stopped until Tue 8 Dec 00:00 UTC."},
		"de": {"[chess #17] Zug 1: Weiß am Zug (Schwarz)", "Der gebuchte Urlaub von Weiß hat begonnen: Die Uhr von Weiß steht bis Di, 8. Dez. 00:00 UTC still."},
		"ru": {"[chess #17] Ход 1: ход белых (чёрные)", "Забронированный отпуск белых начался: их часы остановлены до вт, 8 дек. 00:00 UTC."},
	} {
		t.Run("begins/"+code, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			g := carolsGame(t, 17, dave, true)
			g.Players[rules.Black].Language = code
			ng, mails := r.StartBooking(g, rules.White, one, one.Start)
			if ng == nil || len(mails) != 1 {
				t.Fatalf("%d mails", len(mails))
			}
			checkSaid(t, "the vacation begins", mails[0], w)
		})
	}
}

// TestNameAnswersInTheReadersLanguage (issue 42): "name", "name NAME"
// and "name clear" answer and refuse in the sender's language, the
// reason a name is refused with it (and its plural of characters).
func TestNameAnswersInTheReadersLanguage(t *testing.T) {
	const carol = "carol@example.org"
	tests := []struct {
		name, line, current, owner string
		want                       map[string]said
	}{
		{name: "none yet", line: "name", want: map[string]said{
			"en": {"Your name", `You have no name here: others see your address masked, as "ca…@example.org". Send "name" and the name you want, e.g. "name Ann Smith": 2 to 24 characters`},
			"de": {"Ihr Name", `Sie haben hier keinen Namen: Andere sehen Ihre Adresse maskiert, als "ca…@example.org". Schicken Sie "name" und den gewünschten Namen, z. B. "name Ann Smith": 2 bis 24 Zeichen`},
			"ru": {"Ваше имя", `У вас здесь нет имени: другие видят ваш адрес скрытым, как "ca…@example.org". Отправьте "name" и нужное имя, например "name Ann Smith": от 2 до 24 символов`},
		}},
		{name: "an address", line: "name ann@x", want: map[string]said{
			"en": {"Re: name ann@x", `Your name was not changed: "ann@x" holds an @: a name may not be or look like a mail address, which it would show to everyone. A name is 2 to 24 characters: letters, digits, spaces and . - ' _.`},
			"de": {"Re: name ann@x", `Ihr Name wurde nicht geändert: "ann@x" enthält ein @: Ein Name darf keine Mailadresse sein oder wie eine aussehen, denn er würde sie allen zeigen. Ein Name hat 2 bis 24 Zeichen: Buchstaben, Ziffern, Leerzeichen und . - ' _.`},
			"ru": {"Re: name ann@x", `Ваше имя не изменено: "ann@x" содержит @: имя не может быть почтовым адресом или походить на него — иначе оно показало бы его всем. Имя — от 2 до 24 символов: буквы, цифры, пробелы и . - ' _.`},
		}},
		{name: "too short", line: "name A", want: map[string]said{
			"en": {"Re: name A", `Your name was not changed: "A" is 1 character long.`},
			"de": {"Re: name A", `Ihr Name wurde nicht geändert: "A" ist 1 Zeichen lang.`},
			"ru": {"Re: name A", `Ваше имя не изменено: в "A" 1 символ.`},
		}},
		{name: "nothing to clear", line: "name clear", want: map[string]said{
			"en": {"Re: name clear", `You have no name here, so there is none to remove. Others see your address masked.`},
			"de": {"Re: name clear", `Sie haben hier keinen Namen, also gibt es keinen zu entfernen. Andere sehen Ihre Adresse maskiert.`},
			"ru": {"Re: name clear", `У вас здесь нет имени, так что удалять нечего. Другие видят ваш адрес скрытым.`},
		}},
		{name: "taken", line: "name Ann Smith", owner: "ann@example.org", want: map[string]said{
			"en": {"Re: name Ann Smith", `Your name was not changed: another player here is called "Ann Smith". Choose another, e.g. with your initial or your town ("name Ann Smith B.").`},
			"de": {"Re: name Ann Smith", `Ihr Name wurde nicht geändert: Ein anderer Spieler hier heißt bereits "Ann Smith". Wählen Sie einen anderen, z. B. mit Ihrer Initiale oder Ihrem Ort ("name Ann Smith B.").`},
			"ru": {"Re: name Ann Smith", `Ваше имя не изменено: другого игрока здесь уже зовут "Ann Smith". Выберите другое, например с вашим инициалом или городом ("name Ann Smith B.").`},
		}},
		{name: "chosen", line: "name Ann Smith", want: map[string]said{
			"en": {"Your name: Ann Smith", `Your name is now "Ann Smith". Others see it instead of your address`},
			"de": {"Ihr Name: Ann Smith", `Ihr Name ist jetzt "Ann Smith". Andere sehen ihn statt Ihrer Adresse`},
			"ru": {"Ваше имя: Ann Smith", `Ваше имя теперь "Ann Smith". Другие видят его вместо вашего адреса`},
		}},
		{name: "removed", line: "name clear", current: "Ann Smith", want: map[string]said{
			"en": {"Your name is removed", `Your name "Ann Smith" is removed: others see your address masked again, as "ca…@example.org".`},
			"de": {"Ihr Name ist entfernt", `Ihr Name "Ann Smith" ist entfernt: Andere sehen Ihre Adresse wieder maskiert, als "ca…@example.org".`},
			"ru": {"Ваше имя удалено", `Ваше имя "Ann Smith" удалено: другие снова видят ваш адрес скрытым, как "ca…@example.org".`},
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "ru"} {
			t.Run(tt.name+"/"+code, func(t *testing.T) {
				r := lobbyReferee(t, LobbyConfig{})
				lobby := lobbyIn(nil)
				lobby.NameOwner = tt.owner
				out := r.Handle(Inbound{Mail: observeMail(carol, tt.line)}, nil, Env{Now: lobbyNow, Language: code, Name: tt.current, Lobby: lobby})
				checkSaid(t, tt.line, onlyMailTo(t, out, carol), tt.want[code])
			})
		}
	}
}

// TestObserveAnswersInTheReadersLanguage (issue 42): "observe GAME" and
// "unobserve GAME" answer and refuse in the sender's language (the first
// spectator mail with the delay's plural too), and "observers" answers
// in the player's language.
func TestObserveAnswersInTheReadersLanguage(t *testing.T) {
	const eve = "eve@example.net"
	running := func() *Game { return carolsGame(t, 17, "dave@example.org", true) }
	late := running()
	late.State.WatchDelay = 2
	watched := running()
	watched.Watchers = []string{eve}
	tests := []struct {
		name, line string
		may        bool
		named      *Game
		via        string
		want       map[string]said
	}{
		{name: "observed", line: "observe 17", may: true, named: late, want: map[string]said{
			"en": {"[chess #17] You now observe game #17. It is shown 2 moves late: the board below is not the newest. (watching)", "You now observe game #17. It is shown 2 moves late: the board below is not the newest."},
			"de": {"[chess #17] Sie verfolgen jetzt Partie #17. Sie wird um 2 Züge verzögert gezeigt: Das Brett unten ist nicht das neueste. (Zuschauer)", "Sie verfolgen jetzt Partie #17. Sie wird um 2 Züge verzögert gezeigt: Das Brett unten ist nicht das neueste."},
			"ru": {"[chess #17] Теперь вы следите за партией #17. Она показывается с задержкой: 2 хода; доска ниже — не самая свежая. (наблюдение)", "Теперь вы следите за партией #17. Она показывается с задержкой: 2 хода; доска ниже — не самая свежая."},
		}},
		{name: "the policy", line: "observe 17", named: running(), want: map[string]said{
			"en": {"Re: observe 17", `Your request "observe 17" was not carried out: the organiser lets only known players observe games by mail (--observers known): those who have played here, and those the organiser added; you are not one of them yet. Ask the organiser to add you ("referee player add ADDRESS"), or to make you a spectator of this game alone ("referee watch 17 ADDRESS").`},
			"de": {"Re: observe 17", `Ihre Anfrage "observe 17" wurde nicht ausgeführt: Der Veranstalter lässt nur bekannte Spieler Partien per Mail verfolgen (--observers known): die, die hier gespielt haben, und die, die der Veranstalter aufgenommen hat; Sie gehören noch nicht dazu. Bitten Sie den Veranstalter, Sie aufzunehmen ("referee player add ADDRESS"), oder Sie nur zum Zuschauer dieser Partie zu machen ("referee watch 17 ADDRESS").`},
			"ru": {"Re: observe 17", `Ваш запрос "observe 17" не выполнен: организатор разрешает следить за партиями по почте только известным игрокам (--observers known): тем, кто здесь играл, и тем, кого добавил организатор; вы пока не из их числа. Попросите организатора добавить вас ("referee player add ADDRESS") или сделать вас зрителем только этой партии ("referee watch 17 ADDRESS").`},
		}},
		{name: "twice", line: "observe 17", may: true, named: watched, want: map[string]said{
			"en": {"Re: observe 17", `Your request "observe 17" was not carried out: you observe game #17 already. Send "unobserve 17" to referee@example.test to stop.`},
			"de": {"Re: observe 17", `Ihre Anfrage "observe 17" wurde nicht ausgeführt: Sie verfolgen Partie #17 bereits. Schicken Sie "unobserve 17" an referee@example.test, um aufzuhören.`},
			"ru": {"Re: observe 17", `Ваш запрос "observe 17" не выполнен: вы уже следите за партией #17. Отправьте "unobserve 17" на referee@example.test, чтобы прекратить.`},
		}},
		{name: "stopped", line: "unobserve 17", named: watched, want: map[string]said{
			"en": {"You no longer observe game #17", `You will get no more mails about game #17. Send "observe 17" to referee@example.test to follow it again.`},
			"de": {"Sie verfolgen Partie #17 nicht mehr", `Sie erhalten keine Mails mehr zu Partie #17. Schicken Sie "observe 17" an referee@example.test, um sie wieder zu verfolgen.`},
			"ru": {"Вы больше не следите за партией #17", `Вы больше не будете получать письма о партии #17. Отправьте "observe 17" на referee@example.test, чтобы снова следить за ней.`},
		}},
		{name: "not observed", line: "unobserve 17", named: running(), want: map[string]said{
			"en": {"Re: unobserve 17", `You do not observe game #17, so there is nothing to stop. Check the number in the subject of the spectator mails: "[variant #17]" is game 17.`},
			"de": {"Re: unobserve 17", `Sie verfolgen Partie #17 nicht, also gibt es nichts zu beenden. Prüfen Sie die Nummer im Betreff der Zuschauermails: "[variant #17]" ist Partie 17.`},
			"ru": {"Re: unobserve 17", `Вы не следите за партией #17, так что прекращать нечего. Проверьте номер в теме зрительских писем: "[variant #17]" — это партия 17.`},
		}},
		{name: "through an event", line: "unobserve 17", named: watched, via: "autumn", want: map[string]said{
			"en": {"Re: unobserve 17", `You observe game #17 as a game of the event autumn, so it cannot be stopped alone. Send "unobserve autumn" to referee@example.test to stop the mails of every game of the event.`},
			"de": {"Re: unobserve 17", `Sie verfolgen Partie #17 als Partie des Turniers autumn, daher lässt sie sich nicht einzeln beenden. Schicken Sie "unobserve autumn" an referee@example.test, um die Mails aller Partien des Turniers zu beenden.`},
			"ru": {"Re: unobserve 17", `Вы следите за партией #17 как за партией турнира autumn, поэтому её нельзя прекратить отдельно. Отправьте "unobserve autumn" на referee@example.test, чтобы прекратить письма всех партий турнира.`},
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "ru"} {
			t.Run(tt.name+"/"+code, func(t *testing.T) {
				r := lobbyReferee(t, LobbyConfig{Observers: ObserversKnown})
				lobby := &Lobby{MayObserve: tt.may, Named: tt.named, NamedVia: tt.via, Active: map[string]int{}}
				out := r.Handle(Inbound{Mail: observeMail(eve, tt.line)}, nil, Env{Now: lobbyNow, Language: code, Lobby: lobby})
				checkSaid(t, tt.line, onlyMailTo(t, out, eve), tt.want[code])
			})
		}
	}
	for code, w := range map[string]said{
		"en": {"[chess #17] Observers", "Observers: 2 spectators observe this game: eve@example.net fred@example.com They see the board 3 moves late."},
		"de": {"[chess #17] Zuschauer", "Zuschauer: 2 Zuschauer verfolgen diese Partie: eve@example.net fred@example.com Sie sehen das Brett um 3 Züge verzögert."},
		"ru": {"[chess #17] Зрители", "Зрители: За этой партией следят 2 зрителя: eve@example.net fred@example.com Они видят доску с задержкой: 3 хода."},
	} {
		t.Run("observers/"+code, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			g := running()
			g.Players[rules.Black].Language = code
			g.Watchers = []string{"eve@example.net", "fred@example.com"}
			g.State.WatchDelay = 3
			m := &reader.Mail{From: "dave@example.org", MessageID: "<o@x>", Action: "observers",
				Token: &reader.Token{GameID: 17, Secret: g.Players[rules.Black].Secret}}
			out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
			checkSaid(t, "observers", onlyMailTo(t, out, "dave@example.org"), w)
		})
	}
}

// TestSettingRefusalsInTheReadersLanguage (issue 42): the refusals of
// "rating", "top", "mail" and "timezone" are in the sender's language,
// the reasons a time or a zone does not read with them.
func TestSettingRefusalsInTheReadersLanguage(t *testing.T) {
	const carol = "carol@example.org"
	tests := []struct {
		line string
		want map[string]said
	}{
		{"rating carol chess", map[string]said{
			"en": {"Re: rating carol chess", `In "rating carol chess", the word "carol" is neither one mail address nor one game. Write "rating", "rating chess", "rating bob@example.org" or "rating bob@example.org chess". The games: `},
			"de": {"Re: rating carol chess", `In "rating carol chess" ist das Wort "carol" weder eine Mailadresse noch ein Spiel. Schreiben Sie "rating", "rating chess", "rating bob@example.org" oder "rating bob@example.org chess". Die Spiele: `},
			"ru": {"Re: rating carol chess", `В "rating carol chess" слово "carol" — это ни почтовый адрес, ни игра. Напишите "rating", "rating chess", "rating bob@example.org" или "rating bob@example.org chess". Игры: `},
		}},
		{"top", map[string]said{
			"en": {"Re: top", `"top" names no game. Write "top" and one game, e.g. "top chess". The games: `},
			"de": {"Re: top", `"top" nennt keine Partie. Schreiben Sie "top" und ein Spiel, z. B. "top chess". Die Spiele: `},
			"ru": {"Re: top", `"top" не указывает партию. Напишите "top" и одну игру, например "top chess". Игры: `},
		}},
		{"mail digest 25", map[string]said{
			"en": {"Re: mail digest 25", `"25:00" is not a time of day; write it as HH:MM, e.g. "mail digest 18:00". Send e.g. "mail digest 18:00", or "mail each".`},
			"de": {"Re: mail digest 25", `"25:00" ist keine Uhrzeit; schreiben Sie sie als HH:MM, z. B. "mail digest 18:00". Schicken Sie z. B. "mail digest 18:00" oder "mail each".`},
			"ru": {"Re: mail digest 25", `"25:00" — это не время суток; напишите его как ЧЧ:ММ, например "mail digest 18:00". Отправьте, например, "mail digest 18:00" или "mail each".`},
		}},
		{"mail weekly", map[string]said{
			"en": {"Re: mail weekly", `"mail weekly" is not a mail setting. Send "mail digest 18:00" for one mail a day at 18:00, or "mail each" for a mail per move.`},
			"de": {"Re: mail weekly", `"mail weekly" ist keine Mail-Einstellung. Schicken Sie "mail digest 18:00" für eine Mail am Tag um 18:00 oder "mail each" für eine Mail pro Zug.`},
			"ru": {"Re: mail weekly", `"mail weekly" — это не настройка почты. Отправьте "mail digest 18:00", чтобы получать одно письмо в день в 18:00, или "mail each", чтобы получать письмо на каждый ход.`},
		}},
		{"timezone Mars/Olympus", map[string]said{
			"en": {"Re: timezone Mars/Olympus", `"Mars/Olympus" is not a time zone the referee knows; write a zone name as in the tz database, e.g. "timezone Europe/Berlin", "timezone America/New_York" or "timezone UTC". Send e.g. "timezone Europe/Berlin".`},
			"de": {"Re: timezone Mars/Olympus", `"Mars/Olympus" ist keine Zeitzone, die der Schiedsrichter kennt; schreiben Sie einen Zonennamen wie in der tz-Datenbank, z. B. "timezone Europe/Berlin", "timezone America/New_York" oder "timezone UTC". Schicken Sie z. B. "timezone Europe/Berlin".`},
			"ru": {"Re: timezone Mars/Olympus", `"Mars/Olympus" — это не часовой пояс, известный судье; напишите имя пояса как в базе tz, например "timezone Europe/Moscow", "timezone Asia/Yekaterinburg" или "timezone UTC". Отправьте, например, "timezone Europe/Moscow".`},
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "ru"} {
			t.Run(tt.line+"/"+code, func(t *testing.T) {
				r := lobbyReferee(t, LobbyConfig{})
				out := r.Handle(Inbound{Mail: observeMail(carol, tt.line)}, nil, Env{Now: lobbyNow, Language: code, Lobby: lobbyIn(nil)})
				if out.Verdict != Rejected {
					t.Fatalf("%s: %s, want a refusal", out.Verdict, out.Detail)
				}
				checkSaid(t, tt.line, onlyMailTo(t, out, carol), tt.want[code])
			})
		}
	}
}

// TestAmbiguousMoveInTheReadersLetters (issue 42): a move that fits two
// legal moves is refused with the reason in the player's language and
// the candidates in their piece letters; the candidate sent back as it
// is written there is read and played.
func TestAmbiguousMoveInTheReadersLetters(t *testing.T) {
	tests := []struct {
		code, sent, reason, reply, played string
	}{
		{"en", "Nd2", `Your move "Nd2" (game #5, move 3) was not played: it fits more than one legal move: Nbd2 or Nfd2. Reply with the one you mean, written as it is here.`, "Nbd2", "Nbd2"},
		{"de", "Sd2", `Ihr Zug "Sd2" (Partie #5, Zug 3) wurde nicht ausgeführt: Er passt auf mehr als einen regelgemäßen Zug (S steht auf Deutsch für Springer): Sbd2 oder Sfd2. Antworten Sie mit dem gemeinten Zug, so geschrieben wie hier.`, "Sbd2", "Nbd2"},
		// Dutch: "Pc3" is a knight's move (paard) and a pawn's (English P):
		// the knight's candidate keeps its English letter, which reads as
		// one move.
		{"nl", "Pc3", `Uw zet "Pc3" (partij #5, zet 3) is niet gespeeld: hij past bij meer dan één reglementaire zet (P is in het Nederlands: paard, en P is in het Engels: pion): Nc3 of c3. Antwoord met de zet die u bedoelt, geschreven zoals hier.`, "Nc3", "Nc3"},
		{"ru", "Кd2", `Ваш ход "Кd2" (партия #5, ход 3) не сделан: он подходит к нескольким допустимым ходам (К — это конь (язык записи: русский)): ♘bd2 или ♘fd2. Ответьте тем, который вы имеете в виду, записанным как здесь.`, "♘bd2", "Nbd2"},
		// A reader of figurines (lang.Tag) gets them in the candidates.
		{"de-x-fig", "Sd2", `Ihr Zug "Sd2" (Partie #5, Zug 3) wurde nicht ausgeführt: Er passt auf mehr als einen regelgemäßen Zug (S steht auf Deutsch für Springer): ♘bd2 oder ♘fd2. Antworten Sie mit dem gemeinten Zug, so geschrieben wie hier.`, "♘fd2", "Nfd2"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language = tt.code
			for i, mv := range []string{"d4", "d5", "Nf3", "Nf6"} {
				if out := act(t, r, g, rules.Color(i%2), mv); out.Verdict != Applied {
					t.Fatalf("%s: %s", mv, out.Detail)
				}
			}
			out := act(t, r, g, rules.White, tt.sent)
			if out.Verdict != Rejected || len(out.Mails) != 1 || out.Mails[0].Board == nil {
				t.Fatalf("%s: %s %s, want a refusal in a board mail", tt.sent, out.Verdict, out.Detail)
			}
			if got := norm(out.Mails[0].Board.Headline); got != tt.reason {
				t.Errorf("the refusal says\n%s\nwant\n%s", got, tt.reason)
			}
			if out := act(t, r, g, rules.White, tt.reply); out.Verdict != Applied || g.Actions[len(g.Actions)-1].SAN != tt.played {
				t.Errorf("the candidate %q sent back: %s %s, want %s played", tt.reply, out.Verdict, out.Detail, tt.played)
			}
		})
	}
}

// TestConditionalRevealInTheReadersLanguage (issue 42): the final mails'
// section that reveals the conditional trees is in each player's
// language, the trees' lines, nonces and commitments as they are.
func TestConditionalRevealInTheReadersLanguage(t *testing.T) {
	tests := map[string]struct{ title, tree string }{
		"en": {"Conditional moves revealed", "Tree 1, Black's, from ply 2:"},
		"de": {"Bedingte Züge offengelegt", "Baum 1, von Schwarz, ab Halbzug 2:"},
		"ru": {"Раскрытые условные ходы", "Дерево 1, чёрных, с полухода 2:"},
	}
	for code, w := range tests {
		t.Run(code, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			actMsg(t, r, g, rules.White, "f3", "", -1)
			actMsg(t, r, g, rules.Black, "e5", "if g4 Qh4", -1)
			out := actMsg(t, r, g, rules.White, "g4", "", -1)
			if g.Status != StatusFinished {
				t.Fatalf("the conditional mate was not played: %s", out.Detail)
			}
			for _, to := range []string{g.Players[rules.White].Address, g.Players[rules.Black].Address} {
				text := mailTo(t, out, to)
				if !strings.Contains(text, w.title) || !strings.Contains(text, w.tree+"\nif g4 Qh4#\nnonce ") {
					t.Errorf("the mail to %s does not reveal the tree as %q, %q:\n%s", to, w.title, w.tree, text)
				}
			}
		})
	}
}

// TestDrawnOnTimeInTheReadersLanguage (issue 42): a game drawn because
// the side whose time ran out faces a bare king ends with the reason in
// each player's language.
func TestDrawnOnTimeInTheReadersLanguage(t *testing.T) {
	tests := map[string]string{
		"en": "Draw (White ran out of time, but Black has no way to win).",
		"de": "Remis (Weiß hat die Bedenkzeit überschritten, aber Schwarz kann nicht mehr gewinnen).",
		"ru": "Ничья (белые просрочили время, но у чёрных нет возможности выиграть).",
	}
	for code, want := range tests {
		t.Run(code, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Start = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
			g.Players[rules.White].Language, g.Players[rules.Black].Language = code, code
			t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			c, err := ParseTimeControl("3d")
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = t0
			g.State.Clock = c
			out := r.Tick(g, t0.Add(4*Day))
			if out.Game == nil || out.Game.Result != "1/2-1/2" {
				t.Fatalf("%s: %+v", out.Detail, out.Game)
			}
			for _, ml := range out.Mails {
				if ml.Board == nil || !strings.Contains(norm(ml.Board.Text()), want) {
					t.Errorf("the mail to %s does not say %q", ml.To, want)
				}
			}
		})
	}
}

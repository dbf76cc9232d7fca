package referee

import (
	"strings"
	"testing"
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

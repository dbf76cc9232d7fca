package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/rules"
)

// TestMoveRefusalsInTheReadersLanguage (issue 42): a refused move's
// headline says why in the player's language, the notation reader's
// reason included, with how a letter of the player's language was read;
// a move it suggests is in the player's letters. The move is written as
// a player of that language writes it (notation.WriteIn: "Lc4" in
// German, "♗c4" in Russian). English is pinned too: its sentences are
// the ones the referee wrote before the reasons were translated.
func TestMoveRefusalsInTheReadersLanguage(t *testing.T) {
	const (
		twoKnights = "4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1"
		pawnOnE7   = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
	)
	tests := []struct {
		name string
		fen  string // "" for the start position
		line string // in English letters; lettered: written in the reader's
		// lettered: the line's piece letters are the reader's
		lettered bool
		want     map[string]string // language code -> the headline
	}{
		{name: "an illegal move: the way is blocked", line: "Bc4", lettered: true, want: map[string]string{
			"en": `Your move "Bc4" (game #5, move 1) was not played: your bishop on f1 cannot go to c4: a piece stands in the way (or that move needs a capture).`,
			"de": `Ihr Zug "Lc4" (Partie #5, Zug 1) wurde nicht ausgeführt: Ihre Figur auf f1 (Läufer) kann nicht nach c4 ziehen: Eine Figur steht im Weg (oder der Zug geht nur als Schlagzug). (L steht auf Deutsch für Läufer.)`,
			"fr": `Votre coup "Fc4" (partie #5, coup 1) n'a pas été joué : votre fou en f1 ne peut pas aller en c4 : une pièce barre le chemin (ou ce coup exige une prise). (F désigne en français : fou.)`,
			"pl": `Twój ruch "Gc4" (partia #5, ruch 1) nie został wykonany: Twoja bierka na f1 (goniec) nie może pójść na c4: na drodze stoi bierka (albo ten ruch wymaga bicia). (G to goniec – zapis polski.)`,
			"ru": `Ваш ход "♗c4" (партия #5, ход 1) не сделан: ваша фигура на f1 (слон) не может пойти на c4: на пути стоит фигура (или этот ход возможен только со взятием).`,
		}},
		{name: "an ambiguous move, with its candidates (in the reader's letters)", fen: twoKnights, line: "Nb5", lettered: true, want: map[string]string{
			"en": `Your move "Nb5" (game #5, move 1) was not played: it fits more than one legal move: Ncb5 or Ndb5. Reply with the one you mean, written as it is here.`,
			"de": `Ihr Zug "Sb5" (Partie #5, Zug 1) wurde nicht ausgeführt: Er passt auf mehr als einen regelgemäßen Zug (S steht auf Deutsch für Springer): Scb5 oder Sdb5. Antworten Sie mit dem gemeinten Zug, so geschrieben wie hier.`,
			"fr": `Votre coup "Cb5" (partie #5, coup 1) n'a pas été joué : il correspond à plusieurs coups légaux (C désigne en français : cavalier) : Ccb5 ou Cdb5. Répondez par celui que vous voulez jouer, écrit comme ici.`,
			"pl": `Twój ruch "Sb5" (partia #5, ruch 1) nie został wykonany: pasuje do więcej niż jednego dozwolonego ruchu (S to skoczek – zapis polski): Scb5 lub Sdb5. Odpowiedz tym, o który Ci chodzi, zapisanym jak tutaj.`,
			"ru": `Ваш ход "♘b5" (партия #5, ход 1) не сделан: он подходит к нескольким допустимым ходам: ♘cb5 или ♘db5. Ответьте тем, который вы имеете в виду, записанным как здесь.`,
		}},
		{name: "an unreadable line", line: "qqq", want: map[string]string{
			"en": `Your move "qqq" (game #5, move 1) was not played: it is not a move the referee can read: write it like d3 (or "moves" for the list).`,
			"de": `Ihr Zug "qqq" (Partie #5, Zug 1) wurde nicht ausgeführt: Er ist kein Zug, den der Schiedsrichter lesen kann: Schreiben Sie ihn wie d3 (oder "moves" für die Liste).`,
			"fr": `Votre coup "qqq" (partie #5, coup 1) n'a pas été joué : ce texte n'est pas un coup que l'arbitre sait lire : écrivez-le comme d3 (ou "moves" pour la liste).`,
			"pl": `Twój ruch "qqq" (partia #5, ruch 1) nie został wykonany: nie jest ruchem, który sędzia potrafi odczytać: zapisz go jak d3 (albo "moves", by dostać listę).`,
			"ru": `Ваш ход "qqq" (партия #5, ход 1) не сделан: он не является ходом, который судья может прочитать: напишите его как d3 (или "moves" для списка).`,
		}},
		{name: "ICCF digits without the promotion digit", fen: pawnOnE7, line: "5758", want: map[string]string{
			"en": `Your move "5758" (game #5, move 1) was not played: it fits more than one legal move (the pawn promotes there, and ICCF numeric notation says to what with a fifth digit: 1 queen, 2 rook, 3 bishop, 4 knight): 57581, 57582, 57583 or 57584. Reply with the one you mean, written as it is here.`,
			"de": `Ihr Zug "5758" (Partie #5, Zug 1) wurde nicht ausgeführt: Er passt auf mehr als einen regelgemäßen Zug (der Bauer wandelt sich dort um, und die ICCF-Ziffernnotation sagt mit einer fünften Ziffer, in welche Figur: 1 Dame, 2 Turm, 3 Läufer, 4 Springer): 57581, 57582, 57583 oder 57584. Antworten Sie mit dem gemeinten Zug, so geschrieben wie hier.`,
			"fr": `Votre coup "5758" (partie #5, coup 1) n'a pas été joué : il correspond à plusieurs coups légaux (le pion est promu sur cette case, et la notation numérique ICCF indique en quelle pièce par un cinquième chiffre : 1 dame, 2 tour, 3 fou, 4 cavalier) : 57581, 57582, 57583 ou 57584. Répondez par celui que vous voulez jouer, écrit comme ici.`,
			"pl": `Twój ruch "5758" (partia #5, ruch 1) nie został wykonany: pasuje do więcej niż jednego dozwolonego ruchu (pion ulega tam promocji, a notacja cyfrowa ICCF podaje piątą cyfrą, w jaką bierkę: 1 hetman, 2 wieża, 3 goniec, 4 skoczek): 57581, 57582, 57583 lub 57584. Odpowiedz tym, o który Ci chodzi, zapisanym jak tutaj.`,
			"ru": `Ваш ход "5758" (партия #5, ход 1) не сделан: он подходит к нескольким допустимым ходам (пешка там превращается, и цифровая нотация ICCF указывает пятой цифрой, во что: 1 ферзь, 2 ладья, 3 слон, 4 конь): 57581, 57582, 57583 или 57584. Ответьте тем, который вы имеете в виду, записанным как здесь.`,
		}},
		{name: "a move numbered wrongly", line: "5. Nf3", lettered: true, want: map[string]string{
			"en": `Your move "5. Nf3" (game #5, move 1) was not played: it is numbered 5, but the game is at move 1 (White to play). Send the move without a number, e.g. "Nf3", or with this move's number, "1. Nf3".`,
			"de": `Ihr Zug "5. Sf3" (Partie #5, Zug 1) wurde nicht ausgeführt: Er trägt die Nummer 5, aber die Partie steht bei Zug 1 (Weiß am Zug). Senden Sie den Zug ohne Nummer, z. B. "Sf3", oder mit der Nummer dieses Zuges, "1. Sf3".`,
			"fr": `Votre coup "5. Cf3" (partie #5, coup 1) n'a pas été joué : il porte le numéro 5, mais la partie en est au coup 1 (trait aux Blancs). Envoyez le coup sans numéro, p. ex. "Cf3", ou avec le numéro de ce coup, "1. Cf3".`,
			"pl": `Twój ruch "5. Sf3" (partia #5, ruch 1) nie został wykonany: ma numer 5, ale partia jest przy ruchu 1 (ruch białych). Wyślij ruch bez numeru, np. "Sf3", albo z numerem tego ruchu, "1. Sf3".`,
			"ru": `Ваш ход "5. ♘f3" (партия #5, ход 1) не сделан: у него номер 5, а партия на ходу 1 (ход белых). Отправьте ход без номера, например "♘f3", или с номером этого хода, "1. ♘f3".`,
		}},
		{name: "a capture mark on a move that captures nothing", line: "Nxf3", lettered: true, want: map[string]string{
			"en": `Your move "Nxf3" (game #5, move 1) was not played: it is written as a capture, but Nf3 captures nothing (f3 is empty). Reply "Nf3" if that is your move.`,
			"de": `Ihr Zug "Sxf3" (Partie #5, Zug 1) wurde nicht ausgeführt: Er ist als Schlagzug geschrieben, aber Sf3 schlägt nichts (f3 ist leer). Antworten Sie "Sf3", wenn das Ihr Zug ist.`,
			"fr": `Votre coup "Cxf3" (partie #5, coup 1) n'a pas été joué : il est écrit comme une prise, mais Cf3 ne prend rien (f3 est vide). Répondez "Cf3" si c'est bien votre coup.`,
			"pl": `Twój ruch "Sxf3" (partia #5, ruch 1) nie został wykonany: jest zapisany jako bicie, ale Sf3 niczego nie bije (pole f3 jest puste). Odpowiedz "Sf3", jeśli to Twój ruch.`,
			"ru": `Ваш ход "♘xf3" (партия #5, ход 1) не сделан: он записан как взятие, но ♘f3 ничего не бьёт (поле f3 пусто). Ответьте "♘f3", если это ваш ход.`,
		}},
		{name: "castling, with the rules' reason", fen: "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", line: "O-O", want: map[string]string{
			"en": `Your move "O-O" (game #5, move 1) was not played: castling is not allowed now: the squares between your king and your rook must be empty, but your knight stands on g1.`,
			"de": `Ihr Zug "O-O" (Partie #5, Zug 1) wurde nicht ausgeführt: Die Rochade ist jetzt nicht erlaubt: Die Felder zwischen Ihrem König und Ihrem Rochadepartner (Turm) müssen leer sein, aber auf g1 steht eine Figur von Ihnen (Springer).`,
			"fr": `Votre coup "O-O" (partie #5, coup 1) n'a pas été joué : le roque n'est pas permis maintenant : les cases entre votre roi et votre tour doivent être vides, mais votre cavalier se trouve en g1.`,
			"pl": `Twój ruch "O-O" (partia #5, ruch 1) nie został wykonany: roszada nie jest teraz dozwolona: pola między Twoim królem a bierką do roszady (wieża) muszą być wolne, ale na g1 stoi Twoja bierka: skoczek.`,
			"ru": `Ваш ход "O-O" (партия #5, ход 1) не сделан: рокировка сейчас невозможна: поля между вашим королём и фигурой для рокировки (ладья) должны быть свободны, но на g1 стоит ваша фигура: конь.`,
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "fr", "pl", "ru"} {
			t.Run(tt.name+"/"+code, func(t *testing.T) {
				r, g := newGame(t, rules.Chess())
				if tt.fen != "" {
					g.Start = tt.fen
				}
				g.Players[rules.White].Language = code
				line := tt.line
				if tt.lettered {
					num, san, _ := strings.Cut(line, ". ")
					if san == "" {
						num, san = "", line
					} else {
						num += ". "
					}
					line = num + notation.WriteIn(g.Variant, san, code)
				}
				out := act(t, r, g, rules.White, line)
				if out.Verdict != Rejected || len(out.Mails) != 1 || out.Mails[0].Board == nil {
					t.Fatalf("%q: %v, %d mails (%s)", line, out.Verdict, len(out.Mails), out.Detail)
				}
				if got := norm(out.Mails[0].Board.Headline); got != tt.want[code] {
					t.Errorf("%q:\n got %s\nwant %s", line, got, tt.want[code])
				}
				// The log's detail stays English, whatever the reader's
				// language: the reader's reason as Error writes it.
				if _, err := notation.ReadFor(mustPosition(t, g), line, notation.Options{Language: code}); err == nil ||
					out.Detail != "illegal or unreadable: "+err.Error() {
					t.Errorf("detail %q: want the English reason (%v)", out.Detail, err)
				}
			})
		}
	}
}

// mustPosition is g's position.
func mustPosition(t *testing.T, g *Game) rules.Position {
	t.Helper()
	pos, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestOtherRefusalsInTheReadersLanguage (issue 42): the refusals of a
// reply in a game that are not about the move's notation say what was
// read, what is wrong and what to do in the player's language, and a
// short refusal of mail that could not be tied to a player, or whose
// sender could not be confirmed, is in the sender's language (Env's),
// its subject and closing line too.
func TestOtherRefusalsInTheReadersLanguage(t *testing.T) {
	type want struct{ what, todo string }
	tests := []struct {
		name string
		// run acts in g for the player of White, whose language is set.
		run  func(t *testing.T, r *Referee, g *Game, code string) Outcome
		want map[string]want
	}{
		{name: "nothing to accept", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			return act(t, r, g, rules.White, "accept")
		}, want: map[string]want{
			"en": {"There is nothing to accept: your opponent has offered no draw and asked for no takeback.",
				`"accept" answers your opponent's draw offer or takeback request. To offer a draw yourself, reply "draw"; to play on, reply with your move.`},
			"de": {"Es gibt nichts anzunehmen: Ihr Gegner hat weder Remis angeboten noch um eine Zugrücknahme gebeten.",
				`"accept" beantwortet ein Remisangebot Ihres Gegners oder seine Bitte um Zugrücknahme. Um selbst Remis anzubieten, antworten Sie "draw"; um weiterzuspielen, antworten Sie mit Ihrem Zug.`},
			"ru": {"Принимать нечего: соперник не предлагал ничью и не просил вернуть ход.",
				`"accept" отвечает на предложение ничьей соперника или на его просьбу вернуть ход. Чтобы самому предложить ничью, ответьте "draw"; чтобы продолжить игру, ответьте своим ходом.`},
		}},
		{name: "a reply to an older mail", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			act(t, r, g, rules.White, "e4")
			act(t, r, g, rules.Black, "e5")
			m := &reader.Mail{From: g.Players[rules.White].Address, MessageID: "<old@x>", Action: "d4",
				Token: &reader.Token{GameID: g.ID, Secret: g.Players[rules.White].Secret, Ply: 1}}
			return r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
		}, want: map[string]want{
			"en": {`Your action "d4" was not played: you replied to an older mail (it showed the game after 1 action; 1 has been played since). The board below is the current one.`,
				"Check the board, then reply to THIS mail with your action."},
			"de": {`Ihre Aktion "d4" wurde nicht ausgeführt: Sie haben auf eine ältere Mail geantwortet (sie zeigte die Partie nach 1 Aktion; seitdem wurde 1 gespielt). Das Brett unten ist das aktuelle.`,
				"Prüfen Sie das Brett und antworten Sie dann auf DIESE Mail mit Ihrer Aktion."},
			"ru": {`Ваше действие "d4" не выполнено: вы ответили на более старое письмо (оно показывало партию после 1 действия; с тех пор сделано: 1). Доска ниже — текущая.`,
				"Проверьте доску, затем ответьте на ЭТО письмо своим действием."},
		}},
		{name: "a move after the end", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			g.Status, g.Result, g.ResultReason = StatusFinished, "0-1", "checkmate"
			return act(t, r, g, rules.White, "e4")
		}, want: map[string]want{
			"en": {`Your action "e4" was not played: game #5 is over (Black won, checkmate).`,
				`Nothing more can be played in it. You can still ask for "board" or "help".`},
			"de": {`Ihre Aktion "e4" wurde nicht ausgeführt: Partie #5 ist beendet (Schwarz hat gewonnen, Matt).`,
				`Darin kann nichts mehr gespielt werden. Sie können weiterhin "board" oder "help" anfordern.`},
			"ru": {`Ваше действие "e4" не выполнено: партия #5 окончена (победили чёрные, мат).`,
				`В ней больше ничего нельзя сыграть. Вы по-прежнему можете запросить "board" или "help".`},
		}},
		{name: "a conditional line with a letter no piece has", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			act(t, r, g, rules.White, "e4")
			return act(t, r, g, rules.White, "if e5 Zf3")
		}, want: map[string]want{
			"en": {`Your conditional lines were not set: line 1 ("if e5 Zf3"): "Zf3" is not a legal move there for White (Chess has no piece with the letter Z (pieces: K Q R B N; pawn moves are written without a letter, e.g. "a3")).`,
				"Send them again corrected; your earlier lines, if any, stand."},
			"de": {`Ihre bedingten Züge wurden nicht übernommen: Zeile 1 ("if e5 Zf3"): "Zf3" ist dort kein regelgemäßer Zug für Weiß (Schach hat keine Figur mit dem Buchstaben Z (Figuren: K Q R B N; Bauernzüge werden ohne Buchstaben geschrieben, z. B. "a3")).`,
				"Senden Sie sie berichtigt erneut; Ihre früheren Zeilen, falls vorhanden, bleiben bestehen."},
			"ru": {`Ваши условные строки не сохранены: строка 1 ("if e5 Zf3"): "Zf3" здесь не является допустимым ходом белых (В игре «Шахматы» нет фигуры с буквой Z (фигуры: K Q R B N; ходы пешкой пишутся без буквы, например "a3")).`,
				"Отправьте их снова исправленными; ваши прежние строки, если они есть, остаются в силе."},
		}},
		{name: "a mail tied to no game of the sender's", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			m := &reader.Mail{From: "eve@example.test", MessageID: "<e@x>", Action: "e4",
				Token: &reader.Token{GameID: g.ID, Secret: "zzzzzzzzzz", Ply: 0}}
			return r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: code})
		}, want: map[string]want{
			"en": {"Re: your mail", "Your mail could not be tied to a game of yours. The referee acts only on a reply to its own latest mail for your game, sent from the address that mail was sent to. To play, reply to the referee's latest mail for your game (your mail program keeps the reference) with your move on the first line. To start a game, ask the organiser. (This is an automatic reply from the referee at referee@example.test.)"},
			"de": {"Re: Ihre Mail", "Ihre Mail konnte keiner Ihrer Partien zugeordnet werden. Der Schiedsrichter handelt nur auf eine Antwort auf seine eigene letzte Mail zu Ihrer Partie, gesendet von der Adresse, an die diese Mail ging. Um zu spielen, antworten Sie auf die letzte Mail des Schiedsrichters zu Ihrer Partie (Ihr Mailprogramm bewahrt den Bezug) mit Ihrem Zug in der ersten Zeile. Um eine Partie zu beginnen, wenden Sie sich an den Veranstalter. (Dies ist eine automatische Antwort des Schiedsrichters unter referee@example.test.)"},
			"ru": {"Re: ваше письмо", "Ваше письмо не удалось связать ни с одной вашей партией. Судья действует только по ответу на своё последнее письмо по вашей партии, отправленному с того адреса, на который пришло это письмо. Чтобы играть, ответьте на последнее письмо судьи по вашей партии (ваша почтовая программа сохраняет ссылку), написав ход в первой строке. Чтобы начать партию, обратитесь к организатору. (Это автоматический ответ судьи по адресу referee@example.test.)"},
		}},
		{name: "a mail whose sender the server could not confirm", run: func(t *testing.T, r *Referee, g *Game, code string) Outcome {
			r.cfg.RequireAuth, r.cfg.AuthMode = true, AuthDKIM
			m := &reader.Mail{From: g.Players[rules.White].Address, MessageID: "<a@x>", Subject: "Re: [chess #5] Move 1", Action: "e4",
				Token: &reader.Token{GameID: g.ID, Secret: g.Players[rules.White].Secret, Ply: 0}}
			return r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0), Language: code,
				DKIM: &reader.DKIMVerdict{Reason: "no DKIM signature"}})
		}, want: map[string]want{
			"en": {"Re: [chess #5] Move 1", "Your mail was not accepted because the mail server could not confirm it really comes from alice@example.test (no DKIM signature). Send it again from your usual mail account (the one that signs its mail with DKIM). (This is an automatic reply from the referee at referee@example.test.)"},
			"de": {"Re: [chess #5] Move 1", "Ihre Mail wurde nicht angenommen, weil der Mailserver nicht bestätigen konnte, dass sie wirklich von alice@example.test kommt (no DKIM signature). Schicken Sie sie erneut von Ihrem gewohnten Mailkonto (dem, das seine Mails mit DKIM signiert). (Dies ist eine automatische Antwort des Schiedsrichters unter referee@example.test.)"},
			"ru": {"Re: [chess #5] Move 1", "Ваше письмо не принято, так как почтовый сервер не смог подтвердить, что оно действительно от alice@example.test (no DKIM signature). Отправьте его снова со своего обычного почтового ящика (того, что подписывает письма с помощью DKIM). (Это автоматический ответ судьи по адресу referee@example.test.)"},
		}},
	}
	for _, tt := range tests {
		for _, code := range []string{"en", "de", "ru"} {
			t.Run(tt.name+"/"+code, func(t *testing.T) {
				key, err := dice.NewKey()
				if err != nil {
					t.Fatal(err)
				}
				r := New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key})
				_, g := newGame(t, rules.Chess())
				g.Players[rules.White].Language = code
				out := tt.run(t, r, g, code)
				if out.Verdict != Rejected || len(out.Mails) != 1 {
					t.Fatalf("%v, %d mails (%s)", out.Verdict, len(out.Mails), out.Detail)
				}
				w, ml := tt.want[code], out.Mails[0]
				if ml.Board == nil {
					// A short refusal: the subject, then the text.
					if ml.Subject != w.what || norm(ml.Text) != w.todo {
						t.Errorf("got %q\n%s\nwant %q\n%s", ml.Subject, norm(ml.Text), w.what, w.todo)
					}
					return
				}
				if got := norm(ml.Board.Headline); got != w.what {
					t.Errorf("headline\n got %s\nwant %s", got, w.what)
				}
				if len(ml.Board.Sections) != 1 || norm(ml.Board.Sections[0].Body) != w.todo {
					t.Errorf("what to do: %+v\nwant %s", ml.Board.Sections, w.todo)
				}
			})
		}
	}
}

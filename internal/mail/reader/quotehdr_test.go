package reader

import (
	"strings"
	"testing"
)

// quoteBody is the quoted mail below each header in TestQuoteHeaders:
// words no list of the reader's knows, without ">" marks, as Outlook and
// Zoho quote.
const quoteBody = "\nWhite played Nf3.\nIt is your move, and the clock runs.\nReferee\n"

// TestQuoteHeaders: the quote headers of the languages correspondence
// players write in, as the common clients write them (one line, wrapped
// over two to four lines, header blocks in any order of their fields), end
// the player's words, with the unmarked quote below them (issue 36). Each
// reply has the move on its first line and two lines of the player's
// below it, which alone are relayed.
func TestQuoteHeaders(t *testing.T) {
	for _, tt := range quoteHeaders {
		t.Run(tt.name, func(t *testing.T) {
			in := "Nf3\nThanks for the game.\nSee you next week!\n\n" + tt.header + "\n" + quoteBody
			a, m := Clean(in)
			if a != "Nf3" || m != "Thanks for the game.\nSee you next week!" {
				t.Errorf("Clean(%q)\n = %q, %q\nwant the move and the player's two lines", in, a, m)
			}
			// Bottom-posting: the header and a ">" quote first, the player's words below
			// (not for Discourse's header: its "|" quote is not skipped above the words).
			in = bottomPosted(tt.header)
			if !strings.Contains(tt.name, "rule") && !strings.Contains(tt.name, "discourse") && !strings.Contains(tt.name, "outlook") && !strings.Contains(tt.name, "hotmail") && !strings.Contains(tt.name, "windows mail") && !strings.Contains(tt.name, "yahoo") && !strings.Contains(tt.name, "subject") {
				if a, m := Clean(in); a != "Nf3" || m != "Thanks for the game." {
					t.Errorf("bottom-posted: Clean(%q)\n = %q, %q", in, a, m)
				}
			}
		})
	}
}

// bottomPosted is a reply with header and a ">" quote first, the move and
// the player's words below.
func bottomPosted(header string) string {
	var quoted []string
	for _, l := range strings.Split(strings.TrimSpace(quoteBody), "\n") {
		quoted = append(quoted, "> "+l)
	}
	return header + "\n" + strings.Join(quoted, "\n") + "\n\nNf3\nThanks for the game.\n"
}

// quoteHeaders are the quote headers of TestQuoteHeaders.
var quoteHeaders = []struct{ name, header string }{
	// English.
	{"en gmail", "On Sun, 22 Nov 2026 at 10:02, Referee <referee+17.abcdefghij.3@example.test> wrote:"},
	{"en gmail wrapped", "On Sun, 22 Nov 2026 at 10:02, Referee <\nreferee+17.abcdefghij.3@example.test> wrote:"},
	{"en apple wrapped", "On 22 Nov 2026, at 10:02, Referee\n<referee@example.test> wrote:"},
	{"en wrapped over four lines", "On Sun, Nov 22, 2026 at 10:02 AM\nReferee\n<referee@example.test>\nwrote:"},
	{"en wrapped with blank lines", "On Thu, 31 Mar 2016 at 11:16 Referee\n\n<\nmailto:Referee <referee@example.test>\n> wrote:"},
	{"en wrote without a colon", "On Sun, 22 Nov 2026 10:02:11 +0100 Referee <referee@example.test> wrote"},
	{"en zoho", "---- On Sun, 22 Nov 2026 10:02:50 +0100 referee@example.test wrote ----"},
	{"en old gmail", "2026-11-22 10:02 GMT+01:00 Referee <referee@example.test>:"},
	{"en old gmail wrapped", "2026-11-22 10:02 GMT+01:00 Referee <\nreferee@example.test>:"},
	{"en a name wrote", "Referee wrote:"},
	{"en outlook", "From: Referee <referee@example.test>\nSent: Sunday, November 22, 2026 10:02 AM\nTo: Alice\nSubject: [chess #17] Move 12"},
	{"en outlook bold", "*From:* Referee [mailto:referee@example.test]\n*Sent:* Sunday, November 22, 2026 10:02 AM\n*To:* Alice\n*Subject:* [chess #17]"},
	{"en hotmail rule, date first", "________________________________\nDate: Sun, 22 Nov 2026 10:02:00 +0100\nSubject: [chess #17]\nFrom: referee@example.test\nTo: alice@example.org"},
	{"en hotmail without the rule", "Date: Sun, 22 Nov 2026 10:02:00 +0100\nSubject: [chess #17]\nFrom: referee@example.test\nTo: alice@example.org"},
	{"en outlook mobile dash line", " ------------------------------\nOn Sun, Nov 22, 2026 at 10:02 AM +0100, \"Referee\" <referee@example.test> wrote:"},
	{"en wrapped subject", "From: Referee\nSent: Sunday\nSubject: [chess #17] a subject that\nspans over 2 lines\nTo: Alice"},
	{"en hotmail wrapped subject", "Date: Sun, 22 Nov 2026 10:02:00 +0100\nSubject: [chess #17] Move 12: your turn, and a subject that\nwraps\nFrom: referee@example.test\nTo: alice@example.org"},
	{"en rule of four dashes", "----\nFrom: Referee <referee@example.test>"},
	{"en rule of equals signs", "==========\nFrom: Referee <referee@example.test>"},
	{"en rule of em dashes", "——————————\nFrom: Referee <referee@example.test>"},
	{"en rule of en dashes", "––––––––––\nFrom: Referee <referee@example.test>"},
	{"en rule of box-drawing lines", "──────────\nFrom: Referee <referee@example.test>"},
	{"en rule of spaced underscores", "_ _ _ _ _ _\nFrom: Referee <referee@example.test>"},
	// Discourse's header above "|" quotes: an address and a date, no colon.
	{"en discourse", "2026/11/22 Referee via Discourse <referee@example.test>\n| White played Nf3."},
	{"en outlook one line", "From: Referee <referee@example.test> Sent: Sunday, 22 November 2026 10:02 To: Alice Subject: [chess #17]"},
	{"en forwarded rule", "-------- Original message --------\nFrom: Referee"},
	// German.
	{"de gmail", "Am So., 22. Nov. 2026 um 10:02 Uhr schrieb Referee <referee@example.test>:"},
	{"de gmail name first wrapped", "Referee <referee@example.test> schrieb am So., 22.\nNov. 2026, 10:02:"},
	{"de outlook", "Von: Referee <referee@example.test>\nGesendet: Sonntag, 22. November 2026 10:02\nAn: Alice\nBetreff: [chess #17]"},
	{"de rule", "-----Ursprüngliche Nachricht-----\nVon: Referee"},
	// French.
	{"fr gmail", "Le dim. 22 nov. 2026 à 10:02, Referee <referee@example.test> a écrit :"},
	{"fr wrapped over three lines", "Le dim. 22 nov. 2026 à 10:02, Referee <\nreferee@example.test> a\nécrit :"},
	{"fr outlook", "De : Referee <referee@example.test>\nEnvoyé : dimanche 22 novembre 2026 10:02\nÀ : Alice\nObjet : [chess #17]"},
	{"fr outlook web, another order", "De : Referee<mailto:referee@example.test>\nEnvoyé le :dimanche 22 novembre 2026 10:02\nÀ : alice@example.org<mailto:alice@example.org>\nObjet : [chess #17]"},
	{"fr yahoo", "De : Referee <referee@example.test>\nÀ : Alice <alice@example.org>\nEnvoyé le : Dimanche 22 novembre 2026 10h02\nObjet : [chess #17]"},
	// Yahoo's order (From, To, Sent, Subject), a list of recipients
	// wrapped over three lines: the sender and the recipients suffice.
	{"fr yahoo, recipients wrapped", "De : Referee <referee@example.test>\nÀ : Alice <alice@example.org>, Bob <bob@example.org>,\nCarol <carol@example.org>,\nDave <dave@example.org>\nEnvoyé le : Dimanche 22 novembre 2026 10h02\nObjet : [chess #17]"},
	{"fr zimbra", "- Le 2026-11-22 10:02, Referee a écrit :"},
	{"fr rule", "-------- Message d'origine --------\nDe : Referee"},
	// Spanish.
	{"es gmail", "El dom, 22 nov 2026 a las 10:02, Referee (<referee@example.test>) escribió:"},
	{"es outlook", "De: Referee <referee@example.test>\nEnviado: domingo, 22 de noviembre de 2026 10:02\nPara: Alice\nAsunto: [chess #17]"},
	// Italian.
	{"it gmail", "Il giorno dom 22 nov 2026 alle ore 10:02 Referee <referee@example.test> ha scritto:"},
	{"it in data", "In data 22 novembre 2026 10:02:31 \"Referee\" <referee@example.test> ha scritto:"},
	{"it outlook", "Da: Referee <referee@example.test>\nInviato: domenica 22 novembre 2026 10:02\nA: Alice\nOggetto: [chess #17]"},
	// Portuguese.
	{"pt gmail", "Em dom., 22 de nov. de 2026 às 10:02, Referee <referee@example.test> escreveu:"},
	{"pt outlook", "De: Referee <referee@example.test>\nEnviado: domingo, 22 de novembro de 2026 10:02\nPara: Alice\nAssunto: [chess #17]"},
	// Dutch.
	{"nl gmail", "Op zo 22 nov. 2026 om 10:02 schreef Referee <referee@example.test>:"},
	{"nl apple", "Op 22 nov. 2026 om 10:02 heeft Referee <referee@example.test> het\nvolgende geschreven:"},
	{"nl outlook", "Van: Referee <referee@example.test>\nVerzonden: zondag 22 november 2026 10:02\nAan: Alice\nOnderwerp: [chess #17]"},
	// Polish.
	{"pl gmail", "W dniu 22.11.2026 o 10:02, Referee <referee@example.test> pisze:"},
	{"pl dnia", "Dnia 22 listopada 2026 10:02 Referee <referee@example.test> napisał(a):"},
	{"pl dnia wrapped", "Dnia 22 listopada 2026 10:02 Referee\n<referee@example.test> napisał(a):"},
	{"pl outlook", "Od: Referee <referee@example.test>\nWysłano: niedziela, 22 listopada 2026 10:02\nDo: Alice\nTemat: [chess #17]"},
	// Russian.
	{"ru gmail", "вс, 22 нояб. 2026 г. в 10:02, Referee <referee@example.test>:"},
	{"ru mail.ru", "22.11.2026, 10:02, \"Referee\" <referee@example.test> написал(а):"},
	{"ru android wrapped", "22.11.2026 10:02 пользователь \"Referee\" <\nreferee@example.test> написал:"},
	{"ru windows mail", "От: Referee\nОтправлено: 22 ноября 2026 г. 10:02\nКому: Alice\nТема: [chess #17]"},
	{"ru windows mail without spaces", "От:Referee\nОтправлено:воскресенье, 22 ноября 2026 г. 10:02\nКому:Alice"},
	// Ukrainian.
	{"uk gmail", "нд, 22 лист. 2026 р. о 10:02 Referee <referee@example.test> пише:"},
	{"uk android", "22 лист. 2026 р. 10:02 \"Referee\" <referee@example.test> пише:"},
	{"uk outlook", "Від: Referee <referee@example.test>\nНадіслано: 22 листопада 2026 р. 10:02\nКому: Alice\nТема: [chess #17]"},
	// Czech.
	{"cs gmail", "ne 22. 11. 2026 v 10:02 odesílatel Referee <referee@example.test> napsal:"},
	{"cs outlook", "Od: Referee <referee@example.test>\nOdesláno: neděle 22. listopadu 2026 10:02\nKomu: Alice\nPředmět: [chess #17]"},
	// Hungarian.
	{"hu gmail", "Referee <referee@example.test> ezt írta (időpont: 2026. nov. 22., V, 10:02):"},
	{"hu outlook", "Feladó: Referee <referee@example.test>\nElküldve: 2026. november 22. 10:02\nCímzett: Alice\nTárgy: [chess #17]"},
	// Swedish.
	{"sv gmail", "Den sön 22 nov. 2026 kl 10:02 skrev Referee <referee@example.test>:"},
	{"sv outlook", "Från: Referee <referee@example.test>\nSkickat: den 22 november 2026 10:02\nTill: Alice\nÄmne: [chess #17]"},
	// Danish.
	{"da gmail", "Den søn. 22. nov. 2026 kl. 10.02 skrev Referee <referee@example.test>:"},
	{"da rule", "-------- Oprindelig besked --------\nFra: Referee"},
	{"da outlook", "Fra: Referee <referee@example.test>\nSendt: 22. november 2026 10:02\nTil: Alice\nEmne: [chess #17]"},
	// Norwegian.
	{"no gmail", "søn. 22. nov. 2026 kl. 10:02 skrev Referee <referee@example.test>:"},
	{"no gmail wrapped", "søn. 22. nov. 2026 kl. 10:02 skrev Referee <referee@example.test\n>:"},
	// Finnish.
	{"fi gmail", "su 22. marrask. 2026 klo 10.02 Referee (referee@example.test) kirjoitti:"},
	{"fi wrapped", "su 22. marraskuuta 2026 klo 10.02 Referee\n<referee@example.test> kirjoitti:"},
	{"fi outlook", "Lähettäjä: Referee <referee@example.test>\nLähetetty: sunnuntai 22. marraskuuta 2026 10.02\nVastaanottaja: Alice\nAihe: [chess #17]"},
	// Turkish.
	{"tr gmail", "Referee <referee@example.test>, 22 Kas 2026 Paz, 10:02 tarihinde şunu yazdı:"},
	{"tr outlook", "Kimden: Referee <referee@example.test>\nGönderildi: 22 Kasım 2026 Pazar 10:02\nKime: Alice\nKonu: [chess #17]"},
	// Chinese.
	{"zh gmail", "Referee <referee@example.test> 于2026年11月22日周日 10:02写道："},
	{"zh outlook", "发件人: Referee <referee@example.test>\n发送时间: 2026年11月22日 10:02\n收件人: Alice\n主题: [chess #17]"},
	{"zh outlook full-width colons", "发件人：Referee <referee@example.test>\n发送时间：2026年11月22日 10:02\n收件人：Alice\n主题：[chess #17]"},
	{"zh-tw outlook", "寄件者: Referee <referee@example.test>\n寄件日期: 2026年11月22日 上午 10:02\n收件者: Alice\n主旨: [chess #17]"},
	// Japanese.
	{"ja gmail", "2026年11月22日(日) 10:02 Referee <referee@example.test>:"},
	{"ja outlook", "差出人: Referee <referee@example.test>\n送信日時: 2026年11月22日 10:02\n宛先: Alice\n件名: [chess #17]"},
}

// TestClientFooters: the footers clients add below the player's words end
// them: what follows is the client's quote (issue 36).
func TestClientFooters(t *testing.T) {
	for _, f := range []string{
		"Sent from my iPhone", "Sent from TypeApp<http://www.typeapp.com/r?b=2621>", "Sent from Mail for Windows",
		"Sent from Yahoo Mail on Android", "Sent with ProtonMail Secure Email.", "Get Outlook for Android<https://aka.ms/ghei36>",
		"Get Outlook for iOS", "Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>", "Envoyé de mon iPhone",
		"Envoyé depuis mon iPhone", "Gesendet von Outlook für Android<https://aka.ms/AAb9ysg>", "Von meinem iPhone gesendet",
		"Enviado desde mi iPhone", "Enviado do meu iPhone", "Inviato da iPhone", "Verzonden vanaf mijn iPhone",
		"Skickat från min iPhone", "Sendt fra min iPad", "Lähetetty iPhonesta", "Wysłane z iPhone'a", "Odesláno z iPhonu",
		"Отправлено с iPhone", "Надіслано з iPhone", "iPhone'umdan gönderildi", "发自我的iPhone", "從我的 iPhone 傳送", "iPhoneから送信",
	} {
		in := "Nf3\nThanks for the game.\n\n" + f + "\n\nWhite played Nf3.\nIt is your move."
		if a, m := Clean(in); a != "Nf3" || m != "Thanks for the game." {
			t.Errorf("footer %q: Clean = %q, %q", f, a, m)
		}
	}
}

// TestWrappedAttributionLimits: an attribution wrapped over lines is
// joined over at most four lines and two blank lines, from a first line of
// 12 characters to 300 bytes, each later line up to 300 bytes. Within these
// bounds no line of the header is relayed; past them, a line of the
// player's with a date on it is not taken for a header's beginning.
func TestWrappedAttributionLimits(t *testing.T) {
	const attr = "On Sun, 22 Nov 2026 at 10:02, Referee <referee@example.test> wrote:"
	long := func(prefix, suffix string, n int) string {
		return fill(prefix, "Fernschach Referee Kommission ", suffix, n)
	}
	tests := []struct{ name, reply, message string }{
		// Apple Mail wraps after the date when the name is long.
		{"a first line of 12 characters", "On 22.11.26,\nat 10:02, Referee <referee@example.test> wrote:", ""},
		{"a first line of 300 bytes", long("On Sun, 22 Nov 2026 at 10:02, ", "", 300) + "\n<referee@example.test> wrote:", ""},
		{"a first line of 301 bytes is the player's", long("On Sun, 22 Nov 2026 at 10:02, ", "", 301) + "\n<referee@example.test> wrote:",
			long("On Sun, 22 Nov 2026 at 10:02, ", "", 301)},
		{"a second line of 300 bytes", "On Sun, 22 Nov 2026 at 10:02,\n" + long("", " <referee@example.test> wrote:", 300), ""},
		// Outlook's conversion of Gmail's attribution puts blank lines
		// around the address.
		{"two blank lines inside", "On Thu, 31 Mar 2016 at 11:16 Referee\n\n<\n\nreferee@example.test> wrote:", ""},
		// The player's lines with a date above a quote.
		{"a date three blank lines above an attribution", "I'm away until 30.11.\n\n\n\n" + attr, "I'm away until 30.11."},
		{"a date four lines above an attribution", "Next round starts 01.12.2026\nI'll be travelling\nbut will reply\nas usual\n" + attr,
			"Next round starts 01.12.2026\nI'll be travelling\nbut will reply\nas usual"},
	}
	for _, tt := range tests {
		in := "Nf3\nThanks for the game.\n\n" + tt.reply + "\n" + quoteBody
		want := "Thanks for the game."
		if tt.message != "" {
			want += "\n\n" + tt.message
		}
		if a, m := Clean(in); a != "Nf3" || m != want {
			t.Errorf("%s: Clean(%q)\n = %q, %q\nwant Nf3, %q", tt.name, in, a, m, want)
		}
		if tt.message != "" {
			continue
		}
		// Bottom-posting: the header above the ">" quote is skipped
		// with it, and the move below is the action.
		in = bottomPosted(tt.reply)
		if a, m := Clean(in); a != "Nf3" || m != "Thanks for the game." {
			t.Errorf("%s, bottom-posted: Clean(%q)\n = %q, %q", tt.name, in, a, m)
		}
	}
}

// TestWrappedHeaderAboveCut: an attribution whose first line carries a
// quote mark and whose rest the client rewrapped without one (Outlook
// rewraps quoted lines at 76 columns) is dropped whole, the line in the
// middle of it included; a line that ends a sentence above the attribution
// is the player's. A line that begins a quote or ends the player's words
// on its own (an attribution, a footer, a line introducing ">" lines) is no
// header's first line: the player's words below it are kept.
func TestWrappedHeaderAboveCut(t *testing.T) {
	tests := []struct {
		name, in, action, message string
	}{
		{"one line between", "Nf3\n\nGood game so far.\n> On Sunday, 22 November 2026 at 10:02:15 CET, Chess\nReferee\n<referee@example.test> wrote:\n> Game #12 - Bob vs Alice\n",
			"Nf3", "Good game so far."},
		{"two lines between", "Nf3\n\nGood game so far.\n> On Sunday, 22 November 2026 at 10:02:15 CET, The\nChess\nReferee\n<referee@example.test> wrote:\n> Game #12 - Bob vs Alice\n",
			"Nf3", "Good game so far."},
		{"a sentence between", "Nf3\n\nGood game so far.\n> On Sunday, 22 November 2026 at 10:02:15 CET, Chess\nReferee Ltd.\n<referee@example.test> wrote:\n> Game #12 - Bob vs Alice\n",
			"Nf3", "Good game so far.\nReferee Ltd."},
		{"below an attribution", "On Sun, 22 Nov 2026 at 10:02, Referee <referee@example.test> wrote:\ne4\nthanks\nOn Sat, 21 Nov 2026 at 09:00, Bob <bob@example.test> wrote:\n> hi",
			"e4", "thanks"},
		{"below a footer", "Sent from my iPhone 22.11.2026\ne4\nthanks\nBob <bob@example.test> wrote:\n> hi",
			"e4", "thanks"},
		{"below a line introducing a quote", "22.11.2026 10:02 Referee:\n> Game #12\ne4\nBob <bob@example.test> wrote:\n> hi",
			"e4", ""},
	}
	for _, tt := range tests {
		action, message := Clean(tt.in)
		if action != tt.action || message != tt.message {
			t.Errorf("%s: Clean = %q, %q, want %q, %q", tt.name, action, message, tt.action, tt.message)
		}
	}
}

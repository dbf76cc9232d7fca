package notation

import (
	"errors"
	"testing"

	"referee/internal/lang"
	"referee/internal/rules"
)

// TestErrorTextIsTheReason (issue 42): an Error's text for readers of
// other languages is its English reason, written otherwise: in English,
// Why is Reason (after "was not played: " where Kind is NotPlayed) and
// Text is Error, so that logs and mails can never say two things; in
// German the catalog's words are used, and the moves, squares and input
// quoted stay as they are.
func TestErrorTextIsTheReason(t *testing.T) {
	de := lang.MustLoad().Printer("de")
	tests := []struct {
		fen, line, lang string
		kind            ErrorKind
		german          string // the German Why
	}{
		{"", "Bc4", "", NotPlayed, "Ihre Figur auf f1 (Läufer) kann nicht nach c4 ziehen: Eine Figur steht im Weg (oder der Zug geht nur als Schlagzug)."},
		{"", "Lc4", "de", NotPlayed, "Ihre Figur auf f1 (Läufer) kann nicht nach c4 ziehen: Eine Figur steht im Weg (oder der Zug geht nur als Schlagzug). (L steht auf Deutsch für Läufer.)"},
		{"", "Sxf3", "de", NotPlayed, "Er ist als Schlagzug geschrieben, aber Sf3 schlägt nichts (f3 ist leer). Antworten Sie \"Sf3\", wenn das Ihr Zug ist."},
		{"", "3. e4", "", NotPlayed, "Er trägt die Nummer 3, aber die Partie steht bei Zug 1 (Weiß am Zug). Senden Sie den Zug ohne Nummer, z. B. \"e4\", oder mit der Nummer dieses Zuges, \"1. e4\"."},
		{"", "Nf3 thanks", "", NotPlayed, "Der Schiedsrichter hat \"Nf3\" als Zug gelesen, aber \"thanks\" danach nicht verstanden. Senden Sie den Zug allein in der ersten Zeile, z. B. \"Sf3\", und alles andere in den Zeilen darunter (sie werden an Ihren Gegner weitergegeben)."},
		{"", "Zf3", "", NotPlayed, "Schach hat keine Figur mit dem Buchstaben Z (Figuren: K Q R B N; Bauernzüge werden ohne Buchstaben geschrieben, z. B. \"a3\")."},
		{"", "Nz9", "", Unread, "nennt z9, das kein Feld dieses Bretts ist (Linien a-h, Reihen 1-8)"},
		{"", "5291", "", Unread, "liest sich als ICCF-Ziffernnotation, aber 91 nennt kein Feld: Ein Feld sind zwei Ziffern, seine Linie (1 für a ... 8 für h) und seine Reihe (1 bis 8), z. B. \"5254\" für e2-e4"},
		{"4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1", "Sb5", "de", Ambiguous, "S steht auf Deutsch für Springer"},
		{"4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1", "Nb5", "", Ambiguous, ""},
	}
	for _, tt := range tests {
		fen := tt.fen
		if fen == "" {
			fen = rules.Chess().Start().String()
		}
		_, err := ReadFor(pos(t, fen), tt.line, Options{Language: tt.lang})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want an *Error", tt.line, err)
			continue
		}
		if e.Kind != tt.kind {
			t.Errorf("%q: kind %d, want %d", tt.line, e.Kind, tt.kind)
		}
		english := rules.English(e.Why)
		switch e.Kind {
		case NotPlayed:
			english = "was not played: " + english
		case Ambiguous:
			english = "more than one legal move fits"
			if e.Why != nil {
				english += ": " + rules.English(e.Why)
			}
		}
		if english != e.Reason {
			t.Errorf("%q: Why in English %q, Reason %q", tt.line, english, e.Reason)
		}
		if got := rules.English(e.Text()); got != e.Error() {
			t.Errorf("%q: Text in English %q, Error %q", tt.line, got, e.Error())
		}
		german := ""
		if e.Why != nil {
			german = e.Why.In(de)
		}
		if german != tt.german {
			t.Errorf("%q: in German %q, want %q", tt.line, german, tt.german)
		}
	}
}

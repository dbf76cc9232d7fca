package reader

import (
	"testing"
)

// TestCleanGreetings: a greeting line before the move is not the action;
// it is relayed with the message. Only clear greetings count: a line with
// a move, a command or castling on it is never one.
func TestCleanGreetings(t *testing.T) {
	tests := []struct {
		name, in, action, message string
	}{
		{"hi and a name", "Hi Bob,\nNc3", "Nc3", "Hi Bob,"},
		{"hello", "Hello,\n\nNc3\nsee you", "Nc3", "Hello,\nsee you"},
		{"dear", "Dear Alice,\nNc3", "Nc3", "Dear Alice,"},
		{"hi alone", "Hi,\ne4", "e4", "Hi,"},
		{"good morning", "Good morning!\nNc3", "Nc3", "Good morning!"},
		{"hey there", "hey there\nO-O", "O-O", "hey there"},
		{"a lone name and a comma", "Bob,\nNc3", "Nc3", "Bob,"},
		{"a double name", "Anne-Marie,\nNc3", "Nc3", "Anne-Marie,"},
		{"two greeting lines", "Hi Bob,\nGood evening!\nresign", "resign", "Hi Bob,\nGood evening!"},
		{"german", "Hallo Bob,\nNf3", "Nf3", "Hallo Bob,"},
		{"greeting then quoted board", "Hi Bob,\nNc3\n> Game #1", "Nc3", "Hi Bob,"},
		// Never a greeting:
		{"a greeting with the move on it", "Hi Bob, Nc3\nthanks", "Hi Bob, Nc3", "thanks"},
		{"a greeting alone is the action", "Hi Bob,", "Hi Bob,", ""},
		{"a move and a comma", "Nc3,\nhi", "Nc3,", "hi"},
		{"castling and a comma", "O-O,\nhi", "O-O,", "hi"},
		{"castling with zeros after hi", "Hi, 0-0\nhi", "Hi, 0-0", "hi"},
		{"castling after hi", "Hi, O-O\nhi", "Hi, O-O", "hi"},
		{"a command and a comma", "Resign,\nI give up", "Resign,", "I give up"},
		{"a command after hi", "Hi Bob, draw?\nNc3", "Hi Bob, draw?", "Nc3"},
		{"pass after hello", "Hello, pass\nsorry", "Hello, pass", "sorry"},
		{"a sentence is not a greeting", "Hi Bob, here is my move for today\nNc3", "Hi Bob, here is my move for today", "Nc3"},
		{"a lower-case word and a comma", "draw,\nok", "draw,", "ok"},
		{"a drop", "N@b3\nhi", "N@b3", "hi"},
		// A greeting is at most 40 characters: a longer line is the player's first words.
		{"a greeting of 40 characters", "Good evening Anne-Marie Dupont-Lefebvre,\nNc3", "Nc3", "Good evening Anne-Marie Dupont-Lefebvre,"},
		{"a greeting of 41 characters", "Good evening, Anne-Marie Dupont-Lefebvre,\nNc3", "Good evening, Anne-Marie Dupont-Lefebvre,", "Nc3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, m := Clean(tt.in)
			if a != tt.action || m != tt.message {
				t.Errorf("Clean(%q)\n = %q, %q\nwant %q, %q", tt.in, a, m, tt.action, tt.message)
			}
		})
	}
}

// TestCleanEmphasis: the marks of bold and italic text around the action
// (or its first word) are taken off; a mark that belongs to the notation
// (Chec Toe's Wizard "*" after the move) and marks that do not pair stay,
// for the notation reader to accept or refuse.
func TestCleanEmphasis(t *testing.T) {
	tests := []struct{ in, action string }{
		{"*Nc3*", "Nc3"},
		{"**Nc3**", "Nc3"},
		{"_Nc3_", "Nc3"},
		{"__Nc3__", "Nc3"},
		{"*_Nc3_*", "Nc3"},
		{"*Nc3* draw", "Nc3 draw"},
		{"*Nc3 draw*", "Nc3 draw"},
		{"*Nc3*, and I offer a draw", "Nc3, and I offer a draw"},
		{"\"*Nc3*\"", "Nc3"},
		{"*Nb3**", "Nb3*"}, // bold Wizard move
		{"Nb3*", "Nb3*"},   // the Wizard mark alone
		{"*Nb3*", "Nb3"},   // bold, no Wizard mark
		{"**Nb3***", "Nb3*"},
		{"*Nc3", "*Nc3"},         // unpaired: kept, and refused by the reader
		{"Nc3_", "Nc3_"},         // unpaired
		{"Nf3\"", "Nf3\""},       // an unpaired quote is not dropped
		{"'Nf3'", "Nf3"},         // paired quotes are
		{"«Nf3»", "Nf3"},         // guillemets
		{"* Nc3 *", "* Nc3 *"},   // stars apart from the word are not emphasis
		{"***\nNc3\n***", "Nc3"}, // an HTML heading's rules
		{"\"", "\""},             // a lone quotation mark, and an empty pair, are kept
		{"''", "''"},
	}
	for _, tt := range tests {
		if a, _ := Clean(tt.in); a != tt.action {
			t.Errorf("Clean(%q) action = %q, want %q", tt.in, a, tt.action)
		}
	}
}

// TestHTMLAction reads HTML-only mails through Read: bold, italic and
// headings leave nothing in the action, and a greeting above the move is
// not the action.
func TestHTMLAction(t *testing.T) {
	tests := []struct{ html, action, message string }{
		{"<b>Nc3</b>", "Nc3", ""},
		{"<strong>Nc3</strong>", "Nc3", ""},
		{"<i>Nc3</i>", "Nc3", ""},
		{"<em>Nc3</em>", "Nc3", ""},
		{"<b><i>Nc3</i></b>", "Nc3", ""},
		{"<b>Nc3</b> draw", "Nc3 draw", ""},
		{"<b>Nb3*</b>", "Nb3*", ""}, // Chec Toe's Wizard mark survives the bold
		{"<h1>Nc3</h1>", "Nc3", ""}, // the old converter's heading rules ("***") no longer appear
		{"<div>Hi Bob,</div><div><b>Nc3</b></div>", "Nc3", "Hi Bob,"},
		{"<p>Hello,<br><strong>Nc3</strong><br>see you</p>", "Nc3", "Hello,\nsee you"},
		// A rule the player drew under the greeting (Thunderbird's Insert,
		// Horizontal Line) is no quote: the move below it is read.
		{"<p>Hi Bob,</p><hr><p>Nc3</p><p>see you</p>", "Nc3", "Hi Bob,\nsee you"},
		// Thunderbird's "Preformat" paragraph: its lines stay as written;
		// after it, line breaks in the HTML source are spaces again.
		{"<pre>Nf3, <b>and I offer a draw</b></pre><div>Thanks for the\ngame.</div>", "Nf3, and I offer a draw", "Thanks for the game."},
	}
	for _, tt := range tests {
		raw := "From: a@b.example\r\nTo: " + base + "\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
			"<html><body>" + tt.html + "</body></html>\r\n"
		m, err := Read([]byte(raw), base, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", tt.html, err)
		}
		if m.Action != tt.action || m.Message != tt.message {
			t.Errorf("%s: text %q read as action %q, message %q; want %q, %q", tt.html, m.Text, m.Action, m.Message, tt.action, tt.message)
		}
	}
}

// TestDamagedContentTypeParameter: a Content-Type whose type is readable
// but whose parameters are damaged (a doubled ";", an unclosed quote, a
// parameter without a value) is read as that type: an HTML-only mail is
// converted, not taken as plain text with its tags as the move. A type that
// cannot be read at all is plain text (RFC 2045 §5.2).
func TestDamagedContentTypeParameter(t *testing.T) {
	tests := []struct{ contentType, action, message string }{
		{"text/html;; charset=utf-8", "Nf3", "see you"},
		{"text/html; charset=\"utf-8", "Nf3", "see you"},
		{"text/html; charset=utf-8; format", "Nf3", "see you"},
		{"text html", "<div>Nf3</div><div>see you</div>", ""},
	}
	for _, tt := range tests {
		raw := "From: a@b.example\r\nTo: " + base + "\r\nSubject: x\r\nContent-Type: " + tt.contentType + "\r\n\r\n" +
			"<div>Nf3</div><div>see you</div>\r\n"
		m, err := Read([]byte(raw), base, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", tt.contentType, err)
		}
		if m.Action != tt.action || m.Message != tt.message {
			t.Errorf("Content-Type %q: read as action %q, message %q; want %q, %q", tt.contentType, m.Action, m.Message, tt.action, tt.message)
		}
	}
}

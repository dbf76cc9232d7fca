package reader

import "testing"

func TestOutlookQuoteHeadersAreNeverRelayed(t *testing.T) {
	// The quoted header an Outlook client writes above the referee's mail
	// is never part of the player's message, whatever its shape.
	const head = "From: bob@example.org\r\nTo: referee+1.abcdefghij.2@example.test\r\nSubject: RE: [chess #1] Move 2\r\nMIME-Version: 1.0\r\n"
	tests := []struct{ name, raw string }{
		{"Outlook on the web (HTML)", head + "Content-Type: text/html; charset=utf-8\r\n\r\n" +
			`<div dir="ltr">Nf3</div><div dir="ltr">Good luck!</div><hr tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Referee &lt;referee+1.abcdefghij.2@example.test&gt;<br><b>Sent:</b> Monday, November 23, 2026 10:00 AM<br><b>To:</b> bob@example.org<br><b>Subject:</b> [chess #1] Move 2</font></div><div>White played e4.</div>`},
		{"Outlook desktop (text)", head + "\r\nNf3\r\nGood luck!\r\n\r\n________________________________\r\nFrom: Referee <referee+1.abcdefghij.2@example.test>\r\nSent: Monday, November 23, 2026 10:00 AM\r\nTo: bob@example.org\r\nSubject: [chess #1] Move 2\r\n\r\nWhite played e4.\r\n"},
		{"one-line header (phone)", head + "\r\nNf3\r\nGood luck!\r\n\r\nFrom: Referee <referee+1.abcdefghij.2@example.test> Sent: Monday, November 23, 2026 10:00:00 AM To: bob@example.org Subject: [chess #1] Move 2\r\n\r\nWhite played e4.\r\n"},
		{"one-line header, bold", head + "Content-Type: text/html; charset=utf-8\r\n\r\n" +
			`<p>Nf3</p><p>Good luck!</p><p><b>From:</b> Referee &lt;referee@example.test&gt; <b>Sent:</b> Monday, November 23, 2026 <b>To:</b> bob@example.org <b>Subject:</b> [chess #1] Move 2</p><p>White played e4.</p>`},
	}
	for _, tt := range tests {
		m, err := Read([]byte(tt.raw), "referee@example.test", Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.Action != "Nf3" || m.Message != "Good luck!" {
			t.Errorf("%s: action %q, message %q; want Nf3 and only the player's words", tt.name, m.Action, m.Message)
		}
	}
}

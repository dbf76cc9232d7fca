package reader

import "testing"

// TestAutoReplyShapes: vacation responders and Outlook's automatic
// replies are automatic (never answered, DESIGN.md "Loops") even when they
// carry none of the standard fields; a player's ordinary reply, even one
// that mentions being out of office, is not.
func TestAutoReplyShapes(t *testing.T) {
	tests := []struct{ name, hdr, want string }{
		{"out of office", "Subject: Out of Office: [chess #1] Move 3: your turn\r\n", `auto-reply subject "Out of Office"`},
		{"out of office, lower case after spaces", "Subject:    out of office until Monday\r\n", `auto-reply subject "out of office"`},
		{"outlook automatic reply", "Subject: Automatic reply: [chess #1] Move 3: your turn\r\n", `auto-reply subject "Automatic reply"`},
		{"outlook, german", "Subject: Automatische Antwort: [chess #1] Zug 3\r\n", `auto-reply subject "Automatische Antwort"`},
		{"auto:", "Subject: AUTO: Alice is away\r\n", `auto-reply subject "AUTO:"`},
		{"autoreply", "Subject: Autoreply: [chess #1]\r\n", `auto-reply subject "Autoreply"`},
		{"auto-reply", "Subject: Auto-Reply: away\r\n", `auto-reply subject "Auto-Reply"`},
		{"autosvar", "Subject: Autosvar: [chess #1]\r\n", `auto-reply subject "Autosvar"`},
		{"abwesenheitsnotiz", "Subject: Abwesenheitsnotiz: [chess #1]\r\n", `auto-reply subject "Abwesenheitsnotiz"`},
		{"absence", "Subject: Absence: [chess #1]\r\n", `auto-reply subject "Absence"`},
		{"french, encoded", "Subject: =?UTF-8?Q?R=C3=A9ponse_automatique_:_[chess_#1]?=\r\n", `auto-reply subject "Réponse automatique"`},
		{"spanish", "Subject: =?UTF-8?Q?Respuesta_autom=C3=A1tica:_[chess_#1]?=\r\n", `auto-reply subject "Respuesta automática"`},
		{"italian", "Subject: Risposta automatica: [chess #1]\r\n", `auto-reply subject "Risposta automatica"`},
		{"dutch", "Subject: Automatisch antwoord: [chess #1]\r\n", `auto-reply subject "Automatisch antwoord"`},
		{"x-autoreply", "Subject: Re: [chess #1]\r\nX-Autoreply: yes\r\n", "X-Autoreply"},
		{"x-autoresponder", "Subject: Re: [chess #1]\r\nX-Autoresponder: yes\r\n", "X-Autoreply"},
		{"outlook rule", "Subject: Re: [chess #1]\r\nX-MS-Exchange-Inbox-Rules-Loop: alice@outlook.example\r\n",
			"Outlook inbox rule (X-MS-Exchange-Inbox-Rules-Loop)"},
		{"exchange agent", "Subject: Re: [chess #1]\r\nX-MS-Exchange-Generated-Message-Source: Mailbox Rules Agent\r\n",
			"X-MS-Exchange-Generated-Message-Source: Mailbox Rules Agent"},
		{"precedence auto_reply", "Subject: away\r\nPrecedence: auto_reply\r\n", "Precedence: auto_reply"},
		// A person's mail.
		{"ordinary reply", "Subject: Re: [chess #1] Move 3: your turn\r\n", ""},
		{"out of office later on", "Subject: Re: [chess #1] Move 3: I am out of office next week\r\n", ""},
		{"a reply to an auto-reply", "Subject: Re: Automatic reply: [chess #1]\r\n", ""},
		{"a word that begins like one", "Subject: Autumn opening\r\n", ""},
		{"x-auto-response-suppress dr only", "Subject: Re: [chess #1]\r\nX-Auto-Response-Suppress: DR, RN, NRN\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte("From: Alice <alice@outlook.example>\r\n"+tt.hdr+"\r\ne4\r\n"), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Automatic != tt.want {
				t.Errorf("Automatic = %q, want %q", m.Automatic, tt.want)
			}
		})
	}
}

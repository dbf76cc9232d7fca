package main

import (
	_ "github.com/emersion/go-imap/v2"
	_ "github.com/emersion/go-imap/v2/imapclient"
	_ "github.com/emersion/go-imap/v2/imapserver"
	_ "github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	_ "github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset"
	_ "github.com/emersion/go-message/mail"
	_ "github.com/emersion/go-msgauth/authres"
	_ "github.com/emersion/go-msgauth/dkim"
	_ "github.com/emersion/go-sasl"
	_ "github.com/emersion/go-smtp"
	_ "github.com/inbucket/html2text"
	_ "github.com/mattn/go-sqlite3"
	_ "golang.org/x/image/font/basicfont"
	_ "golang.org/x/image/font/gofont/gomono"
	_ "golang.org/x/image/font/opentype"
	_ "golang.org/x/text/encoding"
)

func main() {}

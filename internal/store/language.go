package store

import "time"

// Schema version 26 (schema_26_player_language.sql) added the players'
// languages to player_settings, and version 27
// (schema_27_language_hint.sql) the hint of a language, told once.

// Language is the language tag the player at address set (lang.Tag: a
// code, with "-x-fig" when they asked for figurines; "" for none).
func (t *Tx) Language(address string) (string, error) {
	return t.playerSetting("language", "the language", address)
}

// SetLanguage records the language of the player at address (a code of
// notation.Languages, or its lang.Tag: "de-x-fig" when they asked for
// figurines, "x-fig" for figurines without a language), for all their
// games.
func (t *Tx) SetLanguage(address, code string, now time.Time) error {
	return t.setPlayerSetting("language", "the language", address, code, now)
}

// LanguageHint is the codes of the languages the player at address was
// told how to set, space-separated ("" when never told).
func (t *Tx) LanguageHint(address string) (string, error) {
	return t.playerSetting("language_hint", "the language hint", address)
}

// SetLanguageHint records that the player at address was told how to set
// the languages codes (space-separated).
func (t *Tx) SetLanguageHint(address, codes string, now time.Time) error {
	return t.setPlayerSetting("language_hint", "the language hint", address, codes, now)
}

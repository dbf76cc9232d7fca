// Package referee holds what the module's root carries for the binary: the
// SQLite schema, embedded so that the store can apply it on first use.
package referee

import _ "embed"

// Schema is schema.sql: version 1 of the database schema.
//
//go:embed schema.sql
var Schema string

// Package referee holds what the module's root carries for the binary: the
// SQLite schema, embedded so that the store can apply it on first use.
package referee

import _ "embed"

// Schema is schema.sql: version 1 of the database schema.
//
//go:embed schema.sql
var Schema string

// Migrations are the changes after version 1, in order: Migrations[0]
// brings a database from version 1 to 2, and so on.
var Migrations = []string{schema2}

//go:embed schema_2.sql
var schema2 string

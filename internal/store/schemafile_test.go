package store

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var updateSchema = flag.Bool("update", false, "rewrite schema.sql at the repository root from a new database")

// schemaPath is the repository's schema.sql, for readers: the whole
// current schema as a new database holds it.
const schemaPath = "../../schema.sql"

const schemaHeader = `-- The referee's whole current SQLite schema, as a new database holds it
-- after every migration of internal/store (schema_N_*.sql) has run: for
-- readers, who would otherwise piece a table together from the
-- migrations. It is written by a test
-- (go test ./internal/store -run TestSchemaFile -update) and checked
-- against a new database by every go test; the migrations, not this file,
-- create and upgrade databases. Times are INTEGER Unix milliseconds, UTC.
--
`

// dumpSchema writes the CREATE statements of db, tables first, each
// followed by its indexes and triggers, as SQLite keeps them.
func dumpSchema(t *testing.T, db *sql.DB, version int) string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, tbl_name, sql FROM sqlite_master
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
		ORDER BY tbl_name, CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString(schemaHeader)
	fmt.Fprintf(&b, "-- Schema version %d (PRAGMA user_version).\n", version)
	for rows.Next() {
		var typ, name, table, q string
		if err := rows.Scan(&typ, &name, &table, &q); err != nil {
			t.Fatal(err)
		}
		if typ == "table" {
			b.WriteString("\n")
		}
		b.WriteString(q + ";\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSchemaFile: schema.sql is what a new database holds, and running it
// on an empty database gives the same tables and indexes.
func TestSchemaFile(t *testing.T) {
	fresh, _ := openTemp(t)
	want := dumpSchema(t, fresh.db, len(migrations()))
	if *updateSchema {
		if err := os.WriteFile(schemaPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatalf("%v: write it with go test ./internal/store -run TestSchemaFile -update", err)
	}
	if string(got) != want {
		t.Fatalf("schema.sql differs from a new database's schema: rewrite it with\n"+
			"  go test ./internal/store -run TestSchemaFile -update\nand review the diff. A new database holds:\n%s", want)
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "from-schema-sql.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(got)); err != nil {
		t.Fatalf("schema.sql does not run on an empty database: %v", err)
	}
	if a, b := schemaOf(t, db), schemaOf(t, fresh.db); !slices.Equal(a, b) {
		t.Errorf("a database made from schema.sql differs from a new one:\n got %q\nwant %q", a, b)
	}
}

// TestMigrationHeadersNameTheirVersion: each schema_N_*.sql file after the
// first opens with "-- Schema version N:", so that a reader is not told
// the wrong version (ten files said so after renumbering at merges).
func TestMigrationHeadersNameTheirVersion(t *testing.T) {
	names, err := filepath.Glob("schema_*.sql")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^schema_([0-9]+)_`)
	for _, name := range names {
		n := re.FindStringSubmatch(name)[1]
		if n == "1" {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := bufio.NewReader(f).ReadString('\n')
		f.Close()
		if want := "-- Schema version " + n + ":"; !strings.HasPrefix(first, want) {
			t.Errorf("%s opens with %q, want %q", name, strings.TrimSpace(first), want)
		}
	}
}

package store

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// schemaFiles are the database schema's versions, one file each, all in
// this directory: schema_N_WHAT.sql brings a database from user_version
// N-1 to N (schema_1_initial.sql creates it). A new version is a new file
// with the next N; nothing else lists them.
//
//go:embed schema_*.sql
var schemaFiles embed.FS

// migrations[i] brings a database from user_version i to i+1: the text of
// schema_{i+1}_*.sql. The files are numbered 1, 2, 3, ... without gap or
// repeat (TestMigrationsAreNumberedInOrder); they are part of the binary,
// so a wrong name is a programming error and panics on first use.
func migrations() []string {
	ms, err := readMigrations(schemaFiles)
	if err != nil {
		panic(err)
	}
	return ms
}

// readMigrations reads the files schema_N_*.sql of fsys in order of N and
// checks that N runs 1, 2, 3, ... without gap or repeat.
func readMigrations(fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "schema_*.sql")
	if err != nil {
		return nil, fmt.Errorf("listing the schema files: %w", err)
	}
	type file struct {
		version int
		name    string
	}
	files := make([]file, 0, len(names))
	for _, name := range names {
		num, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(name, "schema_"), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("schema file %s: the name does not start with schema_N_ (N = 1, 2, ...): name it schema_<version>_<what>.sql", name)
		}
		files = append(files, file{v, name})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].version < files[j].version })
	ms := make([]string, 0, len(files))
	for i, f := range files {
		if f.version != i+1 {
			return nil, fmt.Errorf("schema file %s: version %d where version %d was expected (the versions must run 1, 2, 3, ... without gap or repeat): renumber it", f.name, f.version, i+1)
		}
		b, err := fs.ReadFile(fsys, f.name)
		if err != nil {
			return nil, fmt.Errorf("reading schema file %s: %w", f.name, err)
		}
		ms = append(ms, string(b))
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no schema file schema_1_*.sql: the schema is missing from the build")
	}
	return ms, nil
}

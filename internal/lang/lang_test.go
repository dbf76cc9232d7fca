package lang

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// mustRead reads every catalog file.
func mustRead(t *testing.T) map[string]map[string]Entry {
	t.Helper()
	out := map[string]map[string]Entry{}
	for _, code := range Codes() {
		m, err := ReadFile(code)
		if err != nil {
			t.Fatal(err)
		}
		out[code] = m
	}
	return out
}

// TestCatalogLoads: every file is valid JSON, every plural form is one
// the language has, and the catalog builds.
func TestCatalogLoads(t *testing.T) {
	if _, err := Load(); err != nil {
		t.Fatal(err)
	}
}

// TestEveryMessageInEveryLanguage: each file has exactly the English
// master list's keys, a text for each (no empty one), plural where the
// master list is plural, and no "${" (the catalog's own substitution).
func TestEveryMessageInEveryLanguage(t *testing.T) {
	files := mustRead(t)
	master := files[English]
	for code, m := range files {
		if code == English {
			continue
		}
		for key, me := range master {
			e, ok := m[key]
			switch {
			case !ok:
				t.Errorf("locales/%s.json lacks %q", code, key)
			case me.Plural() != e.Plural():
				t.Errorf("locales/%s.json, %q: plural in one file and not in the other", code, key)
			case !e.Plural() && strings.TrimSpace(e.Text) == "":
				t.Errorf("locales/%s.json, %q: empty", code, key)
			case e.Plural() && e.Arg != me.Arg:
				t.Errorf("locales/%s.json, %q: the count is argument %d, in English %d", code, key, e.Arg, me.Arg)
			}
			for _, s := range append([]string{e.Text}, slices.Collect(maps.Values(e.Forms))...) {
				if strings.Contains(s, "${") {
					t.Errorf("locales/%s.json, %q: \"${\" is the catalog's substitution", code, key)
				}
			}
		}
		for key := range m {
			if _, ok := master[key]; !ok {
				t.Errorf("locales/%s.json has %q, which the master list locales/en.json does not", code, key)
			}
		}
	}
}

var verbRE = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*(\d+|\*)?(\.(\d+|\*))?(\[(\d+)\])?([a-zA-Z%])`)

// verbs lists the formatting verbs of s with the argument each formats
// ("1:q", "2:d"), sorted: two texts format the same arguments the same way
// when their lists are equal, whatever their order.
func verbs(s string) []string {
	var out []string
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		if m[8] == "%" {
			continue
		}
		n := next
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		} else if m[7] != "" {
			n, _ = strconv.Atoi(m[7])
		}
		out = append(out, fmt.Sprintf("%d:%s", n, m[8]))
		next = n + 1
	}
	sort.Strings(out)
	return out
}

func TestVerbs(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string
	}{
		{"Your move %q (game #%d) was not played: %s", "1:q 2:d 3:s"},
		{"%[3]s: %[1]q, #%[2]d", "1:q 2:d 3:s"},
		{"100%% %d", "1:d"},
		{"%-10s|%5.2f", "1:s 2:f"},
	} {
		if got := strings.Join(verbs(c.s), " "); got != c.want {
			t.Errorf("verbs(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestSameVerbs: a translation formats the same arguments with the same
// verbs as its key (in any order); every plural form does too.
func TestSameVerbs(t *testing.T) {
	files := mustRead(t)
	for code, m := range files {
		for key, e := range m {
			want := verbs(key)
			texts := map[string]string{}
			if e.Plural() {
				for f, s := range e.Forms {
					texts["form "+f] = s
				}
			} else if code != English {
				texts["text"] = e.Text
			}
			for where, s := range texts {
				if got := verbs(s); !slices.Equal(got, want) {
					t.Errorf("locales/%s.json, %q, %s %q: verbs %v, the key's %v", code, key, where, s, got, want)
				}
			}
		}
	}
}

// cldrForms are the plural categories CLDR gives a language's whole
// numbers (counts are whole), and "other", the catch-all every language
// has (for fractions in Polish and Russian).
func cldrForms(code string) []string {
	tag := language.MustParse(code)
	names := map[plural.Form]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many"}
	set := map[string]bool{"other": true}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 100, 101, 102, 111, 1000, 1000000, 2000000} {
		for i := n; i < n+30; i++ {
			set[names[plural.Cardinal.MatchPlural(tag, i, 0, 0, 0, 0)]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestPluralCategories: each plural entry has exactly the categories CLDR
// gives its language: Polish and Russian one, few, many and other;
// English and German one and other.
func TestPluralCategories(t *testing.T) {
	if got := strings.Join(cldrForms("pl"), " "); got != "few many one other" {
		t.Errorf("Polish has %s", got)
	}
	if got := strings.Join(cldrForms("de"), " "); got != "one other" {
		t.Errorf("German has %s", got)
	}
	files := mustRead(t)
	for code, m := range files {
		want := cldrForms(code)
		for key, e := range m {
			if !e.Plural() {
				continue
			}
			if got := slices.Sorted(maps.Keys(e.Forms)); !slices.Equal(got, want) {
				t.Errorf("locales/%s.json, %q: forms %v, the language has %v", code, key, got, want)
			}
		}
	}
}

// sourceKeys are the keys the Go sources pass to the printer: the first
// argument of a Sprintf call on anything but package fmt, and of lang.M.
// A key that is not a constant string cannot be checked: it is an error.
func sourceKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || path == filepath.Join(root, "internal", "lang") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, _ := sel.X.(*ast.Ident)
				printer := sel.Sel.Name == "Sprintf" && (x == nil || x.Name != "fmt")
				msg := sel.Sel.Name == "M" && x != nil && x.Name == "lang"
				if !printer && !msg {
					return true
				}
				where := fset.Position(call.Pos()).String()
				s, ok := constString(call.Args[0])
				if !ok {
					t.Errorf("%s: the message key is not a constant string, so the master list cannot be checked against it", where)
					return true
				}
				keys[s] = where
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// constString is the value of a string literal or a sum of them.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := constString(e.X)
		b, ok2 := constString(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

// TestMasterListIsTheSources keeps the English master list honest: every
// key the sources pass to a printer is in locales/en.json (so every
// language has it), and every key there is still used.
func TestMasterListIsTheSources(t *testing.T) {
	used := sourceKeys(t)
	master, err := ReadFile(English)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(used)) {
		if _, ok := master[k]; !ok {
			t.Errorf("%s: %q is not in locales/en.json", used[k], k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(master)) {
		if _, ok := used[k]; !ok {
			t.Errorf("locales/en.json has %q, which no source passes to a printer", k)
		}
	}
}

// TestPrinter: English writes the key; another language its text, with
// the plural form of the count, and numbers as fmt writes them (no
// grouping: a game number is copied into commands).
func TestPrinter(t *testing.T) {
	c := MustLoad()
	var nilp *Printer
	if got := nilp.Sprintf("Game #%d", 12345); got != "Game #12345" {
		t.Errorf("nil printer: %q", got)
	}
	if got := c.Printer("xx").Code(); got != English {
		t.Errorf("unknown code: printer of %q", got)
	}
	if got := Join(" ", Raw("a"), nil, M(""), Raw("b")).In(nil); got != "a b" {
		t.Errorf("Join: %q", got)
	}
}

// TestWhy: an error's reason for a reader is the Text of the *Error it
// is or wraps (written in the reader's language), else its own words;
// its Error() is the English, and it unwraps to its cause.
func TestWhy(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	de := c.Printer("de")
	cause := fmt.Errorf("net: closed")
	e := &Error{Why: M("king"), Err: cause}
	for _, tc := range []struct {
		err    error
		de, en string
	}{
		{e, "König", "king"},
		{fmt.Errorf("reading the name: %w", e), "König", "reading the name: king"},
		{cause, "net: closed", "net: closed"},
	} {
		if got := Why(tc.err).In(de); got != tc.de {
			t.Errorf("Why(%v) in German = %q, want %q", tc.err, got, tc.de)
		}
		if got := tc.err.Error(); got != tc.en {
			t.Errorf("Error() = %q, want %q", got, tc.en)
		}
	}
	if !errors.Is(e, cause) {
		t.Error("the Error does not unwrap to its cause")
	}
}

package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// verbCommands are the commands made of verbs, each verb with its own
// flags. A new one is added here, and its verbs' file to verbFiles.
func verbCommands() []verbCommand {
	return []verbCommand{eventCommand(), playerCommand()}
}

// verbFiles are the files that define the verbs' flags.
var verbFiles = []string{"event.go", "player.go"}

// TestVerbsOwnTheirFlags (issue 40): no verb accepts a flag it ignores.
//
// The proof has two halves. At run time: every verb of every command
// defines its flags on a flag set of its own, so its --help lists exactly
// those flags, and every flag of a sibling verb that it does not define
// ("event start --casual") is refused with the verb's usage and exit 2,
// before any database is opened. At compile time: a verb's flags are local
// variables of its flags function, captured by the run it returns, so one
// the run never reads is "declared and not used"; the static half below
// refuses the ways around the compiler (a definition whose result is
// dropped, a "_ =" use, a ...Var definition into a variable the compiler
// does not check). Running each verb with each flag and comparing
// behaviour was the other way; it needs a game per flag and would still
// prove only the values tried.
func TestVerbsOwnTheirFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "never.db")
	for _, c := range verbCommands() {
		own := map[string]map[string]*flag.Flag{}
		all := map[string]*flag.Flag{}
		for _, v := range c.verbs {
			fs, _ := c.flagSet(v, io.Discard)
			own[v.name] = map[string]*flag.Flag{}
			fs.VisitAll(func(f *flag.Flag) { own[v.name][f.Name] = f; all[f.Name] = f })
		}
		for _, v := range c.verbs {
			usage := "Usage: referee " + c.name + " " + v.name + " "
			t.Run(c.name+"_"+v.name, func(t *testing.T) {
				code, _, errs := cli(t, c.name, v.name, "--help")
				if code != exitOK || !strings.HasPrefix(errs, usage) {
					t.Fatalf("--help: exit %d, want 0 and %q first:\n%s", code, usage, errs)
				}
				var listed []string
				for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(errs, -1) {
					listed = append(listed, m[1])
				}
				var want []string
				for name := range own[v.name] {
					want = append(want, name)
				}
				sort.Strings(listed)
				sort.Strings(want)
				if strings.Join(listed, " ") != strings.Join(want, " ") {
					t.Errorf("--help lists the flags %q; the verb defines %q", listed, want)
				}
				for name, f := range all {
					if own[v.name][name] != nil {
						continue
					}
					arg := "--" + name + "=1"
					if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
						arg = "--" + name
					}
					args := []string{c.name, v.name, "--db", db}
					for range v.nargs {
						args = append(args, "x")
					}
					code, out, errs := cli(t, append(args, arg)...)
					if code != exitUsage || out != "" || !strings.Contains(errs, "flag provided but not defined: -"+name) || !strings.Contains(errs, usage) ||
						!strings.Contains(errs, "--"+name+" is a flag of \"referee "+c.name+" ") {
						t.Errorf("%s: exit %d, %q %q; want 2, the flag refused and the verb's usage", strings.Join(append(args, arg), " "), code, out, errs)
					}
				}
			})
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("a refused flag opened %s", db)
	}
}

// TestVerbsReadTheirFlags is the static half of TestVerbsOwnTheirFlags:
// in the verbs' files, every flag definition's result is kept in a named
// variable (so the compiler refuses one that is never read), no variable
// is "used" by "_ = x", and no flag is defined into a variable by a ...Var
// method, which the compiler cannot check.
func TestVerbsReadTheirFlags(t *testing.T) {
	definers := map[string]bool{"dbFlag": true, "addressFlag": true}
	for _, m := range []string{"String", "Bool", "Int", "Int64", "Uint", "Uint64", "Float64", "Duration", "Func", "BoolFunc", "TextVar",
		"Var", "StringVar", "BoolVar", "IntVar", "Int64Var", "UintVar", "Uint64Var", "Float64Var", "DurationVar"} {
		definers["fs."+m] = true
	}
	name := func(e ast.Expr) string {
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				return x.Name + "." + e.Sel.Name
			}
		}
		return ""
	}
	// Each verb has a flags function of its own, which calls no other
	// verb's: a flag its run reads is one this verb reads, never one a
	// sibling reads behind a branch on the verb's name.
	verbFuncs := map[string]string{} // function name -> "cmd verb"
	for _, c := range verbCommands() {
		for _, v := range c.verbs {
			fn := runtime.FuncForPC(reflect.ValueOf(v.flags).Pointer()).Name()
			if regexp.MustCompile(`\.func\d+$`).MatchString(fn) {
				t.Errorf("%s %s: its flags function is the closure %s; make it a function of its own, which this test can read", c.name, v.name, fn)
			}
			fn = fn[strings.LastIndex(fn, ".")+1:]
			if other, dup := verbFuncs[fn]; dup {
				t.Errorf("%s %s and %s share the flags function %s: give each verb its own", c.name, v.name, other, fn)
			}
			verbFuncs[fn] = c.name + " " + v.name
		}
	}
	for _, file := range verbFiles {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || verbFuncs[fd.Name.Name] == "" {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if callee := name(call.Fun); callee != fd.Name.Name && verbFuncs[callee] != "" {
						t.Errorf("%s: %s (%s) calls %s (%s): a verb defines and reads its own flags", fset.Position(call.Pos()),
							fd.Name.Name, verbFuncs[fd.Name.Name], callee, verbFuncs[callee])
					}
				}
				return true
			})
		}
		kept := map[*ast.CallExpr]bool{}
		uses := map[string]int{} // identifier -> occurrences in the file
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				uses[id.Name]++
			}
			return true
		})
		var defs []*ast.CallExpr
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, r := range n.Rhs {
					call, ok := r.(*ast.CallExpr)
					if id, isID := n.Lhs[i].(*ast.Ident); ok && isID && id.Name != "_" && len(n.Lhs) == len(n.Rhs) {
						kept[call] = true
					}
					if id, isID := n.Lhs[i].(*ast.Ident); isID && id.Name == "_" && len(n.Lhs) == 1 {
						t.Errorf("%s: \"_ = ...\": a flag must be read, not discarded", fset.Position(n.Pos()))
					}
				}
			case *ast.CallExpr:
				if fn := name(n.Fun); definers[fn] {
					defs = append(defs, n)
					if strings.HasSuffix(fn, "Var") {
						// fs.Var(&x, ...) only for a flag given more than
						// once (a flag.Value of its own), and x must be read
						// besides its declaration and this definition.
						u, isAddr := n.Args[0].(*ast.UnaryExpr)
						id, isID := ast.Expr(nil), false
						if isAddr {
							id, isID = u.X.(*ast.Ident)
						}
						switch {
						case !(fn == "Var" || strings.HasSuffix(fn, ".Var")) || !isID:
							t.Errorf("%s: %s defines a flag into a variable the compiler does not check; write x := fs.T(...)", fset.Position(n.Pos()), fn)
						case uses[id.(*ast.Ident).Name] < 3:
							t.Errorf("%s: the flag value %s is never read", fset.Position(n.Pos()), id.(*ast.Ident).Name)
						default:
							kept[n] = true
						}
					}
				}
			}
			return true
		})
		if len(defs) == 0 {
			t.Errorf("%s: no flag definitions found; is verbFiles out of date?", file)
		}
		for _, d := range defs {
			if !kept[d] {
				t.Errorf("%s: the flag %s(...) is not kept in a variable: the verb cannot read it", fset.Position(d.Pos()), name(d.Fun))
			}
		}
	}
}

// TestOutboxListFlagsNeedAList (issue 40): --failed and --all choose what
// "referee outbox" lists; with --retry, --retry-failed or --drop, which
// list nothing, they are refused (exit 2) instead of ignored, before the
// database is opened.
func TestOutboxListFlagsNeedAList(t *testing.T) {
	db := filepath.Join(t.TempDir(), "never.db")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--retry", "3", "--all"}, "--all chooses which mails the list shows, but --retry acts on mail"},
		{[]string{"--failed", "--retry", "all"}, "--failed chooses which mails the list shows, but --retry acts"},
		{[]string{"--retry-failed", "--failed"}, "but --retry-failed acts on mail"},
		{[]string{"--drop", "4", "--all"}, "drop --all, or run \"referee outbox --all\" on its own"},
	} {
		code, out, errs := cli(t, append([]string{"outbox", "--db", db}, tt.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("outbox %v: exit %d, %q %q; want 2 and %q", tt.args, code, out, errs, tt.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("a refused outbox command opened %s", db)
	}
}

// TestVerbsTakeGlobalFlagsFirst: "referee --db PATH event list" reaches
// the verb with its --db (main hands the global flags on in front of the
// verb), as "referee event list --db PATH" does; any other flag before the
// verb gets the command's usage.
func TestVerbsTakeGlobalFlagsFirst(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, _, errs := cli(t, "init", "--db", db); code != exitOK {
		t.Fatalf("init: %d %s", code, errs)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--db", db, "event", "list"}, exitOK, "no events"},
		{[]string{"event", "--db=" + db, "list"}, exitOK, "no events"},
		{[]string{"event", "--db", db, "--address", "ref@example.org", "list"}, exitOK, "no events"},
		{[]string{"--db", filepath.Join(t.TempDir(), "none.db"), "event", "list"}, exitUsage, "there is no database at"},
		{[]string{"event", "--casual", "new"}, exitUsage, "Usage: referee event VERB"},
		{[]string{"event", "--db", db}, exitUsage, "Usage: referee event VERB"},
		{[]string{"event", "--db", db, "--help"}, exitOK, "Usage: referee event VERB"},
	} {
		code, out, errs := cli(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}

// TestEveryVerbCommandWalked: a command whose --help shows verbs
// ("Usage: referee NAME VERB ...") is one of verbCommands, so the verb
// tests above walk its verbs.
func TestEveryVerbCommandWalked(t *testing.T) {
	walked := map[string]bool{}
	for _, c := range verbCommands() {
		walked[c.name] = true
	}
	for _, c := range commands() {
		code, out, errs := cli(t, c.name, "--help")
		if code != exitOK {
			t.Errorf("%s --help: exit %d", c.name, code)
		}
		if strings.HasPrefix(out+errs, "Usage: referee "+c.name+" VERB") != walked[c.name] {
			t.Errorf("%s --help begins %q; a command with verbs is a verbCommand listed in verbCommands(), and only it", c.name, strings.SplitN(out+errs, "\n", 2)[0])
		}
	}
}

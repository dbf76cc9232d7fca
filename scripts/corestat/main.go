// Command corestat measures the shape of one Go package, for the
// architecture notes (issue 40): its file-to-file arrows (file A uses a
// name declared in file B) and how many of them run back up against the
// best order of the files it finds, its longest functions and its
// cyclomatic outliers.
//
//	go run ./scripts/corestat [-top 10] [-cyclo 15] ./internal/referee
//
// Back-up arrows: the files are put in the order of the greedy heuristic
// of Eades, Lin and Smyth (1993) for the feedback arc set, which puts as
// many arrows as it can pointing one way (from a file to the files it
// builds on); the arrows left pointing the other way are the back-up
// arrows. Cyclomatic complexity is counted as gocyclo counts it: 1, plus
// one for each if, for, range, non-default case, && and ||.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("top", 10, "how many of the longest functions to list")
	cyclo := flag.Int("cyclo", 15, "list the functions of at least this cyclomatic complexity")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: corestat [-top N] [-cyclo N] DIR")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *top, *cyclo); err != nil {
		fmt.Fprintln(os.Stderr, "corestat:", err)
		os.Exit(1)
	}
}

type fn struct {
	name        string
	lines, cplx int
}

func run(dir string, top, minCyclo int) error {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return fmt.Errorf("%s holds %d packages, want 1", dir, len(pkgs))
	}
	var files []*ast.File
	var names []string
	for _, p := range pkgs {
		for name, f := range p.Files {
			names = append(names, name)
			_ = f
		}
		sort.Strings(names)
		for _, name := range names {
			files = append(files, p.Files[name])
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(files[0].Name.Name, fset, files, info)
	if err != nil {
		return fmt.Errorf("type-checking %s: %w", dir, err)
	}
	base := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	// Arrows: a use in file A of an object of this package declared at
	// package level (or a method or field) in file B.
	arrows := map[[2]string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			continue // a local name
		}
		from, to := base(id.Pos()), base(obj.Pos())
		if from != to {
			arrows[[2]string{from, to}] = true
		}
	}
	order := eades(names, arrows)
	rank := map[string]int{}
	for i, f := range order {
		rank[filepath.Base(f)] = i
	}
	var back []string
	for a := range arrows {
		if rank[a[0]] < rank[a[1]] {
			back = append(back, a[0]+" -> "+a[1])
		}
	}
	sort.Strings(back)
	var fns []fn
	lines := 0
	for _, f := range files {
		lines += fset.Position(f.End()).Line
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			fns = append(fns, fn{name: base(fd.Pos()) + ": " + name,
				lines: fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1, cplx: complexity(fd)})
		}
	}
	fmt.Printf("%s: %d files, %d lines (without tests), %d functions\n", dir, len(files), lines, len(fns))
	fmt.Printf("file-to-file arrows: %d, back-up arrows: %d\n", len(arrows), len(back))
	for _, b := range back {
		fmt.Println("  back:", b)
	}
	sort.Slice(fns, func(i, j int) bool {
		return fns[i].lines > fns[j].lines || fns[i].lines == fns[j].lines && fns[i].name < fns[j].name
	})
	fmt.Printf("longest functions:\n")
	for _, f := range fns[:min(top, len(fns))] {
		fmt.Printf("  %4d lines  %s\n", f.lines, f.name)
	}
	sort.Slice(fns, func(i, j int) bool {
		return fns[i].cplx > fns[j].cplx || fns[i].cplx == fns[j].cplx && fns[i].name < fns[j].name
	})
	fmt.Printf("cyclomatic complexity >= %d:\n", minCyclo)
	for _, f := range fns {
		if f.cplx < minCyclo {
			break
		}
		fmt.Printf("  %4d  %s\n", f.cplx, f.name)
	}
	return nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	}
	return "?"
}

// complexity is gocyclo's count for fd.
func complexity(fd *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// eades orders the files so that most arrows point from a later file to
// an earlier one (a file after the files it uses): repeatedly take the
// sinks (using no file left) to the front, the sources (used by none
// left) to the back, else the file with the most uses of it minus uses
// by it. Ties go by name, so the order is the same every run.
func eades(names []string, arrows map[[2]string]bool) []string {
	left := map[string]bool{}
	for _, n := range names {
		left[filepath.Base(n)] = true
	}
	var front, backSide []string
	out := func(n string) (o, in int) {
		for a := range arrows {
			if !left[a[0]] || !left[a[1]] {
				continue
			}
			if a[0] == n {
				o++
			}
			if a[1] == n {
				in++
			}
		}
		return o, in
	}
	sorted := func() []string {
		var s []string
		for n := range left {
			s = append(s, n)
		}
		sort.Strings(s)
		return s
	}
	for len(left) > 0 {
		changed := true
		for changed {
			changed = false
			for _, n := range sorted() {
				if o, _ := out(n); o == 0 { // uses nothing left: it is built on
					front = append(front, n)
					delete(left, n)
					changed = true
				}
			}
			for _, n := range sorted() {
				if _, in := out(n); in == 0 { // nothing left uses it
					backSide = append([]string{n}, backSide...)
					delete(left, n)
					changed = true
				}
			}
		}
		if len(left) == 0 {
			break
		}
		best, bestD := "", 0
		for _, n := range sorted() {
			o, in := out(n)
			if d := in - o; best == "" || d > bestD {
				best, bestD = n, d
			}
		}
		front = append(front, best)
		delete(left, best)
	}
	// front holds the files built on first; a back-up arrow is one from a
	// file to a file placed after it.
	return append(front, backSide...)
}

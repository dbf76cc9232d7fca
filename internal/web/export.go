package web

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"referee/internal/store"
)

// manifestName is the file in an export's directory that lists what the
// export wrote: each file with the hash of its bytes, each game with the
// version its files were made from. The next export writes only the files
// that changed (a game's files only when the game did), and removes those
// the site no longer has (a game that became private, a policy made
// stricter, a ply taken back) and nothing else.
const manifestName = ".referee-site"

// manifestHeader begins a manifest of this form; a manifest without it
// (an older export's: one name a line) makes every file written again.
const manifestHeader = "referee-site 2"

type manifest struct {
	options string                 // what every page depends on (exportOptions)
	games   map[int64]manifestGame // by id
	files   map[string]string      // the other files: name -> hash of the bytes
}

type manifestGame struct {
	version string // store.WebGame.Version
	shown   int    // the plies its pages show
}

// gameNames are the files of game id showing shown plies.
func gameNames(id int64, shown int) []string {
	out := []string{fmt.Sprintf("game-%d.html", id), fmt.Sprintf("game-%d.pgn", id)}
	for ply := 0; ply <= shown; ply++ {
		out = append(out, fmt.Sprintf("game-%d-%d.html", id, ply), fmt.Sprintf("game-%d-%d.png", id, ply))
	}
	return out
}

func readManifest(dir string) manifest {
	m := manifest{games: map[int64]manifestGame{}, files: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	first := true
	v2 := false
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if rest, ok := strings.CutPrefix(line, manifestHeader+" "); ok {
				m.options, v2 = rest, true
				continue
			}
		}
		if !v2 {
			if line != "" {
				m.files[line] = "" // an older export's: written again
			}
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 4 && f[0] == "g":
			id, err1 := strconv.ParseInt(f[1], 10, 64)
			shown, err2 := strconv.Atoi(f[2])
			if err1 == nil && err2 == nil {
				m.games[id] = manifestGame{version: f[3], shown: shown}
			}
		case len(f) == 3 && f[0] == "f":
			m.files[f[1]] = f[2]
		}
	}
	return m
}

func (m manifest) bytes() []byte {
	var b bytes.Buffer
	b.WriteString(manifestHeader + " " + m.options + "\n")
	for id, g := range m.games {
		fmt.Fprintf(&b, "g %d %d %s\n", id, g.shown, g.version)
	}
	for name, h := range m.files {
		fmt.Fprintf(&b, "f %s %s\n", name, h)
	}
	return b.Bytes()
}

// names are all the files m lists.
func (m manifest) names(each func(string)) {
	for name := range m.files {
		each(name)
	}
	for id, g := range m.games {
		for _, n := range gameNames(id, g.shown) {
			each(n)
		}
	}
}

// exportOptions is a hash of everything every page depends on besides the
// games: the site's options and the pages' templates. When it changes,
// every file is written again.
func (s *Site) exportOptions() string {
	h := sha256.New()
	cfg := s.opts.Referee.Config()
	for _, v := range []string{s.opts.Public, s.opts.Title, s.opts.BaseURL, cfg.Address, cfg.Key.PublicHex(),
		layout, indexPage, playerPage, gamePage, eventTemplate, cellTemplate, crosstableTemplate, stepScript} {
		h.Write([]byte(v))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// ExportResult says what an export did.
type ExportResult struct {
	Files   int // the files of the site
	Written int // those written now: new or changed since the last export
	Removed int // files of the last export the site no longer has
}

// Export writes the site into dir (made if missing) and returns how many
// files the site has. See ExportChanges.
func (s *Site) Export(ctx context.Context, dir string) (int, error) {
	r, err := s.ExportChanges(ctx, dir)
	return r.Files, err
}

// ExportChanges writes every file of the site that changed since the
// last export into dir (made if missing): a game's files only when the
// game changed, the lists and the feed when their bytes did. The files
// are what the server serves under the same names. Each file is written
// whole under a temporary name and renamed, so a web server serving dir
// never sends half a page; files an earlier export wrote that the site no
// longer has are removed, and no other file of dir is touched.
func (s *Site) ExportChanges(ctx context.Context, dir string) (ExportResult, error) {
	var r ExportResult
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, fmt.Errorf("making the site's directory: %w", err)
	}
	old := readManifest(dir)
	m := manifest{options: s.exportOptions(), games: map[int64]manifestGame{}, files: map[string]string{}}
	fresh := old.options == m.options
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	put := func(name string, body []byte) error {
		sum := sha256.Sum256(body)
		h := hex.EncodeToString(sum[:12])
		m.files[name] = h
		if fresh && old.files[name] == h && exists(name) {
			return nil
		}
		r.Written++
		return writeFile(dir, name, body)
	}
	page := func(name string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := s.Page(ctx, name)
		if err != nil {
			return fmt.Errorf("making %s: %w", name, err)
		}
		return put(name, p.Body)
	}
	// The lists, each page after page.
	list := func(l listSpec) error {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			out, err := s.list(ctx, l)
			if err != nil {
				return fmt.Errorf("making %s: %w", l.name(), err)
			}
			if err := put(l.name(), out.body); err != nil {
				return err
			}
			if out.older == nil {
				return nil
			}
			l = *out.older
		}
	}
	lists := []listSpec{{}, {state: "active"}, {state: "finished"}}
	set, err := s.eventSet(ctx) // the variants of the public games with the events
	if err != nil {
		return r, err
	}
	variants := set.variants
	for _, v := range variants {
		lists = append(lists, listSpec{variant: v})
	}
	for _, l := range lists {
		if err := list(l); err != nil {
			return r, err
		}
	}
	keys, err := s.playerKeys(ctx)
	if err != nil {
		return r, err
	}
	statuses := s.statuses()
	for _, k := range keys {
		addrs, err := s.playerAddresses(ctx, k)
		if err != nil {
			return r, err
		}
		if _, ok, err := s.st.WebName(ctx, addrs, statuses); err != nil {
			return r, err
		} else if !ok {
			continue // no public game
		}
		if err := list(listSpec{player: k}); err != nil {
			return r, err
		}
	}
	if err := page("feed.atom"); err != nil {
		return r, err
	}
	for _, name := range staticNames() { // robots.txt, the favicon (static.go)
		if err := page(name); err != nil {
			return r, err
		}
	}
	for _, ep := range set.list {
		if err := page("event-" + ep.E.Name + ".html"); err != nil {
			return r, err
		}
	}
	// The games, a batch at a time, newest first: the files of a game
	// that did not change since the last export stay as they are.
	var before int64
	for {
		gs, err := s.st.WebGames(ctx, store.WebQuery{Statuses: statuses, Before: before, Limit: 500})
		if err != nil {
			return r, err
		}
		if len(gs) == 0 {
			break
		}
		for _, g := range gs {
			mg := manifestGame{version: g.Version(), shown: shownPly(g)}
			m.games[g.ID] = mg
			if fresh && old.games[g.ID] == mg && exists(fmt.Sprintf("game-%d.html", g.ID)) {
				continue
			}
			for _, name := range gameNames(g.ID, mg.shown) {
				if err := ctx.Err(); err != nil {
					return r, err
				}
				p, err := s.Page(ctx, name)
				if err != nil {
					return r, fmt.Errorf("making %s: %w", name, err)
				}
				if err := writeFile(dir, name, p.Body); err != nil {
					return r, err
				}
				r.Written++
			}
		}
		before = gs[len(gs)-1].ID
	}
	keep := map[string]bool{}
	m.names(func(n string) { keep[n] = true; r.Files++ })
	var removeErr error
	old.names(func(n string) {
		// Only plain names the site makes: never a path.
		if removeErr != nil || keep[n] || strings.ContainsAny(n, "/\\") || strings.HasPrefix(n, ".") {
			return
		}
		switch err := os.Remove(filepath.Join(dir, n)); {
		case err == nil:
			r.Removed++
		case !errors.Is(err, os.ErrNotExist):
			removeErr = fmt.Errorf("removing %s, which the site no longer has: %w", n, err)
		}
	})
	if removeErr != nil {
		return r, removeErr
	}
	if err := writeFile(dir, manifestName, m.bytes()); err != nil {
		return r, err
	}
	return r, nil
}

// writeFile writes b as dir/name through a temporary file and a rename.
func writeFile(dir, name string, b []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

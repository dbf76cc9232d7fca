package web

import (
	"context"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

// The Atom feed (RFC 4287) of finished games and events, newest first.

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomEntry struct {
	Title   string     `xml:"title"`
	ID      string     `xml:"id"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Summary string     `xml:"summary"`
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Author  string      `xml:"author>name"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

// feedEntries is how many finished games the feed lists.
const feedEntries = 50

func (s *Site) feed(ctx context.Context) ([]byte, error) {
	base := s.opts.BaseURL
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	// The feed's and entries' ids are tag URIs (RFC 4151) of the referee's
	// address: stable wherever the pages are put.
	domain := "referee"
	if _, d, ok := strings.Cut(s.opts.Referee.Config().Address, "@"); ok {
		domain = d
	}
	f := atomFeed{Title: "Finished games and events · " + s.opts.Title, ID: "tag:" + domain + ",2026:games", Author: s.opts.Title,
		Links: []atomLink{{Href: base + "feed.atom", Rel: "self", Type: "application/atom+xml"}, {Href: base + "index.html", Rel: "alternate", Type: "text/html"}}}
	var newest time.Time
	var finished []store.WebGame
	if slices.Contains(s.statuses(), string(referee.StatusFinished)) {
		var err error
		if finished, err = s.st.WebGames(ctx, store.WebQuery{Statuses: []string{string(referee.StatusFinished)}, Limit: feedEntries}); err != nil {
			return nil, err
		}
	}
	ids := make([]int64, len(finished))
	for i, g := range finished {
		ids[i] = g.ID
	}
	last, err := s.st.WebLastActions(ctx, ids)
	if err != nil {
		return nil, err
	}
	plies := map[int64]int{}
	for _, g := range finished {
		if n := shownPly(g); n > 0 {
			plies[g.ID] = n
		}
	}
	before, err := s.st.WebPositionsBefore(ctx, plies)
	if err != nil {
		return nil, err
	}
	for _, g := range finished {
		up := g.Created.UTC()
		if t, ok := last[g.ID]; ok && t.After(up) {
			up = t.UTC()
		}
		if up.After(newest) {
			newest = up
		}
		it := itemOf(g, before[g.ID])
		f.Entries = append(f.Entries, atomEntry{
			Title:   fmt.Sprintf("#%d %s: %s v %s, %s", g.ID, it.Variant, it.White, it.Black, it.State),
			ID:      fmt.Sprintf("tag:%s,2026:game-%d", domain, g.ID),
			Updated: up.Format(time.RFC3339),
			Links:   []atomLink{{Href: fmt.Sprintf("%sgame-%d.html", base, g.ID), Rel: "alternate", Type: "text/html"}},
			Summary: fmt.Sprintf("%s, %s.", it.State, it.Moves),
		})
	}
	set, err := s.eventSet(ctx)
	if err != nil {
		return nil, err
	}
	for _, ep := range set.list {
		if !ep.finished {
			continue
		}
		up := ep.updated
		if up.IsZero() {
			up = time.Unix(0, 0).UTC()
		}
		if up.After(newest) {
			newest = up
		}
		_, sum, _ := strings.Cut(ep.E.Summary(), ": ")
		f.Entries = append(f.Entries, atomEntry{
			Title:   "Event " + ep.E.Name + ": " + sum,
			ID:      fmt.Sprintf("tag:%s,2026:event-%s", domain, ep.E.Name),
			Updated: up.Format(time.RFC3339),
			Links:   []atomLink{{Href: base + "event-" + ep.E.Name + ".html", Rel: "alternate", Type: "text/html"}},
			Summary: fmt.Sprintf("%s, %s.", sum, plural(len(ep.E.Games), "game")),
		})
	}
	slices.SortStableFunc(f.Entries, func(a, b atomEntry) int { return strings.Compare(b.Updated, a.Updated) })
	if newest.IsZero() {
		newest = time.Unix(0, 0).UTC()
	}
	f.Updated = newest.Format(time.RFC3339)
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("web: writing the feed: %w", err)
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

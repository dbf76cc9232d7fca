package web

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// The files every site has besides its pages: what crawlers may do, and
// the icon browsers show in a tab.
const (
	robotsName     = "robots.txt"
	faviconSVGName = "favicon.svg"
	faviconICOName = "favicon.ico"
)

// staticNames are the site's fixed files, for the export.
func staticNames() []string { return []string{robotsName, faviconSVGName, faviconICOName} }

// staticFile returns one of the site's fixed files, or ok false for any
// other name.
func (s *Site) staticFile(name string) (p *Page, ok bool, err error) {
	switch name {
	case robotsName:
		return &Page{Name: name, ContentType: "text/plain; charset=utf-8", Body: []byte(s.robots())}, true, nil
	case faviconSVGName:
		return &Page{Name: name, ContentType: "image/svg+xml", Body: []byte(faviconSVG), Final: true}, true, nil
	case faviconICOName:
		b, err := faviconICO()
		if err != nil {
			return nil, true, err
		}
		return &Page{Name: name, ContentType: "image/vnd.microsoft.icon", Body: b, Final: true}, true, nil
	}
	return nil, false, nil
}

// robots is robots.txt (RFC 9309) for the site's --public policy. Under
// "none" there is nothing to index, and crawlers are asked to stay away.
// Otherwise they may read the index, the lists, each game's page (its
// last position), its record, the players' and the events' pages and the
// feed, but not the page and picture of every ply ("game-17-5.html",
// "game-17-5.png"): a game of 60 moves has 121 of each, all reachable
// from its page, and none says more to a search engine than the game's
// page. The paths start at the site's base path (Options.BaseURL), where
// an exported site is put under one.
func (s *Site) robots() string {
	base := "/"
	if u, err := url.Parse(s.opts.BaseURL); err == nil && u.Path != "" {
		base = "/" + strings.Trim(u.Path, "/") + "/"
		base = strings.ReplaceAll(base, "//", "/")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: read-only pages of a correspondence chess referee.\n", s.opts.Title)
	b.WriteString("User-agent: *\n")
	switch s.opts.Public {
	case PublicNone:
		b.WriteString("# The organiser shows no games (--public none).\n")
		fmt.Fprintf(&b, "Disallow: %s\n", base)
		return b.String()
	case PublicAll:
		b.WriteString("# Running and finished games are shown (--public all); a running game's pages change with each move.\n")
	default:
		b.WriteString("# Finished games are shown (--public finished).\n")
	}
	b.WriteString("# The page and picture of every ply are left out; each game's page shows its last position and links them.\n")
	fmt.Fprintf(&b, "Disallow: %sgame-*-*.html\n", base)
	fmt.Fprintf(&b, "Disallow: %sgame-*-*.png\n", base)
	fmt.Fprintf(&b, "Allow: %s\n", base)
	return b.String()
}

// faviconSVG is the site's icon: a white pawn on the pages' link blue.
const faviconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<rect width="32" height="32" rx="6" fill="#0b57a4"/>` +
	`<g fill="#fafaf7"><circle cx="16" cy="10" r="4.5"/><path d="M13 14.5h6l2.5 9.5h-11z"/>` +
	`<rect x="8" y="24" width="16" height="3.5" rx="1"/></g></svg>
`

// faviconICO draws the icon of faviconSVG at 32×32 (four samples a pixel
// each way, for smooth edges) and wraps the PNG in an ICO file, which
// browsers and crawlers ask for at /favicon.ico whatever the pages link.
func faviconICO() ([]byte, error) {
	const size, sub = 32, 4
	bg := color.NRGBA{0x0b, 0x57, 0xa4, 0xff}
	fg := color.NRGBA{0xfa, 0xfa, 0xf7, 0xff}
	// inside reports which shape the point (x, y) of the 32×32 box is in:
	// 0 outside, 1 the square, 2 the pawn.
	inside := func(x, y float64) int {
		pawn := math.Hypot(x-16, y-10) <= 4.5 ||
			(y >= 14.5 && y <= 24 && math.Abs(x-16) <= 3+2.5*(y-14.5)/9.5) ||
			(y >= 24 && y <= 27.5 && x >= 8 && x <= 24)
		if pawn {
			return 2
		}
		// The rounded square: radius 6 at each corner.
		cx, cy := math.Min(math.Max(x, 6), 26), math.Min(math.Max(y, 6), 26)
		if math.Hypot(x-cx, y-cy) <= 6 {
			return 1
		}
		return 0
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := range size {
		for px := range size {
			var r, g, b, a float64
			for sy := range sub {
				for sx := range sub {
					x := float64(px) + (float64(sx)+0.5)/sub
					y := float64(py) + (float64(sy)+0.5)/sub
					var c color.NRGBA
					switch inside(x, y) {
					case 1:
						c = bg
					case 2:
						c = fg
					default:
						continue
					}
					r, g, b, a = r+float64(c.R), g+float64(c.G), b+float64(c.B), a+1
				}
			}
			if a > 0 {
				img.SetNRGBA(px, py, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(255 * a / (sub * sub))})
			}
		}
	}
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, img); err != nil {
		return nil, fmt.Errorf("drawing the favicon: %w", err)
	}
	// ICO: a 6-byte header (reserved, type 1 = icon, one image), one
	// 16-byte directory entry, then the image (a PNG, as ICO allows since
	// Windows Vista and every browser reads).
	var out bytes.Buffer
	le := binary.LittleEndian
	out.Write(le.AppendUint16(le.AppendUint16(le.AppendUint16(nil, 0), 1), 1))
	entry := []byte{size, size, 0, 0}  // width, height, no palette, reserved
	entry = le.AppendUint16(entry, 1)  // colour planes
	entry = le.AppendUint16(entry, 32) // bits per pixel
	entry = le.AppendUint32(entry, uint32(pngBytes.Len()))
	entry = le.AppendUint32(entry, 6+16) // where the image starts
	out.Write(entry)
	out.Write(pngBytes.Bytes())
	return out.Bytes(), nil
}

// minGzip is the smallest body worth compressing: below it the gzip
// header and trailer (18 bytes) and the CPU outweigh what is saved.
const minGzip = 512

// gzipSuffix marks the ETag of a gzipped body: a strong ETag names one
// sequence of bytes (RFC 9110 §8.8.3), and the compressed one is another.
const gzipSuffix = "-gzip"

// compress gzips the text a client accepts gzip for (Accept-Encoding,
// RFC 9110 §12.5.3): pages, the feed, records, the robots file and the
// SVG icon, not the PNG pictures, which are compressed already. It keeps
// revalidation working (the gzipped body has its own ETag, and a request
// that names it is answered from the plain one's), says Vary:
// Accept-Encoding to caches, and leaves a Range request alone: a range
// is of the plain body.
//
// The gzip writers are kept for reuse by this handler (a writer holds
// about 800 KB of compressor state, more than a page).
func compress(next http.Handler) http.Handler {
	writers := &sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Header.Get("Range") != "" || !acceptsGzip(r.Header.Values("Accept-Encoding")) {
			next.ServeHTTP(w, r)
			return
		}
		if inm := r.Header.Get("If-None-Match"); strings.Contains(inm, gzipSuffix+`"`) {
			r = r.Clone(r.Context())
			r.Header.Set("If-None-Match", strings.ReplaceAll(inm, gzipSuffix+`"`, `"`))
		}
		gw := &gzipWriter{ResponseWriter: w, head: r.Method == http.MethodHead, writers: writers}
		next.ServeHTTP(gw, r)
		// An error here is the client's going away mid-body, which
		// http.ServeContent does not report either.
		_ = gw.close()
	})
}

// acceptsGzip reads Accept-Encoding: gzip (or x-gzip, or *) with a
// weight above zero.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" && name != "x-gzip" && name != "*" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}

// compressible reports whether a body of this type is worth gzipping.
func compressible(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.TrimSpace(mt)
	return strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || mt == "application/x-chess-pgn"
}

// gzipWriter gzips a response whose headers say it is worth it.
type gzipWriter struct {
	http.ResponseWriter
	head        bool // a HEAD request: the headers only
	wroteHeader bool
	gz          *gzip.Writer
	writers     *sync.Pool // of *gzip.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.wroteHeader {
		return
	}
	g.wroteHeader = true
	h := g.Header()
	n, err := strconv.Atoi(h.Get("Content-Length"))
	worth := compressible(h.Get("Content-Type")) && h.Get("Content-Encoding") == "" && (err != nil || n >= minGzip)
	if worth && (code == http.StatusOK || code == http.StatusNotModified) {
		if etag := h.Get("ETag"); strings.HasSuffix(etag, `"`) {
			h.Set("ETag", strings.TrimSuffix(etag, `"`)+gzipSuffix+`"`)
		}
		if code == http.StatusOK {
			h.Set("Content-Encoding", "gzip")
			h.Del("Content-Length")
			if !g.head {
				g.gz = g.writers.Get().(*gzip.Writer)
				g.gz.Reset(g.ResponseWriter)
			}
		}
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) close() error {
	if g.gz == nil {
		return nil
	}
	err := g.gz.Close()
	g.gz.Reset(io.Discard) // let go of the response
	g.writers.Put(g.gz)
	g.gz = nil
	if err != nil {
		return fmt.Errorf("gzipping the response: %w", err)
	}
	return nil
}

package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"referee/internal/browsertest"
	"referee/internal/referee"
	"referee/internal/store"
)

// htmlPart is the text/html part of a queued mail.
func htmlPart(t *testing.T, o store.Outgoing) string {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(o.Raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "text/html" {
				b, err := io.ReadAll(p.Body)
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
		}
	}
	t.Fatalf("the mail to %s has no HTML part", o.To)
	return ""
}

// TestFinalCrosstableHTMLInChromium: the HTML part of an 8-player round
// robin's final crosstable mail, in headless Chromium at 360 and 1280
// pixels, is never wider than the screen (before, a 360-pixel phone cut
// it), and every row's points are on screen. A negative control, the same
// table without its wrapping styles, overflows at 360. With -update it
// keeps screenshots of both widths in testdata/screens for review.
func TestFinalCrosstableHTMLInChromium(t *testing.T) {
	bin := browsertest.Bin(t)
	a, _ := openLobby(t, referee.LobbyConfig{})
	var players []string
	for _, n := range []string{"annabel.longname", "benedict", "catherine.q.public", "daniel", "evelyn.smith-jones", "frederick", "gwendolyn", "harold.w"} {
		players = append(players, n+"@example.org")
	}
	e := newRR(t, a, "club8", players...)
	before := 0
	for i, g := range e.Games {
		res := "1-0"
		switch {
		case (g.White+g.Black)%3 == 0:
			res = "1/2-1/2"
		case g.Black < g.White:
			res = "0-1"
		}
		if i == len(e.Games)-1 {
			before = mailCount(t, a)
		}
		finish(t, a, g.GameID, res)
	}
	var page string
	for _, o := range sentSince(t, a, before) {
		if o.Kind == string(referee.KindEventEnd) && o.To == players[0] {
			page = htmlPart(t, o)
		}
	}
	if page == "" {
		t.Fatal("no final crosstable mail")
	}
	control := strings.NewReplacer(`overflow-wrap:anywhere;`, "", `<div style="overflow-x:auto;max-width:100%">`, "<div>").Replace(page)
	if control == page {
		t.Fatal("the negative control is the mail itself: the table's styles changed, update the control")
	}
	dir := t.TempDir()
	var harness strings.Builder
	harness.WriteString(`<!DOCTYPE html><html><body style="margin:0">`)
	for _, f := range []struct {
		id   string
		w    int
		page string
	}{{"mail-360", 360, page}, {"mail-1280", 1280, page}, {"control-360", 360, control}} {
		fmt.Fprintf(&harness, `<iframe id="%s" style="border:0;display:block" width="%d" height="900" srcdoc="%s"></iframe>`, f.id, f.w, html.EscapeString(f.page))
	}
	harness.WriteString(`<pre id="result"></pre><script>
window.addEventListener("load", function () {
  var out = {};
  document.querySelectorAll("iframe").forEach(function (f) {
    var d = f.contentDocument, w = d.documentElement.clientWidth, pts = 0, shown = 0;
    var heads = Array.from(d.querySelectorAll("th")).map(function (h) { return h.textContent; });
    var col = heads.indexOf("Pts");
    d.querySelectorAll("tr").forEach(function (tr, i) {
      if (i === 0) return;
      pts++;
      var r = tr.children[col].getBoundingClientRect();
      if (r.right <= w && r.left >= 0) shown++;
    });
    out[f.id] = {ScrollW: d.documentElement.scrollWidth, ClientW: w, Rows: pts, PtsShown: shown};
  });
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>`)
	hpath := filepath.Join(dir, "harness.html")
	if err := os.WriteFile(hpath, []byte(harness.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(browsertest.Run(t, bin, "--dump-dom", "--virtual-time-budget=10000", "--window-size=1400,900", "file://"+hpath))
	i, j := strings.Index(dom, `<pre id="result">`), strings.Index(dom, "</pre><script>")
	if i < 0 || j < i {
		t.Fatalf("no result in the page:\n%s", dom)
	}
	var got map[string]struct{ ScrollW, ClientW, Rows, PtsShown int }
	if err := json.Unmarshal([]byte(html.UnescapeString(dom[i+len(`<pre id="result">`):j])), &got); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"mail-360", "mail-1280"} {
		g := got[id]
		if g.ScrollW > g.ClientW || g.Rows != 8 || g.PtsShown != 8 {
			t.Errorf("%s: %d pixels wide in %d, points of %d of %d rows on screen; want no sideways scrolling and all points shown",
				id, g.ScrollW, g.ClientW, g.PtsShown, g.Rows)
		}
	}
	if g := got["control-360"]; g.ScrollW <= g.ClientW {
		t.Errorf("the negative control (no wrapping styles) fits at 360 (%d in %d): the check cannot fail", g.ScrollW, g.ClientW)
	}
	if *update {
		doc := filepath.Join(dir, "mail.html")
		if err := os.WriteFile(doc, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join("testdata", "screens"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{360, 1280} {
			shot, _ := filepath.Abs(filepath.Join("testdata", "screens", fmt.Sprintf("final-crosstable-%d.png", w)))
			browsertest.Run(t, bin, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,1000", w), "file://"+doc)
		}
	}
}

package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/rules"
)

const clubFile = `# The club's variants
[capa:chess]
description = Capablanca's chess (1920s): chess on 10x8 with the archbishop and the chancellor.
maxFile = 10
archbishop = a
chancellor = c
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
promotionPieceTypes = qrbnac
castlingKingsideFile = i
castlingQueensideFile = c
`

func openWithVariants(t *testing.T, db, file string) (*App, error) {
	t.Helper()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	return Open(context.Background(), Options{Catalog: testCatalog(), DB: db, Address: "referee@example.test", VariantsFile: file,
		Now: func() time.Time { now = now.Add(time.Minute); return now }})
}

// pngOf returns the picture of a rendered board mail.
func pngOf(t *testing.T, raw []byte) []byte {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var find func(r io.Reader, ct string) []byte
	find = func(r io.Reader, ct string) []byte {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || !strings.HasPrefix(mt, "multipart/") {
			return nil
		}
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return nil
			}
			pct := p.Header.Get("Content-Type")
			if strings.HasPrefix(pct, "image/png") {
				b, _ := io.ReadAll(p) // multipart decodes no transfer encoding: base64 below
				return b
			}
			if b := find(p, pct); b != nil {
				return b
			}
		}
	}
	return find(msg.Body, msg.Header.Get("Content-Type"))
}

// TestFileVariantGameByMail: a variant of the organiser's file is played
// by mail like the referee's own (moves read with its letters, the board
// mail with its ten files and a picture), its game outlives the file (the
// database keeps the definition), and a changed definition of a variant
// with games is refused, as is a file with a variant that cannot be played.
func TestFileVariantGameByMail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.ini")
	if err := os.WriteFile(file, []byte(clubFile), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "r.db")
	a, err := openWithVariants(t, db, file)
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.NewGame(ctx, "capa", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"e4", "e5", "Ad3"} {
		p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 10:00:00 +0000", mv), uint32(10+i), 1)
		if err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
		g, _ = a.Game(ctx, g.ID)
	}
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	// The opening mail's rules come from the definition.
	if first := string(out[0].Raw); !strings.Contains(first, "Capablanca's chess (1920s)") || !strings.Contains(first, "archbishop") {
		t.Errorf("the opening mail does not give the variant's rules:\n%s", first)
	}
	last := out[len(out)-1]
	text := string(last.Raw)
	for _, want := range []string{"[capa #1]", "White played Ad3.", "j   i   h   g   f   e   d   c   b   a", "A archbishop"} {
		if !strings.Contains(text, want) {
			t.Errorf("the board mail after Ad3 lacks %q:\n%s", want, text)
		}
	}
	if pic := pngOf(t, last.Raw); pic == nil {
		t.Error("the board mail has no picture")
	} else if img, err := png.Decode(base64Reader(pic)); err != nil {
		t.Errorf("the picture does not decode: %v", err)
	} else if w := img.Bounds().Dx(); w < 10*40 {
		t.Errorf("the picture of ten files is %d pixels wide", w)
	}
	rec, err := a.Export(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Tag("Variant") != "capa" {
		t.Errorf("the record's Variant tag is %q", rec.Tag("Variant"))
	}
	if _, err := ReplayRecord(rec, a.Variants()); err != nil {
		t.Errorf("replay of the record: %v", err)
	}
	a.Close()

	// Without the file: the database keeps the definition.
	a, err = openWithVariants(t, db, "")
	if err != nil {
		t.Fatal(err)
	}
	if g2, err := a.Game(ctx, g.ID); err != nil || g2.Ply() != 3 || g2.Variant.Name() != "capa" {
		t.Fatalf("the game without the file: %v, %v", g2, err)
	}
	a.Close()

	// A changed definition of a variant with games is refused; the game
	// is still there under the old one.
	changed := strings.Replace(clubFile, "castlingQueensideFile = c", "castlingQueensideFile = b", 1)
	if err := os.WriteFile(file, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	if a, err := openWithVariants(t, db, file); err == nil || !strings.Contains(err.Error(), "differs from the definition its 1 game(s)") {
		if a != nil {
			a.Close()
		}
		t.Errorf("a changed capa: %v", err)
	}
	// A file with a variant the engine cannot play is refused as a whole.
	if err := os.WriteFile(file, []byte(clubFile+"\n[koth:kingofthehill]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if a, err := openWithVariants(t, db, file); err == nil || !strings.Contains(err.Error(), "capture the flag") || !strings.Contains(err.Error(), "referee variant check") {
		if a != nil {
			a.Close()
		}
		t.Errorf("a file with king of the hill: %v", err)
	}
}

// base64Reader decodes a base64 part body (with its line breaks).
func base64Reader(b []byte) io.Reader {
	return base64.NewDecoder(base64.StdEncoding, bytes.NewReader(bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)))
}

// TestFileVariantChallengeByMail: a file variant is offered by mail: a
// challenge names it, the invitation gives its title, the acceptance
// starts its game, and "variants" lists it.
func TestFileVariantChallengeByMail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.ini")
	if err := os.WriteFile(file, []byte(clubFile), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &clock{now: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(dir, "r.db"), Address: "referee@example.test", Now: c.Now, VariantsFile: file})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.SetPlayer(ctx, "carol@example.org", true); err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "variants"); p.Verdict == referee.Rejected {
		t.Fatalf("variants: %+v", p)
	}
	_, list := lastTo(t, a, "carol@example.org")
	says(t, "the list of variants", list, "capa", "Capablanca's chess (1920s)")
	if p := send(t, a, &n, "carol@example.org", "", "challenge capa bob@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("challenge: %+v", p)
	}
	inv, invText := lastTo(t, a, "bob@example.org")
	says(t, "the invitation", invText, "carol@example.org invites you to a game of capa")
	c.now = c.now.Add(time.Hour)
	p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
	if p.Verdict != referee.Applied || p.GameID == 0 {
		t.Fatalf("accept: %+v", p)
	}
	g, err := a.Game(ctx, p.GameID)
	if err != nil || g.Variant.Name() != "capa" {
		t.Fatalf("the game: %v, %v", g, err)
	}
}

// TestFileVariantRatedGame: a rated game of a file variant ends by
// resignation, and both players get a rating in that variant (and none in
// chess); rebuilding the ratings from the records gives the same.
func TestFileVariantRatedGame(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.ini")
	if err := os.WriteFile(file, []byte(clubFile), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := openWithVariants(t, filepath.Join(dir, "r.db"), file)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	g, err := a.NewRatedGame(ctx, "capa", "alice@example.org", "bob@example.org", nil, "", true)
	if err != nil {
		t.Fatal(err)
	}
	// (A game resigned before both sides moved would be made casual.)
	for i, mv := range []string{"e4", "e5", "Ad3", "resign", "confirm"} {
		if p, err := a.Process(ctx, moveMail(a, g, rules.Color(min(i%2+i/3, 1)), "Mon, 23 Nov 2026 10:00:00 +0000", mv), uint32(10+i), 1); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
		g, _ = a.Game(ctx, g.ID)
	}
	if g.Status != referee.StatusFinished || !g.Rated {
		t.Fatalf("the game: %s, rated %v", g.Status, g.Rated)
	}
	rs, err := a.Ratings(ctx, "capa")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Address != "alice@example.org" || rs[0].R <= rs[1].R || rs[0].Games != 1 {
		t.Fatalf("capa ratings after Black resigned: %+v", rs)
	}
	if chess, err := a.Ratings(ctx, "chess"); err != nil || len(chess) != 0 {
		t.Errorf("chess ratings: %+v, %v", chess, err)
	}
	rep, err := a.RebuildRatings(ctx)
	if err != nil || rep.Games != 1 || len(rep.Differ) != 0 {
		t.Errorf("rebuild: %+v, %v", rep, err)
	}
}

// TestFileCrazyhouseByMail: a crazyhouse defined in a file is played by
// mail: captures go to hand, a drop is read as written (P@e6), and the
// board mail shows what each side holds.
func TestFileCrazyhouseByMail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.ini")
	if err := os.WriteFile(file, []byte("[zh:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\npieceDrops = true\ncapturesToHand = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := openWithVariants(t, filepath.Join(dir, "r.db"), file)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	g, err := a.NewGame(ctx, "zh", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@e6"} {
		if p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 10:00:00 +0000", mv), uint32(10+i), 1); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
		g, _ = a.Game(ctx, g.ID)
	}
	pos, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	if pos := pos.String(); !strings.HasPrefix(pos, "rnb1kbnr/ppp1pppp/4P3/q7/8/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq") {
		t.Errorf("the position after P@e6: %s", pos)
	}
	_, text := lastTo(t, a, "bob@example.org")
	says(t, "Black's board mail", text, "White played P@e6.")
	if !strings.Contains(text.Text, "hand") {
		t.Errorf("the board mail does not say what is in hand:\n%s", text.Text)
	}
}

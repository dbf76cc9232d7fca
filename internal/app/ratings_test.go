package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/game"
	"referee/internal/notation"
	"referee/internal/rating"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// TestRatedAndCasualChallenges: the organiser's default (serve --rated)
// and the challenge's word decide whether the game is rated; a rated
// game's end by mail changes both ratings in its transaction, a casual
// one changes none; the rebuild then finds the stored values.
func TestRatedAndCasualChallenges(t *testing.T) {
	for _, tc := range []struct {
		name         string
		defaultRated bool
		word         string
		rated        bool
	}{
		{"casual by default", false, "", false},
		{"rated by word", false, " rated", true},
		{"rated by default", true, "", true},
		{"casual by word", true, " casual", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			a, _ := openLobby(t, referee.LobbyConfig{Rated: tc.defaultRated})
			if _, err := a.SetPlayer(ctx, "carol@example.org", true); err != nil {
				t.Fatal(err)
			}
			n := 0
			if p := send(t, a, &n, "carol@example.org", "", "challenge chess bob@example.org white"+tc.word); p.Verdict != referee.Applied {
				t.Fatalf("challenge: %+v", p)
			}
			inv, _ := lastTo(t, a, "bob@example.org")
			p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
			if p.Verdict != referee.Applied || p.GameID == 0 {
				t.Fatalf("accept: %+v", p)
			}
			g, err := a.Game(ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Rated != tc.rated {
				t.Fatalf("game rated %v, want %v", g.Rated, tc.rated)
			}
			_, opening := lastTo(t, a, "bob@example.org")
			if tc.rated {
				says(t, "the opening mail", opening, "This game is rated", "White carol@example.org: 1500?", "Black bob@example.org: 1500?")
			} else {
				says(t, "the opening mail", opening, "This game is casual")
			}
			// Fool's mate: Black wins.
			for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
				g, _ = a.Game(ctx, g.ID)
				if p, err := a.Process(ctx, moveMail(a, g, rules.Color(i%2), "Mon, 23 Nov 2026 12:00:00 +0000", mv), 0, 0); err != nil || p.Verdict != referee.Applied {
					t.Fatalf("%s: %+v, %v", mv, p, err)
				}
			}
			rs, err := a.Ratings(ctx, "chess")
			if err != nil {
				t.Fatal(err)
			}
			if !tc.rated {
				if show, _ := a.Show(ctx, g.ID); !strings.Contains(show, "Casual: the result changes no rating") {
					t.Errorf("show of a casual game:\n%s", show)
				}
				if rec, err := a.Export(ctx, g.ID); err != nil || rec.Tag("WhiteElo") != "" {
					t.Errorf("a casual game's record has WhiteElo %q (%v)", rec.Tag("WhiteElo"), err)
				}
				if len(rs) != 0 {
					t.Fatalf("a casual game rated its players: %+v", rs)
				}
				return
			}
			if len(rs) != 2 || rs[0].Address != "bob@example.org" || rs[0].Wins != 1 || rs[1].Losses != 1 || rs[0].R <= 1500 || rs[1].R >= 1500 {
				t.Fatalf("ratings after bob's win: %+v", rs)
			}
			bob, carol := rs[0].Rating, rs[1].Rating
			bobDiff, carolDiff := rating.Diff(rating.Default().Initial, bob), rating.Diff(rating.Default().Initial, carol)
			for _, who := range []string{"bob@example.org", "carol@example.org"} {
				_, final := lastTo(t, a, who)
				says(t, who+"'s final mail", final,
					fmt.Sprintf("White carol@example.org: 1500? -> %s (%d)", carol, carolDiff),
					fmt.Sprintf("Black bob@example.org: 1500? -> %s (+%d)", bob, bobDiff))
			}
			if show, err := a.Show(ctx, g.ID); err != nil || !strings.Contains(show, fmt.Sprintf("Rated: White 1500?, Black 1500? before the game; after it White %s, Black %s", carol, bob)) {
				t.Errorf("show: %v\n%s", err, show)
			}
			rec, err := a.Export(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			for tag, want := range map[string]string{"WhiteElo": "1500", "BlackElo": "1500",
				"WhiteRatingDiff": fmt.Sprint(carolDiff), "BlackRatingDiff": fmt.Sprintf("+%d", bobDiff)} {
				if got := rec.Tag(tag); got != want {
					t.Errorf("the record's %s is %q, want %q", tag, got, want)
				}
			}
			if p := send(t, a, &n, "carol@example.org", "", "rating bob@example.org chess"); p.Verdict != referee.Answered {
				t.Fatalf("rating by mail: %+v", p)
			}
			_, ans := lastTo(t, a, "carol@example.org")
			says(t, "the rating answer", ans, "bob@example.org: ratings of Chess", "Chess: "+bob.String(), "1 rated game: 1 won, 0 drawn, 0 lost")
			rep, err := a.RebuildRatings(ctx)
			if err != nil || rep.Games != 1 || len(rep.Differ) != 0 {
				t.Fatalf("rebuild: %+v, %v", rep, err)
			}
		})
	}
}

// TestNewRatedGameEndsRated: referee new --rated (NewRatedGame) makes a
// rated game whatever the default; its loss on time counts as abandoned
// for the side that never moved.
func TestNewRatedGameEndsRated(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewRatedGame(ctx, "toroidal", "alice@example.org", "bob@example.org", nil, "1d", true)
	if err != nil {
		t.Fatal(err)
	}
	g, _ = a.Game(ctx, g.ID)
	if !g.Rated {
		t.Fatal("NewRatedGame made a casual game")
	}
	clk.now = clk.now.AddDate(0, 0, 3)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	g, _ = a.Game(ctx, g.ID)
	if g.Status != referee.StatusFinished {
		t.Fatalf("game %s after three days of a 1d clock: %s", g.Status, g.ResultReason)
	}
	var alice store.PlayerRating
	err = a.Store().View(ctx, func(tx *store.Tx) (err error) {
		alice, _, err = tx.Rating("alice@example.org", "toroidal")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if alice.Games != 1 || alice.Abandoned != 1 || alice.Reliability() != 0 {
		t.Errorf("alice after losing on time without a move: %+v", alice)
	}
}

// TestConditionalMovesThroughTheStore: lines under a move are kept in the
// game's state, never stored as the relayed message, and the answer they
// give is stored as a conditional action the record marks.
func TestConditionalMovesThroughTheStore(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewTimedGame(ctx, "chess", "alice@example.org", "bob@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	play := func(c rules.Color, body string) {
		t.Helper()
		g, _ = a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, c, "Mon, 23 Nov 2026 12:00:00 +0000", body), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%q: %+v, %v", body, p, err)
		}
	}
	play(rules.White, "e4\r\n\r\nif e5 Nf3 if Nc6 Bb5\r\ngood luck")
	play(rules.Black, "e5")
	g, _ = a.Game(ctx, g.ID)
	if g.Ply() != 3 || !g.Actions[2].Cond || g.Actions[2].SAN != "Nf3" || strings.Contains(g.Actions[0].Message, "if") {
		t.Fatalf("after e5: %+v", g.Actions)
	}
	if g.State.Cond == nil || g.State.Cond.Trees[rules.White] == nil || len(g.State.Cond.Log) != 1 {
		t.Fatalf("the tree was not kept: %+v", g.State.Cond)
	}
	_, toBob := lastTo(t, a, "bob@example.org")
	says(t, "bob's mail", toBob, "White answered Nf3 at once (a conditional move)")
	rec, err := a.Export(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), " cond}") { // after the date, in one comment
		t.Errorf("the record does not mark the conditional move:\n%s", b.String())
	}
}

// TestVerifyChecksConditionalCommitments: once the game is over, verify
// checks every revealed tree, from the database and from the exported
// record, and finds a tree changed in the record.
func TestVerifyChecksConditionalCommitments(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "toroidal", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := g.Variant.Start()
	w1 := pos.Legal()[0]
	p1, _ := pos.Play(w1)
	b1 := p1.Legal()[0]
	p2, _ := p1.Play(b1)
	line := fmt.Sprintf("if %s %s", notation.SAN(p1, b1), notation.SAN(p2, p2.Legal()[0]))
	for i, body := range []string{notation.SAN(pos, w1) + "\r\n\r\n" + line, "resign", "confirm"} {
		g, _ = a.Game(ctx, g.ID)
		c := rules.White
		if i > 0 {
			c = rules.Black
		}
		if p, err := a.Process(ctx, moveMail(a, g, c, "Mon, 23 Nov 2026 12:00:00 +0000", body), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%q: %+v, %v", body, p, err)
		}
	}
	rep, err := a.Verify(ctx, g.ID)
	if err != nil || !rep.OK() || !strings.Contains(rep.String(), "conditional tree 1 (White's, from ply 1) matches its commitment") {
		t.Fatalf("verify: %v\n%s", err, rep)
	}
	exported, err := a.Export(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if _, err := exported.WriteTo(&text); err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(strings.NewReader(text.String()))
	if err != nil {
		t.Fatalf("the exported record does not read back: %v\n%s", err, text.String())
	}
	if rep, err := VerifyRecord(rec); err != nil || !rep.OK() || len(rep.Checked) != 1 {
		t.Fatalf("verify --record: %v\n%s", err, rep)
	}
	tag := rec.Tag("CondTree1")
	rec.SetTag("CondTree1", tag[:strings.LastIndex(tag, " ")]+" X9")
	if rep, err := VerifyRecord(rec); err != nil || rep.OK() {
		t.Fatalf("verify --record of a changed tree: %v\n%s", err, rep)
	}
}

// TestConditionalAnswerChargesNoTime: on a Fischer clock the conditional
// answer uses none of its owner's time; the increment is added as for any
// move.
func TestConditionalAnswerChargesNoTime(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewTimedGame(ctx, "chess", "alice@example.org", "bob@example.org", nil, "10d+1d")
	if err != nil {
		t.Fatal(err)
	}
	play := func(c rules.Color, body string) {
		t.Helper()
		g, _ = a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, c, "Mon, 23 Nov 2026 12:00:00 +0000", body), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%q: %+v, %v", body, p, err)
		}
	}
	clk.now = clk.now.Add(3 * referee.Day)
	play(rules.White, "e4\r\n\r\nif e5 Nf3")
	g, _ = a.Game(ctx, g.ID)
	white := g.State.Clock.Left[rules.White]
	clk.now = clk.now.Add(2 * referee.Day)
	play(rules.Black, "e5")
	g, _ = a.Game(ctx, g.ID)
	if g.Ply() != 3 {
		t.Fatalf("the answer was not played: %d plies", g.Ply())
	}
	if got, want := g.State.Clock.Left[rules.White], min(white+referee.Day, 10*referee.Day); got != want {
		t.Errorf("White's time after the conditional answer: %v, want %v (before %v, plus the increment)", got, want, white)
	}
}

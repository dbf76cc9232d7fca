package embedded

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// fixture is one message of the search fixture: its text, flags and
// internal date.
type fixture struct {
	text  string
	flags []imap.Flag
	date  time.Time
}

// crlf turns the line ends of s into CRLF.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// searchFixtures are five messages with UIDs 1 to 5, in the shapes a
// referee's mailbox holds: moves in plain text, replies, a MIME
// alternative with an encoded subject, a base64 body and an attachment.
func searchFixtures() []fixture {
	est := time.FixedZone("EST", -5*3600)
	return []fixture{
		{text: crlf("From: Alice <alice@example.test>\nTo: referee@example.test\nSubject: Game 1: e4\nDate: Wed, 10 Jan 2024 23:30:00 -0500\nX-Game: 1\n\n1. e4\n"),
			date: time.Date(2024, 1, 10, 12, 0, 0, 0, time.UTC)},
		{text: crlf("From: Bob <bob@example.test>\nSubject: Re: Game 1\nDate: Thu, 15 Feb 2024 08:00:00 +0000\n\n1... e5, your move\n"),
			flags: []imap.Flag{imap.FlagSeen},
			date:  time.Date(2024, 2, 15, 12, 0, 0, 0, time.UTC)},
		{text: crlf("From: Carol <carol@example.test>\nSubject: =?UTF-8?Q?Partie_d=27=C3=A9checs?=\nDate: Wed, 20 Mar 2024 10:00:00 +0100\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b1\"\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nKnight to f3.\n--b1\nContent-Type: text/html; charset=utf-8\n\n<p>Knight to <b>f3</b>.</p>\n--b1--\n"),
			flags: []imap.Flag{imap.FlagSeen, "$RefereeDone"},
			// 20 March where it was received, 21 March in UTC.
			date: time.Date(2024, 3, 20, 23, 30, 0, 0, est)},
		{text: crlf("From: Alice <alice@example.test>\nSubject: Move\nDate: Thu, 21 Mar 2024 00:10:00 +0000\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" +
			base64.StdEncoding.EncodeToString([]byte("O-O, castles kingside\r\n")) + "\n"),
			flags: []imap.Flag{"$RefereeDone"},
			date:  time.Date(2024, 3, 21, 0, 10, 0, 0, time.UTC)},
		{text: crlf("From: Dave <dave@example.test>\nSubject: Attachment\nDate: Mon, 1 Apr 2024 09:00:00 +0000\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b2\"\n\n--b2\nContent-Type: text/plain\n\nsee attached\n--b2\nContent-Type: application/octet-stream\n\nsecretword\n--b2--\n"),
			date: time.Date(2024, 4, 1, 9, 0, 0, 0, time.UTC)},
	}
}

// appendFixtures appends fs to the INBOX of the client's account.
func appendFixtures(t *testing.T, c *imapclient.Client, fs []fixture) {
	t.Helper()
	for i, f := range fs {
		cmd := c.Append("INBOX", int64(len(f.text)), &imap.AppendOptions{Flags: f.flags, Time: f.date})
		if _, err := cmd.Write([]byte(f.text)); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := cmd.Wait()
		if err != nil {
			t.Fatalf("appending message %d: %v", i+1, err)
		}
		if data.UID != imap.UID(i+1) {
			t.Fatalf("message %d got UID %d", i+1, data.UID)
		}
	}
}

// searchClient logs in as referee@example.test with the fixtures in the
// INBOX, selected.
func searchClient(t *testing.T) (*Server, *imapclient.Client) {
	t.Helper()
	s := start(t)
	c := login(t, s, "referee@example.test", nil)
	appendFixtures(t, c, searchFixtures())
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	return s, c
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func uids(nums ...imap.UID) imap.UIDSet { return imap.UIDSetNum(nums...) }

func TestSearchCriteria(t *testing.T) {
	// SEARCH through a real client, criterion by criterion, for what the
	// referee asks (UID SEARCH NOT KEYWORD $RefereeDone) and what mail
	// clients commonly send.
	_, c := searchClient(t)
	fs := searchFixtures()
	sizes := make([]int64, len(fs))
	for i, f := range fs {
		sizes[i] = int64(len(f.text))
	}
	largest := imap.UID(slices.Index(sizes, slices.Max(sizes)) + 1)
	smallest := imap.UID(slices.Index(sizes, slices.Min(sizes)) + 1)
	done := imap.Flag("$RefereeDone")
	for _, tt := range []struct {
		name     string
		criteria imap.SearchCriteria
		want     []imap.UID
	}{
		{"ALL", imap.SearchCriteria{}, []imap.UID{1, 2, 3, 4, 5}},
		{"UID 2:4", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 2, Stop: 4}}}}, []imap.UID{2, 3, 4}},
		{"UID 4:2 (reversed)", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 4, Stop: 2}}}}, []imap.UID{2, 3, 4}},
		{"UID 4:*", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 4, Stop: 0}}}}, []imap.UID{4, 5}},
		{"UID 9:* is the last", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 9, Stop: 0}}}}, []imap.UID{5}},
		{"UID 1,3,5", imap.SearchCriteria{UID: []imap.UIDSet{uids(1, 3, 5)}}, []imap.UID{1, 3, 5}},
		{"UID 1:3 UID 2:5", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 1, Stop: 3}}, {{Start: 2, Stop: 5}}}}, []imap.UID{2, 3}},
		{"2:3 (sequence numbers)", imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 2, Stop: 3}}}}, []imap.UID{2, 3}},
		{"* (sequence number)", imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 0, Stop: 0}}}}, []imap.UID{5}},
		{"NOT KEYWORD $RefereeDone", imap.SearchCriteria{NotFlag: []imap.Flag{done}}, []imap.UID{1, 2, 5}},
		{"KEYWORD in another case", imap.SearchCriteria{Flag: []imap.Flag{"$refereedone"}}, []imap.UID{3, 4}},
		{"UNSEEN", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, []imap.UID{1, 4, 5}},
		{"SEEN NOT KEYWORD", imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}, NotFlag: []imap.Flag{done}}, []imap.UID{2}},
		{"SINCE is inclusive, in the date's own zone", imap.SearchCriteria{Since: day(2024, 3, 20)}, []imap.UID{3, 4, 5}},
		{"SINCE the next day", imap.SearchCriteria{Since: day(2024, 3, 21)}, []imap.UID{4, 5}},
		{"BEFORE is exclusive", imap.SearchCriteria{Before: day(2024, 3, 20)}, []imap.UID{1, 2}},
		{"SINCE BEFORE", imap.SearchCriteria{Since: day(2024, 2, 1), Before: day(2024, 3, 21)}, []imap.UID{2, 3}},
		{"ON", imap.SearchCriteria{Since: day(2024, 3, 20), Before: day(2024, 3, 21)}, []imap.UID{3}},
		{"SENTON in the header's zone", imap.SearchCriteria{SentSince: day(2024, 1, 10), SentBefore: day(2024, 1, 11)}, []imap.UID{1}},
		{"SENTSINCE", imap.SearchCriteria{SentSince: day(2024, 3, 20)}, []imap.UID{3, 4, 5}},
		{"SENTBEFORE", imap.SearchCriteria{SentBefore: day(2024, 2, 15)}, []imap.UID{1}},
		{"SUBJECT in another case", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "GAME 1"}}}, []imap.UID{1, 2}},
		{"SUBJECT of an encoded word", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "subject", Value: "d'échecs"}}}, []imap.UID{3}},
		{"HEADER present", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "X-Game", Value: ""}}}, []imap.UID{1}},
		{"FROM", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "alice"}}}, []imap.UID{1, 4}},
		{"FROM SUBJECT", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "alice"}, {Key: "Subject", Value: "move"}}}, []imap.UID{4}},
		{"BODY of a MIME alternative", imap.SearchCriteria{Body: []string{"knight"}}, []imap.UID{3}},
		{"BODY in base64", imap.SearchCriteria{Body: []string{"Castles"}}, []imap.UID{4}},
		{"BODY not in an attachment", imap.SearchCriteria{Body: []string{"secretword"}}, nil},
		{"BODY not in the header", imap.SearchCriteria{Body: []string{"game"}}, nil},
		{"BODY two strings", imap.SearchCriteria{Body: []string{"1.", "e5"}}, []imap.UID{2}},
		{"TEXT in the header", imap.SearchCriteria{Text: []string{"game 1"}}, []imap.UID{1, 2}},
		{"TEXT in the body", imap.SearchCriteria{Text: []string{"KNIGHT TO"}}, []imap.UID{3}},
		{"TEXT in a part's header", imap.SearchCriteria{Text: []string{"octet-stream"}}, []imap.UID{5}},
		{"TEXT of an address", imap.SearchCriteria{Text: []string{"carol@"}}, []imap.UID{3}},
		{"OR BODY KEYWORD", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{{Body: []string{"e4"}}, {Flag: []imap.Flag{done}}}}}, []imap.UID{1, 3, 4}},
		{"NOT OR SEEN KEYWORD", imap.SearchCriteria{Not: []imap.SearchCriteria{{Or: [][2]imap.SearchCriteria{{{Flag: []imap.Flag{imap.FlagSeen}}, {Flag: []imap.Flag{done}}}}}}}, []imap.UID{1, 5}},
		{"OR UID NOT UID", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{{UID: []imap.UIDSet{uids(1)}}, {Not: []imap.SearchCriteria{{UID: []imap.UIDSet{{{Start: 1, Stop: 4}}}}}}}}}, []imap.UID{1, 5}},
		{"OR (FROM UNSEEN) SUBJECT", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{
			{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "alice"}}, NotFlag: []imap.Flag{imap.FlagSeen}},
			{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "re:"}}},
		}}}, []imap.UID{1, 2, 4}},
		{"NOT NOT", imap.SearchCriteria{Not: []imap.SearchCriteria{{Not: []imap.SearchCriteria{{Flag: []imap.Flag{imap.FlagSeen}}}}}}, []imap.UID{2, 3}},
		{"UNSEEN NOT BODY", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}, Not: []imap.SearchCriteria{{Body: []string{"e4"}}}}, []imap.UID{4, 5}},
		{"LARGER", imap.SearchCriteria{Larger: sizes[largest-1] - 1}, []imap.UID{largest}},
		{"SMALLER", imap.SearchCriteria{Smaller: sizes[smallest-1] + 1}, []imap.UID{smallest}},
		{"LARGER is strict", imap.SearchCriteria{Larger: sizes[largest-1]}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, err := c.UIDSearch(&tt.criteria, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if got := data.AllUIDs(); !slices.Equal(got, tt.want) {
				t.Errorf("UID SEARCH: %v, want %v", got, tt.want)
			}
		})
	}
}

// expunge flags the messages of UIDs nums \Deleted and expunges them by
// UID.
func expunge(t *testing.T, c *imapclient.Client, nums ...imap.UID) {
	t.Helper()
	if err := c.Store(uids(nums...), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.UIDExpunge(uids(nums...)).Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSearchNumbersAfterExpunge(t *testing.T) {
	// Once a message is expunged, sequence numbers and UIDs differ: SEARCH
	// answers in the one asked for, "*" is the last message, and ESEARCH's
	// MIN, MAX, COUNT and ALL agree with them.
	_, c := searchClient(t)
	expunge(t, c, 2)
	// Now UIDs 1, 3, 4, 5 are sequence numbers 1 to 4.
	notDone := imap.SearchCriteria{NotFlag: []imap.Flag{"$RefereeDone"}}
	every := &imap.SearchOptions{ReturnMin: true, ReturnMax: true, ReturnCount: true, ReturnAll: true}
	for _, tt := range []struct {
		name     string
		uid      bool
		criteria imap.SearchCriteria
		options  *imap.SearchOptions
		want     imap.SearchData
	}{
		{"seq 2:*", false, imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 2, Stop: 0}}}}, nil,
			imap.SearchData{All: imap.SeqSetNum(2, 3, 4)}},
		{"UID of seq 2:*", true, imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 2, Stop: 0}}}}, nil,
			imap.SearchData{All: uids(3, 4, 5)}},
		{"seq 7:* is the last", false, imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 7, Stop: 0}}}}, nil,
			imap.SearchData{All: imap.SeqSetNum(4)}},
		{"expunged UID", true, imap.SearchCriteria{UID: []imap.UIDSet{uids(2)}}, nil,
			imap.SearchData{All: imap.UIDSet(nil)}},
		{"seq of UID 3:5", false, imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 3, Stop: 5}}}}, nil,
			imap.SearchData{All: imap.SeqSetNum(2, 3, 4)}},
		{"ESEARCH UID", true, notDone, every,
			imap.SearchData{All: uids(1, 5), Min: 1, Max: 5, Count: 2}},
		{"ESEARCH seq", false, notDone, every,
			imap.SearchData{All: imap.SeqSetNum(1, 4), Min: 1, Max: 4, Count: 2}},
		{"ESEARCH COUNT", true, imap.SearchCriteria{Flag: []imap.Flag{"$RefereeDone"}}, &imap.SearchOptions{ReturnCount: true},
			imap.SearchData{All: imap.UIDSet(nil), Count: 2}},
		{"ESEARCH MIN MAX", false, imap.SearchCriteria{Flag: []imap.Flag{"$RefereeDone"}}, &imap.SearchOptions{ReturnMin: true, ReturnMax: true},
			imap.SearchData{All: imap.SeqSet(nil), Min: 2, Max: 3}},
		{"ESEARCH no match", true, imap.SearchCriteria{Body: []string{"nowhere"}}, every,
			imap.SearchData{All: imap.UIDSet(nil)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *imap.SearchData
			var err error
			if tt.uid {
				got, err = c.UIDSearch(&tt.criteria, tt.options).Wait()
			} else {
				got, err = c.Search(&tt.criteria, tt.options).Wait()
			}
			if err != nil {
				t.Fatal(err)
			}
			if setString(got.All) != setString(tt.want.All) || got.Min != tt.want.Min || got.Max != tt.want.Max || got.Count != tt.want.Count {
				t.Errorf("got ALL %v MIN %d MAX %d COUNT %d, want ALL %v MIN %d MAX %d COUNT %d",
					got.All, got.Min, got.Max, got.Count, tt.want.All, tt.want.Min, tt.want.Max, tt.want.Count)
			}
		})
	}
}

// setString writes a number set, "" for none.
func setString(set imap.NumSet) string {
	if set == nil {
		return ""
	}
	return set.String()
}

// rawIMAP is an IMAP conversation line by line, for what imapclient cannot
// send (SEARCH RETURN (SAVE) and "$").
type rawIMAP struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	n    int
}

func dialRaw(t *testing.T, s *Server) *rawIMAP {
	t.Helper()
	conn, err := net.Dial("tcp", s.IMAPAddr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := &rawIMAP{t: t, conn: conn, r: bufio.NewReader(conn)}
	if greeting, err := r.r.ReadString('\n'); err != nil || !strings.HasPrefix(greeting, "* OK") {
		t.Fatalf("greeting %q: %v", greeting, err)
	}
	return r
}

// rawFixtures is a raw conversation logged in as referee@example.test
// with the search fixtures in the INBOX, nothing selected.
func rawFixtures(t *testing.T) *rawIMAP {
	t.Helper()
	s, c := searchClient(t)
	c.Close()
	r := dialRaw(t, s)
	r.do(`LOGIN referee@example.test ` + s.Password())
	return r
}

// do sends a command and returns its untagged responses; it fails the
// test unless the command ends OK.
func (r *rawIMAP) do(command string) []string {
	r.t.Helper()
	r.n++
	tag := "t" + strconv.Itoa(r.n)
	if _, err := fmt.Fprintf(r.conn, "%s %s\r\n", tag, command); err != nil {
		r.t.Fatal(err)
	}
	var untagged []string
	for {
		line, err := r.r.ReadString('\n')
		if err != nil {
			r.t.Fatalf("%s: %v", command, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if rest, ok := strings.CutPrefix(line, tag+" "); ok {
			if !strings.HasPrefix(rest, "OK") {
				r.t.Fatalf("%s: %s", command, rest)
			}
			return untagged
		}
		untagged = append(untagged, line)
	}
}

var fetchUID = regexp.MustCompile(`^\* \d+ FETCH \(.*UID (\d+)`)

// fetchedUIDs are the UIDs of the FETCH responses among lines.
func fetchedUIDs(lines []string) []int {
	var l []int
	for _, line := range lines {
		if m := fetchUID.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			l = append(l, n)
		}
	}
	return l
}

func TestSearchSave(t *testing.T) {
	// SEARCH RETURN (SAVE) keeps the result for "$" (RFC 5182): in FETCH,
	// STORE and a later SEARCH, by UID even when saved from a SEARCH of
	// sequence numbers; "$" before any SAVE is empty.
	r := rawFixtures(t)
	r.do(`SELECT INBOX`)
	if got := fetchedUIDs(r.do(`UID FETCH $ (UID)`)); len(got) != 0 {
		t.Errorf("$ before SAVE fetched UIDs %v", got)
	}
	r.do(`UID SEARCH RETURN (SAVE) KEYWORD $RefereeDone`)
	if got := fetchedUIDs(r.do(`UID FETCH $ (UID)`)); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("UID FETCH $: UIDs %v, want [3 4]", got)
	}
	if got := r.do(`UID SEARCH $ UNSEEN`); !slices.Equal(got, []string{"* SEARCH 4"}) {
		t.Errorf("UID SEARCH $ UNSEEN: %q", got)
	}
	r.do(`SEARCH RETURN (SAVE) NOT SEEN`)
	if got := fetchedUIDs(r.do(`FETCH $ (UID)`)); !slices.Equal(got, []int{1, 4, 5}) {
		t.Errorf("FETCH $ after SEARCH RETURN (SAVE) NOT SEEN: UIDs %v, want [1 4 5]", got)
	}
	r.do(`UID STORE $ +FLAGS.SILENT (\Flagged)`)
	if got := r.do(`UID SEARCH FLAGGED`); !slices.Equal(got, []string{"* SEARCH 1 4 5"}) {
		t.Errorf("after UID STORE $: %q", got)
	}
}

func TestFetchAndStore(t *testing.T) {
	// FETCH answers from the stored text (whole, partial, by section) and
	// BODY[] without PEEK sets \Seen; STORE sets, adds and removes flags,
	// in any case, answering with the new flags unless SILENT.
	_, c := searchClient(t)
	text := searchFixtures()[0].text
	whole := &imap.FetchItemBodySection{}
	partial := &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Offset: 6, Size: 5}}
	beyond := &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Offset: 1000, Size: 5}}
	subject := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader, HeaderFields: []string{"Subject"}}
	body := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierText}
	msgs, err := c.Fetch(uids(1), &imap.FetchOptions{
		Flags: true, InternalDate: true, RFC822Size: true, Envelope: true, BodyStructure: &imap.FetchItemBodyStructure{},
		BodySection: []*imap.FetchItemBodySection{whole, partial, beyond, subject, body},
	}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Fatalf("%d messages fetched", len(msgs))
	}
	m := msgs[0]
	for _, tt := range []struct {
		name      string
		got, want string
	}{
		{"BODY[]", string(m.FindBodySection(whole)), text},
		{"BODY[]<6.5>", string(m.FindBodySection(partial)), text[6:11]},
		{"BODY[]<1000.5>", string(m.FindBodySection(beyond)), ""},
		{"BODY[HEADER.FIELDS (SUBJECT)]", string(m.FindBodySection(subject)), "Subject: Game 1: e4\r\n\r\n"},
		{"BODY[TEXT]", string(m.FindBodySection(body)), "1. e4\r\n"},
		{"ENVELOPE subject", m.Envelope.Subject, "Game 1: e4"},
		{"RFC822.SIZE", strconv.FormatInt(m.RFC822Size, 10), strconv.Itoa(len(text))},
		{"INTERNALDATE", m.InternalDate.UTC().Format(time.RFC3339), "2024-01-10T12:00:00Z"},
		{"BODYSTRUCTURE", fmt.Sprintf("%T", m.BodyStructure), "*imap.BodyStructureSinglePart"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	seen, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{uids(1)}, Flag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(seen.AllUIDs()) != 1 {
		t.Error("BODY[] did not set \\Seen")
	}

	for _, tt := range []struct {
		op    imap.StoreFlagsOp
		flags []imap.Flag
		want  []imap.Flag
	}{
		{imap.StoreFlagsSet, []imap.Flag{"$RefereeDone", imap.FlagFlagged}, []imap.Flag{"$refereedone", `\flagged`}},
		{imap.StoreFlagsAdd, []imap.Flag{imap.FlagSeen, "$REFEREEDONE"}, []imap.Flag{"$refereedone", `\flagged`, `\seen`}},
		{imap.StoreFlagsDel, []imap.Flag{`\FLAGGED`, "$absent"}, []imap.Flag{"$refereedone", `\seen`}},
		{imap.StoreFlagsSet, nil, nil},
	} {
		got, err := c.Store(uids(4), &imap.StoreFlags{Op: tt.op, Flags: tt.flags}, nil).Collect()
		if err != nil {
			t.Fatal(err)
		}
		var flags []imap.Flag
		for _, m := range got {
			if m.UID == 4 {
				for _, f := range m.Flags {
					flags = append(flags, imap.Flag(strings.ToLower(string(f))))
				}
			}
		}
		slices.Sort(flags)
		if len(got) != 1 || !slices.Equal(flags, tt.want) {
			t.Errorf("STORE %v %v: %d responses, flags %v, want %v", tt.op, tt.flags, len(got), flags, tt.want)
		}
	}
	got, err := c.Store(uids(3, 5), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagAnswered}}, nil).Collect()
	if err != nil || len(got) != 0 {
		t.Errorf("STORE SILENT: %d responses, %v", len(got), err)
	}
	answered, err := c.UIDSearch(&imap.SearchCriteria{Flag: []imap.Flag{imap.FlagAnswered}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if answered.All.String() != "3,5" {
		t.Errorf("after STORE SILENT +FLAGS \\Answered: %v answered", answered.All)
	}
}

func TestMoveAndExpungeResponses(t *testing.T) {
	// MOVE and EXPUNGE report each message gone exactly once, by the
	// sequence number it has when reported (RFC 9051 7.5.1).
	r := rawFixtures(t)
	r.do(`CREATE Done`)
	r.do(`SELECT INBOX`)
	expunges := func(lines []string) []string {
		var l []string
		for _, line := range lines {
			if strings.HasSuffix(line, " EXPUNGE") {
				l = append(l, strings.TrimSuffix(strings.TrimPrefix(line, "* "), " EXPUNGE"))
			}
		}
		return l
	}
	if got := expunges(r.do(`UID MOVE 2,4 Done`)); !slices.Equal(got, []string{"2", "3"}) {
		t.Errorf("UID MOVE 2,4: EXPUNGE %v, want [2 3]", got)
	}
	// Left: UIDs 1, 3, 5 as 1, 2, 3.
	r.do(`STORE 1,3 +FLAGS.SILENT (\Deleted)`)
	if got := expunges(r.do(`EXPUNGE`)); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("EXPUNGE: %v, want [1 2]", got)
	}
	if got := fetchedUIDs(r.do(`FETCH 1:* (UID)`)); !slices.Equal(got, []int{3}) {
		t.Errorf("left in INBOX: UIDs %v, want [3]", got)
	}
	r.do(`SELECT Done`)
	if got := fetchedUIDs(r.do(`FETCH 1:* (UID)`)); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("in Done: UIDs %v, want [1 2]", got)
	}
}

func TestSearchEdges(t *testing.T) {
	// "*" is the last message there is, after the highest UID is
	// expunged too; a message the session has not been told of yet is
	// found by UID but has no sequence number to answer with; SENT*
	// never matches a message without a Date field.
	s, c := searchClient(t)
	expunge(t, c, 5)
	// UID 6, with no Date field, delivered between two commands.
	if err := s.Deliver("referee@example.test", []byte("From: eve@example.test\r\nSubject: undated\r\n\r\nno date\r\n")); err != nil {
		t.Fatal(err)
	}
	search := func(uid bool, criteria imap.SearchCriteria, options *imap.SearchOptions) *imap.SearchData {
		t.Helper()
		cmd := c.Search(&criteria, options)
		if uid {
			cmd = c.UIDSearch(&criteria, options)
		}
		d, err := cmd.Wait()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// The first command after the delivery: the session does not know
	// message 5 (UID 6) yet.
	if d := search(false, imap.SearchCriteria{}, &imap.SearchOptions{ReturnAll: true, ReturnCount: true, ReturnMax: true}); setString(d.All) != "1:4" || d.Count != 4 || d.Max != 4 {
		t.Errorf("SEARCH ALL before the session heard of UID 6: ALL %v COUNT %d MAX %d, want 1:4, 4, 4", d.All, d.Count, d.Max)
	}
	for _, tt := range []struct {
		name     string
		criteria imap.SearchCriteria
		want     string
	}{
		{"UID 9:* after EXISTS", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 9, Stop: 0}}}}, "6"},
		{"ALL", imap.SearchCriteria{}, "1:4,6"},
		{"SENTBEFORE", imap.SearchCriteria{SentBefore: day(2030, 1, 1)}, "1:4"},
		{"SENTSINCE", imap.SearchCriteria{SentSince: day(2000, 1, 1)}, "1:4"},
		{"NOT SENTSINCE", imap.SearchCriteria{Not: []imap.SearchCriteria{{SentSince: day(2000, 1, 1)}}}, "6"},
		{"HEADER Date absent", imap.SearchCriteria{Not: []imap.SearchCriteria{{Header: []imap.SearchCriteriaHeaderField{{Key: "Date"}}}}}, "6"},
	} {
		if got := setString(search(true, tt.criteria, nil).All); got != tt.want {
			t.Errorf("UID SEARCH %s: %s, want %s", tt.name, got, tt.want)
		}
	}
	// Expunge the highest UID again: "*" is now UID 4, not UIDNEXT-1.
	expunge(t, c, 6)
	if got := setString(search(true, imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 9, Stop: 0}}}}, nil).All); got != "4" {
		t.Errorf("UID SEARCH 9:* with UIDs 1:4 left and UIDNEXT 7: %s, want 4", got)
	}
	// imapclient drops a FETCH response for a UID outside the set it
	// asked for, so this one goes raw.
	r := dialRaw(t, s)
	r.do(`LOGIN referee@example.test ` + s.Password())
	r.do(`SELECT INBOX`)
	if got := fetchedUIDs(r.do(`UID FETCH 9:* (UID)`)); !slices.Equal(got, []int{4}) {
		t.Errorf("UID FETCH 9:*: UIDs %v, want [4]", got)
	}
}

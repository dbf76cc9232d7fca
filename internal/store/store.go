// Package store keeps the referee's state in SQLite: games, players, actions,
// die rolls, inbound messages, the outbox, settings and an audit log. Every
// change goes through Update, which runs in one transaction, so that a game's
// change and the mails it causes are written together or not at all.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver (cgo)

	"referee/internal/game"
)

// ErrNotFound is wrapped by lookups that find nothing.
var ErrNotFound = errors.New("not found")

// Store is an open database.
type Store struct {
	db  *sql.DB // writes (and reads inside write transactions)
	rdb *sql.DB // read transactions (View)
	// writing is held for every write, so that this process's writers
	// queue here and are served in turn (sync.Mutex hands over in order
	// once a waiter has waited a millisecond). Left to SQLite, a writer
	// that finds the lock taken retries by sleeping 1, 2, 5, 10, ... ms,
	// and in a burst of mail the outbox's claims kept missing the short
	// gaps between the daemon's transactions: it sent one mail while 20
	// moves were processed, and the other 39 only after them. Other
	// processes (the admin commands) still meet SQLite's busy timeout.
	// Measured again once the mails were written outside the transaction
	// (a move holds it about 1.1 ms): in a burst of 60 transactions the
	// claim still waited for all 60 without this mutex (5 runs of 5), and
	// for 1 to 3 with it. It stays.
	writing sync.Mutex
	// observe, when set (ObserveWrites), is told how long each write
	// transaction held the database's write lock.
	observe func(held time.Duration)
}

// ObserveWrites has f told, after every transaction of Update, how long it
// held the write lock (from BEGIN to the end of COMMIT). For measurements:
// set it before the store is used by more than one goroutine.
func (s *Store) ObserveWrites(f func(held time.Duration)) { s.observe = f }

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate") // writers take the lock at BEGIN: no deadlock on upgrade
	// Each connection keeps its last 64 statements compiled: each of a
	// move's statements was compiled again every time (a move's CPU
	// 4.5-4.7 ms without, 3.7-3.9 ms with, BenchmarkMoveAtPly,
	// docs/performance.md). SQLite compiles a kept statement again by
	// itself when the schema changed.
	q.Set("_stmt_cache_size", "64")
	dsn, err := fileURI(path, q)
	if err != nil {
		return nil, err
	}
	if err := prepareFile(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	// Reads get their own connections, whose transactions begin deferred
	// and may not write: in WAL mode they see a consistent snapshot and
	// never wait for (or block) the writer's lock.
	q.Set("_txlock", "deferred")
	q.Set("_query_only", "true")
	rdsn, err := fileURI(path, q)
	if err != nil {
		db.Close()
		return nil, err
	}
	if s.rdb, err = sql.Open("sqlite3", rdsn); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s for reading: %w", path, err)
	}
	return s, nil
}

// fileURI returns the SQLite file: URI that names exactly the file at path,
// with the query q. The path is made absolute and every byte of it that
// could mean something in a URI (?, #, %, spaces, non-ASCII) is
// percent-escaped, so that "games?v2#1.db" opens that file and not
// "games" with options.
func fileURI(path string, q url.Values) (string, error) {
	if path == "" {
		return "", errors.New("the database path is empty: give a file name such as referee.db")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("database path %q: %w", path, err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String(), nil
}

func (s *Store) migrate(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	ms := migrations()
	if version > len(ms) {
		return fmt.Errorf("the database has schema version %d, but this referee knows only up to %d: use a newer referee binary", version, len(ms))
	}
	if version == len(ms) {
		return nil
	}
	// The migrations run on one connection with its foreign keys off, as
	// SQLite's procedure for changing a table's definition asks: a table
	// rebuilt (created anew, filled, the old one dropped, the new one
	// renamed) must not have its DROP cascade into the tables that refer
	// to it. Each migration's foreign keys are checked before its commit.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrating the schema: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return fmt.Errorf("migrating the schema: %w", err)
	}
	for v := version; v < len(ms); v++ {
		if err := migrateOne(ctx, conn, v, ms[v]); err != nil {
			// The connection goes back to the pool: with its foreign keys
			// on again, or the store is not opened at all.
			_, onErr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON")
			return errors.Join(err, onErr)
		}
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil {
		return fmt.Errorf("migrating the schema: turning foreign keys on again: %w", err)
	}
	return nil
}

// migrateOne brings the database from version v to v+1 with text, in one
// transaction on conn.
func migrateOne(ctx context.Context, conn *sql.Conn, v int, text string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrating to schema version %d: %w", v+1, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	// Another process may have migrated meanwhile.
	var now int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if now > v {
		return nil
	}
	if _, err := tx.ExecContext(ctx, text); err != nil {
		return fmt.Errorf("migrating to schema version %d: %w", v+1, err)
	}
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("migrating to schema version %d: checking foreign keys: %w", v+1, err)
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return fmt.Errorf("migrating to schema version %d: a row refers to one that is not there (PRAGMA foreign_key_check); the database is left at version %d", v+1, v)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
		return fmt.Errorf("setting schema version %d: %w", v+1, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating to schema version %d: %w", v+1, err)
	}
	return nil
}

// Version returns the schema version of the database.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// Close closes the database.
func (s *Store) Close() error { return errors.Join(s.rdb.Close(), s.db.Close()) }

// Tx is one transaction; every change is a method of Tx.
type Tx struct {
	ctx context.Context
	tx  *sql.Tx
}

// Update runs fn in one transaction and commits it only when fn returns nil.
func (s *Store) Update(ctx context.Context, fn func(tx *Tx) error) error {
	s.writing.Lock()
	defer s.writing.Unlock()
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("beginning a transaction: %w", err)
	}
	if s.observe != nil {
		began := time.Now()
		defer func() { s.observe(time.Since(began)) }()
	}
	if err := fn(&Tx{ctx: ctx, tx: sqlTx}); err != nil {
		sqlTx.Rollback()
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("committing: %w", err)
	}
	return nil
}

// exec runs one writing statement outside Update, in turn with the other
// writers (see Store.writing).
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s.writing.Lock()
	defer s.writing.Unlock()
	return s.db.ExecContext(ctx, query, args...)
}

// View runs fn in a read transaction: it sees one consistent state and
// takes no write lock, so it never waits for the daemon's writes.
func (s *Store) View(ctx context.Context, fn func(tx *Tx) error) error { return s.view(ctx, fn) }

// view runs fn in a read transaction.
func (s *Store) view(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("beginning a read: %w", err)
	}
	defer sqlTx.Rollback()
	return fn(&Tx{ctx: ctx, tx: sqlTx})
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// Player is one side of a game.
type Player struct {
	Color   int // 0 White, 1 Black
	Address string
	Name    string
	Secret  string
	// TimeZone is the player's own setting (player_settings, over all
	// their games): an IANA zone name, "" for UTC. Read with the game,
	// never written with it (SetTimeZone).
	TimeZone string
	// DisplayName is the name the player chose (the "name" command, over
	// all their games; "" for none). Read with the game, never written
	// with it (SetDisplayName).
	DisplayName string
	// Language is the code of the player's language (the "language"
	// command, over all their games; "" for none set). Read with the
	// game, never written with it (SetLanguage).
	Language string
}

// Game is one game's row with its two players.
type Game struct {
	ID            int64
	Variant       string
	Status        string // active, finished, aborted
	StartPosition string
	Position      string
	Ply           int
	Result        string // "1-0", "0-1", "1/2-1/2" or ""
	ResultReason  string
	Ending        game.Ending // how a finished game ended, as a kind
	AbortReason   string
	DieSeed       []byte
	DieCommitment string
	SeedRevealed  bool
	TimeControl   string
	DrawOfferBy   *int // colour that offered a draw, or nil
	DrawOfferPly  int
	State         string // JSON protocol state of the core (resignation, takeback, clocks)
	// Deadline is the next moment the clocks must look at the game (its
	// reminder or loss on time is due then), or nil when it has no running
	// clock.
	Deadline *time.Time
	// Rated is whether the result counts for the players' ratings; set
	// when the game is created (UpdateGame leaves it).
	Rated   bool
	Created time.Time
	Updated time.Time
	Players [2]Player
}

// Action is one applied action.
type Action struct {
	GameID    int64
	Ply       int
	Color     int
	Kind      string
	Notation  string
	Coord     string
	Position  string
	Message   string
	InboundID *int64
	Created   time.Time
}

// Roll is one die roll.
type Roll struct {
	GameID    int64
	N         int
	Ply       int
	Value     int
	Signature []byte
	Created   time.Time
}

// Inbound is one received message.
type Inbound struct {
	ID          int64
	MessageID   string
	UIDValidity uint32
	UID         uint32
	// Digest identifies the mail as its sender wrote it (hex SHA-256
	// without the trace fields that servers add on the way): the same mail
	// fetched again, from a rebuilt mailbox or under a new UID, has the
	// same digest, so it identifies a mail that has no Message-ID.
	Digest   string
	From     string
	Subject  string
	Received time.Time
	Outcome  string
	Detail   string
	GameID   *int64
}

// Outgoing is one message of the outbox.
type Outgoing struct {
	ID        int64
	GameID    *int64
	To        string
	From      string
	MessageID string
	// Raw is the mail as sent, for mail queued before schema version 7
	// (written and signed when it was queued); empty for newer mail, and
	// once pruned.
	Raw []byte
	// Data is the mail as the decision recorded it (letters.Encode), from
	// which the sender writes and signs it; empty for older mail, and once
	// pruned.
	Data []byte
	// Kind is what the mail is for (board, reject, refusal, ...).
	Kind string
	// Priority orders due mail: PriorityGame first, then PriorityPlayer,
	// then PriorityStranger.
	Priority    int
	Created     time.Time
	Attempts    int
	NextAttempt time.Time
	LastError   string
	Sent        *time.Time
	// ClaimedUntil is the end of the lease of the sender that is sending
	// it, if any.
	ClaimedUntil *time.Time
	// Dead is when the server refused it for good (undeliverable).
	Dead *time.Time
	// Dropped is when an operator gave it up.
	Dropped *time.Time
}

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	ID     int64
	Time   time.Time
	GameID *int64
	Event  string
	Detail string
}

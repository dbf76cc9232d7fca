// Package dice is the referee as a verifiable die witness. Each game has a
// secret 32-byte seed whose SHA-256 commitment is mailed at the start; roll n
// is derived from the seed by HMAC-SHA256 so that, once the seed is revealed,
// anyone can recompute every roll; and each roll is signed with the referee's
// Ed25519 key so that a player can prove what was announced. docs/dice.md
// documents the algorithm for people checking a game without this program.
package dice

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Seed is a game's secret die seed.
type Seed [32]byte

// NewSeed draws a seed from crypto/rand.
func NewSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("drawing a die seed: %w", err)
	}
	return s, nil
}

// ParseSeed reads a seed written as 64 hex digits.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(strings.TrimSpace(h))
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("a die seed is 64 hex digits (32 bytes); %q is not", h)
	}
	copy(s[:], b)
	return s, nil
}

// Hex returns the seed as 64 lower-case hex digits.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment is the lower-case hex SHA-256 of the seed's 32 bytes.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// Roll derives roll n (1, 2, ... over the whole game) of game gameID: for
// c = 0, 1, 2, ...: h = HMAC-SHA256(key = seed, message = "<gameID>:<n>:<c>");
// the first h[0] below 252 gives h[0] mod 6 + 1. Rejecting 252..255 keeps the
// six faces exactly equally likely (252 = 6 × 42).
func Roll(seed Seed, gameID string, n int) int {
	mac := hmac.New(sha256.New, seed[:])
	for c := 0; ; c++ {
		mac.Reset()
		fmt.Fprintf(mac, "%s:%d:%d", gameID, n, c)
		if b := mac.Sum(nil)[0]; b < 252 {
			return int(b)%6 + 1
		}
	}
}

// RollMessage is the exact text the referee signs for a roll.
func RollMessage(gameID string, n, value int) string {
	return fmt.Sprintf("referee-roll:%s:%d:%d", gameID, n, value)
}

// Key is the referee's Ed25519 signing key.
type Key struct {
	priv ed25519.PrivateKey
}

// NewKey creates a key from crypto/rand.
func NewKey() (Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, fmt.Errorf("creating the referee key: %w", err)
	}
	return Key{priv: priv}, nil
}

// KeyFromBytes restores a key stored with Bytes (the 32-byte seed form).
func KeyFromBytes(b []byte) (Key, error) {
	if len(b) != ed25519.SeedSize {
		return Key{}, fmt.Errorf("a stored referee key is %d bytes, not %d", len(b), ed25519.SeedSize)
	}
	return Key{priv: ed25519.NewKeyFromSeed(b)}, nil
}

// Bytes returns the key's private seed, for storing.
func (k Key) Bytes() []byte { return append([]byte(nil), k.priv.Seed()...) }

// Public returns the public key.
func (k Key) Public() ed25519.PublicKey {
	if k.priv == nil {
		return nil
	}
	return k.priv.Public().(ed25519.PublicKey)
}

// PublicHex returns the public key as 64 hex digits.
func (k Key) PublicHex() string { return hex.EncodeToString(k.Public()) }

// Sign signs RollMessage(gameID, n, value).
func (k Key) Sign(gameID string, n, value int) []byte {
	if k.priv == nil {
		return nil
	}
	return ed25519.Sign(k.priv, []byte(RollMessage(gameID, n, value)))
}

// VerifySignature checks a roll's signature.
func VerifySignature(pub ed25519.PublicKey, gameID string, n, value int, sig []byte) bool {
	if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return false
	}
	return ed25519.Verify(pub, []byte(RollMessage(gameID, n, value)), sig)
}

// RolledValue is one announced roll.
type RolledValue struct {
	N     int
	Value int
	Sig   []byte
}

// Record is what a verifier needs: the game, its commitment, the seed once
// revealed (nil while secret), the referee's public key and the rolls.
type Record struct {
	GameID     string
	Commitment string
	Seed       *Seed
	PublicKey  ed25519.PublicKey
	Rolls      []RolledValue
}

// Report is the outcome of Verify.
type Report struct {
	GameID   string
	Rolls    int
	Checked  []string // what was checked and held
	Problems []string // what did not hold
}

// OK reports whether the record is honest as far as it could be checked.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// String says plainly whether the record is honest, one finding a line.
func (r Report) String() string {
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "HONEST: game %s, %d die rolls: every check passed.\n", r.GameID, r.Rolls)
	} else {
		fmt.Fprintf(&b, "NOT HONEST: game %s, %d die rolls: %d problem(s).\n", r.GameID, r.Rolls, len(r.Problems))
	}
	for _, p := range r.Problems {
		b.WriteString("  problem: " + p + "\n")
	}
	for _, c := range r.Checked {
		b.WriteString("  ok: " + c + "\n")
	}
	return b.String()
}

// Verify checks a record: the seed against the commitment, every roll
// against its recomputation from the seed, every signature, and that the
// rolls are numbered 1, 2, 3, ... without gaps or repeats.
func Verify(rec Record) Report {
	rep := Report{GameID: rec.GameID, Rolls: len(rec.Rolls)}
	bad := func(f string, a ...any) { rep.Problems = append(rep.Problems, fmt.Sprintf(f, a...)) }
	for i, r := range rec.Rolls {
		if r.N != i+1 {
			bad("roll %d of the record is numbered %d: rolls must run 1, 2, 3, ... without gaps or repeats", i+1, r.N)
		}
	}
	if rec.Seed == nil {
		rep.Checked = append(rep.Checked, "the seed is still secret (the game is not over): only the signatures can be checked")
	} else {
		if got := rec.Seed.Commitment(); !strings.EqualFold(got, rec.Commitment) {
			bad("the revealed seed does not match the commitment mailed at the start: SHA-256(seed) is %s, the commitment is %s", got, rec.Commitment)
		} else {
			rep.Checked = append(rep.Checked, "the revealed seed matches the commitment "+rec.Commitment)
		}
		wrong := 0
		for _, r := range rec.Rolls {
			if want := Roll(*rec.Seed, rec.GameID, r.N); want != r.Value {
				bad("roll %d was announced as %d, but the seed gives %d", r.N, r.Value, want)
				wrong++
			}
		}
		if wrong == 0 {
			rep.Checked = append(rep.Checked, fmt.Sprintf("all %d rolls recomputed from the seed", len(rec.Rolls)))
		}
	}
	if len(rec.PublicKey) != ed25519.PublicKeySize {
		bad("no valid referee public key to check the signatures with")
		return rep
	}
	badSigs := 0
	for _, r := range rec.Rolls {
		if !VerifySignature(rec.PublicKey, rec.GameID, r.N, r.Value, r.Sig) {
			bad("the signature on roll %d (value %d) is not the referee's", r.N, r.Value)
			badSigs++
		}
	}
	if badSigs == 0 {
		rep.Checked = append(rep.Checked, fmt.Sprintf("all %d signatures are the referee's (key %s)", len(rec.Rolls), hex.EncodeToString(rec.PublicKey)))
	}
	return rep
}

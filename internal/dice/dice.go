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
	"slices"
	"strconv"
	"strings"
)

// Seed is a game's secret die seed.
type Seed [32]byte

// NewSeed draws a seed from crypto/rand.
func NewSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("drawing a die seed from the system's random source: %w", err)
	}
	return s, nil
}

// ParseSeed reads a seed written as 64 hex digits (either case; surrounding
// white space is ignored), as Hex writes it.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	t := strings.TrimSpace(h)
	b, err := hex.DecodeString(t)
	switch {
	case err != nil:
		return s, fmt.Errorf("the die seed %q is not hex (%w): write it as the 64 hex digits revealed at the end of the game", short(h), err)
	case len(b) != len(s):
		return s, fmt.Errorf("the die seed %q has %d hex digits, not 64: copy the whole seed revealed at the end of the game", short(h), len(t))
	}
	copy(s[:], b)
	return s, nil
}

// short cuts untrusted text down for an error message.
func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Hex returns the seed as 64 lower-case hex digits.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment is the lower-case hex SHA-256 of the seed's 32 bytes.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// Roll derives roll n (1, 2, ... over the whole game) of game gameID, the
// decimal game number such as "17": for c = 0, 1, 2, ...:
// h = HMAC-SHA256(key = seed, message = ASCII "<gameID>:<n>:<c>"); the first
// h[0] below 252 gives h[0] mod 6 + 1. Rejecting 252..255 keeps the six faces
// exactly equally likely (252 = 6 × 42).
func Roll(seed Seed, gameID string, n int) int {
	mac := hmac.New(sha256.New, seed[:])
	var msgBuf [64]byte
	prefix := append(msgBuf[:0], gameID...)
	prefix = append(prefix, ':')
	prefix = strconv.AppendInt(prefix, int64(n), 10)
	prefix = append(prefix, ':')
	var sum [sha256.Size]byte
	for c := int64(0); ; c++ {
		msg := strconv.AppendInt(prefix, c, 10)
		mac.Reset()
		mac.Write(msg)
		if b := mac.Sum(sum[:0])[0]; b < 252 {
			return int(b)%6 + 1
		}
	}
}

// RollMessage is the exact ASCII text the referee signs for a roll:
// "referee-roll:<gameID>:<n>:<value>", e.g. "referee-roll:17:5:3".
func RollMessage(gameID string, n, value int) string {
	return "referee-roll:" + gameID + ":" + strconv.Itoa(n) + ":" + strconv.Itoa(value)
}

// Key is the referee's Ed25519 signing key. The zero Key has no key: its
// Public is nil and its Sign returns nil, which every verifier refuses.
type Key struct {
	priv ed25519.PrivateKey
}

// NewKey creates a key from crypto/rand.
func NewKey() (Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, fmt.Errorf("creating the referee's Ed25519 key: %w", err)
	}
	return Key{priv: priv}, nil
}

// KeyFromBytes restores a key stored with Bytes: the 32-byte Ed25519 private
// seed (RFC 8032), which is also what other Ed25519 tools call the private key.
func KeyFromBytes(b []byte) (Key, error) {
	if len(b) != ed25519.SeedSize {
		return Key{}, fmt.Errorf("the stored referee key is %d bytes long, but an Ed25519 private key as Key.Bytes writes it is %d bytes: restore the key from a backup, or create a new one (players must then be told the new public key)", len(b), ed25519.SeedSize)
	}
	return Key{priv: ed25519.NewKeyFromSeed(b)}, nil
}

// Bytes returns the key's 32-byte private seed, for storing. Keep it secret.
func (k Key) Bytes() []byte {
	if k.priv == nil {
		return nil
	}
	return append([]byte(nil), k.priv.Seed()...)
}

// Public returns the public key (nil for the zero Key).
func (k Key) Public() ed25519.PublicKey {
	if k.priv == nil {
		return nil
	}
	return k.priv.Public().(ed25519.PublicKey)
}

// PublicHex returns the public key as 64 lower-case hex digits.
func (k Key) PublicHex() string { return hex.EncodeToString(k.Public()) }

// Sign returns the 64-byte Ed25519 signature of RollMessage(gameID, n, value)
// (nil for the zero Key).
func (k Key) Sign(gameID string, n, value int) []byte {
	if k.priv == nil {
		return nil
	}
	return ed25519.Sign(k.priv, []byte(RollMessage(gameID, n, value)))
}

// VerifySignature reports whether sig is pub's signature of
// RollMessage(gameID, n, value).
func VerifySignature(pub ed25519.PublicKey, gameID string, n, value int, sig []byte) bool {
	if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return false
	}
	return ed25519.Verify(pub, []byte(RollMessage(gameID, n, value)), sig)
}

// RolledValue is one announced roll: its number, its value and the referee's
// signature of RollMessage.
type RolledValue struct {
	N     int
	Value int
	Sig   []byte
}

// Record is what a verifier needs: the game, its commitment, the seed once
// revealed (nil while secret), the referee's public key and the rolls in the
// order they were announced.
type Record struct {
	GameID     string
	Commitment string
	Seed       *Seed
	PublicKey  ed25519.PublicKey
	Rolls      []RolledValue
}

// Report is the outcome of Verify.
type Report struct {
	// GameID is the game checked.
	GameID string
	// Rolls is the number of rolls in the record.
	Rolls int
	// SeedSecret is true when the seed was not revealed, so that only the
	// signatures (and the numbering) could be checked.
	SeedSecret bool
	// Checked lists what was checked and held, one sentence each.
	Checked []string
	// Problems lists what did not hold, one sentence each.
	Problems []string
}

// OK reports whether no problem was found. With the seed still secret this
// means only that the signatures and numbering are sound.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// String says plainly whether the record is honest, then one line per
// finding: problems first, then what was checked and held.
func (r Report) String() string {
	var b strings.Builder
	switch {
	case !r.OK():
		fmt.Fprintf(&b, "NOT HONEST: game %s, %d die rolls: %d problem(s) found.\n", r.GameID, r.Rolls, len(r.Problems))
	case r.SeedSecret:
		fmt.Fprintf(&b, "HONEST SO FAR: game %s, %d die rolls: every signature holds, but the seed is still secret, so the rolls themselves can be recomputed only once it is revealed.\n", r.GameID, r.Rolls)
	default:
		fmt.Fprintf(&b, "HONEST: game %s, %d die rolls: every check passed.\n", r.GameID, r.Rolls)
	}
	for _, p := range r.Problems {
		b.WriteString("  problem: " + p + "\n")
	}
	for _, c := range r.Checked {
		b.WriteString("  ok: " + c + "\n")
	}
	return b.String()
}

// Verify checks a record: that the rolls are numbered 1, 2, 3, ... in order
// without gaps or repeats, that each value is a die face, the seed against
// the commitment, every roll against its recomputation from the seed, and
// every signature. With the seed still secret only the numbering and the
// signatures can be checked, and the report says so.
func Verify(rec Record) Report {
	rep := Report{GameID: rec.GameID, Rolls: len(rec.Rolls), SeedSecret: rec.Seed == nil}
	ok := func(f string, a ...any) { rep.Checked = append(rep.Checked, fmt.Sprintf(f, a...)) }
	bad := func(f string, a ...any) { rep.Problems = append(rep.Problems, fmt.Sprintf(f, a...)) }

	if numberingProblems(rec.Rolls, bad) {
		ok("the rolls are numbered 1 to %d in order, without gaps or repeats", len(rec.Rolls))
	}
	faces := true
	for _, r := range rec.Rolls {
		if r.Value < 1 || r.Value > 6 {
			bad("roll %d was announced as %d, which is not a face of a die (1 to 6)", r.N, r.Value)
			faces = false
		}
	}
	if faces && len(rec.Rolls) > 0 {
		ok("every value is a die face from 1 to 6")
	}

	if rec.Seed == nil {
		ok("the seed is still secret (the game is not over): only the signatures can be checked; check again once the seed is revealed")
	} else {
		if got := rec.Seed.Commitment(); !strings.EqualFold(got, strings.TrimSpace(rec.Commitment)) {
			bad("the revealed seed does not match the commitment mailed at the start: SHA-256(seed) is %s, the commitment is %q", got, rec.Commitment)
		} else {
			ok("the revealed seed %s matches the commitment %s", rec.Seed.Hex(), got)
		}
		wrong := 0
		for _, r := range rec.Rolls {
			if want := Roll(*rec.Seed, rec.GameID, r.N); want != r.Value {
				bad("roll %d was announced as %d, but the seed gives %d", r.N, r.Value, want)
				wrong++
			}
		}
		if wrong == 0 {
			ok("all %d rolls recomputed from the seed match", len(rec.Rolls))
		}
	}

	if len(rec.PublicKey) != ed25519.PublicKeySize {
		bad("the referee's public key is %d bytes, not %d: the signatures cannot be checked without it (it is mailed at the start and printed by `referee key`)", len(rec.PublicKey), ed25519.PublicKeySize)
		return rep
	}
	badSigs := 0
	for _, r := range rec.Rolls {
		if !VerifySignature(rec.PublicKey, rec.GameID, r.N, r.Value, r.Sig) {
			bad("the signature on roll %d (value %d) is not the referee's signature of %q", r.N, r.Value, RollMessage(rec.GameID, r.N, r.Value))
			badSigs++
		}
	}
	if badSigs == 0 {
		ok("all %d signatures are the referee's (key %s)", len(rec.Rolls), hex.EncodeToString(rec.PublicKey))
	}
	return rep
}

// numberingProblems reports through bad every way in which rolls are not
// numbered 1, 2, 3, ... in order, and returns true when there is none.
func numberingProblems(rolls []RolledValue, bad func(string, ...any)) bool {
	clean := true
	count := map[int]int{}
	for i, r := range rolls {
		if r.N < 1 {
			bad("roll %d of the record is numbered %d: roll numbers start at 1", i+1, r.N)
			clean = false
			continue
		}
		count[r.N]++
	}
	var dups []int
	for n, k := range count {
		if k > 1 {
			dups = append(dups, n)
		}
	}
	slices.Sort(dups)
	for _, n := range dups {
		bad("roll %d appears %d times: each roll number must be used once", n, count[n])
		clean = false
	}
	// Gaps, from the sorted distinct numbers, so that a record naming roll
	// 10^15 costs no more than one naming roll 15.
	nums := make([]int, 0, len(count))
	for n := range count {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	prev := 0
	for _, n := range nums {
		switch {
		case n == prev+2:
			bad("roll %d is missing: the rolls must run 1, 2, 3, ... without gaps", prev+1)
			clean = false
		case n > prev+2:
			bad("rolls %d to %d are missing: the rolls must run 1, 2, 3, ... without gaps", prev+1, n-1)
			clean = false
		}
		prev = n
	}
	for i := 1; i < len(rolls); i++ {
		if rolls[i].N < rolls[i-1].N {
			bad("roll %d comes after roll %d in the record: the rolls must be listed in the order they were made", rolls[i].N, rolls[i-1].N)
			clean = false
			break
		}
	}
	return clean
}

// ChallengeColourMessage is the exact ASCII message whose HMAC draws the
// random colour of challenge id: "challenge:<id>:colour", e.g.
// "challenge:41:colour".
func ChallengeColourMessage(id int64) string {
	return "challenge:" + strconv.FormatInt(id, 10) + ":colour"
}

// ChallengeColour draws the colour of a challenge made with colour
// "random": h = HMAC-SHA256(key = seed, message = ChallengeColourMessage(id));
// the first byte h[0] even means the challenger plays White, odd Black.
// It returns 0 (White) or 1 (Black), and h[0] for the record. The seed is
// drawn when the challenge is made, its commitment is in the invitation,
// and it is revealed when the game starts (docs/dice.md).
func ChallengeColour(seed Seed, id int64) (colour int, firstByte byte) {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write([]byte(ChallengeColourMessage(id)))
	b := mac.Sum(nil)[0]
	return int(b & 1), b
}

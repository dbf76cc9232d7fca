package dice

import (
	"crypto/ed25519"
	"math"
	"strings"
	"testing"
)

// The seed 00 01 02 ... 1f, used by every known-answer test.
func testSeed() Seed {
	var s Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func TestKnownAnswers(t *testing.T) {
	// Computed independently of this package with python3:
	//   import hmac, hashlib; seed = bytes(range(32))
	//   hashlib.sha256(seed).hexdigest()
	//   hmac.new(seed, b"17:<n>:<c>", hashlib.sha256).digest()[0] -> first < 252, % 6 + 1
	s := testSeed()
	if got, want := s.Commitment(), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"; got != want {
		t.Errorf("commitment = %s, want %s", got, want)
	}
	tests := []struct{ n, want int }{
		{1, 5}, {2, 2}, {3, 6}, {4, 3}, {5, 5}, {6, 6}, {7, 2}, {8, 4}, {9, 3}, {10, 5},
		{94, 5}, // c = 0 gives a byte >= 252 and is rejected; c = 1 gives 5
	}
	for _, tt := range tests {
		if got := Roll(s, "17", tt.n); got != tt.want {
			t.Errorf("Roll(seed, 17, %d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

func TestSeedHexRoundTrip(t *testing.T) {
	s := testSeed()
	got, err := ParseSeed(s.Hex())
	if err != nil || got != s {
		t.Fatalf("ParseSeed(Hex()) = %x, %v", got, err)
	}
	for _, bad := range []string{"", "zz", s.Hex()[:62]} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}

func TestSignatures(t *testing.T) {
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	k2, err := KeyFromBytes(k.Bytes())
	if err != nil || k2.PublicHex() != k.PublicHex() {
		t.Fatalf("key does not survive Bytes/KeyFromBytes")
	}
	sig := k.Sign("17", 3, 4)
	if !VerifySignature(k.Public(), "17", 3, 4, sig) {
		t.Fatal("a good signature is refused")
	}
	tampered := append([]byte(nil), sig...)
	tampered[5] ^= 1
	for _, tt := range []struct {
		name     string
		game     string
		n, value int
		sig      []byte
	}{
		{"changed value", "17", 3, 5, sig},
		{"changed n", "17", 4, 4, sig},
		{"changed game", "18", 3, 4, sig},
		{"changed signature byte", "17", 3, 4, tampered},
		{"short signature", "17", 3, 4, sig[:10]},
	} {
		if VerifySignature(k.Public(), tt.game, tt.n, tt.value, tt.sig) {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}

func honestRecord(t *testing.T, k Key) Record {
	s := testSeed()
	rec := Record{GameID: "17", Commitment: s.Commitment(), Seed: &s, PublicKey: k.Public()}
	for n := 1; n <= 12; n++ {
		v := Roll(s, "17", n)
		rec.Rolls = append(rec.Rolls, RolledValue{N: n, Value: v, Sig: k.Sign("17", n, v)})
	}
	return rec
}

func TestVerify(t *testing.T) {
	k, _ := NewKey()
	other, _ := NewKey()
	if rep := Verify(honestRecord(t, k)); !rep.OK() || !strings.HasPrefix(rep.String(), "HONEST") {
		t.Fatalf("honest record refused:\n%s", rep)
	}
	tests := []struct {
		name   string
		change func(r *Record)
		want   string
	}{
		{"changed roll", func(r *Record) { r.Rolls[4].Value = r.Rolls[4].Value%6 + 1 }, "roll 5 was announced"},
		{"changed seed", func(r *Record) { s := *r.Seed; s[0] ^= 1; r.Seed = &s }, "does not match the commitment"},
		{"changed signature", func(r *Record) { r.Rolls[2].Sig = append([]byte(nil), r.Rolls[2].Sig...); r.Rolls[2].Sig[0] ^= 1 }, "signature on roll 3"},
		{"another key", func(r *Record) { r.PublicKey = other.Public() }, "signature on roll 1"},
		{"gap", func(r *Record) { r.Rolls = append(r.Rolls[:3], r.Rolls[4:]...) }, "numbered 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := honestRecord(t, k)
			tt.change(&rec)
			rep := Verify(rec)
			if rep.OK() || !strings.Contains(rep.String(), tt.want) || !strings.HasPrefix(rep.String(), "NOT HONEST") {
				t.Errorf("report does not flag %q:\n%s", tt.want, rep)
			}
		})
	}
	// While the seed is secret only signatures are checked, and the report says so.
	rec := honestRecord(t, k)
	rec.Seed = nil
	if rep := Verify(rec); !rep.OK() || !strings.Contains(rep.String(), "still secret") {
		t.Errorf("secret-seed report:\n%s", rep)
	}
	rec.PublicKey = ed25519.PublicKey{1, 2}
	if rep := Verify(rec); rep.OK() {
		t.Error("a record without a valid key passed")
	}
}

func TestDistributionChiSquare(t *testing.T) {
	// 600,000 rolls of a fixed seed: the chi-square statistic over the six
	// faces (5 degrees of freedom) must stay under 20.515, the critical value
	// at p = 0.001. Deterministic: the seed is fixed, so this cannot flake.
	if testing.Short() {
		t.Skip("600,000 HMACs")
	}
	s := testSeed()
	const total = 600000
	var count [7]int
	for n := 1; n <= total; n++ {
		count[Roll(s, "17", n)]++
	}
	exp := float64(total) / 6
	chi := 0.0
	for f := 1; f <= 6; f++ {
		d := float64(count[f]) - exp
		chi += d * d / exp
	}
	t.Logf("counts %v, chi-square %.3f (critical 20.515 at p=0.001)", count[1:], chi)
	if chi > 20.515 || math.IsNaN(chi) {
		t.Errorf("chi-square %.3f over 20.515: the rolls are not uniform", chi)
	}
}

func BenchmarkRoll(b *testing.B) {
	s := testSeed()
	for i := 0; b.Loop(); i++ {
		Roll(s, "17", i+1)
	}
}

func BenchmarkSign(b *testing.B) {
	k, _ := NewKey()
	for i := 0; b.Loop(); i++ {
		k.Sign("17", i+1, 3)
	}
}

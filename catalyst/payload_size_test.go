package catalyst

import (
	"math/rand/v2"
	"testing"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// TestUnquotedLen: a payload's size without unquoting is the length of its
// unquoted text, for every kind of escape, valid or not.
func TestUnquotedLen(t *testing.T) {
	cases := []string{``, `abc`, `\"`, `\\`, `\/\b\f\n\r\t`, `\u0041`, `\u00e9`, `\u20ac`, `\ud83d\ude00`, `\ud83d`,
		`\ude00`, `\ud83dx`, `\u12`, `\uzzzz`, `\x`, `a\`, `\u`, `\ud83d\u0041`}
	alphabet := []string{`\`, `u`, `d`, `8`, `3`, `e`, `0`, `a`, `"`, `n`, `é`, "\xff"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := ""
		for range rng.IntN(16) {
			b += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, b)
	}
	for _, c := range cases {
		if got, want := jsonscan.UnescapedLen(c), len(unquoteJSON(c)); got != want {
			t.Fatalf("UnescapedLen(%q) = %d, want %d", c, got, want)
		}
		p := QuotedPayload(`"` + c + `"`)
		if p.Has() && p.Size() != len(p.Text()) {
			t.Fatalf("Size of %q is %d, its text has %d bytes", c, p.Size(), len(p.Text()))
		}
		// AppendText appends exactly Text, quoted or not.
		for _, p := range []Payload{p, PresentPayload(c)} {
			if got, want := string(p.AppendText([]byte("x"))), "x"+p.Text(); got != want {
				t.Fatalf("AppendText of %q = %q, want %q", c, got, want)
			}
		}
	}
	for _, p := range []Payload{{}, {State: PayloadEmpty}, {State: PayloadWithheld}} {
		if got := string(p.AppendText([]byte("x"))); got != "x" {
			t.Errorf("AppendText of a %v payload appended %q", p.State, got[1:])
		}
	}
}

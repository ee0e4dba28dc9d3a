package detect

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/fixtures"
)

// TestCoefficientsMatchAllowsTheResolution: from exact stamps two
// schedules match within 15%; from whole-second ones, each delay may be off
// by a second, so a match is judged on every coefficient the delays allow
// — rounding neither makes nor breaks one — and a coefficient is printed
// only from delays long enough to give it.
func TestCoefficientsMatchAllowsTheResolution(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name    string
		res     time.Duration
		a, b    policySample
		want    Confidence
		matched bool
		textA   string
	}{
		{"exact, same", 0, policySample{first: 5 * s, second: 10 * s}, policySample{first: 5 * s, second: 10 * s}, ConfidenceProbable, true, " (×2.0)"},
		{"exact, apart", 0, policySample{first: s, second: 2 * s}, policySample{first: s, second: s}, "", false, " (×2.0)"},
		{"exact, one unknown", 0, policySample{first: s, second: 2 * s}, policySample{first: s}, ConfidencePossible, true, " (×2.0)"},
		// True 1.4 s then 2.1 s (×1.5) and 1.4 s then 1.9 s (×1.36) read
		// as 1/2 and 1/1 from whole seconds: ×2.0 against ×1.0 was "apart".
		// A 1 s first delay may be next to nothing: the coefficient is
		// unknown, the match possible.
		{"whole seconds, rounding apart", s, policySample{first: s, second: 2 * s}, policySample{first: s, second: s}, ConfidencePossible, true, ""},
		{"whole seconds, overlapping", s, policySample{first: 5 * s, second: 10 * s}, policySample{first: 5 * s, second: 12 * s}, ConfidenceProbable, true, ""},
		{"whole seconds, truly apart", s, policySample{first: 20 * s, second: 20 * s}, policySample{first: 20 * s, second: 60 * s}, "", false, " (×1.0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			aLo, aHi := tc.a.coefficientRange(tc.res)
			bLo, bHi := tc.b.coefficientRange(tc.res)
			conf, ok := coefficientsMatch(aLo, aHi, bLo, bHi)
			if conf != tc.want || ok != tc.matched {
				t.Errorf("coefficientsMatch = %q, %v; want %q, %v", conf, ok, tc.want, tc.matched)
			}
			if got := tc.a.coefficientText(tc.res); got != tc.textA {
				t.Errorf("coefficientText = %q, want %q", got, tc.textA)
			}
		})
	}
	if lo, hi := (&policySample{first: 5 * s, second: 10 * s}).coefficientRange(s); lo != 1.5 || hi != 2.75 {
		t.Errorf("5 s then 10 s from whole seconds allows ×%v–×%v, want ×1.5–×2.75", lo, hi)
	}
	if lo, hi := (&policySample{first: s, second: 2 * s}).coefficientRange(s); lo != 0 || hi != 0 {
		t.Errorf("a 1 s first delay from whole seconds may be ~0: the coefficient is unknown, got ×%v–×%v", lo, hi)
	}
}

// TestEvidenceSpansFollowTheResolution: the same scenario from the Dapr
// CLI's JSON (whole seconds, and each row's elapsed) and from protojson:
// each fact's span carries how well it is known. The protojson's are
// exact. The CLI's spans between rows are rebuilt from the elapsed column
// (the presenter says "5.02s"), while its first backoff, measured to a
// fireAt the CLI prints to the second, is known to ±1 s ("~5s"), and its
// evidence prints no coefficient its whole seconds cannot give, where the
// protojson's says "(×2.0)". Both find the shared policy probable.
func TestEvidenceSpansFollowTheResolution(t *testing.T) {
	for _, tc := range []struct {
		file string
		res  time.Duration
		coef bool
	}{
		{"shared-retry-policy.dapr-cli.json", time.Second, false},
		{"shared-retry-policy.protojson.json", 0, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			h, err := fixtures.Open(filepath.Join("testdata", "corpus", tc.file), fixtures.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if h.TimeResolution != tc.res {
				t.Fatalf("TimeResolution %v, want %v", h.TimeResolution, tc.res)
			}
			r := Analyze(h, Options{})
			spans, backoffs := 0, 0
			for _, f := range r.Findings {
				for _, ev := range f.Evidence {
					first := strings.Contains(ev.Fact.Text, "first backoff")
					if sp, ok := ev.Fact.Span(); ok {
						spans++
						switch {
						case tc.res == 0 && !sp.Exact():
							t.Errorf("%q: an exact source's span is %+v", factText(ev.Fact), sp)
						case tc.res > 0 && first && (!sp.Coarse() || sp.Step != tc.res):
							t.Errorf("%q: a span to a fireAt (printed to the second) is %+v", factText(ev.Fact), sp)
						case tc.res > 0 && !first && !sp.Rebuilt():
							t.Errorf("%q: a span between rows is not rebuilt from elapsed: %+v", factText(ev.Fact), sp)
						}
					}
					if !first {
						continue
					}
					backoffs++
					if sp, _ := ev.Fact.Span(); sp.D != 5*time.Second {
						t.Errorf("%q: the first backoff is %v, want 5s", factText(ev.Fact), sp.D)
					}
					if got := strings.Contains(ev.Fact.Text, "(×2.0)"); got != tc.coef {
						t.Errorf("%q: says a coefficient %v, want %v", factText(ev.Fact), got, tc.coef)
					}
				}
				if f.ID == FindingSharedRetryPolicy && f.Confidence != ConfidenceProbable {
					t.Errorf("shared-retry-policy is %s, want probable", f.Confidence)
				}
			}
			if spans == 0 || backoffs != 2 {
				t.Errorf("%d facts state a span, %d a first backoff (want some, and 2):\n%s", spans, backoffs, describe(r))
			}
		})
	}
}

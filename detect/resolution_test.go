package detect

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// TestFmtSpan: an exact span as appendDuration writes it; one known only
// between whole-second stamps marked "~" (or "under 1 s"); one rebuilt
// from the Dapr CLI's elapsed column with no digit finer than its error.
func TestFmtSpan(t *testing.T) {
	ms := time.Millisecond
	coarse := func(d time.Duration) catalyst.Span { return catalyst.Span{D: d, Err: time.Second, Step: time.Second} }
	rebuilt := func(d, err time.Duration) catalyst.Span { return catalyst.Span{D: d, Err: err} }
	for _, tt := range []struct {
		sp   catalyst.Span
		want string
	}{
		{catalyst.Span{D: time.Second}, "1.0 s"},
		{catalyst.Span{D: 350 * ms}, "350 ms"},
		{coarse(0), "under 1 s"},
		{coarse(time.Second), "~1 s"},
		{coarse(30 * time.Second), "~30 s"},
		{coarse(150 * time.Second), "~2.5 min"},
		{coarse(-2 * time.Second), "~-2 s"},
		{rebuilt(748*ms, 50*time.Microsecond), "748 ms"},
		{rebuilt(748*ms, 5*ms), "0.75 s"},
		{rebuilt(748*ms, 50*ms), "0.7 s"},
		{rebuilt(2063*ms, 5200*time.Microsecond), "2.1 s"},
		{rebuilt(-40*ms, 2*ms), "-0.04 s"},
		{rebuilt(150*time.Second, 90*ms), "2.5 min"},
	} {
		if got := fmtSpan(tt.sp); got != tt.want {
			t.Errorf("fmtSpan(%+v) = %q, want %q", tt.sp, got, tt.want)
		}
	}
}

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
// CLI's JSON (whole seconds) and from protojson: the CLI's first backoff,
// measured to a fireAt the CLI prints to the second, says "~5 s" and no
// coefficient its whole seconds cannot give; the protojson's keeps "5.0 s
// (×2.0)". Both find the shared policy probable. The spans between the
// CLI's rows are rebuilt from their elapsed column and read as the
// protojson's do ("failed after 30.0 s"), not "~30 s".
func TestEvidenceSpansFollowTheResolution(t *testing.T) {
	for _, tc := range []struct {
		file, want, not string
		res             time.Duration
	}{
		{"shared-retry-policy.dapr-cli.json", "a ~5 s first backoff", "(×", time.Second},
		{"shared-retry-policy.protojson.json", "a 5.0 s first backoff (×2.0)", "~", 0},
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
			var facts []string
			for _, f := range r.Findings {
				for _, ev := range f.Evidence {
					facts = append(facts, ev.Fact)
				}
				if f.ID == FindingSharedRetryPolicy && f.Confidence != ConfidenceProbable {
					t.Errorf("shared-retry-policy is %s, want probable", f.Confidence)
				}
			}
			all := strings.Join(facts, "\n")
			if !strings.Contains(all, tc.want) {
				t.Errorf("missing %q in:\n%s", tc.want, all)
			}
			for _, f := range facts {
				if strings.Contains(f, "first backoff") && strings.Contains(f, tc.not) {
					t.Errorf("%q in %q", tc.not, f)
				}
			}
			if !strings.Contains(all, "attempt 1 failed after 30.0 s") || !strings.Contains(all, "attempt 2 scheduled 5.0 s later") {
				t.Errorf("the spans between rows are not the engine's:\n%s", all)
			}
			for _, f := range facts {
				if strings.Contains(f, "~") && !strings.Contains(f, "first backoff") {
					t.Errorf("a span between rows is not rebuilt: %q", f)
				}
			}
		})
	}
}

package detect

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures/gen"
)

// TestSplitInvocationChecksGiveTheSameReport: building and checking the
// invocations in ranges on several goroutines, with the run-wide checks on
// one more, gives exactly the report one goroutine gives (the same
// invocations, keys and attempts, the same findings in the same order, the
// same skipped checks),
// on every corpus history and on generated ones with payloads present and
// withheld, for more workers than some histories have invocations.
func TestSplitInvocationChecksGiveTheSameReport(t *testing.T) {
	histories := map[string]*catalyst.History{
		"bench typical": benchHistory(20_000, 50),
		"bench outage":  benchHistory(20_000, 1),
	}
	for _, level := range []catalyst.Level{"", catalyst.LevelMetadata} {
		var buf bytes.Buffer
		if err := gen.Write(&buf, gen.Options{Events: 30_000, Seed: 7, Format: catalyst.FormatCatalyst, Level: level}); err != nil {
			t.Fatal(err)
		}
		h, err := catalyst.Decode(&buf, catalyst.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		histories["generated, level "+string(level)] = h
	}
	for _, c := range corpusCases() {
		histories[c.file()] = decodeCorpusFile(t, c.file())
	}
	for name, h := range histories {
		plain := analyze(h, Options{}, 1)
		// The same with the classes of the first side-effect activities
		// overridden, which the workers' classifiers must honour.
		overrides := map[string]ActivityClass{}
		for _, inv := range plain.Invocations {
			if inv.Class == ClassSideEffect && len(overrides) < 3 {
				overrides[inv.Name] = ClassReadOnly
			}
		}
		for _, opts := range []Options{{}, {Overrides: overrides}} {
			one := analyze(h, opts, 1)
			for _, workers := range []int{2, 3, 7} {
				got := analyze(h, opts, workers)
				if !reflect.DeepEqual(got, one) {
					t.Errorf("%s, %d overrides: %d workers give a different report than one (%d vs %d findings, %d vs %d skipped)",
						name, len(opts.Overrides), workers, len(got.Findings), len(one.Findings), len(got.Skipped), len(one.Skipped))
				}
			}
		}
		if name == "bench outage" && (len(plain.Findings) == 0 || len(overrides) == 0) {
			t.Errorf("%s: %d findings, %d overrides; the comparison proves nothing", name, len(plain.Findings), len(overrides))
		}
	}
}

func TestInvocationWorkers(t *testing.T) {
	for _, tt := range []struct{ n, max int }{
		{0, 1},
		{minInvocationsPerWorker - 1, 1},
		{2 * minInvocationsPerWorker, 2},
		{100 * minInvocationsPerWorker, maxInvocationWorkers},
	} {
		got := invocationWorkers(tt.n)
		if got < 1 || got > tt.max || (tt.max == 1 && got != 1) {
			t.Errorf("invocationWorkers(%d) = %d, want 1..%d", tt.n, got, tt.max)
		}
	}
}

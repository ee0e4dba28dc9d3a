package format

import (
	"bytes"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
)

// measured is a fact stating a measure between two runs of words.
func measured(before string, kind detect.MeasureKind, v int64, res time.Duration, after string) detect.Fact {
	return detect.Fact{Text: before + after, At: int32(len(before)), Kind: kind, Value: v, Resolution: res}
}

// TestFactWordsItsMeasureAsSpansDo: a fact's span is said as every other
// span twice shows (Spans, by its resolution), its size as Bytes, and a
// fact of words is its words.
func TestFactWordsItsMeasureAsSpansDo(t *testing.T) {
	span := detect.MeasureSpan
	for _, tc := range []struct {
		f    detect.Fact
		want string
	}{
		{detect.Words("the first call has no recorded outcome"), "the first call has no recorded outcome"},
		{measured("attempt 1 failed after ", span, int64(30520*time.Millisecond), 0, ": read timeout"), "attempt 1 failed after 30.52s: read timeout"},
		{measured("completed after ", span, int64(667*time.Millisecond), 0, ""), "completed after 667.0ms"},
		{measured("no outcome for ", span, int64(6*time.Hour+18*time.Minute), 0, " while running"), "no outcome for 6.3h while running"},
		{measured("failed after ", span, int64(30*time.Second), time.Second, ":"), "failed after ~30s:"},
		{measured("scheduled ", span, int64(400*time.Millisecond), time.Second, " later"), "scheduled <1s later"},
		{measured("a ", span, int64(150*time.Second), time.Second, " first backoff"), "a ~2.5m first backoff"},
		// Rebuilt from the Dapr CLI's elapsed column: to the digit it is
		// known to, no "~".
		{detect.Fact{Text: "failed after : boom", At: 13, Kind: span, Value: int64(748 * time.Millisecond), Err: 50 * time.Microsecond},
			"failed after 748.0ms: boom"},
		{detect.Fact{Text: "ran it again  later", At: 13, Kind: span, Value: int64(2063 * time.Millisecond), Err: 5200 * time.Microsecond},
			"ran it again 2.06s later"},
		{measured("input is ", detect.MeasureSize, 512, 0, ""), "input is 512 B"},
		{measured("input is ", detect.MeasureSize, 96<<10+300, 0, ""), "input is 96 KiB"},
		{measured("output is ", detect.MeasureSize, 3<<20+512<<10, 0, "!"), "output is 3.5 MiB!"},
	} {
		if got := Fact(tc.f); got != tc.want {
			t.Errorf("Fact(%+v) = %q, want %q", tc.f, got, tc.want)
		}
		if sp, ok := tc.f.Span(); ok && !bytes.Contains([]byte(Fact(tc.f)), []byte(Spans{}.Show(sp))) {
			t.Errorf("%q does not say its span as Spans does (%q)", Fact(tc.f), Spans{}.Show(sp))
		}
	}
}

// TestFactJSONIsItsWordsEscaped: the JSON writer's fact, written without
// building the string, is byte for byte safetext.AppendJSON of Fact's
// words, whatever hostile text surrounds the measure.
func TestFactJSONIsItsWordsEscaped(t *testing.T) {
	for _, s := range hostiletest.Corpus(false) {
		for _, f := range []detect.Fact{
			detect.Words(s.Value),
			measured(s.Value, detect.MeasureSpan, int64(1500*time.Millisecond), 0, "fact"+s.Value),
			measured(s.Value, detect.MeasureSpan, int64(2*time.Second), time.Second, ""),
			measured("", detect.MeasureSize, 70<<10, 0, s.Value),
		} {
			got := AppendFactJSON([]byte("x"), f)
			want := safetext.AppendJSON([]byte("x"), Fact(f))
			if !bytes.Equal(got, want) {
				t.Errorf("%s: AppendFactJSON = %.80q, want %.80q", s.Name, got, want)
			}
		}
	}
}

// TestFactsWordsOneSideOfAChange: a side of a diff's change is its facts
// as Fact words each, joined by commas; a side with none says "none", never
// an empty cell.
func TestFactsWordsOneSideOfAChange(t *testing.T) {
	span := detect.MeasureSpan
	for _, tc := range []struct {
		fs   []detect.Fact
		want string
	}{
		{nil, "none"},
		{[]detect.Fact{detect.Words("completed")}, "completed"},
		{[]detect.Fact{detect.Words("2 attempts"), measured("took ", span, int64(30520*time.Millisecond), 0, "")}, "2 attempts, took 30.52s"},
	} {
		if got := Facts(tc.fs); got != tc.want {
			t.Errorf("Facts(%v) = %q, want %q", tc.fs, got, tc.want)
		}
	}
}

package format

import (
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// TestSpans: from exact stamps a span is Duration's; from whole-second
// stamps it is whole seconds marked "~", and "<1s" within one step (two
// stamps one second apart may be 0.01 s or 1.99 s apart; equal ones up to
// a second); rebuilt from the Dapr CLI's elapsed column, it has no digit
// finer than its error and no "~".
func TestSpans(t *testing.T) {
	exact := func(d time.Duration) catalyst.Span { return catalyst.Span{D: d} }
	whole := func(d time.Duration) catalyst.Span {
		return catalyst.Span{D: d, Err: time.Second, Step: time.Second}
	}
	rebuilt := func(d, err time.Duration) catalyst.Span { return catalyst.Span{D: d, Err: err} }
	const ms, µs = time.Millisecond, time.Microsecond
	for _, tc := range []struct {
		sp          catalyst.Span
		dur, offset string
	}{
		{exact(0), "0s", "+0s"},
		{exact(time.Second), "1.00s", "+1.00s"},
		{exact(30520 * ms), "30.52s", "+30.52s"},
		{exact(-27 * ms), "-27.0ms", "-27.0ms"},
		{whole(0), "<1s", "+<1s"},
		{whole(time.Second), "~1s", "~+1s"},
		{whole(30 * time.Second), "~30s", "~+30s"},
		{whole(-3 * time.Second), "~-3s", "~-3s"},
		{whole(150 * time.Second), "~2.5m", "~+2.5m"},
		{whole(3 * time.Hour), "~3.0h", "~+3.0h"},
		// The clock (an age) is exact, the stamp whole: still ±1 s.
		{whole(2500 * ms), "~3s", "~+3s"},
		{whole(400 * ms), "<1s", "+<1s"},
		// One row's elapsed ("748.0ms", ±0.05 ms): as the CLI printed it.
		{rebuilt(748*ms, 50*µs+1), "748.0ms", "+748.0ms"},
		{rebuilt(748*ms, 500*µs), "748ms", "+748ms"},
		// A backoff over a "2.00s" and four ms rows: ±5.2 ms.
		{rebuilt(2063*ms, 5200*µs), "2.06s", "+2.06s"},
		// 748 ms over a "%.2fs" row: no millisecond digit.
		{rebuilt(748*ms, 5*ms), "0.75s", "+0.75s"},
		{rebuilt(748*ms, 60*ms), "0.7s", "+0.7s"},
		{rebuilt(13*time.Second+4*ms, 80*ms), "13.0s", "+13.0s"},
		// Two of a turn's actions, sorted by eventId: ±2.4 µs either way.
		{rebuilt(2400, 4900), "0.00ms", "+0.00ms"},
		{rebuilt(2400, 90), "2.4µs", "+2.4µs"},
		{rebuilt(-40*ms, 2*ms), "-0.04s", "-0.04s"},
		{rebuilt(150*time.Second, 90*ms), "2.5m", "+2.5m"},
		{rebuilt(0, time.Nanosecond), "0s", "+0s"},
	} {
		var s Spans
		if got := s.Show(tc.sp); got != tc.dur {
			t.Errorf("Show(%+v) = %q, want %q", tc.sp, got, tc.dur)
		}
		if got := string(s.AppendShow([]byte("x"), tc.sp)); got != "x"+tc.dur {
			t.Errorf("AppendShow(%+v) = %q, want %q", tc.sp, got, "x"+tc.dur)
		}
		if got := s.OffsetOf(tc.sp); got != tc.offset {
			t.Errorf("OffsetOf(%+v) = %q, want %q", tc.sp, got, tc.offset)
		}
	}
	if exact := (Spans{}); exact.Legend() != "" || exact.Coarse() {
		t.Errorf("exact stamps have a legend %q or are coarse", exact.Legend())
	}
	if w := (Spans{Resolution: time.Second}); !w.Coarse() || w.Rebuilt() || !strings.Contains(w.Legend(), "every span is ±1s") {
		t.Errorf("whole-second stamps: legend %q", w.Legend())
	}
	// Without a history, a span between two stamps is measured as between
	// printed times.
	if got := (Spans{Resolution: time.Second}).Between(catalyst.Stamp(time.Second), catalyst.Stamp(4*time.Second)); got != "~3s" {
		t.Errorf("Between without a history = %q, want ~3s", got)
	}
}

// TestSpansOfRebuiltRows: over the Dapr CLI's rows whose elapsed values the
// decoder rebuilt, spans between rows are shown as rebuilt, a span to a
// clock reading is still ±1 s, and the legend says which is which.
func TestSpansOfRebuiltRows(t *testing.T) {
	h, err := catalyst.Decode(strings.NewReader(`[
{"namespace":"default","appID":"a","play":0,"type":"ExecutionStarted","name":"W","timestamp":"2026-08-20T09:14:03Z","elapsed":"Age:1.0h","status":"RUNNING","details":"workflowStart"},
{"namespace":"default","appID":"a","play":1,"type":"WorkflowStarted","name":null,"timestamp":"2026-08-20T09:14:03Z","elapsed":"14.4ms","status":"RUNNING","details":"replay"},
{"namespace":"default","appID":"a","play":1,"type":"TaskScheduled","name":"Charge","eventId":0,"timestamp":"2026-08-20T09:14:03Z","elapsed":"38.3ms","status":"RUNNING","details":null},
{"namespace":"default","appID":"a","play":1,"type":"TaskFailed","name":null,"timestamp":"2026-08-20T09:14:04Z","elapsed":"958.6ms","status":"FAILED","details":null,"attrs":"scheduledId=0;errorType=E;errorMsg=boom"}
]`), catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sp := SpansOf(h)
	if !sp.Rebuilt() || !strings.Contains(sp.Legend(), "rebuilt from its elapsed column") || !strings.Contains(sp.Legend(), "~: ±1s") {
		t.Errorf("legend %q", sp.Legend())
	}
	if got := sp.Between(h.At(2).Timestamp, h.At(3).Timestamp); got != "958.6ms" {
		t.Errorf("the attempt took %q, want 958.6ms", got)
	}
	if got := sp.Offset(h.At(0).Timestamp, h.At(3).Timestamp); got != "+1.01s" {
		t.Errorf("the failure is at %q from the start, want +1.01s", got)
	}
	now := h.At(0).Timestamp.Time().Add(time.Hour)
	if got := sp.Between(h.At(0).Timestamp, catalyst.StampOf(now)); got != "~1.0h" {
		t.Errorf("the age is %q, want ~1.0h (the first row's time is known to its second)", got)
	}
	if got := sp.Printed(h.Run.CreatedAt); !got.Equal(time.Date(2026, 8, 20, 9, 14, 3, 0, time.UTC)) {
		t.Errorf("the run's start is printed as %v, want its printed second", got)
	}
}

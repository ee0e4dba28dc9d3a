package format

import (
	"testing"
	"time"
)

// TestSpans: from exact stamps a span is Duration's; from whole-second
// stamps it is whole seconds marked "~", and "<1s" within one step (two
// stamps one second apart may be 0.01 s or 1.99 s apart; equal ones up to
// a second).
func TestSpans(t *testing.T) {
	exact, whole := Spans{}, Spans{Resolution: time.Second}
	for _, tc := range []struct {
		sp          Spans
		d           time.Duration
		dur, offset string
	}{
		{exact, 0, "0s", "+0s"},
		{exact, time.Second, "1.00s", "+1.00s"},
		{exact, 30520 * time.Millisecond, "30.52s", "+30.52s"},
		{exact, -27 * time.Millisecond, "-27.0ms", "-27.0ms"},
		{whole, 0, "<1s", "+<1s"},
		{whole, time.Second, "~1s", "~+1s"},
		{whole, 30 * time.Second, "~30s", "~+30s"},
		{whole, -3 * time.Second, "~-3s", "~-3s"},
		{whole, 150 * time.Second, "~2.5m", "~+2.5m"},
		{whole, 3 * time.Hour, "~3.0h", "~+3.0h"},
		// The clock (an age) is exact, the stamp whole: still ±1 s.
		{whole, 2500 * time.Millisecond, "~3s", "~+3s"},
		{whole, 400 * time.Millisecond, "<1s", "+<1s"},
	} {
		if got := tc.sp.Duration(tc.d); got != tc.dur {
			t.Errorf("%+v.Duration(%v) = %q, want %q", tc.sp, tc.d, got, tc.dur)
		}
		if got := string(tc.sp.AppendDuration([]byte("x"), tc.d)); got != "x"+tc.dur {
			t.Errorf("%+v.AppendDuration(%v) = %q, want %q", tc.sp, tc.d, got, "x"+tc.dur)
		}
		if got := tc.sp.Offset(tc.d); got != tc.offset {
			t.Errorf("%+v.Offset(%v) = %q, want %q", tc.sp, tc.d, got, tc.offset)
		}
	}
	if exact.Legend() != "" || exact.Coarse() {
		t.Errorf("exact stamps have a legend %q or are coarse", exact.Legend())
	}
	if !whole.Coarse() || whole.Legend() == "" {
		t.Errorf("whole-second stamps have no legend")
	}
}

package detect

import (
	"testing"
	"time"
)

func TestFmtDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{350 * time.Millisecond, "350 ms"},
		{999*time.Millisecond + 600*time.Microsecond, "1.0 s"},
		{30 * time.Second, "30.0 s"},
		{59*time.Second + 970*time.Millisecond, "1.0 min"},
		{150 * time.Second, "2.5 min"},
		{time.Hour - 2*time.Millisecond, "1.0 h"},
		{3 * time.Hour, "3.0 h"},
		{-2 * time.Second, "-2.0 s"},
	}
	for _, tt := range tests {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFmtBytesAndClip(t *testing.T) {
	if got := fmtBytes(100 << 10); got != "100 KiB" {
		t.Errorf("fmtBytes = %q", got)
	}
	if got := fmtBytes(3<<20 + 512<<10); got != "3.5 MiB" {
		t.Errorf("fmtBytes = %q", got)
	}
	if got := clip("abcdef", 3); got != "abc…" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("a\x1b[2Jb", 10); got != `a\x1b[2Jb` {
		t.Errorf("clip = %q", got)
	}
	var l line
	if got := l.id("8a4f2c71-3b9e-4d05").done(); got != "8a4f2c71…" {
		t.Errorf("id = %q", got)
	}
	if got := l.id("\u202eabc").done(); got != `\u202eabc` {
		t.Errorf("id = %q", got)
	}
}

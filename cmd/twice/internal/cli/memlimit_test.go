package cli

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	for _, tt := range []struct{ size, want int64 }{
		{0, 0},
		{memoryLimitMinInput - 1, 0},
		{memoryLimitMinInput, 2*memoryLimitMinInput - memoryOverhead},
		{165_000_000, 330_000_000 - memoryOverhead},
		{math.MaxInt64 / 2, 0},
	} {
		if got := memoryLimitFor(tt.size); got != tt.want {
			t.Errorf("memoryLimitFor(%d) = %d, want %d", tt.size, got, tt.want)
		}
	}
}

// TestLimitMemoryFor: a large file sets the runtime's limit until restored;
// a small file, a folder, or GOMEMLIMIT leave it alone.
func TestLimitMemoryFor(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)

	f := NewFactory(nil, testEnv(t, nil))
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	restore := f.limitMemoryFor(big)
	if got := debug.SetMemoryLimit(-1); got != memoryLimitFor(100<<20) {
		t.Fatalf("limit %d while reading a 100 MiB file, want %d", got, memoryLimitFor(100<<20))
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent %d while reading a 100 MiB file, want -1 (collection by the limit only)", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Fatalf("limit %d after restoring, want %d", got, before)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d after restoring, want 100", got)
	}
	for name, path := range map[string]string{"small file": small, "folder": dir, "missing": filepath.Join(dir, "none")} {
		f.limitMemoryFor(path)()
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Fatalf("%s: limit %d, want it unchanged", name, got)
		}
	}
	for _, env := range []map[string]string{{"GOMEMLIMIT": "1GiB"}, {"GOGC": "200"}} {
		user := NewFactory(nil, testEnv(t, env))
		user.limitMemoryFor(big)
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Fatalf("%v set: limit %d, want it unchanged", env, got)
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Fatalf("%v set: GC percent %d, want it unchanged", env, got)
		}
	}
}

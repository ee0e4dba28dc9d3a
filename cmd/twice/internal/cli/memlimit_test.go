package cli

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
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

// gcObservingSource is a file source that records the collector's settings
// while it reads.
type gcObservingSource struct {
	catalyst.Source
	percent *int
	limit   *int64
	err     error
}

func (s gcObservingSource) History(context.Context, catalyst.RunRef) (*catalyst.History, error) {
	*s.percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(*s.percent)
	*s.limit = debug.SetMemoryLimit(-1)
	if s.err != nil {
		return nil, s.err
	}
	return &catalyst.History{}, nil
}

// TestViewReadsALargeFileUnderTheMemoryPolicy: the view's file source
// decodes a large file under scan's memory policy and lifts it once the
// file is read, whether or not the read succeeded.
func TestViewReadsALargeFileUnderTheMemoryPolicy(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)

	f := NewFactory(nil, testEnv(t, nil))
	for _, readErr := range []error{errors.New("not JSON"), nil} {
		var during int
		var limit int64
		src := checkedFileSource{Source: gcObservingSource{percent: &during, limit: &limit, err: readErr},
			r: f.histories(), t: target{kind: targetFile, arg: big}}
		src.History(context.Background(), catalyst.RunRef{Location: big})
		if during != -1 || limit != memoryLimitFor(100<<20) {
			t.Errorf("read error %v: GC percent %d and limit %d while reading, want -1 and %d",
				readErr, during, limit, memoryLimitFor(100<<20))
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("read error %v: GC percent %d after the read, want 100", readErr, got)
		}
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("read error %v: limit %d after the read, want %d", readErr, got, before)
		}
	}
}

// TestOverlappingReadsRestoreTheSettingsOnce: reads that overlap (a reload
// started before an earlier read ended) share the policy, their limits
// add up, and the collector's settings from before the first come back
// after the last, whichever order they end in; ending one twice changes
// nothing.
func TestOverlappingReadsRestoreTheSettingsOnce(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	before := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(before)

	var p memoryPolicy
	leaveA := p.enter(300 << 20)
	leaveB := p.enter(200 << 20)
	if got := debug.SetMemoryLimit(-1); got != 500<<20 {
		t.Fatalf("limit %d with two reads, want their sum %d", got, 500<<20)
	}
	leaveA()
	leaveA()
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Fatalf("limit %d after the first read ended (twice), want the second's %d", got, 200<<20)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent %d while a read is on, want -1", got)
	}
	leaveB()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after both reads, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("limit %d after both reads, want %d", got, int64(1<<40))
	}
}

// TestTheLimitIsLiftedWhenTheLiveHeapOutgrowsIt: a history whose live
// heap passes its limit (tiny events: about seven times the file) would
// keep the collector running back to back; the policy gives pacing back
// to GOGC, and the end of the read restores the settings from before.
func TestTheLimitIsLiftedWhenTheLiveHeapOutgrowsIt(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	before := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(before)

	p := memoryPolicy{every: time.Millisecond}
	leave := p.enter(4 << 20)
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 1<<20)) // 64 MiB, all live
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) != 1<<40 {
		if time.Now().After(deadline) {
			t.Fatalf("the limit stayed at %d with %d MiB live", debug.SetMemoryLimit(-1), len(live))
		}
		time.Sleep(time.Millisecond)
	}
	if got := debug.SetGCPercent(-1); got != 100 {
		t.Errorf("GC percent %d once lifted, want 100", got)
	}
	debug.SetGCPercent(-1) // as the policy left it
	runtime.KeepAlive(live)
	leave()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after the read, want 100", got)
	}
}

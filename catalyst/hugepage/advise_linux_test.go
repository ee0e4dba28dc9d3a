package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of this process that holds
// addr, from /proc/self/smaps.
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps to check the advice with: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	holds := false
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		// A mapping's first line starts with its range, "lo-hi"; the
		// lines after it are "Key: value".
		if lohi, ok := strings.CutSuffix(fields[0], ":"); !ok {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(lohi, "%x-%x", &lo, &hi); err == nil {
				holds = lo <= addr && addr < hi
			}
			continue
		}
		if holds && fields[0] == "VmFlags:" {
			return fields[1:]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping holds %#x", addr)
	return nil
}

// A large slice, advised, is in memory marked for huge pages ("hg"), from
// its first byte to its last.
func TestAdviseLargeMarksTheSlicesMemory(t *testing.T) {
	s := make([]int64, 3*LargeMin/8)
	AdviseLarge(s)
	first := uintptr(unsafe.Pointer(&s[0]))
	last := uintptr(unsafe.Pointer(&s[len(s)-1]))
	for _, addr := range []uintptr{first, last} {
		flags := vmFlags(t, addr)
		found := false
		for _, f := range flags {
			found = found || f == "hg"
		}
		if !found {
			t.Errorf("memory at %#x has flags %v, want hg among them", addr, flags)
		}
	}
	s[0], s[len(s)-1] = 1, 2
	if s[0]+s[len(s)-1] != 3 {
		t.Error("the advised slice does not hold what was written")
	}
}

package hugepage

import "testing"

func TestSpanIsTheWholeHugePagesThatHoldTheRange(t *testing.T) {
	const s = Size
	tests := []struct {
		name         string
		start, n     uintptr
		wantLo, want uintptr
	}{
		{"aligned, one page", 4 * s, s, 4 * s, 5 * s},
		{"aligned, a byte", 4 * s, 1, 4 * s, 5 * s},
		{"inside one page", 4*s + 100, 200, 4 * s, 5 * s},
		{"across a boundary", 5*s - 1, 2, 4 * s, 6 * s},
		{"ends on a boundary", 4*s + 1, s - 1, 4 * s, 5 * s},
		{"several pages", 3*s + 4096, 3 * s, 3 * s, 7 * s},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Span(tt.start, tt.n)
			if lo != tt.wantLo || hi != tt.want {
				t.Errorf("Span(%#x, %#x) = [%#x, %#x), want [%#x, %#x)", tt.start, tt.n, lo, hi, tt.wantLo, tt.want)
			}
			if lo > tt.start || hi < tt.start+tt.n || lo%s != 0 || hi%s != 0 {
				t.Errorf("[%#x, %#x) is not whole huge pages holding the range", lo, hi)
			}
		})
	}
}

func TestSizeOfIsTheCapacityInBytes(t *testing.T) {
	if got := sizeOf(make([][2]int64, 3, 10)); got != 160 {
		t.Errorf("10 pairs of int64: %d bytes, want 160", got)
	}
	if got := sizeOf([]byte(nil)); got != 0 {
		t.Errorf("nil: %d bytes, want 0", got)
	}
}

// Advising nothing, or something small, is harmless.
func TestAdviseTakesAnySlice(t *testing.T) {
	Advise([]int(nil))
	AdviseLarge(make([]byte, 10))
	b := make([]byte, 100)
	Advise(b)
	for i := range b {
		b[i] = byte(i)
	}
	for i, c := range b {
		if c != byte(i) {
			t.Fatalf("byte %d is %d after advice", i, c)
		}
	}
}

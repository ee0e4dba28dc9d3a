package runview

import (
	"math/rand/v2"
	"testing"

	"github.com/twice-cli/twice/tui/table"
)

// bruteRows builds the rows one by one, as the layout must behave.
func bruteRows(base []int32, n int, open map[int32]bool, attempts func(int32) int32) []invRow {
	var out []invRow
	add := func(i int32) {
		out = append(out, invRow{i, -1})
		if open[i] {
			for a := int32(0); a < attempts(i); a++ {
				out = append(out, invRow{i, a})
			}
		}
	}
	if base == nil {
		for i := 0; i < n; i++ {
			add(int32(i))
		}
	} else {
		for _, i := range base {
			add(i)
		}
	}
	return out
}

func TestInvRowsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	attempts := func(i int32) int32 { return i%4 + 1 }
	for trial := 0; trial < 200; trial++ {
		n := rng.IntN(40)
		var base []int32
		if rng.IntN(2) == 0 {
			base = []int32{}
			for i := 0; i < n; i++ {
				if rng.IntN(2) == 0 {
					base = append(base, int32(i))
				}
			}
		}
		open := map[int32]bool{}
		var expanded []int32
		for i := 0; i < n; i++ {
			if rng.IntN(4) == 0 {
				open[int32(i)] = true
				expanded = append(expanded, int32(i))
			}
		}
		rng.Shuffle(len(expanded), func(i, j int) { expanded[i], expanded[j] = expanded[j], expanded[i] })
		// Half the trials sort the rows (by attempts, descending).
		var sorted func(a, b int32) int
		if rng.IntN(2) == 0 {
			sorted = func(a, b int32) int { return int(attempts(b) - attempts(a)) }
		}
		order := table.NewOrder(n, base, sorted)
		shownOrder := make([]int32, order.Len())
		for p := range shownOrder {
			shownOrder[p] = order.At(p)
		}
		want := bruteRows(shownOrder, n, open, attempts)
		r := newInvRows(order, expanded, attempts)
		if r.len() != len(want) {
			t.Fatalf("trial %d: len %d, want %d", trial, r.len(), len(want))
		}
		for p, row := range want {
			if got := r.at(p); got != row {
				t.Fatalf("trial %d: at(%d) = %v, want %v", trial, p, got, row)
			}
			if got, ok := r.find(row); !ok || got != p {
				t.Fatalf("trial %d: find(%v) = %d %v, want %d", trial, row, got, ok, p)
			}
		}
		// A row of a collapsed invocation finds the invocation's row; a
		// hidden invocation is not found.
		for i := int32(0); i < int32(n); i++ {
			p, ok := r.find(invRow{i, 0})
			if ok && !open[i] && want[p] != (invRow{i, -1}) {
				t.Fatalf("trial %d: find of a collapsed attempt = %d", trial, p)
			}
			shown := base == nil
			for _, b := range base {
				shown = shown || b == i
			}
			if ok != shown {
				t.Fatalf("trial %d: find(%d) ok=%v, shown=%v", trial, i, ok, shown)
			}
		}
	}
}

// TestFindRowsMatchesBruteForce: the Findings tab's rows — each finding
// shown, in its order, then its evidence — found by position and by row.
func TestFindRowsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		n := rng.IntN(30)
		evidence := make([]int, n)
		for i := range evidence {
			evidence[i] = rng.IntN(4)
		}
		var kept []int32
		for i := 0; i < n; i++ {
			if rng.IntN(3) > 0 {
				kept = append(kept, int32(i))
			}
		}
		var sorted func(a, b int32) int
		if rng.IntN(2) == 0 {
			sorted = func(a, b int32) int { return evidence[b] - evidence[a] }
		}
		order := table.NewOrder(n, kept, sorted)
		var want []findRow
		for p := 0; p < order.Len(); p++ {
			f := order.At(p)
			want = append(want, findRow{f, -1})
			for e := 0; e < evidence[f]; e++ {
				want = append(want, findRow{f, int32(e)})
			}
		}
		r := newFindRows(order, func(f int32) int { return evidence[f] })
		if r.n != len(want) {
			t.Fatalf("trial %d: %d rows, want %d", trial, r.n, len(want))
		}
		for p, row := range want {
			if got := r.at(p); got != row {
				t.Fatalf("trial %d: at(%d) = %v, want %v", trial, p, got, row)
			}
			if got, ok := r.find(row); !ok || got != p {
				t.Fatalf("trial %d: find(%v) = %d %v, want %d", trial, row, got, ok, p)
			}
		}
	}
}

package list

import (
	"math/rand/v2"
	"testing"

	"github.com/twice-cli/twice/tui/table"
)

// bruteRows builds the rows one by one, as the layout must behave.
func bruteRows(base []int32, n int, open map[int32]bool, attempts func(int32) int32) []Row {
	var out []Row
	add := func(i int32) {
		out = append(out, Row{i, -1})
		if open[i] {
			for a := int32(0); a < attempts(i); a++ {
				out = append(out, Row{i, a})
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

// TestSparseMatchesBruteForce: an item's lines (an invocation's attempts)
// after it when opened, found by position and by line.
func TestSparseMatchesBruteForce(t *testing.T) {
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
		r := Sparse(order, expanded, attempts)
		if r.Len() != len(want) {
			t.Fatalf("trial %d: len %d, want %d", trial, r.Len(), len(want))
		}
		for p, row := range want {
			if got := r.At(p); got != row {
				t.Fatalf("trial %d: at(%d) = %v, want %v", trial, p, got, row)
			}
			if got, ok := r.Find(row); !ok || got != p {
				t.Fatalf("trial %d: find(%v) = %d %v, want %d", trial, row, got, ok, p)
			}
		}
		// A row of a collapsed invocation finds the invocation's row; a
		// hidden invocation is not found.
		for i := int32(0); i < int32(n); i++ {
			p, ok := r.Find(Row{i, 0})
			if ok && !open[i] && want[p] != (Row{i, -1}) {
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

// TestDenseMatchesBruteForce: every item shown, in its order, then its
// lines (a finding's evidence), found by position and by line.
func TestDenseMatchesBruteForce(t *testing.T) {
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
		var want []Row
		for p := 0; p < order.Len(); p++ {
			f := order.At(p)
			want = append(want, Row{f, -1})
			for e := 0; e < evidence[f]; e++ {
				want = append(want, Row{f, int32(e)})
			}
		}
		r := Dense(order, func(f int32) int { return evidence[f] })
		if r.Len() != len(want) {
			t.Fatalf("trial %d: %d rows, want %d", trial, r.Len(), len(want))
		}
		for p, row := range want {
			if got := r.At(p); got != row {
				t.Fatalf("trial %d: at(%d) = %v, want %v", trial, p, got, row)
			}
			if got, ok := r.Find(row); !ok || got != p {
				t.Fatalf("trial %d: find(%v) = %d %v, want %d", trial, row, got, ok, p)
			}
		}
	}
}

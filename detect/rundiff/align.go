package rundiff

import (
	"strings"

	"github.com/twice-cli/twice/detect"
)

// callName is what two invocations must share to be aligned: what they
// call and its name.
type callName struct {
	kind detect.Kind
	name string
}

// align pairs the invocations of a and b: within each name, the only one
// on each side; else the same invocation id, then the same key
// (opts.Keys), then the rest by order. The pairs come in A's order, then
// those only in B in B's.
func align(a, b Run, opts Options) []Pair {
	ia, ib := a.Report.Invocations, b.Report.Invocations
	var keysA, keysB []string
	if opts.Keys != nil {
		keysA, keysB = opts.Keys(a.History, a.Report), opts.Keys(b.History, b.Report)
		if len(keysA) != len(ia) || len(keysB) != len(ib) {
			keysA, keysB = nil, nil // a key function that does not fit: aligned without keys
		}
	}
	groupsA, orderA := groups(ia)
	groupsB, _ := groups(ib)
	// matchA[i] is the B invocation aligned with A's i (-1: none yet);
	// how[i] how.
	matchA := make([]int, len(ia))
	how := make([]Alignment, len(ia))
	takenB := make([]bool, len(ib))
	for i := range matchA {
		matchA[i] = -1
	}
	for _, name := range orderA {
		ga, gb := groupsA[name], groupsB[name]
		if len(gb) == 0 {
			continue
		}
		if len(ga) == 1 && len(gb) == 1 {
			matchA[ga[0]], how[ga[0]], takenB[gb[0]] = gb[0], AlignedByName, true
			continue
		}
		alignBy(ga, gb, matchA, how, takenB, AlignedByID, func(i int) string { return invID(&ia[i]) },
			func(j int) string { return invID(&ib[j]) })
		if keysA != nil {
			alignBy(ga, gb, matchA, how, takenB, AlignedByKey, func(i int) string { return keysA[i] },
				func(j int) string { return keysB[j] })
		}
		// The rest by order.
		k := 0
		for _, i := range ga {
			if matchA[i] >= 0 {
				continue
			}
			for k < len(gb) && takenB[gb[k]] {
				k++
			}
			if k == len(gb) {
				break
			}
			matchA[i], how[i], takenB[gb[k]] = gb[k], AlignedByOrder, true
		}
	}
	pairs := make([]Pair, 0, max(len(ia), len(ib)))
	for i := range ia {
		p := Pair{A: i, B: matchA[i], Name: ia[i].Name, Kind: ia[i].Kind, Aligned: how[i]}
		if p.B < 0 {
			p.Aligned = OnlyInA
		} else if p.Aligned == AlignedByKey {
			p.Key = keysA[i]
		}
		pairs = append(pairs, p)
	}
	for j := range ib {
		if !takenB[j] {
			pairs = append(pairs, Pair{A: -1, B: j, Name: ib[j].Name, Kind: ib[j].Kind, Aligned: OnlyInB})
		}
	}
	return pairs
}

// groups lists the positions of the invocations of each name, in order,
// and the names in the order they first appear.
func groups(invs []detect.Invocation) (map[callName][]int, []callName) {
	g := make(map[callName][]int)
	var order []callName
	for i := range invs {
		n := callName{invs[i].Kind, invs[i].Name}
		if _, ok := g[n]; !ok {
			order = append(order, n)
		}
		g[n] = append(g[n], i)
	}
	return g, order
}

// alignBy aligns the invocations of ga and gb left unaligned that have the
// same non-empty value (of A's and B's), each with the first of the other
// side's in order.
func alignBy(ga, gb []int, matchA []int, how []Alignment, takenB []bool, rule Alignment,
	valA func(int) string, valB func(int) string) {
	free := make(map[string][]int)
	for _, j := range gb {
		if v := valB(j); !takenB[j] && v != "" {
			free[v] = append(free[v], j)
		}
	}
	if len(free) == 0 {
		return
	}
	for _, i := range ga {
		if matchA[i] >= 0 {
			continue
		}
		v := valA(i)
		q := free[v]
		if v == "" || len(q) == 0 {
			continue
		}
		matchA[i], how[i], takenB[q[0]] = q[0], rule, true
		free[v] = q[1:]
	}
}

// invID is an invocation's id when it is one the engine gave (a task
// execution id, a child's instance id), "" when detect made it up from the
// event's position ("event:<eventId>"), which another run's events share
// by chance.
func invID(inv *detect.Invocation) string {
	if strings.HasPrefix(inv.Key, "event:") {
		return ""
	}
	return inv.Key
}

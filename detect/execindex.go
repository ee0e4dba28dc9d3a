package detect

import (
	"cmp"
	"hash/maphash"
	"slices"
	"sort"

	"github.com/twice-cli/twice/catalyst"
)

// execIndex finds attempts by task execution id without a hash map: the
// scan appends one (hash, attempt) entry per attempt that has an id, and
// one sort afterwards puts equal ids side by side. On a million-event
// history this is a few sequential passes instead of hundreds of thousands
// of cache misses, and the memory holds no pointers for the collector to
// scan.
type execIndex struct {
	seed    maphash.Seed
	entries []execEntry // attempt order during the scan; key order after sortAll
}

// execEntry is one attempt's execution id: its hash (scoped to the attempt's
// generation) and the attempt.
type execEntry struct {
	key     uint32
	attempt int32
}

func newExecIndex(size int) execIndex {
	return execIndex{seed: maphash.MakeSeed(), entries: make([]execEntry, 0, size)}
}

// keyOf hashes an execution id within a generation.
func (x *execIndex) keyOf(id string, gen int32) uint32 {
	h := maphash.String(x.seed, id) ^ uint64(gen)*0x9e3779b97f4a7c15
	return uint32(h >> 32)
}

func (x *execIndex) add(id string, gen, attempt int32) {
	x.entries = append(x.entries, execEntry{key: x.keyOf(id, gen), attempt: attempt})
}

// sortAll orders the entries by key, keeping attempt order among equal keys
// (a stable radix sort, one byte per pass).
func (x *execIndex) sortAll() {
	src := x.entries
	if len(src) < 2 {
		return
	}
	dst := make([]execEntry, len(src))
	for shift := uint(0); shift < 32; shift += 8 {
		var count [257]int
		for _, e := range src {
			count[(e.key>>shift)&0xff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, e := range src {
			b := (e.key >> shift) & 0xff
			dst[count[b]] = e
			count[b]++
		}
		src, dst = dst, src
	}
	x.entries = src
}

// run returns the sorted entries whose key is key.
func (x *execIndex) run(key uint32) []execEntry {
	lo := sort.Search(len(x.entries), func(i int) bool { return x.entries[i].key >= key })
	hi := lo
	for hi < len(x.entries) && x.entries[hi].key == key {
		hi++
	}
	return x.entries[lo:hi]
}

// linkExecIDs joins attempts that share an execution id (by-id), chains
// them for outcome matching, and then resolves what the scan deferred:
// retry timers whose activityRetry origin names an execution id, and
// outcomes whose scheduled id did not match their execution id.
func (s *scan) linkExecIDs() {
	x := &s.execs
	x.sortAll()
	for i := 1; i < len(x.entries); i++ {
		e := x.entries[i]
		for j := i - 1; j >= 0 && x.entries[j].key == e.key; j-- {
			p := x.entries[j].attempt
			if s.attempts[p].gen == s.attempts[e.attempt].gen && s.execOf(p) == s.execOf(e.attempt) {
				s.attempts[e.attempt].prevExec = p
				s.union(e.attempt, p, rankByID)
				break
			}
		}
	}
	for _, t := range s.originTimers {
		tr := &s.timers[t]
		e := s.h.At(int(tr.pos))
		if a, ok := s.latestByExec(e.OriginID, tr.gen, tr.pos); ok {
			tr.target, tr.link, tr.child = a, rankByOrigin, false
		}
	}
	if len(s.deferred) == 0 {
		return
	}
	resorted := false
	for _, d := range s.deferred {
		e := s.h.At(int(d.pos))
		a, ok := s.waitingByExec(e.ExecutionID, d.gen, d.pos)
		if !ok {
			continue
		}
		if s.setOutcome(a, d.pos, d.turn, e) {
			resorted = true
		}
	}
	if resorted {
		s.sortFailures()
	}
}

// latestByExec returns the latest attempt of generation gen scheduled
// before pos with execution id id.
func (s *scan) latestByExec(id string, gen, pos int32) (int32, bool) {
	best := int32(-1)
	for _, e := range s.execs.run(s.execs.keyOf(id, gen)) {
		r := &s.attempts[e.attempt]
		if r.gen == gen && r.pos < pos && e.attempt > best && s.execOf(e.attempt) == id {
			best = e.attempt
		}
	}
	return best, best >= 0
}

// waitingByExec returns the attempt an outcome at pos with execution id id
// belongs to: the latest attempt before pos with that id and no earlier
// outcome, else the latest before pos.
func (s *scan) waitingByExec(id string, gen, pos int32) (int32, bool) {
	latest, ok := s.latestByExec(id, gen, pos)
	if !ok {
		return -1, false
	}
	for a := latest; a >= 0; a = s.attempts[a].prevExec {
		if o := s.attempts[a].outcome; o < 0 || o > pos {
			return a, true
		}
	}
	return latest, true
}

// deferredOutcome is an outcome the scan could not tie by its scheduled id.
type deferredOutcome struct {
	pos, gen, turn int32
}

// sortFailures puts the failed attempts back in the order of their
// outcomes, after some were recorded out of history order. Those are
// usually appended in order after a sorted list (outcomes tied after the
// pass, in history order): two sorted runs are merged in one pass, and
// only anything else is sorted.
func (s *scan) sortFailures() {
	f := s.failures
	before := func(a, b int32) bool { return s.attempts[a].outcome < s.attempts[b].outcome }
	run := func(from int) int {
		for from++; from < len(f) && !before(f[from], f[from-1]); from++ {
		}
		return from
	}
	mid := run(0)
	if mid >= len(f) {
		return
	}
	if run(mid) < len(f) {
		slices.SortFunc(f, func(a, b int32) int {
			return cmp.Compare(s.attempts[a].outcome, s.attempts[b].outcome)
		})
		return
	}
	tail := slices.Clone(f[mid:])
	k, a := len(f)-1, mid-1
	for b := len(tail) - 1; b >= 0; k-- {
		if a >= 0 && before(tail[b], f[a]) {
			f[k] = f[a]
			a--
		} else {
			f[k] = tail[b]
			b--
		}
	}
}

// setOutcome records an outcome at pos for attempt a, keeping the earliest
// as the attempt's outcome and the others as extra outcomes. It reports
// whether a failure was recorded out of history order.
func (s *scan) setOutcome(a, pos, turn int32, e *catalyst.Event) (outOfOrder bool) {
	r := &s.attempts[a]
	if r.outcome >= 0 && r.outcome < pos {
		if s.extras == nil {
			s.extras = make(map[int32][]int32)
		}
		s.extras[a] = append(s.extras[a], pos)
		return false
	}
	if r.outcome >= 0 {
		// An earlier outcome found late: the one recorded becomes extra.
		if s.extras == nil {
			s.extras = make(map[int32][]int32)
		}
		s.extras[a] = append([]int32{r.outcome}, s.extras[a]...)
		if r.failed {
			s.dropFailure(a)
		}
		outOfOrder = true
	}
	if len(s.failures) > 0 && s.attempts[s.failures[len(s.failures)-1]].outcome > pos {
		outOfOrder = true
	}
	r.outcome, r.outcomeTurn, r.outLink = pos, turn, rankByID
	if e.Type.PayloadField() == "output" && s.checkPayload(e.Payload) {
		r.large = true
	}
	r.failed = e.Type == catalyst.EventTaskFailed || e.Type == catalyst.EventChildWorkflowFailed
	if r.failed {
		s.failures = append(s.failures, a)
	}
	return outOfOrder
}

func (s *scan) dropFailure(a int32) {
	for i, f := range s.failures {
		if f == a {
			s.failures = append(s.failures[:i], s.failures[i+1:]...)
			return
		}
	}
}

package detect

import (
	"slices"
	"strconv"
	"sync"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/hugepage"
)

// failureClasses classifies failures once per distinct (type, message,
// flag) within one analysis: a large history repeats the same few errors.
type failureClasses struct {
	cache map[failureKey]FailureClass
}

type failureKey struct {
	typ, msg     string
	nonRetriable bool
}

func (fc *failureClasses) class(f *catalyst.Failure) FailureClass {
	if f == nil {
		return FailureUnclassified
	}
	if f.Inner != nil {
		return ClassifyFailure(f)
	}
	k := failureKey{typ: f.Type, msg: f.Message, nonRetriable: f.NonRetriable}
	if c, ok := fc.cache[k]; ok {
		return c
	}
	c := ClassifyFailure(f)
	if fc.cache == nil {
		fc.cache = make(map[failureKey]FailureClass)
	}
	fc.cache[k] = c
	return c
}

// learn adds the classes other has met to fc's own.
func (fc *failureClasses) learn(other *failureClasses) {
	for k, c := range other.cache {
		if fc.cache == nil {
			fc.cache = make(map[failureKey]FailureClass, len(other.cache))
		}
		fc.cache[k] = c
	}
}

// built is the report's invocations and the indexes findings need.
type built struct {
	invs  []Invocation
	invOf []int32 // attempt record → invocation
	// first is the attempt record of each invocation's first attempt.
	first []int32
	// large marks invocations with an input or output over the threshold.
	large []bool
}

// build turns the linked attempt records into invocations, in the order of
// their first attempts. It writes each invocation and each attempt once, in
// memory order: on a million-event history the report is the largest thing
// Analyze makes. The invocations are filled in contiguous ranges on workers
// goroutines (0: invocationWorkers decides), each with classifiers of its
// own; the result is the same as one goroutine's, and fc learns every
// failure class the ranges met.
func (s *scan) build(classes *classifier, fc *failureClasses, workers int) built {
	n := len(s.attempts)
	b := built{invOf: make([]int32, n)}
	nInv := int32(0)
	for i := range s.attempts {
		if root := s.find(int32(i)); root == int32(i) {
			b.invOf[i] = nInv
			nInv++
		} else {
			b.invOf[i] = b.invOf[root]
		}
	}
	// Group the attempt records by invocation (a counting sort that keeps
	// scheduling order within each).
	start := make([]int32, nInv+1)
	b.first = make([]int32, nInv)
	for i, k := range b.invOf {
		if start[k+1] == 0 {
			b.first[k] = int32(i)
		}
		start[k+1]++
	}
	for k := int32(1); k <= nInv; k++ {
		start[k] += start[k-1]
	}
	order := make([]int32, n)
	cursor := make([]int32, nInv)
	copy(cursor, start[:nInv])
	for i, k := range b.invOf {
		order[cursor[k]] = int32(i)
		cursor[k]++
	}

	b.invs = make([]Invocation, nInv)
	b.large = make([]bool, nInv)
	backing := make([]Attempt, n)
	// The report's two largest blocks, written once each, in order.
	hugepage.AdviseLarge(b.invs)
	hugepage.AdviseLarge(backing)
	if workers <= 0 {
		workers = invocationWorkers(int(nInv))
	}
	workers = min(workers, int(nInv))
	fill := invocationFill{s: s, b: &b, start: start, order: order, backing: backing}
	var others []int32
	if workers < 2 {
		others = fill.run(0, int(nInv), classes, fc)
	} else {
		parts := make([]invocationRange, workers)
		var wg sync.WaitGroup
		for w := range parts {
			p := &parts[w]
			// Ranges of about the same number of attempts.
			p.lo, _ = slices.BinarySearch(start[:nInv], int32(n*w/workers))
			p.hi, _ = slices.BinarySearch(start[:nInv], int32(n*(w+1)/workers))
			if w == workers-1 {
				p.hi = int(nInv)
			}
			p.fc = &failureClasses{}
			cl := classes.fork()
			wg.Go(func() { p.others = fill.run(p.lo, p.hi, cl, p.fc) })
		}
		wg.Wait()
		for w := range parts {
			others = append(others, parts[w].others...)
			fc.learn(parts[w].fc)
		}
	}
	if len(others) > 0 || s.generations > 1 {
		uniqueKeys(b.invs, others, s.generations > 1)
	}
	for t := range s.timers {
		tr := &s.timers[t]
		if tr.target < 0 || tr.next >= 0 {
			continue
		}
		// A retry timer no attempt followed: the retry is still to come, or
		// the history ends before it.
		b.invs[b.invOf[tr.target]].OpenRetry = s.retryTimer(int32(t))
	}
	return b
}

// invocationRange is one goroutine's share of build: invocations lo to hi,
// the failure classes it met, and its invocations whose keys are not task
// execution ids.
type invocationRange struct {
	lo, hi int
	fc     *failureClasses
	others []int32
}

// invocationFill is what filling invocations reads: the scan, the result
// being built, and the attempt records grouped by invocation (start[k] is
// invocation k's first place in order and in backing).
type invocationFill struct {
	s       *scan
	b       *built
	start   []int32
	order   []int32
	backing []Attempt
}

// run fills invocations lo to hi and their attempts, and returns those
// whose keys are not task execution ids.
func (f *invocationFill) run(lo, hi int, classes *classifier, fc *failureClasses) (others []int32) {
	s, b, start, order, backing := f.s, f.b, f.start, f.order, f.backing
	pendingOutcome := OutcomeUnknown
	if s.state == stateRunning {
		pendingOutcome = OutcomePending
	}
	for k := lo; k < hi; k++ {
		inv := &b.invs[k]
		atts := backing[start[k]:start[k+1]:start[k+1]]
		for j, ai := range order[start[k]:start[k+1]] {
			r := &s.attempts[ai]
			a := &atts[j]
			e := s.h.At(int(r.pos))
			a.Number = j + 1
			a.Scheduled = int(r.pos)
			a.ScheduledID = r.id
			a.Link = LinkFirst
			a.Outcome = pendingOutcome
			a.OutcomeEvent = -1
			a.Start = e.Timestamp
			if r.child {
				a.InstanceID = e.InstanceID
			} else {
				a.ExecutionID = e.ExecutionID
			}
			if j > 0 {
				a.Link = r.link.rule()
				if prev := &atts[j-1]; !prev.End.IsZero() {
					a.BackoffBefore = a.Start.Sub(prev.End)
				}
				if linkWorse(a.Link, inv.LinkRule) && inv.LinkRule != LinkInferred {
					inv.LinkRule = a.Link
				}
			} else {
				inv.Kind = KindActivity
				if r.child {
					inv.Kind = KindChildWorkflow
				}
				inv.Name = e.Name
				inv.Class = classes.class(e.Name)
				inv.Start = a.Start
				inv.LinkRule = LinkFirst
			}
			if r.outcome >= 0 {
				a.OutcomeEvent = int(r.outcome)
				a.OutcomeLink = r.outLink.outcomeRule()
				if a.OutcomeLink == LinkInferred {
					inv.LinkRule = LinkInferred
				}
				o := s.h.At(int(r.outcome))
				a.End = o.Timestamp
				if r.failed {
					a.Outcome = OutcomeFailed
					a.Failure = o.Failure
					a.FailureClass = fc.class(o.Failure)
				} else {
					a.Outcome = OutcomeCompleted
				}
				inv.End = max(inv.End, a.End)
			}
			if s.extras != nil {
				if extra := s.extras[ai]; len(extra) > 0 {
					a.ExtraOutcomes = make([]int, len(extra))
					for x, p := range extra {
						a.ExtraOutcomes[x] = int(p)
					}
				}
			}
			if r.timer >= 0 {
				a.RetryTimer = s.retryTimer(r.timer)
			}
			if r.reusedInst {
				inv.ReusedInstanceID = true
			}
			if r.large {
				b.large[k] = true
			}
		}
		inv.Attempts = atts
		inv.Outcome = atts[len(atts)-1].Outcome
		// Keys taken from task execution ids are unique by construction
		// (every attempt with one id is in one invocation); others may not be.
		var byExec bool
		inv.Key, byExec = s.invocationKey(b.first[k])
		if !byExec {
			others = append(others, int32(k))
		}
	}
	return others
}

// linkWorse reports whether rule a is less trusted than rule b.
func linkWorse(a, b LinkRule) bool { return linkOrder(a) > linkOrder(b) }

func linkOrder(r LinkRule) int {
	switch r {
	case LinkByID:
		return 1
	case LinkByOrigin:
		return 2
	case LinkInferred:
		return 3
	}
	return 0
}

func (s *scan) retryTimer(t int32) *RetryTimer {
	tr := &s.timers[t]
	return &RetryTimer{
		Created: int(tr.pos),
		Fired:   int(tr.fired),
		FireAt:  s.h.At(int(tr.pos)).FireAt,
		Link:    tr.link.rule(),
	}
}

// invocationKey names an invocation by its first attempt: the task
// execution id, the child's retry-parent or instance id, or
// "event:<eventId>". Invocations of earlier continue-as-new generations in a
// history that holds several are prefixed "gen<N>/". byExec is set for a
// key taken from a task execution id.
func (s *scan) invocationKey(first int32) (key string, byExec bool) {
	r := &s.attempts[first]
	e := s.h.At(int(r.pos))
	switch {
	case r.child && e.Detail != nil && e.Detail.RetryParentInstanceID != "":
		key = e.Detail.RetryParentInstanceID
	case r.child && e.InstanceID != "":
		key = e.InstanceID
	case !r.child && e.ExecutionID != "":
		key, byExec = e.ExecutionID, true
	default:
		key = "event:" + strconv.Itoa(int(r.id))
	}
	if s.generations > 1 && r.gen < s.generations-1 {
		key = "gen" + strconv.Itoa(int(r.gen)+1) + "/" + key
	}
	return key, byExec
}

// uniqueKeys makes every invocation key unique, suffixing "#2", "#3", ...
// to later repeats: odd histories reuse an eventId across activities, or
// give a child the id of an activity's execution. others are the
// invocations whose keys are not task execution ids; execution-id keys are
// checked against them only where the lengths allow a match (all of them
// when all is set).
func uniqueKeys(invs []Invocation, others []int32, all bool) {
	seen := make(map[string]bool, len(others))
	var lengths [257]bool
	for _, k := range others {
		key := invs[k].Key
		for n := 2; seen[key]; n++ {
			key = invs[k].Key + "#" + strconv.Itoa(n)
		}
		seen[key] = true
		invs[k].Key = key
		lengths[min(len(key), 256)] = true
	}
	o := 0
	for k := range invs {
		if o < len(others) && others[o] == int32(k) {
			o++
			continue
		}
		key := invs[k].Key
		if !all && !lengths[min(len(key), 256)] {
			continue
		}
		for n := 2; seen[key]; n++ {
			key = invs[k].Key + "#" + strconv.Itoa(n)
		}
		seen[key] = true
		invs[k].Key = key
	}
}

package detect

import (
	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/hugepage"
)

// linkRank orders link rules by trust; the zero value means "not linked".
type linkRank uint8

const (
	rankNone linkRank = iota
	rankByID
	rankByOrigin
	rankInferred
)

func (r linkRank) rule() LinkRule {
	switch r {
	case rankByID:
		return LinkByID
	case rankByOrigin:
		return LinkByOrigin
	case rankInferred:
		return LinkInferred
	}
	return LinkFirst
}

// outcomeRule is how an outcome was tied to its attempt: by id (its
// scheduled id or task execution id), inferred, or 0 when not at all.
func (r linkRank) outcomeRule() LinkRule {
	switch r {
	case rankByID:
		return LinkByID
	case rankInferred:
		return LinkInferred
	}
	return 0
}

// better returns the more trusted of two ranks (rankNone counts as least).
func (r linkRank) better(o linkRank) linkRank {
	if r == rankNone || o != rankNone && o < r {
		return o
	}
	return r
}

// attemptRec is one scheduled task or child-workflow creation, as the scan
// found it. Strings stay in the history's event; pos reaches it.
type attemptRec struct {
	pos         int32 // position of the scheduling event
	id          int32 // the scheduling event's eventId
	gen         int32 // continue-as-new generation
	turn        int32
	outcome     int32 // position of the first outcome, -1: none
	outcomeTurn int32
	outLink     linkRank // how the outcome was tied: by id, or inferred
	parent      int32    // union-find parent (the root is the set's first attempt)
	prevExec    int32    // previous attempt with the same task execution id, -1
	timer       int32    // retry timer that preceded it, -1
	link        linkRank
	child       bool
	failed      bool // the first outcome is a failure
	failPaired  bool // a retry timer has been paired with this failure
	claimed     bool // a retry timer's firing has been tied to this attempt
	reusedInst  bool // a child attempt whose instance id an earlier attempt used
	large       bool // its input or first outcome's output is over the threshold
}

// timerRec is one timerCreated.
type timerRec struct {
	pos       int32
	gen       int32
	turn      int32
	fired     int32 // position of its timerFired, -1
	firedTurn int32
	target    int32 // an attempt of the invocation it retries, -1
	failure   int32 // the failed attempt it follows, -1
	next      int32 // the attempt that followed its firing, -1
	link      linkRank
	child     bool // retries a child workflow (known once target is set)
	// turnStart is when the turn that created it started (its
	// workflowStarted): SDKs compute a retry's fireAt from that instant.
	turnStart catalyst.Stamp
}

// idTable maps the engine ids of one generation (dense from 0) to the
// attempt (ref > 0: attempt ref-1) or timer (ref < 0: timer -ref-1) that
// carries them. The dense range grows with the ids seen; ids far beyond it
// or negative (hostile or odd histories) go to a map.
type idTable struct {
	dense  []int32
	sparse map[int32]int32
	high   int32 // one past the highest dense id set since the last reset
}

func newIDTable(size int) idTable { return idTable{dense: make([]int32, size)} }

func (t *idTable) get(id int32) int32 {
	if id >= 0 && int(id) < len(t.dense) {
		return t.dense[id]
	}
	return t.sparse[id]
}

func (t *idTable) set(id, ref int32) {
	if id >= 0 && int(id) >= len(t.dense) && int(id) < 2*len(t.dense)+1024 {
		// Grow the dense range for histories with more actions than guessed
		// (ids far beyond it go to the map).
		t.dense = append(t.dense, make([]int32, int(id)+1-len(t.dense)+len(t.dense)/2)...)
	}
	if id >= 0 && int(id) < len(t.dense) {
		t.dense[id] = ref
		t.high = max(t.high, id+1)
		return
	}
	if t.sparse == nil {
		t.sparse = make(map[int32]int32)
	}
	t.sparse[id] = ref
}

// reset forgets every id, for a new generation.
func (t *idTable) reset() {
	clear(t.dense[:t.high])
	t.high = 0
	clear(t.sparse)
}

// runState is what the history and the reported status say about the run.
type runState uint8

const (
	stateRunning runState = iota
	stateEnded
	stateStalled
	stateUnknown // a status twice does not know
)

// scan holds everything one pass over the history collects.
type scan struct {
	h        *catalyst.History
	attempts []attemptRec
	timers   []timerRec
	// failures are attempts whose first outcome is a failure, in the order
	// the failures were recorded.
	failures []int32
	// firedOrder are timers in the order they fired.
	firedOrder []int32
	// extras are further outcomes recorded for one attempt (rare).
	extras map[int32][]int32
	// stalls are positions of executionStalled events.
	stalls []int32
	// runPayloadEvents are positions of events outside any invocation
	// (the workflow's input and output, raised and sent events) whose
	// payload's wire form is longer than the large-payload threshold.
	runPayloadEvents []int32
	// workflow is the workflow name its executionStarted records.
	workflow string
	// largeBytes is the large-payload threshold.
	largeBytes int
	// hidden counts the attempt inputs and outputs whose content is not
	// visible (withheld, redacted, not requested); hiddenState says why
	// (withheld wins over the others).
	hidden      int
	hiddenState catalyst.PayloadState

	// Lookups scoped to the current generation: ids restart at 0 after a
	// continue-as-new, and every reference points back into its own
	// generation.
	ids   idTable
	insts map[string]int32 // latest child attempt with an instance id (or retry parent)
	// execs indexes task execution ids for every generation; it is sorted
	// and resolved after the pass (linkExecIDs).
	execs execIndex
	// originTimers are timers whose activityRetry origin names an
	// execution id, resolved after the pass.
	originTimers []int32
	// deferred are outcomes whose scheduled id did not lead to an attempt
	// with their execution id, resolved by execution id after the pass.
	deferred []deferredOutcome

	generations int32
	state       runState
	latest      catalyst.Stamp // the latest timestamp in the history
	// idless are outcomes whose source gave no scheduled id (a Dapr CLI
	// row), paired by inference after the pass (pairIDless), and notes
	// say, per attempt record, why such an outcome was tied to it or why
	// none could be.
	idless []deferredOutcome
	notes  map[int32]outcomeNote
	// byActionID: the rows are not in the engine's append order (the Dapr
	// CLI sorts them: catalyst.Traits.Reordered), so a retry is found by
	// its eventId, not its place.
	byActionID bool
}

// outcomeNote is why an attempt's outcome was inferred, or left unknown.
type outcomeNote struct {
	event int32 // the outcome event concerned
	text  string
}

// inboxBeforeTurn reports whether a turn's inbox events precede its
// workflowStarted, as in the Dapr CLI's re-sorted rows: the first
// executionStarted comes before the first workflowStarted. Engine order puts
// workflowStarted first. With neither event, whether the source re-sorted
// the events decides (catalyst.Traits.Reordered).
func inboxBeforeTurn(h *catalyst.History) bool {
	for _, e := range h.All() {
		switch e.Type {
		case catalyst.EventWorkflowStarted:
			return false
		case catalyst.EventExecutionStarted:
			return true
		case catalyst.EventTaskScheduled, catalyst.EventTimerCreated, catalyst.EventChildWorkflowCreated:
			return h.Reordered
		}
	}
	return h.Reordered
}

// newScan makes the one pass over h: attempts, timers, outcomes, turns,
// generations, the by-id and reused-eventId links, and retry timers whose
// origin names an attempt.
func newScan(h *catalyst.History, largeBytes int) *scan {
	c := countKinds(h)
	s := &scan{
		h:          h,
		attempts:   make([]attemptRec, 0, c.attempts),
		timers:     make([]timerRec, 0, c.timers),
		failures:   make([]int32, 0, c.failures),
		firedOrder: make([]int32, 0, c.fired),
		ids:        newIDTable(c.numbered + 16),
		execs:      newExecIndex(c.tasks),
		insts:      make(map[string]int32),
		largeBytes: largeBytes,
		byActionID: h.Reordered,
	}
	hugepage.AdviseLarge(s.attempts)
	inboxFirst := inboxBeforeTurn(h)
	var (
		gen       int32
		turns     int32
		seenStart bool
		curExec   string
		ended     bool
		stalled   bool
		suspended bool
		lastState = -1 // -1 none; 0 running; 1 ended; 2 stalled
		turnStart catalyst.Stamp
	)
	for i, e := range h.All() {
		if e.Timestamp > s.latest && !e.Timestamp.IsNever() {
			s.latest = e.Timestamp
		}
		turn := turns
		switch {
		case e.Type == catalyst.EventWorkflowStarted:
			turns++
			turn = turns
			turnStart = e.Timestamp
		case !e.Type.IsNumbered() && inboxFirst:
			turn = turns + 1
		}
		pos := int32(i)
		switch e.Type {
		case catalyst.EventExecutionStarted:
			if seenStart && (e.ExecutionID == "" || e.ExecutionID != curExec) {
				gen++
				ended, stalled, suspended, lastState = false, false, false, -1
				s.ids.reset()
				clear(s.insts)
			}
			seenStart, curExec = true, e.ExecutionID
			if s.workflow == "" {
				s.workflow = e.Name
			}
		case catalyst.EventTaskScheduled:
			s.addAttempt(pos, gen, turn, e, false)
		case catalyst.EventChildWorkflowCreated:
			s.addAttempt(pos, gen, turn, e, true)
		case catalyst.EventTaskCompleted, catalyst.EventTaskFailed:
			s.addOutcome(pos, gen, turn, e, false)
		case catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
			s.addOutcome(pos, gen, turn, e, true)
		case catalyst.EventTimerCreated:
			s.addTimer(pos, gen, turn, turnStart, e)
		case catalyst.EventTimerFired:
			if ref := s.ids.get(e.TimerID); ref < 0 && s.timers[-ref-1].fired < 0 {
				t := -ref - 1
				s.timers[t].fired = pos
				s.timers[t].firedTurn = turn
				s.firedOrder = append(s.firedOrder, t)
			}
		case catalyst.EventExecutionCompleted:
			ended, lastState, suspended = true, 1, false
		case catalyst.EventExecutionTerminated:
			if !suspended {
				ended, lastState = true, 1
			}
			// A suspended run asked to terminate is not completed by the
			// engine (durabletask-go v0.12.1): it stays suspended until a
			// completion says otherwise.
		case catalyst.EventExecutionSuspended:
			suspended = true
		case catalyst.EventExecutionStalled:
			stalled, lastState = true, 2
			s.stalls = append(s.stalls, pos)
		case catalyst.EventExecutionResumed:
			lastState, suspended = 0, false
		}
		switch e.Type {
		case catalyst.EventExecutionStarted, catalyst.EventExecutionCompleted, catalyst.EventEventRaised,
			catalyst.EventEventSent, catalyst.EventContinueAsNew:
			if _, over := payloadOver(e.Payload, largeBytes); over {
				s.runPayloadEvents = append(s.runPayloadEvents, pos)
			}
		}
	}
	s.generations = gen + 1
	s.state = stateOf(h.Run.Status, ended, stalled, lastState)
	return s
}

// kindCounts are how many events of the kinds the scan keeps a record for
// a history holds.
type kindCounts struct {
	attempts, tasks, timers, fired, failures, numbered int
}

// countKinds counts the events the scan keeps records for, so that its
// slices are allocated once at their final size: on a million-event history
// growing them by appending would copy and discard about as much memory
// again as they finally hold. It reads one byte of each event.
func countKinds(h *catalyst.History) kindCounts {
	var byType [256]int
	for _, e := range h.All() {
		byType[e.Type]++
	}
	var c kindCounts
	for t, n := range byType {
		if n == 0 {
			continue
		}
		switch catalyst.EventType(t) {
		case catalyst.EventTaskScheduled:
			c.attempts += n
			c.tasks += n
		case catalyst.EventChildWorkflowCreated:
			c.attempts += n
		case catalyst.EventTimerCreated:
			c.timers += n
		case catalyst.EventTimerFired:
			c.fired += n
		case catalyst.EventTaskFailed, catalyst.EventChildWorkflowFailed:
			c.failures += n
		}
		if catalyst.EventType(t).IsNumbered() {
			c.numbered += n
		}
	}
	return c
}

// stateOf decides whether the run is running, ended or stalled: an ending
// event in the last generation wins, then the reported status, then a stall.
func stateOf(status catalyst.Status, ended, stalled bool, last int) runState {
	if ended {
		return stateEnded
	}
	switch status.Normalized() {
	case "", catalyst.StatusRunning, catalyst.StatusPending, catalyst.StatusSuspended:
		if stalled && last == 2 {
			return stateStalled
		}
		return stateRunning
	case catalyst.StatusStalled:
		return stateStalled
	case catalyst.StatusCompleted, catalyst.StatusFailed, catalyst.StatusTerminated,
		catalyst.StatusCanceled, catalyst.StatusContinuedAsNew:
		return stateEnded
	}
	return stateUnknown
}

func (s *scan) addAttempt(pos, gen, turn int32, e *catalyst.Event, child bool) {
	a := int32(len(s.attempts))
	s.attempts = append(s.attempts, attemptRec{pos: pos, id: e.ID, gen: gen, turn: turn,
		outcome: -1, parent: a, prevExec: -1, timer: -1, child: child, large: s.checkPayload(e.Payload)})
	if ref := s.ids.get(e.ID); ref > 0 && !child {
		if prev := ref - 1; !s.attempts[prev].child && s.nameOf(prev) == e.Name && !s.inputsDiffer(a, prev) {
			// Old Python SDKs reuse the eventId for every attempt of one
			// call (with one input: another input is another call).
			s.union(a, prev, rankInferred)
		}
	}
	s.ids.set(e.ID, a+1)
	if child {
		if e.InstanceID != "" {
			if prev, ok := s.insts[e.InstanceID]; ok {
				s.union(a, prev, rankByID)
				s.attempts[a].reusedInst = true
			}
			s.insts[e.InstanceID] = a
		}
		if e.Detail != nil && e.Detail.RetryParentInstanceID != "" {
			if first, ok := s.insts[e.Detail.RetryParentInstanceID]; ok {
				s.union(a, first, rankByID)
			} else {
				s.insts[e.Detail.RetryParentInstanceID] = a
			}
		}
		return
	}
	if e.ExecutionID != "" {
		s.execs.add(e.ExecutionID, gen, a)
	}
}

// addTimer records a timerCreated and, when its origin names an attempt of
// this generation (an activityRetry task execution id or a
// childWorkflowRetry instance id), ties it to that attempt's invocation.
func (s *scan) addTimer(pos, gen, turn int32, turnStart catalyst.Stamp, e *catalyst.Event) {
	t := int32(len(s.timers))
	tr := timerRec{pos: pos, gen: gen, turn: turn, fired: -1, target: -1, failure: -1, next: -1,
		turnStart: turnStart}
	switch {
	case e.OriginID == "":
	case e.Origin == catalyst.OriginActivityRetry:
		s.originTimers = append(s.originTimers, t)
	case e.Origin == catalyst.OriginChildWorkflowRetry:
		if target, ok := s.insts[e.OriginID]; ok {
			tr.target, tr.link, tr.child = target, rankByOrigin, true
		} else if target, ok := s.engineChild(e.OriginID); ok {
			// The rows name no child instances (the Dapr CLI's): the origin
			// names the id the engine gives the child of one action.
			tr.target, tr.link, tr.child = target, rankInferred, true
		}
	}
	s.timers = append(s.timers, tr)
	s.ids.set(e.ID, -t-1)
}

// addOutcome ties a completion or failure to its attempt by its scheduled
// id. When the attempt found carries another execution id than the
// outcome, or none is found and the outcome has one, the outcome is matched
// by execution id after the pass. For formats that drop child outcome ids,
// a child outcome goes to the oldest child attempt still waiting.
func (s *scan) addOutcome(pos, gen, turn int32, e *catalyst.Event, child bool) {
	if !e.HasScheduledID() && (child || e.ExecutionID == "") {
		s.idless = append(s.idless, deferredOutcome{pos: pos, gen: gen, turn: turn})
		return
	}
	a, ok := int32(-1), false
	if ref := s.ids.get(e.ScheduledID); ref > 0 && s.attempts[ref-1].child == child {
		a, ok = ref-1, true
	}
	if !child && e.ExecutionID != "" && (!ok || s.execOf(a) != "" && s.execOf(a) != e.ExecutionID) {
		s.deferred = append(s.deferred, deferredOutcome{pos: pos, gen: gen, turn: turn})
		return
	}
	if ok {
		s.setOutcome(a, pos, turn, e)
	}
}

// checkPayload counts a payload that is not visible and reports whether a
// visible one is over the large-payload threshold.
func (s *scan) checkPayload(p catalyst.Payload) (large bool) {
	if !visible(p) {
		s.hidden++
		if s.hiddenState != catalyst.PayloadWithheld {
			s.hiddenState = p.State
		}
		return false
	}
	_, large = payloadOver(p, s.largeBytes)
	return large
}

func (s *scan) execOf(a int32) string { return s.h.At(int(s.attempts[a].pos)).ExecutionID }

// find returns the root (the first attempt) of a's set, halving paths.
func (s *scan) find(a int32) int32 {
	for s.attempts[a].parent != a {
		p := s.attempts[a].parent
		s.attempts[a].parent = s.attempts[p].parent
		a = p
	}
	return a
}

// union joins later's set to earlier's and records on later the rule that
// joined it. The root of the result is the earliest attempt.
// A root that stops being one was joined by the same rule, through the
// set it led.
func (s *scan) union(later, earlier int32, rank linkRank) {
	s.attempts[later].link = s.attempts[later].link.better(rank)
	x, y := s.find(later), s.find(earlier)
	if x == y {
		return
	}
	root, joined := min(x, y), max(x, y)
	s.attempts[joined].parent = root
	if s.attempts[joined].link == rankNone {
		s.attempts[joined].link = rank
	}
}

package runview

import (
	"sync"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// Row flags, set once per history by NewIndex and read by the filters: the
// toggles' (list.Flags), then the index's own.
const (
	flagFailed  = uint8(list.Failed)  // a failure (event) or a failed attempt (invocation)
	flagRetried = uint8(list.Retried) // part of an invocation with more than one attempt
	flagFlagged = uint8(list.Flagged) // part of an invocation with findings, or evidence
	// flagMore: the row has text to search that its terms do not hold (a
	// second id), searched only when a filter runs. Payloads are searched
	// in the index's payload text.
	flagMore uint8 = 1 << 3
	// flagNumbered: the event has an eventId (a number query matches it).
	flagNumbered uint8 = 1 << 4
)

// filterFlags are the flags a filter toggle can require.
const filterFlags = flagFailed | flagRetried | flagFlagged

// Index is what the run view needs besides the history: detect's report and
// the lookups and search terms built from it. NewIndex builds it off the UI
// goroutine, in the same command that fetched the history and ran detect,
// so that nothing on a key press walks the whole history.
type Index struct {
	// Report is detect's report for the history.
	Report *detect.Report
	// Code is what the reviewed source says about Report (AddCode); nil
	// when no source was given.
	Code *review.Joined

	eventInv     []int32 // per event: its invocation, -1 for none
	eventAttempt []int32 // per event: its attempt's position in the invocation, -1 for none
	eventFlags   []uint8
	invFlags     []uint8
	findFlags    []uint8       // per finding: its invocation's flags (every finding is flagged)
	evidence     map[int][]int // event position → findings citing it
	eventTerms   *table.Terms
	invTerms     *table.Terms
	findTerms    *table.Terms
	// callOf is, per event that closes a call, the event that opened it
	// (format.CallOf): the Events tab names the row after it.
	callOf []int32
	// withheld counts the events whose payload is withheld.
	withheld int
	// invByKey finds an invocation by its key (expansions and the
	// selection are kept by key across polls).
	invByKey map[string]int32
	// worst is the first invocation with the most severe finding (-1 for
	// none): the run view opens on it. flagged counts the invocations with
	// findings.
	worst   int32
	flagged int
	// nameWidth and flagWidth are the widths the Invocations tab's NAME and
	// FLAG cells need (the widest, capped); eventNameWidth the Events tab's
	// NAME cells.
	nameWidth, flagWidth, eventNameWidth, keyWidth int
	// inputKeys tell same-name invocations apart (detect.InvocationKeys),
	// per invocation; nil when every name is called once. inputWidth is
	// the widest INPUT cell, labelWidth the widest name with its key.
	inputKeys              []detect.InputKey
	inputWidth, labelWidth int
	// waits are the run's timers, waits for external events and
	// suspensions, a lane each under the Timeline's rows.
	waits     []format.WaitLane
	waitWidth int // the widest wait lane's label
	// latest is the history's latest stamp (format.Latest): the Timeline's
	// axis ends there without walking the history on every frame.
	latest catalyst.Stamp
	// code is the Code tab's rows (AddCode), nil when no source was given.
	code *codeIndex
	// payloads is every payload's text in search form: a filter finds an
	// event, an invocation (its attempts' inputs and outputs) and a
	// finding (its invocation's) by a customer id in it.
	payloads *payloadText
}

// payloadSyncBytes is the payload text up to which a filter that searches
// it runs on the UI goroutine (about a millisecond to search); a larger
// one makes every list filter in a command.
const payloadSyncBytes = 2 << 20

// syncMax is the SyncMax of a list that searches the payload text: def
// (0: the list's default), or 1 when the text is too large to search on
// the UI goroutine.
func (x *Index) syncMax(def int) int {
	if x != nil && x.payloads.size() > payloadSyncBytes {
		return 1
	}
	return def
}

// Caps of the wanted column widths (the table gives no column more than
// what is left anyway; the caps bound the work of measuring).
const (
	maxNameWant  = 80
	maxFlagWant  = 40
	maxInputWant = 48
	// maxWaitLanes is the most lines of waits under the Timeline.
	maxWaitLanes = 4
)

// NewIndex indexes a history and its report. It walks the history once.
func NewIndex(h *catalyst.History, rep *detect.Report) *Index {
	if rep == nil {
		rep = &detect.Report{}
	}
	n := h.Len()
	x := &Index{
		Report:       rep,
		eventInv:     make([]int32, n),
		eventAttempt: make([]int32, n),
		eventFlags:   make([]uint8, n),
		invFlags:     make([]uint8, len(rep.Invocations)),
		invByKey:     make(map[string]int32, len(rep.Invocations)),
		evidence:     make(map[int][]int),
		worst:        -1,
	}
	// What tells a fan-out's invocations apart, and the run's waits, on
	// the other core: they read the history and the report, and write
	// only their own fields.
	var side sync.WaitGroup
	defer side.Wait()
	side.Go(func() {
		x.indexInputKeys(h)
		x.waits = format.WaitLanes(h, rep, maxWaitLanes)
		for _, l := range x.waits {
			x.waitWidth = max(x.waitWidth, min(format.Width(format.Line(l.Label)), maxNameWant))
		}
	})
	for i := range x.eventInv {
		x.eventInv[i] = -1
		x.eventAttempt[i] = -1
	}
	for fi := range rep.Findings {
		for _, ev := range rep.Findings[fi].Evidence {
			if ev.Event >= 0 && ev.Event < n {
				x.evidence[ev.Event] = append(x.evidence[ev.Event], fi)
				x.eventFlags[ev.Event] |= flagFlagged
			}
		}
	}
	invTerms := table.NewTermsBuilder(4, len(rep.Invocations))
	var shared [4]string
	worstSev := detect.SeverityNone
	names := make(map[string]struct{})
	for ii := range rep.Invocations {
		inv := &rep.Invocations[ii]
		var f uint8
		if len(inv.Attempts) > 1 {
			f |= flagRetried
		}
		if len(inv.Findings) > 0 {
			f |= flagFlagged
			x.flagged++
			wf := worstFinding(rep, inv)
			if sev := rep.Findings[wf].Severity; x.worst < 0 || sev > worstSev {
				x.worst, worstSev = int32(ii), sev
			}
			x.flagWidth = max(x.flagWidth, min(format.Width(flagText(rep, inv)), maxFlagWant))
		}
		x.keyWidth = max(x.keyWidth, min(len(inv.Key), maxNameWant))
		if _, seen := names[inv.Name]; !seen && x.nameWidth < maxNameWant {
			names[inv.Name] = struct{}{}
			x.nameWidth = max(x.nameWidth, min(format.Width(format.Line(inv.Name)), maxNameWant))
		}
		for ai := range inv.Attempts {
			if inv.Attempts[ai].Outcome == detect.OutcomeFailed {
				f |= flagFailed
			}
		}
		x.invFlags[ii] = f
		if _, dup := x.invByKey[inv.Key]; !dup {
			x.invByKey[inv.Key] = int32(ii)
		}
		mark := func(ev int, ai int) {
			if ev < 0 || ev >= n {
				return
			}
			x.eventInv[ev] = int32(ii)
			x.eventAttempt[ev] = int32(ai)
			x.eventFlags[ev] |= f &^ flagFailed
		}
		for ai := range inv.Attempts {
			a := &inv.Attempts[ai]
			mark(a.Scheduled, ai)
			mark(a.OutcomeEvent, ai)
			for _, e := range a.ExtraOutcomes {
				mark(e, ai)
			}
			if t := a.RetryTimer; t != nil {
				mark(t.Created, ai)
				mark(t.Fired, ai)
			}
		}
		shared[0], shared[1], shared[2], shared[3] = inv.Name, findingIDs(rep, inv), attemptFailures(inv, false), attemptFailures(inv, true)
		invTerms.Add(shared[:], inv.Key)
		if otherIDs(inv) {
			x.invFlags[ii] |= flagMore
		}
	}
	x.invTerms = invTerms.Terms()

	x.callOf = format.CallOf(h, rep)
	// Columns: the type, the event's own name, the name of the call it
	// closes (shown as derived), and its error.
	evTerms := table.NewTermsBuilder(4, n)
	for i, e := range h.All() {
		if ts := e.Timestamp; !ts.IsNever() && ts > x.latest {
			x.latest = ts
		}
		if isFailure(e) {
			x.eventFlags[i] |= flagFailed
		}
		if e.Payload.State == catalyst.PayloadWithheld {
			x.withheld++
		}
		if secondID(e) {
			x.eventFlags[i] |= flagMore // (a payload is in x.payloads)
		}
		if e.ID >= 0 {
			x.eventFlags[i] |= flagNumbered
		}
		shared[0], shared[1], shared[2], shared[3] = e.TypeLabel(), e.Name, "", ""
		if e.Name == "" && x.callOf[i] >= 0 {
			shared[2] = format.RawCallName(h, x.callOf, i)
		}
		if f := e.Failure; f != nil {
			shared[3] = failureSearch(f)
		}
		evTerms.Add(shared[:], eventID(e))
	}
	x.eventTerms = evTerms.Terms()
	x.payloads = newPayloadText(h)
	x.eventNameWidth = min(max(x.eventTerms.Widest(1), x.eventTerms.Widest(2)+format.Width(format.DerivedMark)), maxNameWant)

	findTerms := table.NewTermsBuilder(5, len(rep.Findings))
	x.findFlags = make([]uint8, len(rep.Findings))
	for fi := range rep.Findings {
		f := &rep.Findings[fi]
		findTerms.Add([]string{string(f.ID), f.Activity, evidenceText(f),
			findingFailures(rep, f, false), findingFailures(rep, f, true)}, f.Invocation)
		x.findFlags[fi] = flagFlagged
		if ii := f.InvocationIndex; ii >= 0 && ii < len(x.invFlags) {
			x.findFlags[fi] |= x.invFlags[ii] & filterFlags
		}
	}
	x.findTerms = findTerms.Terms()
	return x
}

// isFailure reports whether an event records a failure.
func isFailure(e *catalyst.Event) bool {
	switch e.Type {
	case catalyst.EventTaskFailed, catalyst.EventChildWorkflowFailed:
		return true
	case catalyst.EventExecutionCompleted:
		return e.Failure != nil || e.Detail != nil && e.Detail.WorkflowStatus.Is(catalyst.StatusFailed)
	}
	return e.Failure != nil
}

// eventID is the id an event is searched by: its task execution id, a
// timer's origin, or a child's instance id.
func eventID(e *catalyst.Event) string {
	switch {
	case e.ExecutionID != "":
		return e.ExecutionID
	case e.OriginID != "":
		return e.OriginID
	}
	return e.InstanceID
}

// invocationOf returns the invocation and attempt position an event belongs
// to, or -1, -1.
func (x *Index) invocationOf(ev int) (inv, attempt int) {
	if x == nil || ev < 0 || ev >= len(x.eventInv) {
		return -1, -1
	}
	return int(x.eventInv[ev]), int(x.eventAttempt[ev])
}

// indexInputKeys finds what tells same-name invocations apart, and the
// widths its cells need.
func (x *Index) indexInputKeys(h *catalyst.History) {
	keys := detect.InvocationKeys(h, x.Report)
	for ii, k := range keys {
		if k.IsZero() {
			continue
		}
		x.inputKeys = keys
		inv := &x.Report.Invocations[ii]
		x.inputWidth = max(x.inputWidth, min(format.Width(inputCell(inv, k)), maxInputWant))
		x.labelWidth = max(x.labelWidth, min(format.Width(format.Line(inv.Name))+1+format.Width(keyWord(k)), maxNameWant))
	}
}

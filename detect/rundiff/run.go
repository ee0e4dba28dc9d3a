package rundiff

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// run lists what differs in the runs themselves, worst first: run-wide
// findings only one has, status, why each ended, how long each took, the
// timers and events only one has, and the payloads not compared.
func (c *comparer) run() []Change {
	var ch []Change
	ra, rb := &c.a.History.Run, &c.b.History.Run
	onlyA, onlyB := matchRunWide(c.a.Report, c.b.Report)
	for _, f := range onlyA {
		ch = append(ch, findingChange(SideA, &c.a.Report.Findings[f]))
	}
	for _, f := range onlyB {
		ch = append(ch, findingChange(SideB, &c.b.Report.Findings[f]))
	}
	if sa, sb := ra.Status.Normalized(), rb.Status.Normalized(); sa != sb {
		ch = append(ch, Change{Kind: ChangeStatus, A: one(statusWords(sa)), B: one(statusWords(sb))})
	}
	if wa, wb := c.why(c.a.History), c.why(c.b.History); wa != wb {
		ch = append(ch, Change{Kind: ChangeWhy, A: maybe(wa), B: maybe(wb)})
	}
	if ra.Status.IsEnded() && rb.Status.IsEnded() && !ra.CreatedAt.IsZero() && !ra.UpdatedAt.IsZero() &&
		!rb.CreatedAt.IsZero() && !rb.UpdatedAt.IsZero() {
		sa, sb := c.a.History.SpanTimes(ra.CreatedAt, ra.UpdatedAt), c.b.History.SpanTimes(rb.CreatedAt, rb.UpdatedAt)
		if durationsDiffer(sa, sb) {
			ch = append(ch, Change{Kind: ChangeDuration, A: []detect.Fact{spanFact(sa)}, B: []detect.Fact{spanFact(sb)}})
		}
	}
	ch = append(ch, others(c.a, c.b)...)
	if na, nb := c.notCompared(SideA), c.notCompared(SideB); na != nil || nb != nil {
		ch = append(ch, Change{Kind: ChangeNotCompared, A: na, B: nb})
	}
	slices.SortStableFunc(ch, func(x, y Change) int { return cmp.Compare(rankOf(x), rankOf(y)) })
	return ch
}

// why says why a run ended as it did: Options.Why, else the run's failure
// message.
func (c *comparer) why(h *catalyst.History) string {
	if c.opts.Why != nil {
		return c.opts.Why(h)
	}
	return clip(safetext.Line(h.Run.FailureMessage), 200)
}

// maybe is a fact of s, none for "".
func maybe(s string) []detect.Fact {
	if s == "" {
		return nil
	}
	return one(s)
}

// statusWords names a status, "unknown" for none.
func statusWords(s catalyst.Status) string {
	if s == "" {
		return "unknown"
	}
	return safetext.Line(string(s))
}

// notCompared says why a side's payloads were not compared.
func (c *comparer) notCompared(side Side) []detect.Fact {
	m := c.uncompared[side-1]
	if len(m) == 0 {
		return nil
	}
	h := c.a.History
	if side == SideB {
		h = c.b.History
	}
	var states []catalyst.PayloadState
	for s := range m {
		states = append(states, s)
	}
	slices.Sort(states)
	var out []detect.Fact
	for _, s := range states {
		out = append(out, detect.Words("payloads "+h.Run.DataSharing.PayloadText(catalyst.AbsentPayload(s))))
	}
	return out
}

// occurrence is a timer or event of a run by its kind and name.
type occurrence struct {
	kind ChangeKind
	verb string
	name string
}

// others lists the durable timers (not retry timers) and the external
// events raised or sent that only one run has, or has more of, by name.
func others(a, b Run) []Change {
	ca, order := occurrences(a)
	cb, orderB := occurrences(b)
	for _, o := range orderB {
		if _, ok := ca[o]; !ok {
			order = append(order, o)
		}
	}
	var ch []Change
	for _, o := range order {
		na, nb := ca[o], cb[o]
		if na == nb {
			continue
		}
		ch = append(ch, Change{Kind: o.kind, A: occurrenceFacts(o, na), B: occurrenceFacts(o, nb)})
	}
	return ch
}

// occurrenceFacts says how many of o a run has; none for 0.
func occurrenceFacts(o occurrence, n int) []detect.Fact {
	if n == 0 {
		return nil
	}
	s := o.verb + " " + strconv.Quote(clip(safetext.Line(o.name), 60))
	if n > 1 {
		s += " ×" + strconv.Itoa(n)
	}
	return one(s)
}

// occurrences counts a run's timers (not retry timers) and external events
// by name, and lists them in the order they first occur.
func occurrences(r Run) (map[occurrence]int, []occurrence) {
	retry := make(map[int]bool)
	for i := range r.Report.Invocations {
		inv := &r.Report.Invocations[i]
		for k := range inv.Attempts {
			if t := inv.Attempts[k].RetryTimer; t != nil {
				retry[t.Created] = true
			}
		}
		if inv.OpenRetry != nil {
			retry[inv.OpenRetry.Created] = true
		}
	}
	counts := make(map[occurrence]int)
	var order []occurrence
	for i, e := range r.History.All() {
		var o occurrence
		switch e.Type {
		case catalyst.EventTimerCreated:
			if retry[i] || e.Origin == catalyst.OriginActivityRetry || e.Origin == catalyst.OriginChildWorkflowRetry {
				continue
			}
			o = occurrence{kind: ChangeTimers, verb: "timer", name: e.Name}
		case catalyst.EventEventRaised:
			o = occurrence{kind: ChangeEvents, verb: "event raised", name: e.Name}
		case catalyst.EventEventSent:
			o = occurrence{kind: ChangeEvents, verb: "event sent", name: e.Name}
		default:
			continue
		}
		if counts[o] == 0 {
			order = append(order, o)
		}
		counts[o]++
	}
	return counts, order
}

package format

import (
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// Mark is what one cell of a timeline row shows. Every mark has its own
// shape, so a timeline reads without colour (NO_COLOR, 16 colours): an
// attempt, an attempt whose end is unknown, two attempts at once, the wait
// before a retry, and where an outcome arrived.
type Mark uint8

// Marks, in the order a cell shared by two takes the later one.
const (
	MarkNone      Mark = iota
	MarkBackoff        // the retry's backoff: between an outcome and the next attempt
	MarkAttempt        // an attempt running, its end known
	MarkOpen           // an attempt whose end is unknown (no outcome yet, or none recorded)
	MarkOverlap        // two attempts at once: one ended after a later one started
	MarkCompleted      // where an attempt's completion arrived
	MarkFailed         // where an attempt's failure arrived
	MarkUnknown        // the end of an open attempt: its outcome is unknown
)

// Glyph is a mark's character.
func (m Mark) Glyph() string {
	switch m {
	case MarkBackoff:
		return "·"
	case MarkAttempt:
		return "█"
	case MarkOpen:
		return "░"
	case MarkOverlap:
		return "▓"
	case MarkCompleted:
		return "✓"
	case MarkFailed:
		return "✗"
	case MarkUnknown:
		return "?"
	}
	if g := waitGlyph(m); g != "" {
		return g
	}
	return " "
}

// Tone is the tone a mark is coloured with, where there is colour.
func (m Mark) Tone() Tone {
	switch m {
	case MarkCompleted:
		return ToneGood
	case MarkFailed, MarkOverlap:
		return ToneBad
	case MarkOpen, MarkUnknown, MarkAwait, MarkSuspended:
		return TonePending
	case MarkRaised, MarkFired:
		return ToneGood
	}
	return ToneNeutral
}

// TimelineLegend explains the marks: each mark, a word for the legend
// line under a timeline, and what it means (the help screen).
var TimelineLegend = [][3]string{
	{"█", "attempt", "an attempt, from its scheduling to its outcome"},
	{"▓", "overlap", "two attempts at once"},
	{"░", "may run", "may still be running: no outcome, or it timed out"},
	{"·", "backoff", "the wait before a retry"},
	{"✓✗?", "outcome", "completed, failed, unknown"},
}

// TimelineLegendLine is TimelineLegend on one line, in its short words.
func TimelineLegendLine() string {
	parts := make([]string, len(TimelineLegend))
	for i, l := range TimelineLegend {
		parts[i] = l[0] + " " + l[1]
	}
	return strings.Join(parts, "  ")
}

// timelineLegendShort is the legend line in its fewest words, for a
// narrow list: the shapes stay, each with a word.
const timelineLegendShort = "█ run ▓ both ░ open · wait ✓✗? end ▲◆● finding"

// TimelineLegendFit is the legend line under a timeline, the findings'
// marks included, in the longest form that fits width columns: the words
// of TimelineLegend, then the same single-spaced, then the fewest words;
// cut only when not even those fit.
func TimelineLegendFit(width int) string {
	const findings = "▲◆● finding"
	words := make([]string, len(TimelineLegend)+1)
	for i, l := range TimelineLegend {
		words[i] = l[0] + " " + l[1]
	}
	words[len(TimelineLegend)] = findings
	for _, form := range []string{strings.Join(words, "  "), strings.Join(words, " "), timelineLegendShort} {
		if Width(form) <= width {
			return form
		}
	}
	return Fit(timelineLegendShort, width)
}

// Axis is a timeline's time axis: the instants from From to To spread over
// Width cells. Now is where an attempt whose end is unknown is drawn to:
// the run's last event, or the clock for a live run still running.
type Axis struct {
	From, To, Now catalyst.Stamp
	Width         int
	// Spans labels the ticks as exactly as the history's stamps allow.
	Spans Spans
}

// RunAxis is the axis of a whole run: from its start to the end of what
// the history tells (KnownUntil): its latest event, or, for a run that has
// not ended, now for a live read and its capture for a saved one (its
// attempts may have run until then).
func RunAxis(h *catalyst.History, start catalyst.Stamp, now time.Time, width int) Axis {
	return RunAxisAfter(h, start, Latest(h), now, width)
}

// RunAxisAfter is RunAxis given the history's Latest stamp, for a caller
// that keeps it (a frame must not walk a million events).
func RunAxisAfter(h *catalyst.History, start, latest catalyst.Stamp, now time.Time, width int) Axis {
	end := KnownAfter(h, latest, now)
	if start.IsZero() && h.Len() > 0 {
		start = h.At(0).Timestamp
	}
	if end < start {
		end = start
	}
	return Axis{From: start, To: end, Now: end, Width: width, Spans: SpansOf(h)}
}

// KnownUntil is the end of what a history tells: its latest stamp (not its
// last event's: the engine stamps a result when it arrives, before the
// turn that records it), or, for a run that has not ended, the instant it
// is known to have run until when later (catalyst.Run.RanUntil: now for a
// live read, the capture for a saved history that records it). An attempt
// with no outcome was open at least until then.
func KnownUntil(h *catalyst.History, now time.Time) catalyst.Stamp {
	return KnownAfter(h, Latest(h), now)
}

// Latest is a history's latest stamp (KnownUntil walks the history for
// it); 0 for none.
func Latest(h *catalyst.History) catalyst.Stamp {
	end := catalyst.Stamp(0)
	for _, e := range h.All() {
		if ts := e.Timestamp; !ts.IsNever() && ts > end {
			end = ts
		}
	}
	return end
}

// KnownAfter is KnownUntil given the history's Latest stamp.
func KnownAfter(h *catalyst.History, latest catalyst.Stamp, now time.Time) catalyst.Stamp {
	end := latest
	if !h.Run.Status.IsEnded() && (!h.Run.Provenance.Live() || !now.IsZero()) {
		if until, _ := h.Run.RanUntil(now); !until.IsZero() {
			end = max(end, catalyst.StampOf(until))
		}
	}
	return end
}

// InvocationSpan is how long an invocation took, from its first attempt's
// scheduling to its last outcome; or, when its last attempt has no outcome,
// how long it has been open: from its start to the end of what the history
// tells (KnownUntil), at least (open). As the history measures it
// (catalyst.History.Span); a zero span when its start is unknown.
func InvocationSpan(h *catalyst.History, inv *detect.Invocation, now time.Time) (sp catalyst.Span, open bool) {
	if len(inv.Attempts) == 0 || inv.Start.IsZero() || inv.Start.IsNever() {
		return catalyst.Span{}, false
	}
	if last := &inv.Attempts[len(inv.Attempts)-1]; last.OutcomeEvent < 0 {
		sp = h.Span(inv.Start, KnownUntil(h, now))
		sp.D = max(sp.D, 0)
		return sp, true
	}
	return inv.Took(h), false
}

// InvocationDuration shows InvocationSpan: "36.72s", or "open ≥4.0m" for
// an invocation whose last attempt has no outcome ("open ≥~4m" from
// whole-second stamps), or "" when there is no span to show.
func InvocationDuration(sp Spans, h *catalyst.History, inv *detect.Invocation, now time.Time) string {
	d, open := InvocationSpan(h, inv, now)
	switch {
	case open:
		return "open ≥" + sp.Show(d)
	case d.D != 0 || !d.Exact() && !inv.Start.IsZero() && !inv.End.IsZero():
		// From whole-second stamps, 0 is "<1s", not "no duration".
		return sp.Show(d)
	}
	return ""
}

// Valid reports whether the axis can place instants: a known start, and a
// width.
func (a Axis) Valid() bool { return !a.From.IsZero() && a.Width > 0 }

// Span is the time the axis covers.
func (a Axis) Span() time.Duration { return max(a.To.Sub(a.From), time.Nanosecond) }

// cell returns the cell an instant falls in (clamped to one past each end:
// -1 before the axis, Width after it).
func (a Axis) cell(s catalyst.Stamp) int {
	if s < a.From {
		return -1
	}
	if s > a.To {
		return a.Width
	}
	c := int(float64(s.Sub(a.From)) / float64(a.Span()) * float64(a.Width))
	return min(c, a.Width-1)
}

// Zoom returns the axis narrowed (factor > 1) or widened (factor < 1)
// around the instant at, within limits: no wider than whole, and at least a
// millisecond (or a cell per nanosecond, or one step of whole-second
// stamps, finer than which nothing in the history can be told apart).
func (a Axis) Zoom(factor float64, at catalyst.Stamp, whole Axis) Axis {
	span := time.Duration(float64(a.Span()) / factor)
	span = min(max(span, time.Millisecond, time.Duration(a.Width), a.Spans.finest()), whole.Span())
	frac := 0.5
	if a.Span() > 0 && at >= a.From && at <= a.To {
		frac = float64(at.Sub(a.From)) / float64(a.Span())
	}
	from := at - catalyst.Stamp(float64(span)*frac)
	return a.clampTo(from, span, whole)
}

// Centre returns the axis moved so that at is in its middle, within
// whole.
func (a Axis) Centre(at catalyst.Stamp, whole Axis) Axis {
	span := a.Span()
	return a.clampTo(at-catalyst.Stamp(span/2), span, whole)
}

// Pan returns the axis moved by frac of its span (negative: earlier),
// within whole.
func (a Axis) Pan(frac float64, whole Axis) Axis {
	span := a.Span()
	return a.clampTo(a.From+catalyst.Stamp(float64(span)*frac), span, whole)
}

func (a Axis) clampTo(from catalyst.Stamp, span time.Duration, whole Axis) Axis {
	from = max(from, whole.From)
	if to := from + catalyst.Stamp(span); to > whole.To {
		from = max(whole.To-catalyst.Stamp(span), whole.From)
	}
	a.From, a.To = from, from+catalyst.Stamp(span)
	a.Now = whole.Now
	return a
}

// Ticks returns the axis heading for width cells: the offsets from base of
// the axis' start, middle and end ("+0s", "+18.82s", "+37.63s"; "~+19s"
// from whole-second stamps none of which were rebuilt), placed at their
// cells.
func (a Axis) Ticks(base catalyst.Stamp) string {
	if !a.Valid() {
		return strings.Repeat(" ", max(a.Width, 0))
	}
	line := []rune(strings.Repeat(" ", a.Width))
	put := func(at int, text string, right bool) {
		r := []rune(text)
		if right {
			at -= len(r) - 1
		}
		at = max(min(at, a.Width-len(r)), 0)
		for i, c := range r {
			if at+i < len(line) {
				line[at+i] = c
			}
		}
	}
	label := func(s catalyst.Stamp) string {
		if s == base {
			return "+0s" // the reference itself: exact whatever the stamps
		}
		return a.Spans.axisOffset(s.Sub(base))
	}
	put(0, label(a.From), false)
	if a.Width >= 36 {
		mid := a.From + catalyst.Stamp(a.Span()/2)
		text := label(mid)
		put(a.Width/2-len([]rune(text))/2, text, false)
	}
	if a.Width >= 16 {
		put(a.Width-1, label(a.To), true)
	}
	return string(line)
}

// TimelineRow lays an invocation's attempts on the axis, into dst (made
// Width long): each attempt a bar from its scheduling to its outcome, with
// the outcome's mark where it arrived, and the backoff between an outcome
// and the next attempt dotted. What the history cannot tell is drawn so:
// an attempt with no outcome is open to the axis' Now, ending in "?"; an
// attempt whose outcome was a timeout or another ambiguous failure may
// still have been running, so it stays open while the later attempts run
// (but the backoff before an attempt with no outcome is dotted, so that the
// open attempt shows from its scheduling to the axis' Now as one alone
// does);
// an attempt with a further, later outcome ran until it. Where two attempts
// ran at once, the cells overlap (▓). An attempt that started before the
// axis or ended after it is cut at its edge.
func TimelineRow(dst []Mark, h *catalyst.History, inv *detect.Invocation, a Axis) []Mark {
	dst = dst[:0]
	for range a.Width {
		dst = append(dst, MarkNone)
	}
	if !a.Valid() || len(inv.Attempts) == 0 {
		return dst
	}
	type span struct {
		from, to int
		open     bool
	}
	type point struct {
		at   int
		mark Mark
	}
	var spans []span
	var points []point
	type gap struct {
		from, to   int
		beforeOpen bool // the attempt after it has no outcome
	}
	var backoff []gap
	when := func(ev int) catalyst.Stamp {
		if ev < 0 || ev >= h.Len() {
			return 0
		}
		return h.At(ev).Timestamp
	}
	last := inv.Attempts[len(inv.Attempts)-1].End // the end of the last attempt, when known
	var prevEnd catalyst.Stamp
	for i := range inv.Attempts {
		at := &inv.Attempts[i]
		if at.Start.IsZero() || at.Start.IsNever() {
			continue
		}
		start := a.cell(at.Start)
		if i > 0 && !prevEnd.IsZero() && prevEnd < at.Start {
			open := at.End.IsZero() || at.End.IsNever() || at.OutcomeEvent < 0
			backoff = append(backoff, gap{a.cell(prevEnd) + 1, start - 1, open})
		}
		if at.End.IsZero() || at.End.IsNever() || at.OutcomeEvent < 0 {
			end := a.cell(max(a.Now, at.Start))
			spans = append(spans, span{start, end, true})
			points = append(points, point{end, MarkUnknown})
			continue
		}
		end := a.cell(at.End)
		spans = append(spans, span{start, end, false})
		switch at.Outcome {
		case detect.OutcomeCompleted:
			points = append(points, point{end, MarkCompleted})
		case detect.OutcomeFailed:
			points = append(points, point{end, MarkFailed})
		}
		ranTo := at.End
		for _, x := range at.ExtraOutcomes {
			if t := when(x); t > ranTo {
				ranTo = t
			}
			mark := MarkCompleted
			if e := h.At(x); e.Type == catalyst.EventTaskFailed || e.Type == catalyst.EventChildWorkflowFailed {
				mark = MarkFailed
			}
			points = append(points, point{a.cell(when(x)), mark})
		}
		if ranTo > at.End {
			spans = append(spans, span{end + 1, a.cell(ranTo), false})
		}
		if at.FailureClass == detect.FailureAmbiguous && i < len(inv.Attempts)-1 {
			// It may still have been running while the retries ran.
			until := last
			if until.IsZero() || until.IsNever() {
				until = a.Now
			}
			if until > ranTo {
				spans = append(spans, span{a.cell(ranTo) + 1, a.cell(until), true})
			}
		}
		prevEnd = max(prevEnd, ranTo)
	}
	// Per cell: the attempts known to run in it, and those that may.
	var known, maybe []uint8
	for _, sp := range spans {
		for c := max(sp.from, 0); c <= min(sp.to, a.Width-1); c++ {
			if known == nil {
				known, maybe = make([]uint8, a.Width), make([]uint8, a.Width)
			}
			if sp.open {
				maybe[c] = min(maybe[c]+1, 255)
			} else {
				known[c] = min(known[c]+1, 255)
			}
			// Two attempts at once: one known to run and another that ran
			// or may have. Two that only may have are one open stretch.
			switch {
			case known[c] > 0 && known[c]+maybe[c] > 1:
				dst[c] = MarkOverlap
			case known[c] > 0:
				dst[c] = MarkAttempt
			default:
				dst[c] = MarkOpen
			}
		}
	}
	for _, b := range backoff {
		for c := max(b.from, 0); c <= min(b.to, a.Width-1); c++ {
			// Before an attempt with no outcome, the backoff is dotted
			// over an earlier attempt that may still have been running,
			// so that the open attempt's own stretch shows where it
			// starts (it reads as a one-attempt unknown does).
			if dst[c] == MarkNone || b.beforeOpen && dst[c] == MarkOpen {
				dst[c] = MarkBackoff
			}
		}
	}
	for _, p := range points {
		if p.at >= 0 && p.at < a.Width {
			dst[p.at] = p.mark
		}
	}
	return dst
}

// AppendMarks appends a row's marks as text.
func AppendMarks(b []byte, row []Mark) []byte {
	for _, m := range row {
		b = append(b, m.Glyph()...)
	}
	return b
}

// Marks of the waits under a timeline (WaitLanes): a run's durable timers,
// its waits for external events, its suspensions. They follow the
// attempts' marks and never share a row with them.
const (
	MarkTimer     Mark = iota + MarkUnknown + 1 // a durable timer running
	MarkFired                                   // where a timer fired
	MarkAwait                                   // waiting for an external event (its timeout's timer)
	MarkRaised                                  // where an external event arrived
	MarkSuspended                               // the run suspended
)

// WaitLegend explains the waits' marks, as TimelineLegend does the
// attempts'.
var WaitLegend = [][3]string{
	{"─○", "timer", "a durable timer, and where it fired"},
	{"~»", "event", "waiting for an external event, and where one arrived"},
	{"═", "suspended", "the run suspended, until resumed"},
}

// waitGlyph is a wait mark's character ("" for another mark).
func waitGlyph(m Mark) string {
	switch m {
	case MarkTimer:
		return "─"
	case MarkFired:
		return "○"
	case MarkAwait:
		return "~"
	case MarkRaised:
		return "»"
	case MarkSuspended:
		return "═"
	}
	return ""
}

// TimelineLegendWaits is TimelineLegendFit with the waits' marks too, for
// a timeline that shows waits: the longest form of both that fits width
// columns, else TimelineLegendFit's.
func TimelineLegendWaits(width int) string {
	words := make([]string, len(WaitLegend))
	for i, l := range WaitLegend {
		words[i] = l[0] + " " + l[1]
	}
	for _, sep := range []string{"  ", " "} {
		for _, head := range []string{TimelineLegendFit(1 << 20), timelineLegendShort} {
			if s := head + sep + strings.Join(words, sep); Width(s) <= width {
				return s
			}
		}
	}
	return TimelineLegendFit(width)
}

// WaitLane is one line of waits under a timeline: the durable timers of
// one name ("timer poll"), the waits for and arrivals of one external
// event ("event approval"), or the run's suspensions ("suspended").
// Label is history text: sanitize it before showing it.
type WaitLane struct {
	Label string
	// Spans are its stretches, by From; To zero: still open (drawn to the
	// axis' Now). End is the mark where a stretch ended (MarkNone: none).
	Spans []WaitSpan
	// Points are arrivals with no wait before them (an external event
	// nothing waited on with a timeout).
	Points []WaitPoint
}

// WaitSpan is one stretch of a wait lane.
type WaitSpan struct {
	From, To  catalyst.Stamp
	Mark, End Mark
}

// WaitPoint is one instant of a wait lane.
type WaitPoint struct {
	At   catalyst.Stamp
	Mark Mark
}

// WaitLanes finds a history's waits, one lane per timer name, external
// event name and for suspensions, in the order they first happen; past
// most lanes, the rest share the last ("other waits"). Retry timers are
// not waits of the run's (report r draws them in their invocations' rows).
// It walks the history once.
func WaitLanes(h *catalyst.History, r *detect.Report, most int) []WaitLane {
	if h == nil || most <= 0 {
		return nil
	}
	retry := make(map[int]bool)
	if r != nil {
		for i := range r.Invocations {
			inv := &r.Invocations[i]
			for j := range inv.Attempts {
				if t := inv.Attempts[j].RetryTimer; t != nil {
					retry[t.Created] = true
				}
			}
			if t := inv.OpenRetry; t != nil {
				retry[t.Created] = true
			}
		}
	}
	var lanes []WaitLane
	byLabel := make(map[string]int)
	lane := func(label string) *WaitLane {
		i, ok := byLabel[label]
		if !ok {
			i = len(lanes)
			if i >= most {
				i = most - 1
				if lanes[i].Label != "other waits" {
					lanes[i].Label = "other waits"
				}
			} else {
				lanes = append(lanes, WaitLane{Label: label})
			}
			byLabel[label] = i
		}
		return &lanes[i]
	}
	type open struct{ lane, span int }
	timers := make(map[int32]open)    // by the timerCreated's eventId
	awaits := make(map[string][]open) // open waits, by event name
	suspended := open{-1, -1}
	for i, e := range h.All() {
		switch e.Type {
		case catalyst.EventExecutionStarted:
			clear(timers)
		case catalyst.EventTimerCreated:
			if retry[i] || e.Origin == catalyst.OriginActivityRetry || e.Origin == catalyst.OriginChildWorkflowRetry {
				continue
			}
			label, mark := "timer", MarkTimer
			if e.Name != "" {
				label += " " + e.Name
			}
			name := e.Name
			if e.Origin == catalyst.OriginExternalEvent {
				if e.OriginID != "" {
					name = e.OriginID
				}
				label, mark = "event "+name, MarkAwait
			}
			l := lane(label)
			l.Spans = append(l.Spans, WaitSpan{From: e.Timestamp, To: e.FireAt, Mark: mark})
			o := open{byLabel[label], len(l.Spans) - 1}
			if e.ID >= 0 {
				timers[e.ID] = o
			}
			if mark == MarkAwait {
				awaits[strings.ToLower(name)] = append(awaits[strings.ToLower(name)], o)
			}
		case catalyst.EventTimerFired:
			if o, ok := timers[e.TimerID]; ok && e.HasTimerID() {
				sp := &lanes[o.lane].Spans[o.span]
				if sp.End == MarkNone {
					sp.To, sp.End = e.Timestamp, MarkFired
				}
				delete(timers, e.TimerID)
			}
		case catalyst.EventEventRaised:
			key := strings.ToLower(e.Name)
			if ws := awaits[key]; len(ws) > 0 {
				o := ws[0]
				awaits[key] = ws[1:]
				sp := &lanes[o.lane].Spans[o.span]
				if sp.End == MarkNone {
					sp.To, sp.End = e.Timestamp, MarkRaised
				}
				continue
			}
			l := lane("event " + e.Name)
			l.Points = append(l.Points, WaitPoint{At: e.Timestamp, Mark: MarkRaised})
		case catalyst.EventExecutionSuspended:
			if suspended.lane < 0 {
				l := lane("suspended")
				l.Spans = append(l.Spans, WaitSpan{From: e.Timestamp, Mark: MarkSuspended})
				suspended = open{byLabel["suspended"], len(l.Spans) - 1}
			}
		case catalyst.EventExecutionResumed:
			if suspended.lane >= 0 {
				lanes[suspended.lane].Spans[suspended.span].To = e.Timestamp
				suspended = open{-1, -1}
			}
		}
	}
	return lanes
}

// Row lays a wait lane on the axis, into dst (made Width long): each
// stretch from its start to its end (an open one to the axis' Now), its
// end's mark where it ended, and each point.
func (l *WaitLane) Row(dst []Mark, a Axis) []Mark {
	dst = dst[:0]
	for range a.Width {
		dst = append(dst, MarkNone)
	}
	if !a.Valid() {
		return dst
	}
	var ends []WaitPoint
	for _, sp := range l.Spans {
		if sp.From > a.To {
			break
		}
		to := sp.To
		if to.IsZero() || to.IsNever() || to > a.Now && sp.End == MarkNone {
			to = max(a.Now, sp.From)
		}
		if to < a.From {
			continue
		}
		for c := max(a.cell(sp.From), 0); c <= min(a.cell(to), a.Width-1); c++ {
			dst[c] = sp.Mark
		}
		if sp.End != MarkNone {
			ends = append(ends, WaitPoint{At: to, Mark: sp.End})
		}
	}
	for _, p := range append(ends, l.Points...) {
		if c := a.cell(p.At); c >= 0 && c < a.Width {
			dst[c] = p.Mark
		}
	}
	return dst
}

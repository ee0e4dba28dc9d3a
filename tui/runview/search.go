package runview

import (
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// What the filter (/) matches, per list. Each row's texts are indexed once
// (NewIndex, table.Terms); what is not indexed — a payload, a second id, an
// eventId — is searched only while a filter runs, and only on the rows
// flagged as having it (flagMore, flagNumbered). For the selected row the
// detail pane says which fields matched (the *Matches functions).

// searchBytes caps how much of one long text (an error message, a
// payload) a filter searches: the part the screen can show.
const searchBytes = format.PayloadShowBytes

// searchCap cuts raw text to searchBytes at a character boundary.
func searchCap(s string) string {
	if len(s) <= searchBytes {
		return s
	}
	cut := searchBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// failureSearch is a failure's search text: its type and message (the
// part a screen shows).
func failureSearch(f *catalyst.Failure) string {
	if f.Message == "" {
		return f.Type
	}
	return f.Type + "\x00" + searchCap(f.Message)
}

// findingIDs joins the ids of an invocation's findings, for its search
// terms ("duplicate-side-effect timeout-race").
func findingIDs(rep *detect.Report, inv *detect.Invocation) string {
	switch len(inv.Findings) {
	case 0:
		return ""
	case 1:
		return string(rep.Findings[inv.Findings[0]].ID)
	}
	ids := make([]string, len(inv.Findings))
	for i, fi := range inv.Findings {
		ids[i] = string(rep.Findings[fi].ID)
	}
	return strings.Join(ids, "\x00")
}

// attemptFailures joins the error types (or, with messages, the error
// messages) of an invocation's failed attempts, for its search terms.
func attemptFailures(inv *detect.Invocation, messages bool) string {
	return failureTexts(func(fn func(int, *catalyst.Failure)) {
		for i := range inv.Attempts {
			if f := inv.Attempts[i].Failure; f != nil {
				fn(i+1, f)
			}
		}
	}, messages)
}

// failureTexts joins the error types (or, with messages, the error
// messages) of the failures each gives, a repeat once, for search terms.
func failureTexts(each func(func(int, *catalyst.Failure)), messages bool) string {
	var parts []string
	each(func(_ int, f *catalyst.Failure) {
		text := f.Type
		if messages {
			text = searchCap(f.Message)
		}
		if text != "" && (len(parts) == 0 || parts[len(parts)-1] != text) {
			parts = append(parts, text)
		}
	})
	return strings.Join(parts, "\x00")
}

// concerned calls fn with each failure of the attempts finding f concerns
// (its evidence's attempts) and the attempt's number, in attempt order.
func concerned(rep *detect.Report, f *detect.Finding, fn func(int, *catalyst.Failure)) {
	if f.InvocationIndex < 0 || f.InvocationIndex >= len(rep.Invocations) {
		return
	}
	inv := &rep.Invocations[f.InvocationIndex]
	for _, n := range f.Attempts {
		if n >= 1 && n <= len(inv.Attempts) && inv.Attempts[n-1].Failure != nil {
			fn(n, inv.Attempts[n-1].Failure)
		}
	}
}

// findingFailures joins the error types (or, with messages, the error
// messages) of the attempts finding f concerns, for its search terms: a
// finding about a ReadTimeout is found by /ReadTimeout, as its invocation
// is.
func findingFailures(rep *detect.Report, f *detect.Finding, messages bool) string {
	return failureTexts(func(fn func(int, *catalyst.Failure)) { concerned(rep, f, fn) }, messages)
}

// otherIDs reports whether an attempt of inv carries an id other than the
// invocation's key (.NET's per-attempt execution ids, a child's instance
// ids): they are searched when a filter runs.
func otherIDs(inv *detect.Invocation) bool {
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if a.ExecutionID != "" && a.ExecutionID != inv.Key || a.InstanceID != "" && a.InstanceID != inv.Key {
			return true
		}
	}
	return false
}

// secondID reports whether an event carries an id besides the one its
// search terms index (eventID).
func secondID(e *catalyst.Event) bool {
	n := 0
	for _, id := range []string{e.ExecutionID, e.OriginID, e.InstanceID} {
		if id != "" {
			n++
		}
	}
	return n > 1
}

// evidenceText joins a finding's evidence facts and explanation, for its
// search terms.
func evidenceText(f *detect.Finding) string {
	parts := make([]string, 0, len(f.Evidence)+1)
	for _, ev := range f.Evidence {
		parts = append(parts, format.Fact(ev.Fact))
	}
	parts = append(parts, f.Explanation)
	return searchCap(strings.Join(parts, "\x00"))
}

// searchForm is text as a filter compares it: sanitized (the user types
// what the screen shows), lower-cased.
func searchForm(s string) string { return strings.ToLower(safetext.Line(s)) }

// holds reports whether raw text, in search form, contains q (already in
// search form, not empty).
func holds(raw, q string) bool {
	if raw == "" {
		return false
	}
	return strings.Contains(searchForm(raw), q)
}

// digitsOnly reports whether q is a number (an eventId query).
func digitsOnly(q string) bool { return q != "" && strings.Trim(q, "0123456789") == "" }

// payloadHolds reports whether a present payload's text contains q, in
// the first searchBytes of it. A payload kept in its wire form is searched
// there, without unquoting it, when q is plain ASCII without a quote or a
// backslash (the only characters the two forms spell differently).
func payloadHolds(p catalyst.Payload, q string) bool {
	if !p.Has() {
		return false
	}
	if lit, ok := p.WireLiteral(); ok && plainQuery(q) {
		return containsLowerASCII(searchCap(lit), q)
	}
	return holds(searchCap(p.Text()), q)
}

// plainQuery reports whether q is printable ASCII without '"' or '\'.
func plainQuery(q string) bool {
	for i := 0; i < len(q); i++ {
		if c := q[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// containsLowerASCII reports whether s contains q, comparing s's ASCII
// letters lower-cased (q is lower-case already).
func containsLowerASCII(s, q string) bool {
	if len(q) == 0 {
		return true
	}
	first := q[0]
	for i := 0; i+len(q) <= len(s); i++ {
		if lowerASCII(s[i]) != first {
			continue
		}
		j := 1
		for j < len(q) && lowerASCII(s[i+j]) == q[j] {
			j++
		}
		if j == len(q) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// eventExtra is the part of an event filter the terms do not index: the
// event's payload (the index's payload text), its other ids, and its
// eventId for a number. q is in search form.
func eventExtra(x *Index, h *catalyst.History, q string) func(int) bool {
	number := digitsOnly(q)
	hits := x.payloads.hits(x, q)
	flags := x.eventFlags
	return func(i int) bool {
		if hits.events.has(i) {
			return true
		}
		f := flags[i]
		if number && f&flagNumbered != 0 && strings.Contains(strconv.Itoa(int(h.At(i).ID)), q) {
			return true
		}
		if f&flagMore == 0 {
			return false
		}
		e := h.At(i)
		return holds(e.ExecutionID, q) || holds(e.OriginID, q) || holds(e.InstanceID, q)
	}
}

// invocationExtra is the part of an invocation filter the terms do not
// index: its attempts' inputs and outputs (the index's payload text) and
// their other ids.
func invocationExtra(x *Index, q string) func(int) bool {
	rep, flags := x.Report, x.invFlags
	hits := x.payloads.hits(x, q)
	return func(i int) bool {
		if hits.invs.has(i) {
			return true
		}
		if flags[i]&flagMore == 0 {
			return false
		}
		inv := &rep.Invocations[i]
		for ai := range inv.Attempts {
			if a := &inv.Attempts[ai]; holds(a.ExecutionID, q) || holds(a.InstanceID, q) {
				return true
			}
		}
		return false
	}
}

// findingExtra is the part of a finding filter its terms do not index:
// the inputs and outputs of its invocation's attempts.
func findingExtra(x *Index, q string) func(int) bool {
	rep := x.Report
	hits := x.payloads.hits(x, q)
	return func(i int) bool { return hits.invs.has(rep.Findings[i].InvocationIndex) }
}

// payloadFields names the inputs and outputs of inv's attempts that hold
// q (in search form): "attempt 2's input", "attempt 1's output"; with
// prefix ("SendEmail "), "SendEmail attempt 2's input".
func payloadFields(h *catalyst.History, inv *detect.Invocation, q, prefix string) []string {
	var out []string
	for ai := range inv.Attempts {
		a := &inv.Attempts[ai]
		n := prefix + "attempt " + strconv.Itoa(ai+1) + "'s "
		if ev := a.Scheduled; ev >= 0 && ev < h.Len() && payloadHolds(h.At(ev).Payload, q) {
			out = append(out, n+"input")
		}
		for _, ev := range append([]int{a.OutcomeEvent}, a.ExtraOutcomes...) {
			if ev >= 0 && ev < h.Len() && payloadHolds(h.At(ev).Payload, q) {
				out = append(out, n+"output")
				break
			}
		}
	}
	return out
}

// eventMatches names the fields of event i that contain q (as typed), in
// the order the detail pane shows them: what the filter matched on this
// row.
func eventMatches(h *catalyst.History, callOf []int32, i int, q string) []string {
	q = searchForm(q)
	if q == "" || i < 0 || i >= h.Len() {
		return nil
	}
	e := h.At(i)
	var out []string
	add := func(field, raw string) {
		if holds(raw, q) {
			out = append(out, field)
		}
	}
	add("type", e.TypeLabel())
	add("name", e.Name)
	if e.Name == "" {
		add("name (of the call it closes)", format.RawCallName(h, callOf, i))
	}
	if e.ID >= 0 && strings.Contains(strconv.Itoa(int(e.ID)), q) {
		out = append(out, "eventId")
	}
	add("task execution id", e.ExecutionID)
	add("origin id", e.OriginID)
	add("instance id", e.InstanceID)
	if f := e.Failure; f != nil {
		add("error type", f.Type)
		add("error message", searchCap(f.Message))
	}
	if payloadHolds(e.Payload, q) {
		out = append(out, e.Type.PayloadField())
	}
	return out
}

// invocationMatches names the fields of invocation ii that contain q: its
// own, and its attempts' inputs and outputs.
func invocationMatches(h *catalyst.History, rep *detect.Report, ii int, q string) []string {
	q = searchForm(q)
	if q == "" || ii < 0 || ii >= len(rep.Invocations) {
		return nil
	}
	inv := &rep.Invocations[ii]
	var out []string
	add := func(field string, hit bool) {
		if hit {
			out = append(out, field)
		}
	}
	add("name", holds(inv.Name, q))
	add("key", holds(inv.Key, q))
	var ids, types, messages bool
	for ai := range inv.Attempts {
		a := &inv.Attempts[ai]
		ids = ids || holds(a.ExecutionID, q) && a.ExecutionID != inv.Key || holds(a.InstanceID, q) && a.InstanceID != inv.Key
		if f := a.Failure; f != nil {
			types = types || holds(f.Type, q)
			messages = messages || holds(searchCap(f.Message), q)
		}
	}
	add("an attempt's id", ids)
	add("error type", types)
	add("error message", messages)
	finding := false
	for _, fi := range inv.Findings {
		finding = finding || holds(string(rep.Findings[fi].ID), q)
	}
	add("finding", finding)
	return append(out, payloadFields(h, inv, q, "")...)
}

// findingMatches names the fields of finding fi that contain q: its own,
// the errors of the attempts it concerns, and its invocation's inputs and
// outputs ("ChargeCard's attempt 1's input").
func findingMatches(h *catalyst.History, rep *detect.Report, fi int, q string) []string {
	q = searchForm(q)
	if q == "" || fi < 0 || fi >= len(rep.Findings) {
		return nil
	}
	f := &rep.Findings[fi]
	var out []string
	add := func(field string, hit bool) {
		if hit {
			out = append(out, field)
		}
	}
	add("finding", holds(string(f.ID), q))
	add("activity", holds(f.Activity, q))
	add("invocation", holds(f.Invocation, q))
	evidence := false
	for _, ev := range f.Evidence {
		evidence = evidence || holds(format.Fact(ev.Fact), q)
	}
	add("evidence", evidence)
	add("explanation", holds(f.Explanation, q))
	// The attempts it concerns: "attempt 1's error type".
	concerned(rep, f, func(n int, fl *catalyst.Failure) {
		attempt := "attempt " + strconv.Itoa(n) + "'s "
		add(attempt+"error type", holds(fl.Type, q))
		add(attempt+"error message", holds(searchCap(fl.Message), q))
	})
	if ii := f.InvocationIndex; ii >= 0 && ii < len(rep.Invocations) {
		inv := &rep.Invocations[ii]
		out = append(out, payloadFields(h, inv, q, format.Line(inv.Name)+" ")...)
	}
	return out
}

package runview

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestFilterMatchesEveryField: a query finds a row by each field the issue
// names — its name (the call a completion closes too), error type and
// message, task execution id, instance id, eventId, payload text — and the
// detail pane's line names the field that matched.
func TestFilterMatchesEveryField(t *testing.T) {
	h := tuitest.FullPayloads()
	// A child's start and an error with a type and a message of its own.
	h.Append(catalyst.Event{Type: catalyst.EventChildWorkflowCreated, Name: "ShipOrder", ID: 90, InstanceID: "order-4417:0003",
		Timestamp: h.At(h.Len() - 1).Timestamp})
	h.Append(catalyst.Event{Type: catalyst.EventChildWorkflowFailed, ID: -1, ScheduledID: 90, Timestamp: h.At(h.Len() - 1).Timestamp,
		Failure: &catalyst.Failure{Type: "CarrierDownError", Message: "dial tcp: connection refused"}})
	x := analyzed(h)
	child, failed := h.Len()-2, h.Len()-1
	scheduled, completed := -1, -1
	for i, e := range h.All() {
		switch {
		case e.Type == catalyst.EventTaskScheduled && scheduled < 0:
			scheduled = i
		case e.Type == catalyst.EventTaskCompleted && completed < 0:
			completed = i
		}
	}
	exec := h.At(scheduled).ExecutionID
	for _, c := range []struct {
		name  string
		ev    int
		query string
		field string
	}{
		{"name", scheduled, strings.ToUpper(h.At(scheduled).Name), "name"},
		{"the name of the call a completion closes", completed, h.At(scheduled).Name, "name (of the call it closes)"},
		{"task execution id", scheduled, exec[:8], "task execution id"},
		{"instance id", child, "4417:0003", "instance id"},
		{"eventId", child, "90", "eventId"},
		{"error type", failed, "carrierdown", "error type"},
		{"error message", failed, "connection refused", "error message"},
		{"the name of a child its failure closes", failed, "shiporder", "name (of the call it closes)"},
		{"payload text", scheduled, "AMOUNTcents", "input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := eventMatches(h, x.callOf, c.ev, c.query); !slices.Contains(got, c.field) {
				t.Errorf("event %d, query %q: matched %v, want %q", c.ev, c.query, got, c.field)
			}
			// The filter finds the row (its count follows).
			q := x.eventTerms.Prepare(strings.ToLower(c.query))
			q.Extra = eventExtra(x, h, searchForm(c.query))
			if !q.Match(c.ev) {
				t.Errorf("the filter %q does not keep event %d", c.query, c.ev)
			}
		})
	}
	if got := eventMatches(h, x.callOf, scheduled, "no such text"); got != nil {
		t.Errorf("a query that matches nothing names %v", got)
	}
}

// TestInvocationAndFindingFilters: an invocation is found by its name, key,
// an attempt's error type and message, and its findings' ids; a finding by
// its id, activity and evidence.
func TestInvocationAndFindingFilters(t *testing.T) {
	h := tuitest.Charge()
	x := analyzed(h)
	rep := x.Report
	for _, c := range []struct{ query, field string }{
		{"chargecard", "name"},
		{"8a4f2c71", "key"},
		{"timeouterror", "error type"},
		{"read timeout", "error message"},
		{"duplicate-side", "finding"},
	} {
		if got := invocationMatches(h, rep, 0, c.query); !slices.Contains(got, c.field) {
			t.Errorf("invocation query %q: matched %v, want %q", c.query, got, c.field)
		}
		q := x.invTerms.Prepare(c.query)
		q.Extra = invocationExtra(x, c.query)
		if !q.Match(0) {
			t.Errorf("the invocation filter %q does not keep ChargeCard", c.query)
		}
	}
	for _, c := range []struct{ query, field string }{
		{"duplicate", "finding"}, {"chargecard", "activity"}, {"scheduled", "evidence"},
		// The error of an attempt the finding concerns: /TimeoutError found
		// the invocation and showed "Findings 0/1".
		{"timeouterror", "attempt 1's error type"}, {"read timeout after 30s", "attempt 1's error message"},
	} {
		if got := findingMatches(h, rep, 0, c.query); !slices.Contains(got, c.field) {
			t.Errorf("finding query %q: matched %v, want %q", c.query, got, c.field)
		}
		if !x.findTerms.Prepare(c.query).Match(0) {
			t.Errorf("the findings filter %q does not keep the finding", c.query)
		}
	}
}

// TestCountsFollowTheFilter: a filter typed on one tab is applied to every
// tab, so each count says how many of its rows match (the bug was
// "Invocations 0/3" while one matched), and the detail pane says what
// matched.
func TestCountsFollowTheFilter(t *testing.T) {
	m := newView(120, 40)
	h := tuitest.Charge()
	m.SetHistory(h, analyzed(h), false)
	m.SetTab(TabEvents)
	press(m, "/", "c", "h", "a", "r", "g", "e", "c", "a", "r", "d", "enter")
	bar := strings.Split(m.View(), "\n")[m.headerHeight()]
	for _, want := range []string{"Invocations 1/2", "Timeline 1/2", "Findings 1/1"} {
		if !strings.Contains(bar, want) {
			t.Errorf("the tab bar lacks %q: %s", want, bar)
		}
	}
	if !strings.Contains(bar, "Events ") || strings.Contains(bar, "Events 0/") {
		t.Errorf("the Events count: %s", bar)
	}
	press(m, "j")
	if got := strings.Join(m.DetailLines(), "\n"); !strings.Contains(got, "/chargecard matched name") {
		t.Errorf("the detail pane does not say what matched:\n%s", got)
	}
}

// TestErrorTypeFindsTheFinding: a filter on an attempt's error type keeps
// the finding about that attempt on the Findings tab, and its detail says
// which field matched.
func TestErrorTypeFindsTheFinding(t *testing.T) {
	m := newView(120, 40)
	h := tuitest.Charge()
	m.SetHistory(h, analyzed(h), false)
	press(m, "/", "T", "i", "m", "e", "o", "u", "t", "E", "r", "r", "o", "r", "enter")
	bar := strings.Split(m.View(), "\n")[m.headerHeight()]
	for _, want := range []string{"Invocations 1/2", "Findings 1/1"} {
		if !strings.Contains(bar, want) {
			t.Errorf("the tab bar lacks %q: %s", want, bar)
		}
	}
	m.SetTab(TabFindings)
	if got := strings.Join(m.DetailLines(), "\n"); !strings.Contains(got, "matched attempt 1's error type") {
		t.Errorf("the finding's detail does not say what matched:\n%s", got)
	}
}

// TestCopyTargets: y copies, on each tab, what is selected: the task
// execution id of an invocation (an attempt's own id when it has one),
// the JSON of an event (the object show -o json writes), the finding with
// its evidence as Markdown; the run id with nothing selected; and never a
// key twice made up (an invocation grouped without ids).
func TestCopyTargets(t *testing.T) {
	h := tuitest.Charge()
	x := analyzed(h)
	m := newView(120, 40)
	m.SetHistory(h, x, false)
	exec := "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"

	if text, what := m.CopyTarget(); text != exec || what != "the task execution id of ChargeCard" {
		t.Errorf("invocation: copies %q (%s)", text, what)
	}
	press(m, "space", "j")
	if text, what := m.CopyTarget(); text != exec || what != "attempt 1's task execution id" {
		t.Errorf("attempt: copies %q (%s)", text, what)
	}
	m.SetTab(TabTimeline)
	if text, _ := m.CopyTarget(); text != exec {
		t.Errorf("timeline: copies %q", text)
	}

	m.SetTab(TabEvents)
	press(m, "j", "j")
	text, what := m.CopyTarget()
	var ev map[string]any
	if err := json.Unmarshal([]byte(text), &ev); err != nil || what != "event #2's JSON" {
		t.Fatalf("event: copies %q (%s): %v", text, what, err)
	}
	if ev["index"] != 2.0 || ev["type"] != "TaskScheduled" || ev["task_execution_id"] != exec {
		t.Errorf("event: the JSON copied is not event 2's: %v", ev)
	}

	m.SetTab(TabFindings)
	text, what = m.CopyTarget()
	for _, want := range []string{"#### ▲ high: duplicate-side-effect in ChargeCard", "Evidence:", "- event 3: attempt 1 failed", "**Advice:**"} {
		if !strings.Contains(text, want) {
			t.Errorf("finding: the Markdown copied lacks %q:\n%s", want, text)
		}
	}
	if what != "the duplicate-side-effect finding with its run as Markdown" {
		t.Errorf("finding: says %q", what)
	}
	// A copy for a ticket says where the finding came from and carries
	// whole ids (issue 23, item 3).
	for _, want := range []string{
		"\n\nRun charge-7731 (ChargeWorkflow), app payments, project default: <https://catalyst.diagrid.io/workflows/payments/charge-7731?project=default>\n\n",
		"task\\_execution\\_id " + exec + " — stable",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("finding: the Markdown copied lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "8a4f2c71…") {
		t.Errorf("finding: the copy cuts an id:\n%s", text)
	}

	// Nothing selected (no findings): the run id.
	empty := newView(120, 40)
	na := tuitest.NoActivity()
	empty.SetHistory(na, analyzed(na), false)
	empty.SetTab(TabFindings)
	if text, what := empty.CopyTarget(); text != na.Run.ID || what != "the run id" {
		t.Errorf("no selection: copies %q (%s)", text, what)
	}

	// An invocation grouped without ids has no id to copy.
	inv := detect.Invocation{Name: "Charge", Key: "event:4", Attempts: []detect.Attempt{{Number: 1}}}
	if text, what := invocationCopy(&inv, -1); text != "" || !strings.Contains(what, "no id") {
		t.Errorf("a made-up key is copied: %q (%s)", text, what)
	}
}

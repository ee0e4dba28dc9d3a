package runview

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// helpTexts returns the key bar's entries ("enter show event").
func helpTexts(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key+" "+b.Help().Desc)
	}
	return out
}

func TestOpensOnTheWorstInvocation(t *testing.T) {
	h := tuitest.Checkout()
	rep := detect.Analyze(h, detect.Options{})
	if len(rep.Invocations) != 3 || len(rep.Invocations[1].Findings) == 0 || len(rep.Invocations[0].Findings) != 0 {
		t.Fatalf("the checkout history should flag its second invocation only: %+v", rep.Invocations)
	}

	t.Run("analyzed with the history", func(t *testing.T) {
		m := newView(120, 40)
		m.SetHistory(h, NewIndex(h, rep), false)
		if got := m.Selection(); got != "invocation:1:-1" {
			t.Errorf("selection %q, want the flagged ChargeCard", got)
		}
		if got := m.OpenSummary(); got != "1 of 3 invocations flagged; the worst is selected" {
			t.Errorf("OpenSummary = %q", got)
		}
	})

	t.Run("analyzed after the history is shown", func(t *testing.T) {
		m := newView(120, 40)
		m.SetHistory(h, nil, false)
		if m.OpenSummary() != "" {
			t.Errorf("OpenSummary while detect runs = %q", m.OpenSummary())
		}
		m.SetIndex(NewIndex(h, rep))
		if got := m.Selection(); got != "invocation:1:-1" {
			t.Errorf("selection %q, want the flagged ChargeCard", got)
		}
	})

	t.Run("a poll keeps the user's selection", func(t *testing.T) {
		m := newView(120, 40)
		m.SetHistory(h, NewIndex(h, rep), false)
		press(m, "k")
		m.SetHistory(h, NewIndex(h, rep), true)
		if got := m.Selection(); got != "invocation:0:-1" {
			t.Errorf("selection %q after a poll, want the one the user chose", got)
		}
	})

	t.Run("the first of the most severe", func(t *testing.T) {
		worse := *rep
		worse.Findings = append([]detect.Finding{}, rep.Findings...)
		worse.Invocations = append([]detect.Invocation{}, rep.Invocations...)
		low := detect.Finding{ID: detect.FindingLargePayload, Severity: detect.SeverityLow, InvocationIndex: 0}
		high := rep.Findings[0]
		high.InvocationIndex = 2
		worse.Findings = append(worse.Findings, low, high)
		worse.Invocations[0].Findings = []int{len(worse.Findings) - 2}
		worse.Invocations[2].Findings = []int{len(worse.Findings) - 1}
		m := newView(120, 40)
		m.SetHistory(h, NewIndex(h, &worse), false)
		if got := m.Selection(); got != "invocation:1:-1" {
			t.Errorf("selection %q, want the first high finding (invocation 1), not the first flagged", got)
		}
		if got := m.OpenSummary(); !strings.HasPrefix(got, "3 of 3 invocations flagged") {
			t.Errorf("OpenSummary = %q", got)
		}
	})

	t.Run("nothing flagged", func(t *testing.T) {
		clean := *rep
		clean.Findings = nil
		clean.Invocations = append([]detect.Invocation{}, rep.Invocations...)
		clean.Invocations[1].Findings = nil
		m := newView(120, 40)
		m.SetHistory(h, NewIndex(h, &clean), false)
		if got := m.Selection(); got != "invocation:0:-1" {
			t.Errorf("selection %q, want the first invocation", got)
		}
		if got := m.OpenSummary(); got != "no invocation flagged (3 invocations)" {
			t.Errorf("OpenSummary = %q", got)
		}
	})

	t.Run("no activity", func(t *testing.T) {
		na := tuitest.NoActivity()
		m := newView(120, 40)
		m.SetHistory(na, analyzed(na), false)
		if got := m.OpenSummary(); got != "" {
			t.Errorf("OpenSummary = %q, want none (the tab says there is no activity)", got)
		}
	})
}

func TestAttemptTimesAreOffsetsFromTheInvocation(t *testing.T) {
	h := tuitest.Checkout()
	m := newView(200, 40) // wide enough for the whole attempt rows
	m.SetHistory(h, analyzed(h), false)
	press(m, "enter")
	view := ansi.Strip(m.View())
	for _, want := range []string{
		"#1 ✗ failed +0s → +30.00s took 30.00s TimeoutError",
		"#2 ✓ completed +32.06s → +32.65s took 590.0ms after 2.06s backoff",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the expanded rows do not show %q:\n%s", want, view)
		}
	}
	detail := strings.Join(m.DetailLines(), "\n")
	for _, want := range []string{
		"Attempt 1 · ✗ failed · +0s → +30.00s",
		"start: 2026-08-20T09:14:03.052Z · invocation +0s",
		"end: 2026-08-20T09:14:33.052Z · invocation +30.00s",
		"started: 2026-08-20T09:14:03.052Z · run +52.0ms",
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("the invocation's detail does not show %q:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, " ago") {
		t.Errorf("the detail pane shows times relative to now:\n%s", detail)
	}
	// The invocation's detail puts the finding before the facts.
	if f, k := strings.Index(detail, "duplicate-side-effect"), strings.Index(detail, "key:"); f < 0 || f > k {
		t.Errorf("the finding does not come before the invocation's facts:\n%s", detail)
	}

	press(m, "j")
	attempt := strings.Join(m.DetailLines(), "\n")
	if !strings.Contains(attempt, "when: +0s → +30.00s from the invocation's start") {
		t.Errorf("an attempt's detail does not say when it ran:\n%s", attempt)
	}

	m.SetTab(TabEvents)
	press(m, "j", "j", "j", "j", "j", "j") // event 6, the failure at +30.05s
	event := strings.Join(m.DetailLines(), "\n")
	if !strings.Contains(event, "timestamp: 2026-08-20T09:14:33.052Z · run +30.05s") {
		t.Errorf("an event's detail does not give its offset into the run:\n%s", event)
	}
}

func TestWideSplit(t *testing.T) {
	h := tuitest.Checkout()
	x := analyzed(h)
	for _, c := range []struct {
		width   int
		stacked bool
	}{
		{100, true},
		{109, true},
		{110, false},
		{120, false},
		{200, false},
		{300, false},
	} {
		m := newView(c.width, 38)
		m.SetHistory(h, x, false)
		a := m.areas()
		if c.stacked {
			if a.dw != c.width || a.lw != c.width {
				t.Errorf("width %d: areas %+v, want the detail pane below the list", c.width, a)
			}
			continue
		}
		// The list takes what its columns need (the detail pane keeps
		// minDetailWidth), and the detail pane the rest.
		need := m.tabs[TabInvocations].need(38)
		if want := min(need, c.width-1-minDetailWidth); a.lw != want || a.lw+1+a.dw != c.width {
			t.Errorf("width %d: list %d, detail %d; want the list %d (its columns need %d)", c.width, a.lw, a.dw, want, need)
		}
		// The invocations list keeps every column (total duration is one
		// triage needs), and from 120 columns whole names and flags.
		view := ansi.Strip(m.View())
		for _, want := range []string{"DURATION", "ReserveInventory", "▲ HIGH duplicate?"} {
			if want != "DURATION" && c.width < 120 {
				continue
			}
			if !strings.Contains(view, want) {
				t.Errorf("width %d: the list does not show %q:\n%s", c.width, want, view)
			}
		}
	}
}

// listLines counts the stacked layout's list lines: from below the tab bar
// to the rule above the detail pane.
func listLines(t *testing.T, m *Model) int {
	t.Helper()
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "────") {
			return i - m.headerHeight() - 1
		}
	}
	t.Fatalf("no detail pane below the list:\n%s", strings.Join(lines, "\n"))
	return 0
}

func TestStackedLayoutBalancesListAndDetail(t *testing.T) {
	h := tuitest.Checkout()
	x := analyzed(h)
	// 80×24 less the status and key lines, with and without the banner.
	for _, height := range []int{21, 22} {
		m := newView(80, height)
		m.SetHistory(h, x, false)
		// Three invocations: the list keeps a few spare lines, the detail
		// pane the rest.
		if n := listLines(t, m); n != minListLines {
			t.Errorf("height %d: the invocations list takes %d lines, want %d", height, n, minListLines)
		}
		press(m, "enter") // two attempt rows more: the list does not move
		if n := listLines(t, m); n != minListLines {
			t.Errorf("height %d: expanding moved the list to %d lines", height, n)
		}
		// Eighteen events: at least eight rows and the heading.
		m.SetTab(TabEvents)
		if n := listLines(t, m); n < 9 {
			t.Errorf("height %d: the events list shows %d lines, want at least 9", height, n)
		}
		if dh := m.areas().dh; dh < minDetailLines {
			t.Errorf("height %d: the detail pane has %d lines", height, dh)
		}
	}
	// A filter that leaves one row gives the room back to the detail pane.
	m := newView(80, 22)
	m.SetHistory(h, x, false)
	m.SetTab(TabEvents)
	press(m, "/", "r", "e", "s", "e", "r", "v", "e", "enter")
	if n := listLines(t, m); n != minListLines {
		t.Errorf("a one-row filter leaves the list %d lines", n)
	}
}

func TestHeaderFitsTheWidth(t *testing.T) {
	h := tuitest.Checkout()
	link := "https://catalyst.diagrid.io/workflows/payments/checkout-7731?project=default"
	for _, c := range []struct {
		width       int
		facts, gone []string
		link        string
	}{
		{120, []string{"started 2.1h ago", "ended 2.1h ago", "took 33.00s", "18 events", "data sharing metadata"}, nil,
			"console " + link},
		{80, []string{"started 2.1h ago", "took 33.00s", "18 events", "data sharing metadata"}, []string{"ended"}, link},
		// A triager's facts first: the duration and the size stay, the
		// data-sharing level goes before them.
		{60, []string{"took 33.00s", "18 events", "started 2.1h ago"}, []string{"ended", "data sharing"}, " (Y copies, o opens)"},
	} {
		m := newView(c.width, 30)
		m.SetHistory(h, analyzed(h), false)
		lines := strings.Split(ansi.Strip(m.View()), "\n")
		facts := lines[1]
		for _, f := range c.facts {
			if !strings.Contains(facts, f) {
				t.Errorf("width %d: the facts line %q lacks %q", c.width, facts, f)
			}
		}
		for _, f := range c.gone {
			if strings.Contains(facts, f) {
				t.Errorf("width %d: the facts line %q should leave out %q", c.width, facts, f)
			}
		}
		if strings.Contains(facts, "…") {
			t.Errorf("width %d: a fact is cut: %q", c.width, facts)
		}
		if !strings.Contains(lines[2], c.link) {
			t.Errorf("width %d: the link line is %q, want %q", c.width, lines[2], c.link)
		}
	}
}

func TestKeyBarSaysWhatEnterDoes(t *testing.T) {
	h := tuitest.Checkout()
	m := newView(120, 40)
	m.SetHistory(h, analyzed(h), false)
	bar := func() string { return strings.Join(helpTexts(m.Keys().Bar()), " · ") }
	if !strings.Contains(bar(), "enter attempts") {
		t.Errorf("invocation row: %s", bar())
	}
	press(m, "enter")
	if !strings.Contains(bar(), "enter fold attempts") {
		t.Errorf("expanded invocation row: %s", bar())
	}
	m.SetTab(TabFindings)
	if !strings.Contains(bar(), "enter show invocation") {
		t.Errorf("finding row: %s", bar())
	}
	press(m, "j")
	if !strings.Contains(bar(), "enter show event") {
		t.Errorf("evidence row: %s", bar())
	}

	empty := newView(120, 40)
	e := tuitest.Empty()
	empty.SetHistory(e, analyzed(e), false)
	if b := strings.Join(helpTexts(empty.Keys().Bar()), " · "); strings.Contains(b, "enter") {
		t.Errorf("an empty history offers %q", b)
	}
	if view := ansi.Strip(empty.View()); !strings.Contains(view, "this history has no events") ||
		strings.Contains(view, "see the Events tab") {
		t.Errorf("an empty history's Invocations tab:\n%s", view)
	}
}

// TestDurationStaysWhenTheFlagIsLong: at 120 columns an invocation with a
// long flag keeps its DURATION column; the flag shows its short form (glyph
// and finding word, without the severity's word) when the whole does not
// fit, and is cut only when even that does not.
func TestDurationStaysWhenTheFlagIsLong(t *testing.T) {
	h := tuitest.Charge()
	inv := func(name, key string, findings ...int) detect.Invocation {
		return detect.Invocation{Kind: detect.KindActivity, Name: name, Key: key, Outcome: detect.OutcomeFailed,
			Start: h.At(2).Timestamp, End: h.At(3).Timestamp,
			Attempts: []detect.Attempt{{Number: 1, Scheduled: 2, OutcomeEvent: 3, Outcome: detect.OutcomeFailed}}, Findings: findings}
	}
	report := func(name string, first detect.FindingID, c detect.Confidence) *detect.Report {
		return &detect.Report{
			Invocations: []detect.Invocation{inv(name, "k1", 0, 1), inv("ChargeCard", "k2")},
			Findings: []detect.Finding{
				{ID: first, Severity: detect.SeverityHigh, Confidence: c, InvocationIndex: 0},
				{ID: detect.FindingUnknownOutcome, Severity: detect.SeverityMedium, Confidence: detect.ConfidencePossible, InvocationIndex: 0},
			},
		}
	}
	for _, c := range []struct {
		name  string
		width int
		rep   *detect.Report
		want  []string
	}{
		{"short form", 110, report("ReserveInventory", detect.FindingDuplicateSideEffect, detect.ConfidenceProbable),
			[]string{"ReserveInventory", "▲ duplicate? +1"}},
		{"whole", 200, report("ReserveInventory", detect.FindingDuplicateSideEffect, detect.ConfidenceProbable),
			[]string{"ReserveInventory", "▲ HIGH duplicate? +1"}},
		{"cut", 120, report("ReconcileLedgerEntriesNightly", detect.FindingRetriedPermanentFailure, detect.ConfidenceObserved),
			[]string{"ReconcileLedger", "▲ retried"}},
	} {
		m := newView(c.width, 30)
		m.SetHistory(h, NewIndex(h, c.rep), false)
		view := ansi.Strip(m.View())
		for _, want := range append([]string{"DURATION", "30.00s"}, c.want...) {
			if !strings.Contains(view, want) {
				t.Errorf("%s at %d: the list does not show %q:\n%s", c.name, c.width, want, view)
			}
		}
	}
}

// TestEventsColumnsTakeWhatTheyNeed: beside the detail pane the Events
// tab's columns take the width their rows need first, and the rest goes
// to the pane: no cell (a first row's age of 100+ days, a DETAILS) is cut
// while the pane keeps more than its minimum; at 120 the columns that fit
// leave no blank width beside the pane.
func TestEventsColumnsTakeWhatTheyNeed(t *testing.T) {
	h := tuitest.Checkout()
	x := analyzed(h)
	for _, width := range []int{120, 200, 300} {
		m := newView(width, 40)
		m.c.Now = func() time.Time { return h.At(0).Timestamp.Time().Add(103*24*time.Hour + 12*time.Hour) }
		m.SetHistory(h, x, false)
		press(m, "tab", "tab")
		a := m.areas()
		if a.dw < minDetailWidth || a.lw+1+a.dw != width {
			t.Fatalf("width %d: areas %+v", width, a)
		}
		view := strings.Split(ansi.Strip(m.View()), "\n")
		var rows []string
		for _, l := range view {
			if i := strings.Index(l, "│"); i > 0 {
				rows = append(rows, l[:i])
			}
		}
		head := rows[0]
		if !strings.Contains(head, "ELAPSED") {
			t.Fatalf("width %d: no ELAPSED column:\n%s", width, strings.Join(view, "\n"))
		}
		if format.Width(head) != a.lw {
			t.Errorf("width %d: list %d wide, its heading %d", width, a.lw, format.Width(head))
		}
		if strings.HasSuffix(head, " ") && !strings.Contains(head, "DETAILS") {
			t.Errorf("width %d: blank width beside the pane, DETAILS hidden: %q", width, head)
		}
		if width < 200 {
			continue
		}
		// The ELAPSED of the first row (its age) is whole; a cell is cut
		// only when the pane is down to its minimum; at 300 columns every
		// cell is whole and the pane has the rest.
		cut := false
		for _, r := range rows {
			cut = cut || strings.Contains(r, "…")
		}
		if cut && a.dw > minDetailWidth || !strings.Contains(head, "DETAILS") {
			t.Errorf("width %d: cells cut while the pane has %d columns:\n%s", width, a.dw, strings.Join(rows, "\n"))
		}
		if width >= 300 && (cut || a.dw <= minDetailWidth) {
			t.Errorf("width %d: cut %v, pane %d:\n%s", width, cut, a.dw, strings.Join(rows, "\n"))
		}
		if !strings.Contains(rows[1], "Age:103.") {
			t.Errorf("width %d: the first row's age is not whole: %q", width, rows[1])
		}
	}
}

// TestHeaderSaysAnUnmarkedStartNamesAnotherRun: a history read as one run
// whose executionStarted names another, with no rerun marker (a Dapr 1.16
// rerun), says so in the header, long where it fits and short where not,
// and claims no fork event.
func TestHeaderSaysAnUnmarkedStartNamesAnotherRun(t *testing.T) {
	h := tuitest.Checkout()
	h.Run.StartID = "order-5005"
	for _, c := range []struct {
		width int
		want  string
	}{
		{160, "starts as run order-5005 (unmarked rerun of it, or the wrong run's history; fork event unknown)"},
		{60, "starts as run order-5005"},
	} {
		m := newView(c.width, 30)
		m.SetHistory(h, analyzed(h), false)
		facts := strings.Split(ansi.Strip(m.View()), "\n")[1]
		if !strings.Contains(facts, c.want) || strings.Contains(facts, "from eventId") || strings.Contains(facts, "…") {
			t.Errorf("width %d: the facts line %q lacks %q, or claims a fork", c.width, facts, c.want)
		}
	}
}

package detect

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// checkScenario compares a report with a scenario's expectations.
func checkScenario(t *testing.T, sc scenario, r *Report) {
	t.Helper()
	if sc.count > 0 && len(r.Invocations) != sc.count {
		t.Errorf("%d invocations, want %d:\n%s", len(r.Invocations), sc.count, describe(r))
	}
	for i, w := range sc.invs {
		if i >= len(r.Invocations) {
			t.Errorf("missing invocation %d (%s)", i, w.name)
			continue
		}
		inv := &r.Invocations[i]
		if inv.Name != w.name || len(inv.Attempts) != w.attempts || inv.LinkRule != w.link || inv.Outcome != w.outcome {
			t.Errorf("invocation %d = %q ×%d %s %s; want %q ×%d %s %s", i,
				inv.Name, len(inv.Attempts), inv.LinkRule, inv.Outcome, w.name, w.attempts, w.link, w.outcome)
		}
	}
	var got []string
	for _, f := range r.Findings {
		if f.Severity >= SeverityLow {
			got = append(got, fmt.Sprintf("%s/%s/%s/%q", f.ID, f.Severity, f.Confidence, f.Activity))
		}
	}
	var want []string
	for _, f := range sc.findings {
		want = append(want, fmt.Sprintf("%s/%s/%s/%q", f.id, f.sev, f.conf, f.activity))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s\n\nreport:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), describe(r))
	}
}

// describe prints a report compactly for failure messages.
func describe(r *Report) string {
	var b strings.Builder
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		fmt.Fprintf(&b, "inv %d %s %q key=%q link=%s class=%s outcome=%s findings=%v\n", i, inv.Kind,
			inv.Name, inv.Key, inv.LinkRule, inv.Class, inv.Outcome, inv.Findings)
		for _, a := range inv.Attempts {
			fmt.Fprintf(&b, "   #%d ev%d id%d x=%q link=%s %s %s\n", a.Number, a.Scheduled, a.ScheduledID,
				a.ExecutionID, a.Link, a.Outcome, a.FailureClass)
		}
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "finding %s %s %s %q inv=%d attempts=%v\n  %s\n  advice: %s\n", f.ID, f.Severity,
			f.Confidence, f.Activity, f.InvocationIndex, f.Attempts, f.Explanation, f.Advice)
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "    ev %d (id %d): %s\n", e.Event, e.EventID, factText(e.Fact))
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %s %q: %s [%s]\n", s.Check, s.Invocation, s.Reason, s.Level)
	}
	return b.String()
}

func TestAnalyzeScenarios(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			r := Analyze(sc.build(), Options{})
			checkScenario(t, sc, r)
			checkInvariants(t, sc.build(), r)
		})
	}
}

// checkInvariants holds for every report: each attempt belongs to exactly
// one invocation, attempts are numbered in scheduling order, findings are
// sorted and indexed, and every finding's text is one printable line.
func checkInvariants(t *testing.T, h *catalyst.History, r *Report) {
	t.Helper()
	seen := make(map[int]int)
	scheduled := 0
	for i, e := range h.All() {
		if e.Type == catalyst.EventTaskScheduled || e.Type == catalyst.EventChildWorkflowCreated {
			scheduled++
			seen[i] = 0
		}
	}
	attempts := 0
	keys := make(map[string]bool)
	for k := range r.Invocations {
		inv := &r.Invocations[k]
		if keys[inv.Key] {
			t.Errorf("invocation key %q used twice", inv.Key)
		}
		keys[inv.Key] = true
		if k > 0 && inv.Attempts[0].Scheduled <= r.Invocations[k-1].Attempts[0].Scheduled {
			t.Errorf("invocation %d is out of order", k)
		}
		for j, a := range inv.Attempts {
			attempts++
			n, ok := seen[a.Scheduled]
			if !ok {
				t.Errorf("attempt at event %d is not a scheduling event", a.Scheduled)
			}
			seen[a.Scheduled] = n + 1
			if a.Number != j+1 || j > 0 && a.Scheduled <= inv.Attempts[j-1].Scheduled {
				t.Errorf("invocation %d attempt %d misnumbered or out of order", k, j)
			}
			if (j == 0) != (a.Link == LinkFirst) {
				t.Errorf("invocation %d attempt %d link %s", k, j, a.Link)
			}
		}
		for _, fi := range inv.Findings {
			if fi < 0 || fi >= len(r.Findings) {
				t.Fatalf("invocation %d indexes finding %d of %d", k, fi, len(r.Findings))
			}
		}
	}
	if attempts != scheduled {
		t.Errorf("%d attempts in invocations, %d scheduling events", attempts, scheduled)
	}
	for pos, n := range seen {
		if n != 1 {
			t.Errorf("scheduling event %d is in %d invocations", pos, n)
		}
	}
	for i, f := range r.Findings {
		if i > 0 && f.Severity > r.Findings[i-1].Severity {
			t.Errorf("finding %d (%s) is more severe than the one before it", i, f.Severity)
		}
		if f.InvocationIndex >= 0 {
			inv := &r.Invocations[f.InvocationIndex]
			if inv.Key != f.Invocation || !containsInt(inv.Findings, i) {
				t.Errorf("finding %d (%s) and invocation %d do not point at each other", i, f.ID, f.InvocationIndex)
			}
		}
		if len(f.Evidence) == 0 || f.Explanation == "" || f.Advice == "" {
			t.Errorf("finding %d (%s) lacks evidence, explanation or advice", i, f.ID)
		}
		for _, s := range append([]string{f.Explanation, f.Advice}, factsOf(f)...) {
			if !safetext.IsSafe(s) {
				t.Errorf("finding %d (%s) text is not one printable line: %q", i, f.ID, s)
			}
		}
		for _, e := range f.Evidence {
			if e.Event < 0 || e.Event >= h.Len() || h.At(e.Event).ID != e.EventID {
				t.Errorf("finding %d evidence points at event %d (id %d)", i, e.Event, e.EventID)
			}
		}
	}
}

func factsOf(f Finding) []string {
	var out []string
	for _, e := range f.Evidence {
		out = append(out, factText(e.Fact))
	}
	return out
}

// factText is a fact for a test: its words, with its measure as Go prints
// it in braces ("failed after {772ms}"). How twice words a measure is
// tui/format's (format.Fact and its tests); detect's tests check values.
func factText(f Fact) string {
	before, after := f.Parts()
	if sp, ok := f.Span(); ok {
		return before + "{" + sp.D.String() + "}" + after
	}
	if n, ok := f.Size(); ok {
		return before + "{" + strconv.FormatInt(n, 10) + " bytes}" + after
	}
	return before
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func findingOf(r *Report, id FindingID) *Finding {
	for i := range r.Findings {
		if r.Findings[i].ID == id {
			return &r.Findings[i]
		}
	}
	return nil
}

func TestDuplicateEvidenceFollowsTheSeed(t *testing.T) {
	r := Analyze(pythonRetry503("charge_card", msg503)(), Options{})
	f := findingOf(r, FindingDuplicateSideEffect)
	if f == nil {
		t.Fatal("no duplicate finding")
	}
	facts := strings.Join(factsOf(*f), "\n")
	for _, want := range []string{
		"attempt 1 failed after {772ms}: POST https://pay.example/charges: 503 Service Unavailable — the charge may have committed",
		"attempt 2 scheduled",
		"same task_execution_id",
		"the inputs of all 3 attempts are identical: one logical call",
	} {
		if !strings.Contains(facts, want) {
			t.Errorf("evidence lacks %q:\n%s", want, facts)
		}
	}
	if !strings.Contains(f.Advice, "Send the provider's idempotency key header") ||
		!strings.Contains(f.Advice, "task_execution_id 8a4f2c71… — stable across these attempts") {
		t.Errorf("advice = %q", f.Advice)
	}
	if f.Attempts[0] != 1 || len(f.Attempts) != 3 || f.Invocation != execA {
		t.Errorf("attempts %v invocation %q", f.Attempts, f.Invocation)
	}
}

func TestAdviceSaysPerAttemptIDsAreNotStable(t *testing.T) {
	for _, sc := range scenarios() {
		if sc.name != "dotnet-per-attempt-ids" {
			continue
		}
		r := Analyze(sc.build(), Options{})
		f := findingOf(r, FindingDuplicateSideEffect)
		if f == nil || !strings.Contains(f.Advice, "not a stable key") {
			t.Fatalf("advice does not say the per-attempt id is unstable:\n%s", describe(r))
		}
		if r.Invocations[0].Key != execA {
			t.Errorf("key %q, want the first attempt's id", r.Invocations[0].Key)
		}
		a3 := r.Invocations[0].Attempts[2]
		if a3.RetryTimer == nil || a3.RetryTimer.Link != LinkByOrigin || a3.RetryTimer.Fired < 0 {
			t.Errorf("attempt 3 retry timer %+v", a3.RetryTimer)
		}
	}
}

func TestDistinctOutputsMakeADuplicateObserved(t *testing.T) {
	var sc scenario
	for _, s := range scenarios() {
		if s.name == "duplicate-completion" {
			sc = s
		}
	}
	r := Analyze(sc.build(), Options{})
	f := findingOf(r, FindingDuplicateSideEffect)
	if f == nil || f.Confidence != ConfidenceObserved {
		t.Fatalf("no observed duplicate:\n%s", describe(r))
	}
	facts := strings.Join(factsOf(*f), "\n")
	if !strings.Contains(facts, "different charge_id values (ch_1 and ch_2)") ||
		!strings.Contains(facts, "completed again") {
		t.Errorf("evidence:\n%s", facts)
	}
	if got := r.Invocations[0].Attempts[0].ExtraOutcomes; len(got) != 1 {
		t.Errorf("extra outcomes %v", got)
	}
}

// TestSecondOutcomeEvidenceClaimsNoMoreThanTheConfidence: a second outcome
// for one scheduled task says "executed twice" only when the finding is
// observed (two completions); after a recorded failure it says what the
// history shows.
func TestSecondOutcomeEvidenceClaimsNoMoreThanTheConfidence(t *testing.T) {
	completedThenFailed := func() *catalyst.History {
		b := newHB("OrderWorkflow")
		b.turn().start("e1")
		s := b.sched("ChargeCard", execA, `{"orderId":"A-1"}`)
		b.wait(time.Second).turn().done(s, execA, `{"charge_id":"ch_1"}`)
		b.wait(30*time.Second).turn().fail(s, execA, "*url.Error", msgDeadline).complete(catalyst.StatusCompleted)
		return b.history()
	}
	tests := []struct {
		name     string
		build    func() *catalyst.History
		conf     Confidence
		want     string
		twice    bool
		explains string
	}{
		{"redelivered-failed-then-completed", scenarioByName(t, "redelivered-failed-then-completed").build,
			ConfidenceProbable, "attempt 1 also completed after its failure was recorded, a second outcome " +
				"for the same scheduled task", false, "if the run that failed had committed the charge before it failed"},
		{"duplicate-completion", scenarioByName(t, "duplicate-completion").build,
			ConfidenceObserved, "attempt 1 completed again, a second outcome for the same scheduled task — " +
				"it executed twice", true, "it records 2 completions"},
		{"late-completion-after-retry", scenarioByName(t, "late-completion-after-retry").build,
			ConfidenceObserved, "attempt 1 also completed after its failure was recorded, a second " +
				"outcome for the same scheduled task", false, "it records 2 completions"},
		{"completed-then-failed", completedThenFailed,
			ConfidenceProbable, "attempt 1 also failed after its completion was recorded, a second outcome " +
				"for the same scheduled task: " + msgDeadline[:60],
			false, "recorded two outcomes for one scheduled task, one a failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Analyze(tt.build(), Options{})
			f := findingOf(r, FindingDuplicateSideEffect)
			if f == nil || f.Confidence != tt.conf {
				t.Fatalf("no %s duplicate:\n%s", tt.conf, describe(r))
			}
			facts := strings.Join(factsOf(*f), "\n")
			if !strings.Contains(facts, tt.want) {
				t.Errorf("evidence lacks %q:\n%s", tt.want, facts)
			}
			if got := strings.Contains(facts, "executed twice"); got != tt.twice {
				t.Errorf("evidence says \"executed twice\": %v, want %v:\n%s", got, tt.twice, facts)
			}
			if !strings.Contains(f.Explanation, tt.explains) {
				t.Errorf("explanation lacks %q: %s", tt.explains, f.Explanation)
			}
			if !tt.twice && strings.Contains(f.Explanation, "executed twice") {
				t.Errorf("explanation claims more than %s: %s", tt.conf, f.Explanation)
			}
		})
	}
}

func TestWithheldPayloadsAreSkippedChecksNamingTheLevel(t *testing.T) {
	h := pythonRetry503("charge_card", msg503)()
	stripPayloads(h)
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	r := Analyze(h, Options{})
	f := findingOf(r, FindingDuplicateSideEffect)
	if f == nil || f.Confidence != ConfidenceProbable {
		t.Fatalf("duplicate not found without payloads:\n%s", describe(r))
	}
	checks := map[string]SkippedCheck{}
	for _, s := range r.Skipped {
		checks[s.Check+"|"+s.Invocation] = s
	}
	for _, k := range []string{"identical inputs|" + execA, "payload size|"} {
		s, ok := checks[k]
		if !ok {
			t.Errorf("no skipped check %q:\n%s", k, describe(r))
			continue
		}
		if s.Level != catalyst.LevelMetadata || !strings.Contains(s.Reason,
			"not shared at this organization's data-sharing level (metadata)") {
			t.Errorf("skipped %q = %+v", k, s)
		}
	}
	// The same history at full sharing runs the checks.
	r = Analyze(pythonRetry503("charge_card", msg503)(), Options{})
	if len(r.Skipped) != 0 {
		t.Errorf("skipped checks with payloads present: %+v", r.Skipped)
	}
}

// stripPayloads removes every payload, as Catalyst does at metadata level.
func stripPayloads(h *catalyst.History) {
	for _, e := range h.All() {
		e.Payload = catalyst.AbsentPayload(catalyst.PayloadNone)
	}
	h.Run.Input = catalyst.AbsentPayload(catalyst.PayloadNone)
	h.Run.Output = catalyst.AbsentPayload(catalyst.PayloadNone)
}

func TestOverridesWinOverTheNameClassifier(t *testing.T) {
	h := goRetry("GetExchangeRate", execA, catalyst.OriginActivityRetry, "", "*url.Error", msgDeadline)()
	if r := Analyze(h, Options{}); findingOf(r, FindingDuplicateSideEffect) != nil {
		t.Fatalf("read-only retry flagged:\n%s", describe(r))
	}
	r := Analyze(h, Options{Overrides: map[string]ActivityClass{"getexchangerate": ClassSideEffect}})
	f := findingOf(r, FindingDuplicateSideEffect)
	if f == nil || f.Severity != SeverityHigh || r.Invocations[0].Class != ClassSideEffect {
		t.Fatalf("override ignored:\n%s", describe(r))
	}
	h = goRetry("ChargeCard", execA, catalyst.OriginActivityRetry, "", "*url.Error", msgDeadline)()
	r = Analyze(h, Options{Overrides: map[string]ActivityClass{"CHARGECARD": ClassReadOnly}})
	if findingOf(r, FindingDuplicateSideEffect) != nil {
		t.Errorf("read-only override ignored:\n%s", describe(r))
	}
}

func TestOverdueUsesNowWhenGiven(t *testing.T) {
	b := newHB("WelcomeWorkflow")
	b.turn().start("e1")
	b.sched("SendEmail", execA, `{}`)
	b.run.Status = catalyst.StatusRunning
	h := b.history()
	if r := Analyze(h, Options{Now: b.t0.Add(time.Minute)}); findingOf(r, FindingUnknownOutcome) != nil {
		t.Fatal("a fresh pending attempt was reported")
	}
	later := b.t0.Add(3 * time.Hour)
	r := Analyze(h, Options{Now: later})
	f := findingOf(r, FindingUnknownOutcome)
	if f == nil || f.Confidence != ConfidencePossible || !spanIs(f.Evidence[0].Fact, 3*time.Hour) {
		t.Fatalf("overdue attempt not reported:\n%s", describe(r))
	}
	if r := Analyze(h, Options{Now: later, OverdueAfter: 4 * time.Hour}); findingOf(r, FindingUnknownOutcome) != nil {
		t.Error("OverdueAfter ignored")
	}
	// Without Now, a saved history's capture time and the run's last update
	// are what the history vouches for.
	h.Run.Provenance.Recorded = &catalyst.Recording{CapturedAt: later}
	if f := findingOf(Analyze(h, Options{}), FindingUnknownOutcome); f == nil || !spanIs(f.Evidence[0].Fact, 3*time.Hour) {
		t.Errorf("capture time ignored: %+v", f)
	}
	h.Run.Provenance.Recorded = nil
	h.Run.UpdatedAt = b.t0.Add(time.Hour)
	if f := findingOf(Analyze(h, Options{}), FindingUnknownOutcome); f == nil || !spanIs(f.Evidence[0].Fact, time.Hour) {
		t.Errorf("last update ignored: %+v", f)
	}
}

// TestPendingWithNoCaptureTimeIsUnknown: a pending attempt in a history
// that does not say when it was read (a plain file, stdin, with no
// Options.Now) is reported unknown at low severity, never left silent; a
// clock, a capture time or a live read decide as before.
func TestPendingWithNoCaptureTimeIsUnknown(t *testing.T) {
	b := newHB("WelcomeWorkflow")
	b.turn().start("e1")
	b.sched("SendEmail", execA, `{"to":"x@example.com"}`)
	b.run.Status = catalyst.StatusRunning
	soon := b.t0.Add(time.Minute)
	tests := []struct {
		name    string
		surface catalyst.Surface
		rec     *catalyst.Recording
		now     time.Time
		want    bool // an unknown-outcome finding, low and possible
	}{
		{"file", catalyst.SurfaceFile, nil, time.Time{}, true},
		{"stdin", catalyst.SurfaceStdin, nil, time.Time{}, true},
		{"no provenance", "", nil, time.Time{}, true},
		{"fixture with no capture time", catalyst.SurfaceFile, &catalyst.Recording{}, time.Time{}, true},
		{"fixture captured soon after", catalyst.SurfaceFile, &catalyst.Recording{CapturedAt: soon}, time.Time{}, false},
		{"live read", catalyst.SurfaceCatalystMCP, nil, time.Time{}, false},
		{"file with a clock", catalyst.SurfaceFile, nil, soon, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := b.history()
			h.Run.Provenance = catalyst.Provenance{Surface: tt.surface, Recorded: tt.rec}
			r := Analyze(h, Options{Now: tt.now})
			f := findingOf(r, FindingUnknownOutcome)
			if !tt.want {
				if f != nil {
					t.Fatalf("unexpected finding:\n%s", describe(r))
				}
				return
			}
			if f == nil || f.Severity != SeverityLow || f.Confidence != ConfidencePossible {
				t.Fatalf("no low, possible unknown-outcome:\n%s", describe(r))
			}
			if want := "attempt 1 has no outcome by the end of this history; it does not say when it " +
				"was captured, so whether the attempt is still running cannot be told"; f.Evidence[0].Fact != Words(want) {
				t.Errorf("fact = %q, want %q", f.Evidence[0].Fact.Text, want)
			}
			if !strings.Contains(f.Advice, "do not resolve an unknown outcome by guessing") {
				t.Errorf("advice = %q", f.Advice)
			}
		})
	}
}

func TestLargePayloadThresholdOption(t *testing.T) {
	h := largePayload("GetStatement", 20<<10)()
	if r := Analyze(h, Options{}); findingOf(r, FindingLargePayload) != nil {
		t.Fatal("20 KiB flagged at the 64 KiB default")
	}
	r := Analyze(h, Options{LargePayloadBytes: 16 << 10})
	f := findingOf(r, FindingLargePayload)
	if f == nil || f.Severity != SeverityLow || sizeKiB(f.Evidence[0].Fact) != 20 {
		t.Fatalf("not flagged at 16 KiB:\n%s", describe(r))
	}
}

func TestRunWideLargeWorkflowInput(t *testing.T) {
	b := newHB("ImportWorkflow")
	b.turn()
	b.add(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: "ImportWorkflow", ExecutionID: "e1",
		Payload: catalyst.PresentPayload(`"` + strings.Repeat("y", 200<<10) + `"`)})
	b.complete(catalyst.StatusCompleted)
	r := Analyze(b.history(), Options{})
	f := findingOf(r, FindingLargePayload)
	if f == nil || f.InvocationIndex != -1 || f.Activity != "ImportWorkflow" {
		t.Fatalf("workflow input not flagged:\n%s", describe(r))
	}
}

func TestNilAndEmptyHistories(t *testing.T) {
	if r := Analyze(nil, Options{}); r == nil || len(r.Invocations) != 0 {
		t.Fatal("nil history")
	}
	r := Analyze(catalyst.NewHistory(catalyst.Run{}), Options{})
	if len(r.Invocations) != 0 || len(r.Findings) != 0 {
		t.Fatalf("empty history: %s", describe(r))
	}
}

func TestOrphanOutcomesAndUnknownTypesAreTolerated(t *testing.T) {
	b := newHB("W")
	b.turn().start("e1")
	b.done(42, "", `{}`) // completes nothing scheduled
	b.add(catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: 9})
	b.add(catalyst.Event{Type: catalyst.EventUnknown, ID: -1, Detail: &catalyst.EventDetail{TypeName: "entityCalled"}})
	s := b.sched("ChargeCard", execA, `{}`)
	b.turn().done(s, execA, `{}`).complete(catalyst.StatusCompleted)
	r := Analyze(b.history(), Options{})
	if len(r.Invocations) != 1 || r.Invocations[0].Outcome != OutcomeCompleted {
		t.Fatalf("report:\n%s", describe(r))
	}
}

func TestOpenRetryIsKeptOnTheInvocation(t *testing.T) {
	b := newHB("W")
	b.turn().start("e1")
	s := b.sched("ChargeCard", execA, `{}`)
	b.wait(time.Second).turn().fail(s, execA, "CardError", msgDeclined)
	b.timer(time.Minute, "", catalyst.OriginActivityRetry, execA)
	b.run.Status = catalyst.StatusRunning
	r := Analyze(b.history(), Options{})
	inv := &r.Invocations[0]
	if inv.OpenRetry == nil || inv.OpenRetry.Fired != -1 || inv.OpenRetry.Link != LinkByOrigin {
		t.Fatalf("open retry %+v", inv.OpenRetry)
	}
	if f := findingOf(r, FindingRetriedPermanentFailure); f == nil {
		t.Errorf("a permanent failure with a retry pending is not flagged:\n%s", describe(r))
	}
}

func TestAttemptTimesAndBackoff(t *testing.T) {
	r := Analyze(pythonRetry503("charge_card", msg503)(), Options{})
	a := r.Invocations[0].Attempts
	if a[0].Duration() != 772*time.Millisecond {
		t.Errorf("attempt 1 duration %v", a[0].Duration())
	}
	if a[1].BackoffBefore < 5*time.Second || a[1].BackoffBefore > 6*time.Second {
		t.Errorf("attempt 2 backoff %v", a[1].BackoffBefore)
	}
	if a[0].Failure == nil || a[0].FailureClass != FailureAmbiguous || a[2].FailureClass != 0 {
		t.Errorf("failure classes %q %q", a[0].FailureClass, a[2].FailureClass)
	}
	inv := &r.Invocations[0]
	if inv.Start != a[0].Start || inv.End != a[2].End || inv.Duration() <= 0 {
		t.Errorf("invocation span %v..%v", inv.Start, inv.End)
	}
	if a[1].RetryTimer == nil || a[1].RetryTimer.Created != 5 || a[1].RetryTimer.Fired != 7 {
		t.Errorf("attempt 2 retry timer %+v", a[1].RetryTimer)
	}
}

func TestRedactedPayloadsAreSkippedChecksSayingSo(t *testing.T) {
	h := pythonRetry503("charge_card", msg503)()
	for _, e := range h.All() {
		if e.Type.PayloadField() != "" {
			e.Payload = catalyst.AbsentPayload(catalyst.PayloadRedacted)
		}
	}
	r := Analyze(h, Options{})
	if findingOf(r, FindingDuplicateSideEffect) == nil {
		t.Fatalf("no duplicate:\n%s", describe(r))
	}
	var got []string
	for _, s := range r.Skipped {
		if s.Level != catalyst.LevelUnknown || !strings.Contains(s.Reason, "redacted when the history was saved") {
			t.Errorf("skipped %+v", s)
		}
		got = append(got, s.Check+"|"+s.Invocation)
	}
	// The invocation's own skipped check speaks for it; no run-wide line
	// repeats it.
	want := "identical inputs|" + execA + ",payload size|"
	if strings.Join(got, ",") != want {
		t.Errorf("skipped checks %v, want %s", got, want)
	}
}

func TestDistinctOutputsNeedVisibleOutputs(t *testing.T) {
	var sc scenario
	for _, s := range scenarios() {
		if s.name == "duplicate-completion" {
			sc = s
		}
	}
	h := sc.build()
	stripPayloads(h)
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	r := Analyze(h, Options{})
	f := findingOf(r, FindingDuplicateSideEffect)
	if f == nil || f.Confidence != ConfidenceObserved {
		t.Fatalf("two completions without payloads are still observed:\n%s", describe(r))
	}
	found := false
	for _, s := range r.Skipped {
		found = found || s.Check == "distinct outputs" && s.Invocation == execA && s.Level == catalyst.LevelMetadata
	}
	if !found {
		t.Errorf("no skipped distinct-outputs check: %+v", r.Skipped)
	}
}

// retriedOnce appends to b one activity call that failed, waited on a retry
// timer and succeeded on its second attempt.
func retriedOnce(b *hb, name, exec string) {
	in := `{"id":"A-1"}`
	s := b.sched(name, exec, in)
	b.wait(time.Second).turn().fail(s, exec, "ConnectionError", msg503)
	t := b.timer(2*time.Second, "", catalyst.OriginActivityRetry, exec)
	b.turn().fire(t)
	s = b.sched(name, exec, in)
	b.wait(time.Second).turn().done(s, exec, `{"ok":true}`)
}

func TestSkippedInputChecksNameEachInvocationOnce(t *testing.T) {
	tests := []struct {
		name       string
		activities []string // retried activities, one execution id each
		// want is each skipped check as "check|invocation: reason start".
		want []string
	}{
		{
			name:       "side effect: its own line only",
			activities: []string{"charge_card"},
			want: []string{
				"identical inputs|" + execA + ": the attempts' inputs are redacted",
				"payload size|: 3 activity and child-workflow payloads are redacted",
			},
		},
		{
			name:       "read-only: one run-wide line, singular",
			activities: []string{"get_customer"},
			want: []string{
				"payload size|: 3 activity and child-workflow payloads are redacted",
				"identical inputs|: the inputs of 1 retried invocation are redacted",
			},
		},
		{
			name:       "both: the run-wide line counts the other one",
			activities: []string{"charge_card", "get_customer", "lookup_order"},
			want: []string{
				"identical inputs|" + execA + ": the attempts' inputs are redacted",
				"payload size|: 9 activity and child-workflow payloads are redacted",
				"identical inputs|: the inputs of 2 other retried invocations are redacted",
			},
		},
	}
	execs := []string{execA, execB, "22222222-aaaa-4bbb-8ccc-000000000002"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB("order_workflow")
			b.turn().start("c1d2e3f4")
			for i, name := range tt.activities {
				retriedOnce(b, name, execs[i])
			}
			b.turn().complete(catalyst.StatusCompleted)
			h := b.history()
			for _, e := range h.All() {
				if e.Type.PayloadField() != "" {
					e.Payload = catalyst.AbsentPayload(catalyst.PayloadRedacted)
				}
			}
			r := Analyze(h, Options{})
			var got []string
			for _, s := range r.Skipped {
				got = append(got, s.Check+"|"+s.Invocation+": "+s.Reason)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("skipped checks:\n%s\nwant %d:\n%s", strings.Join(got, "\n"), len(tt.want), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("skipped check %d:\n got %s\nwant %s…", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestPayloadSizeSkipAgreesInNumber(t *testing.T) {
	b := newHB("order_workflow")
	b.turn().start("c1d2e3f4")
	s := b.sched("charge_card", execA, `{"id":"A-1"}`)
	b.wait(time.Second).turn().done(s, execA, `{"ok":true}`).complete(catalyst.StatusCompleted)
	h := b.history()
	for _, e := range h.All() {
		if e.Type == catalyst.EventTaskScheduled {
			e.Payload = catalyst.AbsentPayload(catalyst.PayloadRedacted)
		}
	}
	r := Analyze(h, Options{})
	if len(r.Skipped) != 1 || !strings.HasPrefix(r.Skipped[0].Reason, "1 activity or child-workflow payload is redacted") {
		t.Errorf("skipped checks %+v", r.Skipped)
	}
}

// TestTimeoutRaceWordingFollowsClassAndIDs: a read that raced a timer is not
// said to repeat a side effect, and a history with no task_execution_id is
// not said to have one.
func TestTimeoutRaceWordingFollowsClassAndIDs(t *testing.T) {
	tests := []struct {
		name       string
		activity   string
		ids        bool
		sev        Severity
		explains   []string
		notExplain []string
		advice     string
	}{
		{"read with ids", "fetch_quote", true, SeverityLow,
			[]string{"under a new task_execution_id", "repeats work, not a side effect"},
			[]string{"both calls can perform"}, "Not an idempotency concern"},
		{"read without ids", "fetch_quote", false, SeverityLow,
			[]string{"again as a new call.", "repeats work, not a side effect"},
			[]string{"both calls can perform", "task_execution_id"}, "Not an idempotency concern"},
		{"charge with ids", "ChargeCard", true, SeverityHigh,
			[]string{"under a new task_execution_id", "both calls can perform the charge"},
			nil, "the two calls have different task_execution_ids"},
		{"charge without ids", "ChargeCard", false, SeverityHigh,
			[]string{"again as a new call.", "both calls can perform the charge"},
			[]string{"task_execution_id"}, "the two calls are separate scheduled tasks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := raceScenario(tt.activity, true, true)()
			if !tt.ids {
				for _, e := range h.All() {
					e.ExecutionID = ""
				}
			}
			r := Analyze(h, Options{})
			f := findingOf(r, FindingTimeoutRace)
			if f == nil || f.Severity != tt.sev {
				t.Fatalf("no %s timeout race:\n%s", tt.sev, describe(r))
			}
			for _, want := range tt.explains {
				if !strings.Contains(f.Explanation, want) {
					t.Errorf("explanation lacks %q: %s", want, f.Explanation)
				}
			}
			for _, not := range tt.notExplain {
				if strings.Contains(f.Explanation, not) || strings.Contains(f.Advice, not) {
					t.Errorf("explanation or advice says %q:\n%s\n%s", not, f.Explanation, f.Advice)
				}
			}
			if !strings.Contains(f.Advice, tt.advice) {
				t.Errorf("advice lacks %q: %s", tt.advice, f.Advice)
			}
		})
	}
}

// TestOrderLinksNeedTheSameInput: attempts linked by order alone (no ids, no
// origins) are one call only when their visible inputs agree; inputs that
// differ are different calls, and hidden inputs leave the order to decide.
func TestOrderLinksNeedTheSameInput(t *testing.T) {
	const a, b = `{"to":"dana@example.com"}`, `{"to":"dana.backup@example.com"}`
	tests := []struct {
		name       string
		build      func() *catalyst.History
		withhold   bool
		invs       int
		duplicates int
	}{
		{"different inputs", sleepThenSend(a, b), false, 2, 0},
		{"same input", sleepThenSend(a, a), false, 1, 1},
		{"inputs withheld", sleepThenSend(a, b), true, 1, 1},
		{"old Python reused eventId, different inputs", func() *catalyst.History {
			hb := newHB("notify_workflow")
			hb.turn().start("")
			id := hb.sched("send_sms", "", `{"to":"+15550100"}`)
			hb.wait(time.Second).turn().done(id, "", `{"sid":"SM_1"}`)
			hb.schedAs(id, "send_sms", "", `{"to":"+15550199"}`)
			hb.wait(time.Second).turn().done(id, "", `{"sid":"SM_2"}`).complete(catalyst.StatusCompleted)
			return hb.history()
		}, false, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.build()
			if tt.withhold {
				stripPayloads(h)
				h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
			}
			r := Analyze(h, Options{})
			checkInvariants(t, h, r)
			dups := 0
			for _, f := range r.Findings {
				if f.ID == FindingDuplicateSideEffect {
					dups++
				}
			}
			if len(r.Invocations) != tt.invs || dups != tt.duplicates {
				t.Fatalf("%d invocations, %d duplicates; want %d, %d:\n%s", len(r.Invocations), dups,
					tt.invs, tt.duplicates, describe(r))
			}
			if tt.invs == 1 && r.Invocations[0].LinkRule != LinkInferred {
				t.Errorf("link rule %s, want inferred", r.Invocations[0].LinkRule)
			}
		})
	}
}

// spanIs reports whether a fact states a span of d to the second,
// measured between exact stamps.
func spanIs(f Fact, d time.Duration) bool {
	got, ok := f.Span()
	return ok && got.D.Round(time.Second) == d && got.Exact()
}

// sizeKiB is the size a fact states, in whole KiB (-1: none).
func sizeKiB(f Fact) int64 {
	if n, ok := f.Size(); ok {
		return n >> 10
	}
	return -1
}

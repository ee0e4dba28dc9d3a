package rundiff

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures"
)

// t0 is when every built run starts.
var t0 = time.Date(2026, 11, 3, 14, 0, 0, 0, time.UTC)

// builder writes a history event by event, each a step after the last.
type builder struct {
	h     *catalyst.History
	clock time.Time
	next  int32
}

func newRun(id string, status catalyst.Status) *builder {
	h := catalyst.NewHistory(catalyst.Run{ID: id, AppID: "app", Workflow: "W", Status: status})
	h.Format = catalyst.FormatProtoJSON
	b := &builder{h: h, clock: t0}
	b.add(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: "W"})
	return b
}

func (b *builder) wait(d time.Duration) *builder { b.clock = b.clock.Add(d); return b }

func (b *builder) add(e catalyst.Event) {
	b.clock = b.clock.Add(10 * time.Millisecond)
	e.Timestamp = catalyst.StampOf(b.clock)
	b.h.Append(e)
}

// call schedules name with input and ends it after took with each outcome
// in turn ("ok:OUTPUT", or an error type), each retry after a timer of
// delays[i].
func (b *builder) call(name, exec, input string, took time.Duration, delays []time.Duration, outcomes ...string) *builder {
	for i, o := range outcomes {
		if i > 0 {
			id := b.next
			b.next++
			b.add(catalyst.Event{Type: catalyst.EventTimerCreated, ID: id, Origin: catalyst.OriginActivityRetry,
				OriginID: exec, FireAt: catalyst.StampOf(b.clock.Add(delays[i-1]))})
			b.wait(delays[i-1])
			b.add(catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: id})
		}
		id := b.next
		b.next++
		b.add(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: id, Name: name, ExecutionID: exec,
			Payload: catalyst.PresentPayload(input)})
		b.wait(took)
		if out, ok := strings.CutPrefix(o, "ok:"); ok {
			b.add(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: id, ExecutionID: exec,
				Payload: catalyst.PresentPayload(out)})
			continue
		}
		b.add(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: id, ExecutionID: exec,
			Failure: &catalyst.Failure{Type: o, Message: o + ": " + strings.ToLower(o)}})
	}
	return b
}

func (b *builder) event(t catalyst.EventType, name string) *builder {
	e := catalyst.Event{Type: t, ID: -1, Name: name}
	if t == catalyst.EventTimerCreated {
		e.ID, e.Origin, e.FireAt = b.next, catalyst.OriginCreateTimer, catalyst.StampOf(b.clock.Add(time.Minute))
		b.next++
	}
	b.add(e)
	return b
}

func (b *builder) done() Run {
	b.add(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: -1})
	b.h.Run.CreatedAt, b.h.Run.UpdatedAt = t0, b.clock
	return Run{History: b.h, Report: detect.Analyze(b.h, detect.Options{})}
}

// describe words a diff compactly: each pair as name/alignment and its
// changes as kind:A→B, then the run's changes and the findings.
func describe(d *Diff) []string {
	var out []string
	facts := func(fs []detect.Fact) string {
		var w []string
		for _, f := range fs {
			if sp, ok := f.Span(); ok {
				w = append(w, fmt.Sprintf("%s±%s", sp.D, max(sp.Err, sp.Step)))
				continue
			}
			w = append(w, f.Text)
		}
		if len(w) == 0 {
			return "none"
		}
		return strings.Join(w, ",")
	}
	for _, p := range d.Pairs {
		s := p.Name + "/" + p.Aligned.String()
		if p.Key != "" {
			s += "=" + p.Key
		}
		for _, c := range p.Changes {
			s += " " + c.Kind.String() + ":" + facts(c.A) + "→" + facts(c.B)
		}
		out = append(out, s)
	}
	for _, c := range d.Run {
		out = append(out, "run "+c.Kind.String()+":"+facts(c.A)+"→"+facts(c.B))
	}
	for _, f := range d.Findings {
		out = append(out, "finding "+f.Side.String()+" "+string(d.Finding(f).ID))
	}
	return out
}

func TestCompare(t *testing.T) {
	ms := time.Millisecond
	sec := time.Second
	keyOf := func(h *catalyst.History, r *detect.Report) []string {
		out := make([]string, len(r.Invocations))
		for i := range r.Invocations {
			in := h.At(r.Invocations[i].Attempts[0].Scheduled).Payload.Text()
			if k, ok := strings.CutPrefix(in, `{"invoice":"`); ok {
				out[i], _, _ = strings.Cut(k, `"`)
			}
		}
		return out
	}
	cases := []struct {
		name string
		a, b Run
		opts Options
		want []string
	}{
		{
			name: "the same run is unchanged",
			a:    newRun("r1", "COMPLETED").call("Reserve", "x1", `{"q":1}`, 200*ms, nil, "ok:{}").done(),
			b:    newRun("r2", "COMPLETED").call("Reserve", "y1", `{"q":1}`, 210*ms, nil, "ok:{}").done(),
			want: []string{"Reserve/by-name"},
		},
		{
			name: "a timeout retried: a finding, attempts, failures, error types, delays, duration",
			a:    newRun("good", "COMPLETED").call("ChargeCard", "x1", `{"o":1}`, 300*ms, nil, "ok:{}").done(),
			b: newRun("bad", "COMPLETED").call("ChargeCard", "y1", `{"o":1}`, 30*sec, []time.Duration{5 * sec},
				"ReadTimeout", "ok:{}").done(),
			want: []string{
				"ChargeCard/by-name finding:none→duplicate-side-effect (high, probable) attempts:1 attempt→2 attempts " +
					"failures:0 failures→1 failure error-types:none→ReadTimeout retry-delays:none→5s±0s duration:310ms±0s→1m5.05s±0s",
				"run duration:340ms±0s→1m5.08s±0s",
				"finding B duplicate-side-effect",
			},
		},
		{
			name: "a retry policy's coefficient changed",
			a: newRun("a", "COMPLETED").call("Ship", "x1", `{}`, 100*ms, []time.Duration{10 * sec, 20 * sec},
				"Unavailable", "Unavailable", "ok:{}").done(),
			b: newRun("b", "COMPLETED").call("Ship", "y1", `{}`, 100*ms, []time.Duration{10 * sec, 40 * sec},
				"Unavailable", "Unavailable", "ok:{}").done(),
			want: []string{
				"Ship/by-name retry-delays:10s±0s,20s±0s→10s±0s,40s±0s retry-coefficient:×2.0→×4.0 duration:30.39s±0s→50.39s±0s",
				"run duration:30.42s±0s→50.42s±0s",
			},
		},
		{
			name: "same-name calls aligned by key, then order; what only one run has",
			a: newRun("a", "COMPLETED").
				call("SendInvoice", "x1", `{"invoice":"INV-1"}`, 100*ms, nil, "ok:{}").
				call("SendInvoice", "x2", `{"invoice":"INV-2"}`, 100*ms, nil, "ok:{}").
				call("Audit", "x3", `{}`, 100*ms, nil, "ok:{}").
				call("Audit", "x4", `{}`, 100*ms, nil, "ok:{}").done(),
			b: newRun("b", "COMPLETED").
				call("SendInvoice", "y2", `{"invoice":"INV-2"}`, 100*ms, nil, "ok:{\"sent\":2}").
				call("SendInvoice", "y1", `{"invoice":"INV-1"}`, 100*ms, nil, "ok:{}").
				call("Audit", "y3", `{}`, 100*ms, nil, "ok:{}").
				call("Notify", "y5", `{}`, 100*ms, nil, "ok:{}").done(),
			opts: Options{Keys: keyOf},
			want: []string{
				"Audit/only-in-a only-in-one:1 attempt,completed→none",
				"Notify/only-in-b only-in-one:none→1 attempt,completed",
				`SendInvoice/by-key=INV-2 output:{}→{"sent":2}`,
				"SendInvoice/by-key=INV-1",
				"Audit/by-order",
			},
		},
		{
			name: "a rerun keeps its source's ids: aligned by id, whatever the order",
			a: newRun("a", "COMPLETED").
				call("Step", "x1", `{"n":1}`, 100*ms, nil, "ok:{}").
				call("Step", "x2", `{"n":2}`, 100*ms, nil, "ok:{}").done(),
			b: newRun("b", "COMPLETED").
				call("Step", "x2", `{"n":2}`, 100*ms, nil, "ok:{}").
				call("Step", "x1", `{"n":1}`, 100*ms, nil, "ok:{}").done(),
			want: []string{"Step/by-id", "Step/by-id"},
		},
		{
			name: "status, why it ended, and the outcome",
			a:    newRun("a", "COMPLETED").call("Charge", "x1", `{}`, 100*ms, nil, "ok:{}").done(),
			b: func() Run {
				r := newRun("b", "FAILED").call("Charge", "y1", `{}`, 100*ms, nil, "CardDeclined").done()
				r.History.Run.FailureMessage = "card declined\x1b[2J"
				return r
			}(),
			want: []string{
				"Charge/by-name failures:0 failures→1 failure error-types:none→CardDeclined outcome:completed→failed",
				"run status:completed→failed",
				`run why-ended:none→card declined\x1b[2J`,
			},
		},
		{
			name: "timers and events only one run has",
			a:    newRun("a", "COMPLETED").event(catalyst.EventTimerCreated, "poll").event(catalyst.EventEventRaised, "approval").done(),
			b: newRun("b", "COMPLETED").event(catalyst.EventTimerCreated, "poll").event(catalyst.EventTimerCreated, "poll").
				event(catalyst.EventEventSent, "notify").done(),
			want: []string{
				`run timers:timer "poll"→timer "poll" ×2`,
				`run events:event raised "approval"→none`,
				`run events:none→event sent "notify"`,
			},
		},
		{
			name: "a hostile name and input are made safe",
			a:    newRun("a", "COMPLETED").call("Pay\x1b]8;;x\x07", "x1", "{\"a\":\"\x1b[31m\"}", 100*ms, nil, "ok:{}").done(),
			b:    newRun("b", "COMPLETED").call("Pay\x1b]8;;x\x07", "y1", `{"a":2}`, 100*ms, nil, "ok:{}").done(),
			want: []string{"Pay\x1b]8;;x\x07/by-name input:{\"a\":\"\\x1b[31m\"}→{\"a\":2}"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describe(Compare(c.a, c.b, c.opts))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestWithheldIsNeverChanged: a payload one run withholds is not compared,
// and the diff says so once, never that it changed.
func TestWithheldIsNeverChanged(t *testing.T) {
	a := newRun("a", "COMPLETED").call("Charge", "x1", `{"k":1}`, 100*time.Millisecond, nil, "ok:{}")
	for _, e := range a.h.All() {
		if e.Type == catalyst.EventTaskScheduled || e.Type == catalyst.EventTaskCompleted {
			e.Payload = catalyst.AbsentPayload(catalyst.PayloadWithheld)
		}
	}
	a.h.Run.DataSharing = catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata}
	b := newRun("b", "COMPLETED").call("Charge", "y1", `{"k":2}`, 100*time.Millisecond, nil, "ok:{\"x\":1}")
	got := describe(Compare(a.done(), b.done(), Options{}))
	want := []string{
		"Charge/by-name",
		"run not-compared:payloads withheld: not shared at this organization's data-sharing level (metadata)→none",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestCoarseTimesNoFalsePrecision: from whole-second times a delay of 2 s
// and one of 3 s cannot be told apart, nor a coefficient from them.
func TestCoarseTimesNoFalsePrecision(t *testing.T) {
	a := []catalyst.Span{{D: 2 * time.Second, Err: time.Second, Step: time.Second}, {D: 4 * time.Second, Err: time.Second, Step: time.Second}}
	b := []catalyst.Span{{D: 3 * time.Second, Err: time.Second, Step: time.Second}, {D: 5 * time.Second, Err: time.Second, Step: time.Second}}
	if delaysDiffer(a, b) {
		t.Error("2s, 4s and 3s, 5s from whole seconds differ")
	}
	if c := coefficient(a); c != 0 {
		t.Errorf("a coefficient %v from 2s and 4s known to a second", c)
	}
	exact := []catalyst.Span{{D: 2 * time.Second}, {D: 4 * time.Second}}
	if c := coefficient(exact); c != 2 {
		t.Errorf("coefficient %v, want 2", c)
	}
	if !durationsDiffer(catalyst.Span{D: time.Second, Err: time.Second, Step: time.Second}, catalyst.Span{D: 30 * time.Second, Err: time.Second, Step: time.Second}) {
		t.Error("1s and 30s from whole seconds do not differ")
	}
}

func TestSameCut(t *testing.T) {
	for _, c := range []struct {
		a, b       string
		cutA, cutB int
		want       bool
	}{
		{"abc", "abc", 0, 0, true},
		{"abc", "abd", 0, 0, false},
		{"ab…", "abcdef", 120, 0, true},
		{"ab…", "axcdef", 120, 0, false},
		{"ab…", "ab…", 0, 0, true},
		{"abcd…", "ab", 120, 0, false},
		{"ab…", "abc…", 120, 120, true},
	} {
		if got := sameCut(c.a, c.b, c.cutA, c.cutB); got != c.want {
			t.Errorf("sameCut(%q, %q, %d, %d) = %v", c.a, c.b, c.cutA, c.cutB, got)
		}
	}
}

// TestDemoTwins diffs each demo against its twin (fixtures/demo).
func TestDemoTwins(t *testing.T) {
	open := func(name string) Run {
		h, err := fixtures.OpenDemo(name, fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return Run{History: h, Report: detect.Analyze(h, detect.Options{})}
	}
	for _, c := range []struct {
		a, b string
		want []string
	}{
		{"payment-timeout-fixed", "payment-timeout", []string{
			"ChargeCard/by-name finding:none→duplicate-side-effect (high, probable) attempts:1 attempt→2 attempts " +
				"failures:0 failures→1 failure error-types:none→ReadTimeout retry-delays:none→5.024s±0s duration:1.21s±0s→36.717s±0s",
			"SendReceipt/by-name duration:10ms±0s→270ms±0s",
			"ReserveInventory/by-name",
			"run duration:1.808s±0s→37.627s±0s",
			"run not-compared:none→payloads withheld: not shared at this organization's data-sharing level (metadata)",
			"finding B duplicate-side-effect",
		}},
		{"card-declined", "card-declined-no-retry", []string{
			"charge_card/by-name finding:retried-permanent-failure (medium, observed)→none attempts:3 attempts→1 attempt " +
				"failures:3 failures→1 failure error-types:CardDeclinedError ×3→CardDeclinedError retry-delays:2s±1s,4s±1s→none " +
				"duration:8.154s±10.550013ms→741ms±50.001µs " +
				`input:{"orderId":"A-7802","amountCents":12900,"currency":"EUR","customerId":"cus_Q81"}→{"orderId":"A-7815","amountCents":12900,"currency":"EUR","customerId":"cus_Q81"}`,
			`reserve_inventory/by-name input:{"orderId":"A-7802","sku":"KB-87-US","qty":1}→{"orderId":"A-7815","sku":"KB-87-US","qty":1} ` +
				`output:{"reservationId":"rsv_5521"}→{"reservationId":"rsv_5608"}`,
			`release_inventory/by-name input:{"reservationId":"rsv_5521"}→{"reservationId":"rsv_5608"}`,
			"run why-ended:Activity task #5 failed: card_declined: insufficient funds (decline_code=insufficient_funds, charge=ch_3Qx7Pz)→" +
				"Activity task #1 failed: card_declined: insufficient funds (decline_code=insufficient_funds, charge=ch_3Qy2Dw)",
			"run duration:9.038s±11.050023ms→1.608s±550.011µs",
			"finding A retried-permanent-failure",
		}},
	} {
		t.Run(c.a+" "+c.b, func(t *testing.T) {
			got := describe(Compare(open(c.a), open(c.b), Options{}))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestParallelIsSerial: compared on several goroutines, two large runs
// give what one goroutine gives.
func TestParallelIsSerial(t *testing.T) {
	if testing.Short() {
		t.Skip("two generated runs of 200k events")
	}
	a, b := analysed(t, generated(t, 200_000, 1)), analysed(t, generated(t, 200_000, 2))
	if n := len(a.Report.Invocations); n < 2*pairsPerWorker {
		t.Fatalf("%d calls: too few to compare in parallel", n)
	}
	par := describe(Compare(a, b, Options{}))
	prev := runtime.GOMAXPROCS(1)
	ser := describe(Compare(a, b, Options{}))
	runtime.GOMAXPROCS(prev)
	if prev < 2 {
		t.Skip("one core: nothing ran in parallel")
	}
	if strings.Join(par, "\n") != strings.Join(ser, "\n") {
		t.Error("compared in parallel, the diff differs from the serial one")
	}
}

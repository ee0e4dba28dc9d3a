package detect

import (
	"github.com/twice-cli/twice/fixtures/gen"
	"strconv"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// benchHistory builds a history of about n events in engine order from
// blocks: clean calls, Go-style retries (one id, origin timers), .NET-style
// retries (an id per attempt), old no-id retries with reused eventIds,
// fan-outs of twenty, timer races and child workflows, in one generation.
// One block in every failEvery is a retry or a race (failEvery 1: every
// block cycles through all kinds, a history of an outage).
func benchHistory(n, failEvery int) *catalyst.History {
	t0 := time.Date(2026, 8, 20, 9, 0, 0, 0, time.UTC)
	clock := t0
	h := catalyst.NewHistory(catalyst.Run{ID: "bench", AppID: "app", Workflow: "BenchWorkflow",
		Status: catalyst.StatusCompleted})
	h.Format = catalyst.FormatProtoJSON
	var next int32
	seq := 0
	execID := func() string { seq++; return "00000000-0000-4000-8000-" + strconv.Itoa(100000000000+seq) }
	add := func(e catalyst.Event) {
		clock = clock.Add(3 * time.Millisecond)
		if e.Timestamp == 0 {
			e.Timestamp = catalyst.StampOf(clock)
		}
		h.Append(e)
	}
	action := func() int32 { id := next; next++; return id }
	turn := func() { add(catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1}) }
	input := catalyst.PresentPayload(`{"orderId":"A-7731","amountCents":4999}`)
	output := catalyst.PresentPayload(`{"chargeId":"ch_3PqZ8xLk","status":"captured"}`)
	sched := func(name, x string) int32 {
		id := action()
		add(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: id, Name: name, ExecutionID: x, Payload: input})
		return id
	}
	done := func(id int32, x string) {
		add(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: id, ExecutionID: x, Payload: output})
	}
	timeout := &catalyst.Failure{Type: "*url.Error", Message: msgDeadline}
	fail := func(id int32, x string) {
		add(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: id, ExecutionID: x, Failure: timeout})
	}
	timer := func(name string, origin catalyst.TimerOrigin, originID string) int32 {
		id := action()
		add(catalyst.Event{Type: catalyst.EventTimerCreated, ID: id, Name: name, Origin: origin, OriginID: originID,
			FireAt: catalyst.StampOf(clock.Add(5 * time.Second))})
		return id
	}
	fire := func(id int32) {
		add(catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: id})
	}

	turn()
	add(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: "BenchWorkflow", ExecutionID: "gen-1"})
	kinds := []int{3, 4, 5, 7}
	for block := 0; h.Len() < n; block++ {
		kind := block % 8
		if failEvery > 1 {
			kind = []int{0, 6}[block%2]
			if block%failEvery == 0 {
				kind = kinds[(block/failEvery)%len(kinds)]
			}
		}
		switch kind {
		case 0, 1, 2: // clean call
			x := execID()
			s := sched("ReserveStock", x)
			turn()
			done(s, x)
		case 3: // Go-style retry
			x := execID()
			s := sched("ChargeCard", x)
			turn()
			fail(s, x)
			t := timer("ChargeCard-retry", catalyst.OriginActivityRetry, x)
			turn()
			fire(t)
			s = sched("ChargeCard", x)
			turn()
			done(s, x)
		case 4: // .NET-style retry
			x1, x2 := execID(), execID()
			s := sched("SendEmail", x1)
			turn()
			fail(s, x1)
			t := timer("", catalyst.OriginActivityRetry, x1)
			turn()
			fire(t)
			s = sched("SendEmail", x2)
			turn()
			done(s, x2)
		case 5: // old SDK: no ids, reused eventId, unnamed timer
			s := sched("send_sms", "")
			turn()
			fail(s, "")
			t := timer("", catalyst.OriginNone, "")
			turn()
			fire(t)
			add(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: s, Name: "send_sms", Payload: input})
			turn()
			done(s, "")
		case 6: // fan-out of twenty
			ids := make([]int32, 20)
			xs := make([]string, 20)
			for i := range ids {
				xs[i] = execID()
				ids[i] = sched("GetQuote", xs[i])
			}
			turn()
			for i := range ids {
				done(ids[i], xs[i])
			}
		case 7: // a timer race, and a child workflow
			x1, x2 := execID(), execID()
			s1 := sched("FetchRate", x1)
			t := timer("", catalyst.OriginCreateTimer, "")
			turn()
			fire(t)
			s2 := sched("FetchRate", x2)
			turn()
			done(s1, x1)
			done(s2, x2)
			c := action()
			add(catalyst.Event{Type: catalyst.EventChildWorkflowCreated, ID: c, Name: "ShipOrder",
				InstanceID: "bench:" + strconv.Itoa(int(c))})
			turn()
			add(catalyst.Event{Type: catalyst.EventChildWorkflowCompleted, ID: -1, ScheduledID: c})
		}
	}
	add(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: action()})
	return h
}

// BenchmarkAnalyze measures grouping and detection on histories of 10k, 100k
// and 1M events: "typical" has one retry or race in fifty blocks (the rest
// clean calls and fan-outs); "outage" retries or races in half its blocks.
func BenchmarkAnalyze(b *testing.B) {
	for _, mix := range []struct {
		name      string
		failEvery int
	}{{"typical", 50}, {"outage", 1}} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			b.Run(mix.name+"/"+gen.SizeName(n), func(b *testing.B) {
				h := benchHistory(n, mix.failEvery)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					Analyze(h, Options{})
				}
				b.ReportMetric(float64(h.Len())*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

// BenchmarkGroup measures grouping alone (indexing execution ids and timer
// origins, then building invocations) on the "typical" histories of
// BenchmarkAnalyze; the difference between the two is the findings.
func BenchmarkGroup(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			h := benchHistory(n, 50)
			b.ReportAllocs()
			b.ResetTimer()
			var invs int
			for b.Loop() {
				s := newScan(h, DefaultLargePayloadBytes)
				s.linkExecIDs()
				s.linkTimers()
				invs = len(s.build(newClassifier(nil), &failureClasses{}, 0).invs)
			}
			if invs == 0 {
				b.Fatal("no invocations grouped")
			}
			b.ReportMetric(float64(h.Len())*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func TestBenchHistoryGroupsAsBuilt(t *testing.T) {
	h := benchHistory(20_000, 1)
	r := Analyze(h, Options{})
	checkInvariants(t, h, r)
	counts := map[string]int{}
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		counts[inv.Name+"/"+strconv.Itoa(len(inv.Attempts))+"/"+inv.LinkRule.String()]++
	}
	for _, k := range []string{"ChargeCard/2/by-id", "SendEmail/2/by-origin", "send_sms/2/inferred",
		"ReserveStock/1/first", "GetQuote/1/first", "FetchRate/1/first", "ShipOrder/1/first"} {
		if counts[k] == 0 {
			t.Errorf("no invocation %s: %v", k, counts)
		}
	}
	for k := range counts {
		if k != "" && (k[:len("ChargeCard")] == "ChargeCard" && k != "ChargeCard/2/by-id") {
			t.Errorf("unexpected grouping %s", k)
		}
	}
	races := 0
	for _, f := range r.Findings {
		if f.ID == FindingTimeoutRace {
			races++
		}
	}
	if races != counts["FetchRate/1/first"]/2 {
		t.Errorf("%d races for %d FetchRate calls", races, counts["FetchRate/1/first"])
	}
}

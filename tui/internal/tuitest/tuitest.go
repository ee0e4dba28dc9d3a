// Package tuitest builds the histories, reports and sources the TUI's tests
// use: a retried charge with withheld payloads, hostile strings, a long
// stack trace, an empty history, large generated histories, and a fake
// catalyst.Source whose answers a test scripts. It is for tests only, like
// net/http/httptest.
package tuitest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// Now is the fixed clock of every test: 2026-08-20T11:20:00Z.
func Now() time.Time { return time.Date(2026, 8, 20, 11, 20, 0, 0, time.UTC) }

// Start is when the test runs began: 2026-08-20T09:14:03Z.
func Start() time.Time { return time.Date(2026, 8, 20, 9, 14, 3, 0, time.UTC) }

// at returns the stamp d after Start.
func at(d time.Duration) catalyst.Stamp { return catalyst.StampOf(Start().Add(d)) }

// ChargeRun is the run of the charge history.
func ChargeRun(status catalyst.Status) catalyst.Run {
	return catalyst.Run{
		ID:        "charge-7731",
		AppID:     "payments",
		Workflow:  "ChargeWorkflow",
		Status:    status,
		CreatedAt: Start(),
		UpdatedAt: Start().Add(33 * time.Second),
		Project:   catalyst.Project{Name: "default"},
		Provenance: catalyst.Provenance{
			Surface:  catalyst.SurfaceCatalystMCP,
			Endpoint: "mcp.cloud.r1.diagrid.io",
		},
	}
}

// chargeExec is the task execution id shared by ChargeCard's attempts.
const chargeExec = "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"

// ChargeEvents returns the charge history's events: ChargeCard times out
// after 30 s (the charge may have committed), is retried after a 2 s
// backoff timer whose origin names its execution id, and completes; then
// SendReceipt completes and the workflow completes. With running, the
// history stops after the retry was scheduled.
func ChargeEvents(running bool) []catalyst.Event {
	router := &catalyst.Router{Source: "payments"}
	ev := []catalyst.Event{
		{Type: catalyst.EventExecutionStarted, Name: "ChargeWorkflow", ID: -1, ExecutionID: "c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d7731",
			InstanceID: "charge-7731", Timestamp: at(0)},
		{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(14 * time.Millisecond)},
		{Type: catalyst.EventTaskScheduled, Name: "ChargeCard", ID: 0, ExecutionID: chargeExec, Router: router,
			Timestamp: at(52 * time.Millisecond)},
		{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: 0, ExecutionID: chargeExec, Router: router,
			Timestamp: at(30*time.Second + 52*time.Millisecond),
			Failure: &catalyst.Failure{Type: "TimeoutError", Message: "read timeout after 30s: POST /v1/charges",
				StackTrace: StackTrace(6)}},
		{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(30*time.Second + 70*time.Millisecond)},
		{Type: catalyst.EventTimerCreated, Name: "ChargeCard-retry", ID: 1, Origin: catalyst.OriginActivityRetry,
			OriginID: chargeExec, FireAt: at(32*time.Second + 70*time.Millisecond), Timestamp: at(30*time.Second + 90*time.Millisecond)},
		{Type: catalyst.EventTimerFired, ID: -1, TimerID: 1, FireAt: at(32*time.Second + 70*time.Millisecond),
			Timestamp: at(32*time.Second + 80*time.Millisecond)},
		{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(32*time.Second + 95*time.Millisecond)},
		{Type: catalyst.EventTaskScheduled, Name: "ChargeCard", ID: 2, ExecutionID: chargeExec, Router: router,
			Timestamp: at(32*time.Second + 110*time.Millisecond)},
	}
	if running {
		return ev
	}
	return append(ev,
		catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: 2, ExecutionID: chargeExec, Router: router,
			Timestamp: at(32*time.Second + 700*time.Millisecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(32*time.Second + 720*time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "SendReceipt", ID: 3, ExecutionID: "5e0c1d2b-7f4a-4c3e-9b1d-2a6f8e9c0d41",
			Router: router, Timestamp: at(32*time.Second + 740*time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: 3, ExecutionID: "5e0c1d2b-7f4a-4c3e-9b1d-2a6f8e9c0d41",
			Router: router, Timestamp: at(32*time.Second + 990*time.Millisecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(33 * time.Second)},
		catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: 4, Timestamp: at(33*time.Second + 10*time.Millisecond),
			Detail: &catalyst.EventDetail{WorkflowStatus: "COMPLETED"}},
	)
}

// Charge returns the charge history as Catalyst serves it at the metadata
// level: every payload withheld.
func Charge() *catalyst.History {
	h := catalyst.NewHistory(ChargeRun("COMPLETED"), ChargeEvents(false)...)
	h.Format = catalyst.FormatCatalyst
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	return h
}

// ChargeRunning returns the charge history cut after the retry was
// scheduled, with the run still running, and then events more events
// appended (0 for none) — what a followed run looks like between polls.
func ChargeRunning(more int) *catalyst.History {
	run := ChargeRun("RUNNING")
	run.UpdatedAt = time.Time{}
	evs := ChargeEvents(true)
	if more > 0 {
		full := ChargeEvents(false)
		evs = full[:min(len(evs)+more, len(full))]
		if len(evs) == len(full) {
			run.Status = "COMPLETED"
			run.UpdatedAt = Start().Add(33 * time.Second)
		}
	}
	h := catalyst.NewHistory(run, evs...)
	h.Format = catalyst.FormatCatalyst
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	return h
}

// reserveExec is the task execution id of Checkout's ReserveInventory.
const reserveExec = "3f9a1c2e-6b7d-4e80-a1f2-9c8d7e6f5a41"

// Checkout returns the charge history with an unflagged ReserveInventory
// called before ChargeCard, so the flagged invocation is not the first:
// ReserveInventory, ChargeCard (timed out, retried: a probable duplicate),
// SendReceipt. Catalyst at the metadata level, like Charge.
func Checkout() *catalyst.History {
	router := &catalyst.Router{Source: "payments"}
	charge := ChargeEvents(false)
	evs := []catalyst.Event{charge[0], charge[1],
		{Type: catalyst.EventTaskScheduled, Name: "ReserveInventory", ID: 0, ExecutionID: reserveExec, Router: router,
			Timestamp: at(20 * time.Millisecond)},
		{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: 0, ExecutionID: reserveExec, Router: router,
			Timestamp: at(35 * time.Millisecond)},
		{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(45 * time.Millisecond)},
	}
	for _, e := range charge[2:] {
		if e.ID >= 0 {
			e.ID++
		}
		switch e.Type {
		case catalyst.EventTaskCompleted, catalyst.EventTaskFailed:
			e.ScheduledID++
		case catalyst.EventTimerFired:
			e.TimerID++
		}
		evs = append(evs, e)
	}
	run := ChargeRun("COMPLETED")
	run.ID, run.Workflow = "checkout-7731", "CheckoutWorkflow"
	h := catalyst.NewHistory(run, evs...)
	h.Format = catalyst.FormatCatalyst
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	return h
}

// FullPayloads returns the charge history from a local Dapr (protojson, no
// data-sharing filter), with its payloads present: JSON input, a
// non-JSON output.
func FullPayloads() *catalyst.History {
	evs := ChargeEvents(false)
	evs[0].Payload = catalyst.PresentPayload(`{"orderId":"A-7731","amountCents":4999,"currency":"USD"}`)
	evs[2].Payload = catalyst.PresentPayload(`{"orderId":"A-7731","amountCents":4999,"idempotencyKey":"` + chargeExec + `"}`)
	evs[8].Payload = evs[2].Payload
	evs[9].Payload = catalyst.PresentPayload(`"ch_3PqR7731"`)
	evs[11].Payload = catalyst.PresentPayload("")
	run := ChargeRun("COMPLETED")
	run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: "charge.json"}
	run.Project = catalyst.Project{}
	h := catalyst.NewHistory(run, evs...)
	h.Format = catalyst.FormatProtoJSON
	return h
}

// StackTrace returns a stack trace of n frames, each on its own line with a
// tab-indented file position, as Go prints them.
func StackTrace(n int) string {
	var b strings.Builder
	b.WriteString("goroutine 42 [running]:\n")
	for i := range n {
		fmt.Fprintf(&b, "payments/gateway.(*Client).call%d(...)\n\t/src/payments/gateway/client.go:%d +0x%x\n", i, 100+i*7, 0x1f+i)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// LongTrace returns the charge history with a 200-frame stack trace on the
// failure.
func LongTrace() *catalyst.History {
	h := Charge()
	h.At(3).Failure = &catalyst.Failure{Type: "TimeoutError", Message: "read timeout after 30s: POST /v1/charges",
		StackTrace: StackTrace(200), Inner: &catalyst.Failure{Type: "net.OpError", Message: "i/o timeout"}}
	return h
}

// Hostile returns a history whose every text field — run id, app, workflow
// and activity names, ids, error messages, stack traces and payloads —
// holds the hostile corpus.
func Hostile() *catalyst.History {
	bad := hostiletest.Joined()
	run := ChargeRun("COMPLETED")
	run.ID = "run" + bad
	run.AppID = "app\x1b]0;pwned\x07"
	run.Workflow = "Wf" + bad
	evs := ChargeEvents(false)
	for i := range evs {
		e := &evs[i]
		if e.Name != "" {
			e.Name = e.Name + bad
		}
		if e.ExecutionID != "" {
			e.ExecutionID = e.ExecutionID + "\u202e\x1b[6n"
		}
		if e.OriginID != "" {
			e.OriginID = e.OriginID + "\u202e\x1b[6n"
		}
		if e.Type.PayloadField() != "" {
			e.Payload = catalyst.PresentPayload(`{"note":"` + strings.ReplaceAll(bad, `"`, `'`) + `"}` + bad)
		}
	}
	evs[3].Failure = &catalyst.Failure{Type: "Err" + bad, Message: "msg" + bad + "\ncharged\rrefunded",
		StackTrace: "frame\x1b[2J\n\tfile.go:1\u202e\n" + bad}
	evs = append(evs, catalyst.Event{Type: catalyst.EventUnknown, ID: -1, Timestamp: at(40 * time.Second),
		Detail: &catalyst.EventDetail{TypeName: "futureEvent" + bad, Raw: `{"futureEvent":{"x":"` + "\x1b]52;c;Y3VybA==\x07" + `"}}`}})
	h := catalyst.NewHistory(run, evs...)
	h.Format = catalyst.FormatProtoJSON
	return h
}

// Empty returns a history with no events.
func Empty() *catalyst.History {
	run := ChargeRun("COMPLETED")
	run.ID = "empty-1"
	h := catalyst.NewHistory(run)
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelUnknown})
	return h
}

// NoActivity returns a history with a workflow that scheduled nothing.
func NoActivity() *catalyst.History {
	evs := ChargeEvents(false)
	h := catalyst.NewHistory(ChargeRun("COMPLETED"), evs[0], evs[1], evs[len(evs)-1])
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	return h
}

// Big returns a history of about n events: a workflow calling activities
// named Step0…Step99 one after another, every fifth failing once with a
// timeout and retried under the same execution id, like a long-running
// batch on Dapr 1.18.
func Big(n int) *catalyst.History {
	run := ChargeRun("COMPLETED")
	run.ID = "batch-" + strconv.Itoa(n)
	h := &catalyst.History{Run: run, Format: catalyst.FormatProtoJSON}
	names := make([]string, 100)
	for i := range names {
		names[i] = "Step" + strconv.Itoa(i)
	}
	t := time.Duration(0)
	next := func() catalyst.Stamp { t += 3 * time.Millisecond; return at(t) }
	h.Append(catalyst.Event{Type: catalyst.EventExecutionStarted, Name: "BatchWorkflow", ID: -1, Timestamp: next()})
	id := int32(0)
	for k := 0; h.Len() < n-1; k++ {
		name := names[k%len(names)]
		exec := uuidOf(k)
		h.Append(catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: next()})
		h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, Name: name, ID: id, ExecutionID: exec, Timestamp: next()})
		if k%5 == 0 {
			h.Append(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: id, ExecutionID: exec, Timestamp: next(),
				Failure: &catalyst.Failure{Type: "TimeoutError", Message: "deadline exceeded"}})
			id++
			h.Append(catalyst.Event{Type: catalyst.EventTimerCreated, Name: name + "-retry", ID: id, Origin: catalyst.OriginActivityRetry,
				OriginID: exec, Timestamp: next()})
			h.Append(catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: id, Timestamp: next()})
			id++
			h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, Name: name, ID: id, ExecutionID: exec, Timestamp: next()})
		}
		h.Append(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: id, ExecutionID: exec, Timestamp: next()})
		id++
	}
	h.Append(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: id, Timestamp: next()})
	return h
}

// BigPayloads is Big with payloads, as a Dapr that keeps them writes:
// every activity's input names a customer, an invoice and an email (a
// JSON object of about 110 bytes), every completion's output a receipt.
// A filter for one customer id searches all of them.
func BigPayloads(n int) *catalyst.History {
	h := Big(n)
	k := 0
	for i := range h.Len() {
		e := h.At(i)
		switch e.Type {
		case catalyst.EventTaskScheduled:
			c := strconv.Itoa(100000 + k%50000)
			e.Payload = catalyst.QuotedPayload(`"{\"customerId\":\"cus_` + c + `\",\"invoice\":\"INV-2026-` + strconv.Itoa(k) +
				`\",\"email\":\"customer` + c + `@example.com\",\"amountCents\":4999}"`)
			k++
		case catalyst.EventTaskCompleted:
			e.Payload = catalyst.QuotedPayload(`"{\"receiptId\":\"rc_` + strconv.Itoa(i) + `\",\"status\":\"sent\"}"`)
		}
	}
	return h
}

// FanOut returns an invoicing run that sends twenty invoices at once
// (SendInvoiceEmail × 20, each input naming its invoice and customer):
// INV-1042's send times out after 30 s and is retried under the same
// execution id (a probable duplicate email), as is INV-1055's. A local
// Dapr's protojson, every payload present; with withheld, Catalyst's at the
// metadata level, every payload withheld (the rows fall back to their task
// execution ids).
func FanOut(withheld bool) *catalyst.History {
	run := ChargeRun("COMPLETED")
	run.ID, run.AppID, run.Workflow = "invoices-2026-11", "invoicing", "SendInvoicesWorkflow"
	run.UpdatedAt = Start().Add(95 * time.Second)
	ev := []catalyst.Event{
		{Type: catalyst.EventExecutionStarted, Name: run.Workflow, ID: -1, ExecutionID: "f0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8",
			InstanceID: run.ID, Timestamp: at(0), Payload: catalyst.PresentPayload(`{"period":"2026-11"}`)},
		{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(10 * time.Millisecond)},
	}
	customers := []string{"dana", "lee", "kim", "ana", "raj", "sol", "eve", "max", "ida", "ola"}
	const n = 20
	execs := make([]string, n)
	for i := range n {
		execs[i] = uuidOf(7000 + i)
		inv := "INV-" + strconv.Itoa(1042+i)
		c := customers[i%len(customers)]
		ev = append(ev, catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "SendInvoiceEmail", ID: int32(i), ExecutionID: execs[i],
			Timestamp: at(time.Duration(20+i) * time.Millisecond),
			Payload: catalyst.PresentPayload(`{"invoiceNumber":"` + inv + `","to":"` + c + `@example.com","subject":"Your invoice",` +
				`"amountCents":` + strconv.Itoa(4999+100*(i%3)) + `}`)})
	}
	id := int32(n)
	retried := map[int]bool{0: true, 13: true}
	var fails, timers, later, done []catalyst.Event
	for i := range n {
		t := time.Duration(400+37*i) * time.Millisecond
		if retried[i] {
			fails = append(fails, catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: int32(i), ExecutionID: execs[i],
				Timestamp: at(30*time.Second + t),
				Failure:   &catalyst.Failure{Type: "TimeoutError", Message: "read timeout after 30s: POST smtp relay"}})
			timer := id
			retry := id + 1
			id += 2
			timers = append(timers, catalyst.Event{Type: catalyst.EventTimerCreated, Name: "SendInvoiceEmail-retry", ID: timer, Origin: catalyst.OriginActivityRetry,
				OriginID: execs[i], FireAt: at(35*time.Second + t), Timestamp: at(31*time.Second + t)})
			later = append(later, catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: timer, FireAt: at(35*time.Second + t),
				Timestamp: at(35*time.Second + t + 10*time.Millisecond)},
				catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "SendInvoiceEmail", ID: retry, ExecutionID: execs[i],
					Timestamp: at(35*time.Second + t + 30*time.Millisecond), Payload: ev[2+i].Payload})
			done = append(done, catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: retry, ExecutionID: execs[i],
				Timestamp: at(36*time.Second + t), Payload: catalyst.PresentPayload(`{"messageId":"msg-` + strconv.Itoa(i) + `-b"}`)})
			continue
		}
		ev = append(ev, catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: int32(i), ExecutionID: execs[i],
			Timestamp: at(t), Payload: catalyst.PresentPayload(`{"messageId":"msg-` + strconv.Itoa(i) + `"}`)})
	}
	ev = append(ev, fails...)
	ev = append(ev, catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(31 * time.Second)})
	ev = append(ev, timers...)
	ev = append(ev, later...)
	ev = append(ev, done...)
	ev = append(ev,
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(94 * time.Second)},
		catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: id, Timestamp: at(95 * time.Second),
			Detail: &catalyst.EventDetail{WorkflowStatus: "COMPLETED"}, Payload: catalyst.PresentPayload(`{"sent":20}`)})
	if withheld {
		for i := range ev {
			ev[i].Payload = catalyst.Payload{}
		}
	}
	h := catalyst.NewHistory(run, ev...)
	h.Format = catalyst.FormatProtoJSON
	if withheld {
		h.Format = catalyst.FormatCatalyst
		h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	}
	return h
}

// Waits returns a 59-minute order run that is mostly waiting: it reserves
// stock, then polls the warehouse eight times, five minutes apart (a
// durable timer "poll" between CheckPicked calls); waits for an
// "approval" event (with a day's timeout), during which an operator
// suspends it for five minutes; the approval arrives at 52 minutes; it
// ships through a child workflow, whose first attempt timed out and was
// retried, and charges. A local Dapr's protojson, payloads present.
func Waits() *catalyst.History {
	run := ChargeRun("COMPLETED")
	run.ID, run.AppID, run.Workflow = "order-9120", "orders", "FulfilOrderWorkflow"
	run.UpdatedAt = Start().Add(59 * time.Minute)
	var ev []catalyst.Event
	id := int32(0)
	t := time.Duration(0)
	add := func(e catalyst.Event) {
		e.Timestamp = at(t)
		if e.ID == 0 && e.Type != catalyst.EventTaskScheduled && e.Type != catalyst.EventTimerCreated &&
			e.Type != catalyst.EventChildWorkflowCreated && e.Type != catalyst.EventExecutionCompleted {
			e.ID = -1
		}
		ev = append(ev, e)
	}
	turn := func() { add(catalyst.Event{Type: catalyst.EventWorkflowStarted}) }
	call := func(name, exec, in, out string, took time.Duration) {
		turn()
		sched := id
		id++
		add(catalyst.Event{Type: catalyst.EventTaskScheduled, Name: name, ID: sched, ExecutionID: exec, Payload: catalyst.PresentPayload(in)})
		t += took
		add(catalyst.Event{Type: catalyst.EventTaskCompleted, ScheduledID: sched, ExecutionID: exec, Payload: catalyst.PresentPayload(out)})
	}
	add(catalyst.Event{Type: catalyst.EventExecutionStarted, Name: run.Workflow, ExecutionID: "0b1c2d3e-4f50-4617-a829-3a4b5c6d9120",
		InstanceID: run.ID, Payload: catalyst.PresentPayload(`{"orderId":"o-9120"}`)})
	t += 20 * time.Millisecond
	call("ReserveStock", uuidOf(9000), `{"orderId":"o-9120"}`, `{"reserved":true}`, 300*time.Millisecond)
	for p := range 8 {
		t += 10 * time.Millisecond
		call("CheckPicked", uuidOf(9001+p), `{"orderId":"o-9120","poll":`+strconv.Itoa(p+1)+`}`, `{"picked":false}`, 200*time.Millisecond)
		t += 10 * time.Millisecond
		turn()
		timer := id
		id++
		add(catalyst.Event{Type: catalyst.EventTimerCreated, Name: "poll", ID: timer, Origin: catalyst.OriginCreateTimer,
			FireAt: at(t + 5*time.Minute)})
		t += 5 * time.Minute
		add(catalyst.Event{Type: catalyst.EventTimerFired, TimerID: timer, FireAt: at(t)})
	}
	t += 10 * time.Millisecond
	turn()
	wait := id
	id++
	add(catalyst.Event{Type: catalyst.EventTimerCreated, Name: "approval", ID: wait, Origin: catalyst.OriginExternalEvent,
		OriginID: "approval", FireAt: at(t + 24*time.Hour)})
	t = 44 * time.Minute
	add(catalyst.Event{Type: catalyst.EventExecutionSuspended, Detail: &catalyst.EventDetail{}})
	t = 49 * time.Minute
	add(catalyst.Event{Type: catalyst.EventExecutionResumed, Detail: &catalyst.EventDetail{}})
	t = 52 * time.Minute
	add(catalyst.Event{Type: catalyst.EventEventRaised, Name: "approval", Payload: catalyst.PresentPayload(`{"approvedBy":"ops-kim"}`)})
	turn()
	ship := id
	id++
	add(catalyst.Event{Type: catalyst.EventChildWorkflowCreated, Name: "ShipOrderWorkflow", ID: ship, InstanceID: "order-9120-ship",
		Payload: catalyst.PresentPayload(`{"orderId":"o-9120"}`)})
	t += 3 * time.Minute
	add(catalyst.Event{Type: catalyst.EventChildWorkflowFailed, ScheduledID: ship,
		Failure: &catalyst.Failure{Type: "TimeoutError", Message: "carrier API timed out"}})
	turn()
	retry := id
	id++
	add(catalyst.Event{Type: catalyst.EventTimerCreated, Name: "ShipOrderWorkflow-retry", ID: retry, Origin: catalyst.OriginChildWorkflowRetry,
		OriginID: "order-9120-ship", FireAt: at(t + 10*time.Second)})
	t += 10 * time.Second
	add(catalyst.Event{Type: catalyst.EventTimerFired, TimerID: retry, FireAt: at(t)})
	turn()
	ship2 := id
	id++
	add(catalyst.Event{Type: catalyst.EventChildWorkflowCreated, Name: "ShipOrderWorkflow", ID: ship2, InstanceID: "order-9120-ship-1",
		Payload: catalyst.PresentPayload(`{"orderId":"o-9120"}`)})
	t += 2 * time.Minute
	add(catalyst.Event{Type: catalyst.EventChildWorkflowCompleted, ScheduledID: ship2, Payload: catalyst.PresentPayload(`{"tracking":"1Z999"}`)})
	t += 10 * time.Millisecond
	call("ChargeCard", uuidOf(9100), `{"orderId":"o-9120","amountCents":12900}`, `{"chargeId":"ch_9120"}`, 900*time.Millisecond)
	t = 59 * time.Minute
	turn()
	add(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: id, Detail: &catalyst.EventDetail{WorkflowStatus: "COMPLETED"},
		Payload: catalyst.PresentPayload(`{"shipped":true}`)})
	h := catalyst.NewHistory(run, ev...)
	h.Format = catalyst.FormatProtoJSON
	return h
}

// uuidOf returns a random-looking, deterministic version-4 UUID for k, as
// SDKs generate task execution ids.
func uuidOf(k int) string {
	x := uint64(k)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	y := x ^ x>>29*0xBF58476D1CE4E5B9
	y ^= y >> 32
	return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", uint32(x>>32), uint16(y), uint16(x)&0xfff, uint16(y>>16)&0xfff, y&0xffffffffffff)
}

// Source is a fake catalyst.Source. Histories answers History: each call for
// a run id takes the next history in its list (the last one repeats), or
// the error queued for it. Runs answers ListRuns.
type Source struct {
	mu        sync.Mutex
	Runs      catalyst.RunList
	ListErr   error
	histories map[string][]*catalyst.History
	errs      map[string][]error
	calls     map[string]int
	served    map[string]int
	// Gate, when set, is received from before History answers, and
	// ListGate before ListRuns answers (tests use them to hold a response
	// back); a call held back answers the context's error when its context
	// is cancelled.
	Gate     chan struct{}
	ListGate chan struct{}
}

// NewSource returns an empty fake source.
func NewSource() *Source {
	return &Source{histories: map[string][]*catalyst.History{}, errs: map[string][]error{}, calls: map[string]int{}, served: map[string]int{}}
}

// Add queues histories for their run ids, in the order polls will see them,
// and lists their runs.
func (s *Source) Add(hs ...*catalyst.History) *Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range hs {
		if _, ok := s.histories[h.Run.ID]; !ok {
			s.Runs.Runs = append(s.Runs.Runs, h.Run)
		}
		s.histories[h.Run.ID] = append(s.histories[h.Run.ID], h)
	}
	return s
}

// FailNext makes the next History call for id fail with err.
func (s *Source) FailNext(id string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs[id] = append(s.errs[id], err)
}

// Calls returns how many times History was called for id.
func (s *Source) Calls(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[id]
}

// ListRuns implements catalyst.Source.
func (s *Source) ListRuns(ctx context.Context, q catalyst.RunQuery) (catalyst.RunList, error) {
	if err := wait(ctx, s.ListGate); err != nil {
		return catalyst.RunList{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ListErr != nil {
		return catalyst.RunList{}, s.ListErr
	}
	return s.Runs, nil
}

// History implements catalyst.Source.
func (s *Source) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	if err := wait(ctx, s.Gate); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[ref.ID]++
	if errs := s.errs[ref.ID]; len(errs) > 0 {
		s.errs[ref.ID] = errs[1:]
		return nil, errs[0]
	}
	hs := s.histories[ref.ID]
	if len(hs) == 0 {
		return nil, errors.New("run " + ref.ID + " not found")
	}
	n := s.served[ref.ID]
	s.served[ref.ID]++
	return hs[min(n, len(hs)-1)], nil
}

// wait receives from gate (at once when it is nil), or returns the
// context's error when ctx is cancelled first.
func wait(ctx context.Context, gate chan struct{}) error {
	if gate == nil {
		return nil
	}
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package detect

import (
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// fuzzHistory turns bytes into a history of arbitrary (often nonsensical)
// events: every three bytes are a type, an id and a link to draw names,
// execution ids, scheduled ids, timer ids and origins from small pools, so
// that collisions, reuse and dangling references are common.
func fuzzHistory(data []byte) *catalyst.History {
	names := []string{"ChargeCard", "GetQuote", "send_sms", "ShipOrder", "", "ChargeCard-retry", "\x1b[2J"}
	ids := []string{"", "x1", "x2", "x3", "p:0000", "p:0002"}
	types := []catalyst.EventType{
		catalyst.EventWorkflowStarted, catalyst.EventExecutionStarted, catalyst.EventTaskScheduled,
		catalyst.EventTaskCompleted, catalyst.EventTaskFailed, catalyst.EventTimerCreated,
		catalyst.EventTimerFired, catalyst.EventChildWorkflowCreated, catalyst.EventChildWorkflowCompleted,
		catalyst.EventChildWorkflowFailed, catalyst.EventExecutionCompleted, catalyst.EventExecutionStalled,
		catalyst.EventEventRaised, catalyst.EventExecutionTerminated, catalyst.EventUnknown,
	}
	msgs := []string{"timeout", "card declined", "429 Too Many Requests", "???", ""}
	h := catalyst.NewHistory(catalyst.Run{ID: "f", AppID: "a"})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i+2 < len(data); i += 3 {
		a, b, c := data[i], data[i+1], data[i+2]
		e := catalyst.Event{
			Type:        types[int(a)%len(types)],
			ID:          int32(b%8) - 1,
			ScheduledID: int32(c % 8),
			TimerID:     int32(c % 8),
			Name:        names[int(b/8)%len(names)],
			ExecutionID: ids[int(c/8)%len(ids)],
			InstanceID:  ids[int(b/16)%len(ids)],
			OriginID:    ids[int(a/16)%len(ids)],
			Origin:      catalyst.TimerOrigin(int(a/32) % 5),
			Timestamp:   catalyst.StampOf(t0.Add(time.Duration(i) * time.Second)),
			FireAt:      catalyst.StampOf(t0.Add(time.Duration(int(i)+int(c)) * time.Second)),
		}
		if e.Type == catalyst.EventTaskFailed || e.Type == catalyst.EventChildWorkflowFailed {
			e.Failure = &catalyst.Failure{Message: msgs[int(c)%len(msgs)], NonRetriable: c%7 == 0}
		}
		if c%5 == 0 {
			e.Payload = catalyst.PresentPayload(`{"id":"` + e.ExecutionID + `"}`)
		}
		if e.Type == catalyst.EventChildWorkflowCreated && c%3 == 0 {
			e.Detail = &catalyst.EventDetail{RetryParentInstanceID: ids[int(a)%len(ids)]}
		}
		h.Append(e)
	}
	switch data[len(data)-1] % 4 {
	case 0:
		h.Run.Status = catalyst.StatusRunning
	case 1:
		h.Run.Status = catalyst.StatusCompleted
	case 2:
		h.Format, h.Traits = catalyst.FormatDaprCLI, catalyst.DaprCLITraits()
	}
	return h
}

func FuzzAnalyze(f *testing.F) {
	f.Add([]byte{0, 1, 2, 2, 9, 8, 0, 1, 2, 4, 1, 0, 5, 2, 0, 0, 1, 1, 6, 2, 2, 2, 9, 9, 3, 1, 1})
	f.Add([]byte{1, 0, 0, 2, 0, 0, 2, 0, 0, 4, 0, 0, 4, 0, 0, 10, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 3000 {
			return
		}
		h := fuzzHistory(data)
		r := Analyze(h, Options{})
		checkInvariants(t, h, r)
		if again := Analyze(h, Options{}); summary(again) != summary(r) {
			t.Fatal("two runs differ")
		}
	})
}

package main

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dapr/durabletask-go/backend"
)

// daprTimers is the sqlite backend with one change that makes its timers
// what Dapr's are: durabletask-go's applier makes a timer's TimerFired
// event when it makes the timer, stamped then (backend/runtimestate/
// applier.go, PendingTimers). The sqlite backend delivers that event as it
// is, so its TimerFired would be stamped at the timer's creation; Dapr
// v1.18.0 stamps it again when the timer's reminder delivers it
// (pkg/actors/targets/workflow/orchestrator/run.go: "timer fired event is
// precreated at the moment of creating the timer; set the timestamp to now
// so it is accurately recorded in the history"). So does this backend, when
// it hands the event to the workflow worker.
type daprTimers struct {
	backend.Backend
}

// NextWorkflowWorkItem stamps each TimerFired it delivers with the moment
// it delivers it.
func (b daprTimers) NextWorkflowWorkItem(ctx context.Context) (*backend.WorkflowWorkItem, error) {
	wi, err := b.Backend.NextWorkflowWorkItem(ctx)
	if err != nil || wi == nil {
		return wi, err
	}
	for _, e := range wi.NewEvents {
		if e.GetTimerFired() != nil {
			e.Timestamp = timestamppb.Now()
		}
	}
	return wi, nil
}

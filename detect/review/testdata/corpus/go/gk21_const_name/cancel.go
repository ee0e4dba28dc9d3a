// The workflow calls the activity by a package constant that holds its
// registered name; the activity returns a sentinel named for a bad
// request, and the call retries it. (Issue 21: the shape of a saga whose
// compensations are registered under constant names.)
package main

import (
	"errors"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

const activityCancel = "CancelReservation"

var ErrBadRequestState = errors.New("reservation cannot be cancelled in its state")

type Reservation struct {
	ID     string
	Status string
}

func Release(ctx *workflow.WorkflowContext) (any, error) {
	var r Reservation
	if err := ctx.GetInput(&r); err != nil {
		return nil, err
	}
	policy := &workflow.RetryPolicy{MaxAttempts: 3, InitialRetryInterval: time.Second}
	return nil, ctx.CallActivity(activityCancel, workflow.WithActivityInput(r), workflow.WithActivityRetryPolicy(policy)).Await(nil) // want: retried-rejection
}

func cancelReservation(ctx workflow.ActivityContext) (any, error) {
	var r Reservation
	if err := ctx.GetInput(&r); err != nil {
		return nil, err
	}
	if r.Status == "SHIPPED" {
		return nil, ErrBadRequestState
	}
	return r.ID, nil
}

func main() {
	reg := workflow.NewRegistry()
	_ = reg.AddWorkflow(Release)
	_ = reg.AddActivityN(activityCancel, cancelReservation)
}

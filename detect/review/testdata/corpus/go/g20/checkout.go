// corpus: negative (already idempotent)
// negative-for: retried-rejection, shared-retry-policy
// The charge is called with a policy whose Handle stops retrying a
// decline; the lookup has its own policy for transient failures.
package main

import (
	"errors"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

var ErrCardDeclined = errors.New("card declined")

type Order struct {
	ID     string
	Amount int64
	Email  string
}

func Checkout(ctx *workflow.WorkflowContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	chargePolicy := &workflow.RetryPolicy{
		MaxAttempts:          3,
		InitialRetryInterval: time.Second,
		Handle:               func(err error) bool { return !errors.Is(err, ErrCardDeclined) },
	}
	lookupPolicy := &workflow.RetryPolicy{MaxAttempts: 10, InitialRetryInterval: 200 * time.Millisecond}
	if err := ctx.CallActivity(ChargeCard, workflow.WithActivityInput(o), workflow.WithActivityRetryPolicy(chargePolicy)).Await(nil); err != nil {
		return nil, err
	}
	return nil, ctx.CallActivity(LookupCustomer, workflow.WithActivityInput(o.Email), workflow.WithActivityRetryPolicy(lookupPolicy)).Await(nil)
}

func ChargeCard(ctx workflow.ActivityContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	if o.Amount > 100000 {
		return nil, ErrCardDeclined
	}
	return "ch_" + o.ID, nil
}

func LookupCustomer(ctx workflow.ActivityContext) (any, error) {
	var email string
	err := ctx.GetInput(&email)
	return email, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(Checkout)
	_ = r.AddActivity(ChargeCard)
	_ = r.AddActivity(LookupCustomer)
}

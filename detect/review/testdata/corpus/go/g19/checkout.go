// One retry policy for a charge that can be declined and for a receipt
// that fails only transiently; the decline is retried.
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
	policy := &workflow.RetryPolicy{MaxAttempts: 5, InitialRetryInterval: time.Second, BackoffCoefficient: 2}
	if err := ctx.CallActivity(ChargeCard, workflow.WithActivityInput(o), workflow.WithActivityRetryPolicy(policy)).Await(nil); err != nil { // want: retried-rejection, shared-retry-policy
		return nil, err
	}
	if err := ctx.CallActivity(LookupCustomer, workflow.WithActivityInput(o.Email), workflow.WithActivityRetryPolicy(policy)).Await(nil); err != nil { // want: shared-retry-policy
		return nil, err
	}
	return o.ID, nil
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

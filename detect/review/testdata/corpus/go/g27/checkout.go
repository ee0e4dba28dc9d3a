// The Dapr Go SDK's own workflow package (v1.13): its RetryPolicy has no
// error predicate, and a validation error is retried.
package main

import (
	"fmt"
	"time"

	"github.com/dapr/go-sdk/workflow"
)

func PlaceOrder(ctx *workflow.WorkflowContext) (any, error) {
	var sku string
	if err := ctx.GetInput(&sku); err != nil {
		return nil, err
	}
	var out string
	err := ctx.CallActivity(ValidateAddress, workflow.ActivityInput(sku), workflow.ActivityRetryPolicy(workflow.RetryPolicy{ // want: retried-rejection
		MaxAttempts:          4,
		InitialRetryInterval: time.Second,
	})).Await(&out)
	return out, err
}

func ValidateAddress(ctx workflow.ActivityContext) (any, error) {
	var addr string
	if err := ctx.GetInput(&addr); err != nil {
		return nil, err
	}
	if len(addr) < 5 {
		return nil, fmt.Errorf("invalid address %q", addr)
	}
	return addr, nil
}

func main() {
	w, err := workflow.NewWorker()
	if err != nil {
		panic(err)
	}
	_ = w.RegisterWorkflow(PlaceOrder)
	_ = w.RegisterActivity(ValidateAddress)
}

// A sentinel error whose own name says nothing, wrapped with %w where the
// stock runs out: the message says rejection, and the call retries it.
// (Issue 21: the shape of a shop's use-case layer returning its sentinel
// errors through fmt.Errorf.)
package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

var ErrSoldOut = errors.New("sold out: not enough stock for the order")

type Line struct {
	SKU string
	Qty int
}

func Fulfil(ctx *workflow.WorkflowContext) (any, error) {
	var l Line
	if err := ctx.GetInput(&l); err != nil {
		return nil, err
	}
	policy := &workflow.RetryPolicy{MaxAttempts: 4, InitialRetryInterval: time.Second}
	err := ctx.CallActivity(Reserve, workflow.WithActivityInput(l), workflow.WithActivityRetryPolicy(policy)).Await(nil) // want: retried-rejection
	return nil, err
}

func Reserve(ctx workflow.ActivityContext) (any, error) {
	var l Line
	if err := ctx.GetInput(&l); err != nil {
		return nil, err
	}
	if l.Qty > 40 {
		return nil, fmt.Errorf("reserve %s: %w", l.SKU, ErrSoldOut)
	}
	return l.SKU, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(Fulfil)
	_ = r.AddActivity(Reserve)
}

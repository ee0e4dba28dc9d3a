// A child workflow, called with a retry policy, keys its shipment on its
// own instance id: a retried child is a new instance with a new id.
package main

import (
	"database/sql"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

func Order(ctx *workflow.WorkflowContext) (any, error) {
	var id string
	if err := ctx.GetInput(&id); err != nil {
		return nil, err
	}
	policy := &workflow.RetryPolicy{MaxAttempts: 3, InitialRetryInterval: 5 * time.Second}
	return nil, ctx.CallChildWorkflow(Fulfil, workflow.WithChildWorkflowInput(id), workflow.WithChildWorkflowRetryPolicy(policy)).Await(nil)
}

func Fulfil(ctx *workflow.WorkflowContext) (any, error) {
	shipmentKey := "ship-" + ctx.ID()
	return nil, ctx.CallActivity(BookCourier, workflow.WithActivityInput(shipmentKey)).Await(nil) // want: per-attempt-key
}

func BookCourier(ctx workflow.ActivityContext) (any, error) {
	var key string
	if err := ctx.GetInput(&key); err != nil {
		return nil, err
	}
	_, err := db.ExecContext(ctx.Context(), "INSERT INTO courier_bookings (booking_key) VALUES ($1) ON CONFLICT DO NOTHING", key)
	return key, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(Order)
	_ = r.AddWorkflow(Fulfil)
	_ = r.AddActivity(BookCourier)
}

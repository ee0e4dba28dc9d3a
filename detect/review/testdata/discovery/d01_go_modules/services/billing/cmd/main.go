package main

import (
	"github.com/dapr/durabletask-go/workflow"

	"example.com/acme/billing/activities"
)

func BillOrder(ctx *workflow.WorkflowContext) (any, error) {
	var out string
	err := ctx.CallActivity(activities.IssueInvoice, workflow.WithActivityInput("o-1")).Await(&out)
	return out, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(BillOrder)
	_ = r.AddActivity(activities.IssueInvoice)
}

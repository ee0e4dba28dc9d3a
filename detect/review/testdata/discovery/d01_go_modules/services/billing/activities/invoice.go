// A repository of several modules (go.work): the billing module's main
// registers activities from its own activities package, named by the
// module's import path, not by the folder the review starts from.
package activities

import "github.com/dapr/durabletask-go/workflow"

// IssueInvoice writes an invoice.
func IssueInvoice(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	if err := ctx.GetInput(&orderID); err != nil {
		return nil, err
	}
	return orderID, nil
}

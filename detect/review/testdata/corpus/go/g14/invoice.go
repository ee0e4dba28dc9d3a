// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect, key-generated-in-body, retry-in-body
// PUT of the whole computed
// document to a fixed key (Dapr state).
package main

import (
	"context"

	"github.com/dapr/durabletask-go/workflow"
	dapr "github.com/dapr/go-sdk/client"
)

type Invoice struct {
	OrderID string  `json:"orderId"`
	Lines   []int64 `json:"lines"`
	Total   int64   `json:"total"`
}

func PutInvoiceDocument(ctx workflow.ActivityContext) (any, error) {
	var inv Invoice
	if err := ctx.GetInput(&inv); err != nil {
		return nil, err
	}
	client, err := dapr.NewClient()
	if err != nil {
		return nil, err
	}
	for _, l := range inv.Lines {
		inv.Total += l
	}
	if err := client.SaveState(context.Background(), "statestore", "invoice-"+inv.OrderID, inv, nil); err != nil {
		return nil, err
	}
	return "invoice-" + inv.OrderID, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(PutInvoiceDocument)
}

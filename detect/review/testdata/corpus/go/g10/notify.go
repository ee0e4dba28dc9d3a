// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// the CloudEvent id is derived from
// the order id, so a consumer can drop the repeat.
package main

import (
	"context"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
)

type Order struct {
	ID    string `json:"id"`
	Total int64  `json:"total"`
}

func PublishOrderPlaced(ctx workflow.ActivityContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	client, err := dapr.NewClient()
	if err != nil {
		return nil, err
	}
	meta := map[string]string{"cloudevent.id": "order-placed-" + o.ID}
	err = client.PublishEvent(context.Background(), "pubsub", "orders", o, dapr.PublishEventWithMetadata(meta))
	return nil, err
}

func main() {
	w, _ := workflow.NewWorker()
	_ = w.RegisterActivity(PublishOrderPlaced)
}

// Publishes an OrderPlaced event through Dapr pub/sub with no message id.
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
	if err := client.PublishEvent(context.Background(), "pubsub", "orders", o); err != nil { // want: unkeyed-side-effect
		return nil, err
	}
	return nil, nil
}

func main() {
	w, _ := workflow.NewWorker()
	_ = w.RegisterActivity(PublishOrderPlaced)
}

// Reads the item from the state store, decodes it, subtracts the order's
// quantity, encodes it and saves it back with no etag: a retry takes the
// stock down twice.
package main

import (
	"context"
	"encoding/json"

	"github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
)

type Item struct {
	Name     string
	Quantity int
}

type Order struct {
	Item     string
	Quantity int
}

func TakeStock(ctx workflow.ActivityContext) (any, error) {
	var order Order
	if err := ctx.GetInput(&order); err != nil {
		return nil, err
	}
	dc, err := client.NewClient()
	if err != nil {
		return nil, err
	}
	got, err := dc.GetState(context.Background(), "stock", order.Item, nil)
	if err != nil {
		return nil, err
	}
	var item Item
	if err := json.Unmarshal(got.Value, &item); err != nil {
		return nil, err
	}
	left := item.Quantity - order.Quantity
	item.Quantity = left
	data, err := json.Marshal(item)
	if err != nil {
		return nil, err
	}
	err = dc.SaveState(context.Background(), "stock", order.Item, data, nil) // want: unkeyed-side-effect
	return left, err
}

func main() {
	w := workflow.NewWorker()
	_ = w.RegisterActivity(TakeStock)
}

// Counts a customer's orders in the Dapr state store by reading the
// count, adding one and saving it to the same key: a retry counts twice.
package main

import (
	"context"
	"strconv"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
)

var client dapr.Client

func CountOrder(ctx workflow.ActivityContext) (any, error) {
	var customerID string
	if err := ctx.GetInput(&customerID); err != nil {
		return nil, err
	}
	key := "orders-" + customerID
	item, err := client.GetState(context.Background(), "counters", key, nil)
	if err != nil {
		return nil, err
	}
	n, _ := strconv.Atoi(string(item.Value))
	err = client.SaveState(context.Background(), "counters", key, []byte(strconv.Itoa(n+1)), nil) // want: unkeyed-side-effect
	return n + 1, err
}

func main() {
	w, _ := workflow.NewWorker()
	_ = w.RegisterActivity(CountOrder)
}

// corpus: negative (already idempotent)
// negative-for: large-payload
// Stores the rate sheet and returns its key, not the body.
package main

import (
	"context"
	"io"
	"net/http"

	"github.com/dapr/durabletask-go/workflow"
	dapr "github.com/dapr/go-sdk/client"
)

func FetchShippingRates(ctx workflow.ActivityContext) (any, error) {
	var zip string
	if err := ctx.GetInput(&zip); err != nil {
		return nil, err
	}
	resp, err := http.Get("https://carrier.example.com/rates?zip=" + zip)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	client, err := dapr.NewClient()
	if err != nil {
		return nil, err
	}
	key := "rates-" + zip
	if err := client.SaveState(context.Background(), "statestore", key, body, nil); err != nil {
		return nil, err
	}
	return map[string]string{"ratesKey": key}, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(FetchShippingRates)
}

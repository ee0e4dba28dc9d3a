// Returns the carrier's whole rate response as the activity's output.
package main

import (
	"io"
	"net/http"

	"github.com/dapr/durabletask-go/workflow"
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
	return string(body), nil // want: large-payload
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(FetchShippingRates)
}

// Retries the warehouse call in a loop inside the body.
package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

type Reserve struct {
	OrderID string `json:"orderId"`
	SKU     string `json:"sku"`
}

func ReserveStock(ctx workflow.ActivityContext) (any, error) {
	var in Reserve
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	body, _ := json.Marshal(in)
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // want: retry-in-body
		req, _ := http.NewRequest(http.MethodPut, "http://warehouse/reservations/"+in.OrderID, bytes.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err == nil && resp.StatusCode < 500 {
			resp.Body.Close()
			return nil, nil
		}
		lastErr = err
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	return nil, lastErr
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(ReserveStock)
}

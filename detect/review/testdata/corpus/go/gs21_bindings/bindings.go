// Enqueues a shipment through an output binding (no message id: a second
// run enqueues a second shipment) and reads the carrier's rate table
// through another binding (a read). A POST to the rates handler this
// package serves only calculates.
package main

import (
	"context"
	"encoding/json"
	"net/http"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
)

type Shipment struct {
	OrderID string
	Kilos   float64
}

func rates(w http.ResponseWriter, r *http.Request) {
	var s Shipment
	_ = json.NewDecoder(r.Body).Decode(&s)
	_ = json.NewEncoder(w).Encode(map[string]float64{"price": s.Kilos * 2.5})
}

func ShipOrder(ctx workflow.ActivityContext) (any, error) {
	var s Shipment
	if err := ctx.GetInput(&s); err != nil {
		return nil, err
	}
	c, err := dapr.NewClient()
	if err != nil {
		return nil, err
	}
	data, _ := json.Marshal(s)
	if _, err := c.InvokeBinding(context.Background(), &dapr.InvokeBindingRequest{Name: "carrier-rates", Operation: "get"}); err != nil {
		return nil, err
	}
	if _, err := c.InvokeMethodWithContent(context.Background(), "shipping", "rates", "post", &dapr.DataContent{ContentType: "application/json", Data: data}); err != nil {
		return nil, err
	}
	err = c.InvokeOutputBinding(context.Background(), &dapr.InvokeBindingRequest{Name: "shipments-queue", Operation: "create", Data: data}) // want: unkeyed-side-effect
	return nil, err
}

func main() {
	http.HandleFunc("/rates", rates)
	w := workflow.NewWorker()
	_ = w.RegisterActivity(ShipOrder)
}

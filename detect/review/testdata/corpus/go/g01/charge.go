// Charges a card through the provider's REST API with a fresh UUID as the
// idempotency key: every retry sends a new key.
package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/google/uuid"
)

type ChargeRequest struct {
	OrderID string `json:"orderId"`
	Amount  int64  `json:"amount"`
}

func ChargeCard(ctx workflow.ActivityContext) (any, error) {
	var req ChargeRequest
	if err := ctx.GetInput(&req); err != nil {
		return nil, err
	}
	form := url.Values{"amount": {fmt.Sprint(req.Amount)}, "currency": {"usd"}}
	httpReq, err := http.NewRequestWithContext(ctx.Context(), http.MethodPost, "https://api.stripe.com/v1/payment_intents", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	httpReq.Header.Set("Idempotency-Key", uuid.NewString()) // want: key-generated-in-body
	resp, err := http.DefaultClient.Do(httpReq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

func main() {
	r := workflow.NewRegistry()
	if err := r.AddActivity(ChargeCard); err != nil {
		panic(err)
	}
	_ = context.Background()
}

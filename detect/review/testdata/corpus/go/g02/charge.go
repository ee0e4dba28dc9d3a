// corpus: negative (already idempotent)
// negative-for: key-generated-in-body, unkeyed-side-effect
// the idempotency key is the order id
// from the input, so every retry sends the same key and the provider
// refuses the repeat.
package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/dapr/durabletask-go/workflow"
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
	form := url.Values{"amount": {fmt.Sprint(req.Amount)}}
	httpReq, err := http.NewRequestWithContext(ctx.Context(), http.MethodPost, "https://api.stripe.com/v1/payment_intents", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	httpReq.Header.Set("Idempotency-Key", "charge-"+req.OrderID)
	resp, err := http.DefaultClient.Do(httpReq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return map[string]string{"status": resp.Status}, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(ChargeCard)
}

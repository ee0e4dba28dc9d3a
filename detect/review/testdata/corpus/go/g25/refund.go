// The key is made in a helper the activity calls: still a key generated
// inside the body.
package main

import (
	"net/http"
	"strings"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/google/uuid"
)

type Refund struct {
	ChargeID string
	Amount   string
}

func newRequest(url, body string) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", uuid.New().String()) // want: key-generated-in-body
	return req, nil
}

func RefundPayment(ctx workflow.ActivityContext) (any, error) {
	var r Refund
	if err := ctx.GetInput(&r); err != nil {
		return nil, err
	}
	req, err := newRequest("https://api.stripe.com/v1/refunds", "charge="+r.ChargeID+"&amount="+r.Amount)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return resp.StatusCode, resp.Body.Close()
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(RefundPayment)
}

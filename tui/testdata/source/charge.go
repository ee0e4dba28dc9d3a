// The charge service of the checkout the view's tests show: only ChargeCard
// is defined here (ReserveInventory and SendReceipt live in services whose
// source was not given, so the Code tab lists them as not found). Its
// idempotency key is made inside the body: every retry sends a new one.
package charge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/google/uuid"
)

type Order struct {
	ID     string `json:"id"`
	Amount int    `json:"amount"`
	Card   string `json:"card"`
}

func ChargeCard(ctx workflow.ActivityContext) (any, error) {
	var o Order
	if err := ctx.GetInput(&o); err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]any{"amount": o.Amount, "card": o.Card})
	req, err := http.NewRequest(http.MethodPost, "https://gateway.paynet.example/v1/charges", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("gateway: %s", resp.Status)
	}
	return nil, nil
}

func Register(r *workflow.Registry) error {
	return r.AddActivity(ChargeCard)
}

// Keys the transfer on the per-attempt task id: every retry has a new one.
package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/dapr/durabletask-go/workflow"
)

func TransferFunds(ctx workflow.ActivityContext) (any, error) {
	var amount int64
	if err := ctx.GetInput(&amount); err != nil {
		return nil, err
	}
	key := fmt.Sprintf("transfer-%d", ctx.GetTaskID())
	req, _ := http.NewRequest(http.MethodPost, "https://bank.example.com/transfers", strings.NewReader(fmt.Sprint(amount)))
	req.Header.Set("Idempotency-Key", key) // want: per-attempt-key
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(TransferFunds)
}

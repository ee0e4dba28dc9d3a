// corpus: negative (already idempotent)
// negative-for: per-attempt-key
// the key is the task execution id,
// which every retry of one invocation shares.
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
	req, _ := http.NewRequest(http.MethodPost, "https://bank.example.com/transfers", strings.NewReader(fmt.Sprint(amount)))
	req.Header.Set("Idempotency-Key", ctx.GetTaskExecutionID())
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

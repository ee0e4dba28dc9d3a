// Wraps the call in retry-go inside the body.
package main

import (
	"net/http"

	"github.com/avast/retry-go/v4"
	"github.com/dapr/durabletask-go/workflow"
)

func RefreshCatalog(ctx workflow.ActivityContext) (any, error) {
	err := retry.Do(func() error { // want: retry-in-body
		req, _ := http.NewRequest(http.MethodPut, "http://catalog/refresh", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retry.Attempts(5))
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(RefreshCatalog)
}

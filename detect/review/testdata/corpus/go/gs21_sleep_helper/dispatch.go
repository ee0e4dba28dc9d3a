// Starts a CI pipeline with a POST, trying three times; the wait between
// tries is a helper that selects on a timer. It is still a retry inside
// the activity (and the POST itself has no idempotency key).
package main

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/dapr/go-sdk/workflow"
)

func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func StartPipeline(ctx workflow.ActivityContext) (any, error) {
	var ref string
	if err := ctx.GetInput(&ref); err != nil {
		return nil, err
	}
	wait := 2 * time.Second
	var last error
	for try := 0; try < 3; try++ { // want: retry-in-body
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "https://ci.example.com/pipelines", strings.NewReader(ref)) // want: unkeyed-side-effect
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			last = err
			if err := pause(context.Background(), wait); err != nil {
				return nil, err
			}
			wait *= 2
			continue
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	return nil, last
}

func main() {
	w := workflow.NewWorker()
	_ = w.RegisterActivity(StartPipeline)
}

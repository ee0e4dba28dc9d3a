// A client retries a trigger request on 5xx inside its own loop and
// returns an error for anything else: what falls through the `>= 500 …
// continue` branch is a 4xx (a bad ref, a missing pipeline), a permanent
// rejection, and the workflow's policy retries it all the same.
// (Issue 21: the shape of a CI-dispatch client in an infrastructure
// workflow service.)
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

type Trigger struct {
	Pipeline string
	Ref      string
}

type pipelines struct{ http *http.Client }

func (p *pipelines) trigger(ctx context.Context, t Trigger) error {
	var last error
	for try := 0; try < 3; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, "https://ci.example/pipelines/"+t.Pipeline+"/runs/"+t.Ref, bytes.NewReader(nil))
		if err != nil {
			return err
		}
		resp, err := p.http.Do(req)
		if err != nil {
			last = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted {
			return nil
		}
		if resp.StatusCode >= 500 {
			last = fmt.Errorf("ci returned %d", resp.StatusCode)
			continue
		}
		return fmt.Errorf("ci refused the trigger: %d", resp.StatusCode)
	}
	return last
}

func Release(ctx *workflow.WorkflowContext) (any, error) {
	var t Trigger
	if err := ctx.GetInput(&t); err != nil {
		return nil, err
	}
	policy := &workflow.RetryPolicy{MaxAttempts: 5, InitialRetryInterval: 10 * time.Second}
	err := ctx.CallActivity(RunPipeline, workflow.WithActivityInput(t), workflow.WithActivityRetryPolicy(policy)).Await(nil) // want: retried-rejection
	return nil, err
}

func RunPipeline(ctx workflow.ActivityContext) (any, error) {
	var t Trigger
	if err := ctx.GetInput(&t); err != nil {
		return nil, err
	}
	p := &pipelines{http: http.DefaultClient}
	return nil, p.trigger(ctx.Context(), t)
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(Release)
	_ = r.AddActivity(RunPipeline)
}

// Retries written inside activity bodies with the common Go retry
// libraries: retry-go, cenkalti/backoff, sethvargo/go-retry, client-go's
// retry.OnError, a retryablehttp client and failsafe-go. Each retries
// inside the body, invisible to the history and multiplied by the engine's
// retries.
package main

import (
	"context"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/dapr/durabletask-go/workflow"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	goretry "github.com/sethvargo/go-retry"
	k8sretry "k8s.io/client-go/util/retry"
)

func putContact(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, "https://crm.example.com/contacts/"+id, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

func contact(ctx workflow.ActivityContext) string {
	var id string
	_ = ctx.GetInput(&id)
	return id
}

func SyncRetryGo(ctx workflow.ActivityContext) (any, error) {
	id := contact(ctx)
	return nil, retry.Do(func() error { return putContact(ctx.Context(), id) }, retry.Attempts(5)) // want: retry-in-body
}

func SyncBackoff(ctx workflow.ActivityContext) (any, error) {
	id := contact(ctx)
	return nil, backoff.Retry(func() error { return putContact(ctx.Context(), id) }, backoff.NewExponentialBackOff()) // want: retry-in-body
}

func SyncGoRetry(ctx workflow.ActivityContext) (any, error) {
	id := contact(ctx)
	b := goretry.NewFibonacci(time.Second)
	return nil, goretry.Do(ctx.Context(), goretry.WithMaxRetries(4, b), func(c context.Context) error { // want: retry-in-body
		return goretry.RetryableError(putContact(c, id))
	})
}

func SyncOnError(ctx workflow.ActivityContext) (any, error) {
	id := contact(ctx)
	return nil, k8sretry.OnError(k8sretry.DefaultBackoff, func(error) bool { return true }, func() error { // want: retry-in-body
		return putContact(ctx.Context(), id)
	})
}

func SyncRetryableHTTP(ctx workflow.ActivityContext) (any, error) {
	client := retryablehttp.NewClient() // want: retry-in-body
	client.RetryMax = 5
	req, err := retryablehttp.NewRequest(http.MethodPut, "https://crm.example.com/contacts/"+contact(ctx), nil)
	if err != nil {
		return nil, err
	}
	_, err = client.Do(req)
	return nil, err
}

func SyncFailsafe(ctx workflow.ActivityContext) (any, error) {
	id := contact(ctx)
	policy := retrypolicy.Builder[any]().WithMaxRetries(3).Build()
	return nil, failsafe.Run(func() error { return putContact(ctx.Context(), id) }, policy) // want: retry-in-body
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(SyncRetryGo)
	_ = r.AddActivity(SyncBackoff)
	_ = r.AddActivity(SyncGoRetry)
	_ = r.AddActivity(SyncOnError)
	_ = r.AddActivity(SyncRetryableHTTP)
	_ = r.AddActivity(SyncFailsafe)
}

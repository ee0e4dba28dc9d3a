package saga

import (
	"context"

	"github.com/dapr/durabletask-go/workflow"
)

type Store interface {
	Reserve(ctx context.Context, id string) error
}

func NewReserveActivity(s Store) workflow.Activity {
	return func(ctx workflow.ActivityContext) (any, error) {
		var id string
		if err := ctx.GetInput(&id); err != nil {
			return nil, err
		}
		return nil, s.Reserve(ctx.Context(), id)
	}
}

func newCharge(s Store) workflow.Activity {
	return func(ctx workflow.ActivityContext) (any, error) { return "charged", nil }
}

func newRefund(s Store) workflow.Activity {
	fn := func(ctx workflow.ActivityContext) (any, error) { return "refunded", nil }
	return fn
}

func NewOrderWorkflow(retries int) workflow.Workflow {
	return func(ctx *workflow.WorkflowContext) (any, error) {
		err := ctx.CallActivity(actReserve).Await(nil)
		return nil, err
	}
}

// newAudit returns what another factory builds.
func newAudit(s Store) workflow.Activity {
	return withAudit(s, "audit")
}

func withAudit(s Store, topic string) workflow.Activity {
	return func(ctx workflow.ActivityContext) (any, error) { return topic, nil }
}

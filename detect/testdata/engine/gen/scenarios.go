package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dapr/durabletask-go/api/protos"
	"github.com/dapr/durabletask-go/workflow"
)

// scenario is one run: drive starts it, steers it (suspend, resume,
// terminate) and returns its instance id once it is where the history is
// to be read.
type scenario struct {
	name  string
	drive func(ctx context.Context, e *engine) (string, error)
}

// cancelledByOps is the output every terminated run is given.
const cancelledByOps = "cancelled by ops"

func scenarios() []scenario {
	return []scenario{
		{"late-awaited-retries", func(ctx context.Context, e *engine) (string, error) {
			// One policy (0.5 s, 1 s, 2 s) retries a transient failure of
			// ChargeCard (503 three times, then it succeeds) and a
			// rejection of ReserveStock (409 every time: the run fails).
			in := call{OrderID: "A-1001", Keys: []string{"late/charge", "late/stock"}}
			e.prov.script("late/charge", answer503, answer503, answer503, answerOK)
			e.prov.script("late/stock", answer409)
			return e.start(ctx, "late-awaited-retries", "CheckoutWorkflow", in, protos.OrchestrationStatus_ORCHESTRATION_STATUS_FAILED)
		}},
		{"fan-out-map-order", func(ctx context.Context, e *engine) (string, error) {
			// Eight emails and a timer in one turn; the third and sixth
			// fail once.
			in := call{OrderID: "A-1002"}
			for i := range 8 {
				k := fmt.Sprintf("fan/mail-%d", i)
				in.Keys = append(in.Keys, k)
				if i == 2 || i == 5 {
					e.prov.script(k, answer503, answerOK)
				}
			}
			return e.start(ctx, "fan-out-map-order", "NotifyWorkflow", in, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"suspend-during-backoff", func(ctx context.Context, e *engine) (string, error) {
			// The charge fails; while its 2 s retry timer waits, the run is
			// suspended for 3 s (the timer fires meanwhile), then resumed.
			id := "suspend-during-backoff"
			e.prov.script("backoff/charge", answer503, answerOK)
			if _, err := e.start(ctx, id, "PatientPaymentWorkflow", call{Key: "backoff/charge", OrderID: "A-1003"}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the retry timer", hasRetryTimer); err != nil {
				return "", err
			}
			if err := e.client.SuspendWorkflow(ctx, id, "maintenance window"); err != nil {
				return "", err
			}
			time.Sleep(3 * time.Second)
			if err := e.client.ResumeWorkflow(ctx, id, "maintenance over"); err != nil {
				return "", err
			}
			return id, e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"suspend-before-failure", func(ctx context.Context, e *engine) (string, error) {
			// The run is suspended while the charge runs; the charge fails
			// (after 0.8 s) while the run is suspended, so the SDK makes
			// its retry timer only in the resume turn, 1.5 s later: the
			// timer's fireAt (the failure's turn + 0.5 s) is before the
			// time it was recorded.
			id := "suspend-before-failure"
			e.prov.script("suspended/charge", answerSlow(800*time.Millisecond, answer503), answerOK)
			if _, err := e.start(ctx, id, "PaymentWorkflow", call{Key: "suspended/charge", OrderID: "A-1004"}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the charge", has(isTaskScheduled)); err != nil {
				return "", err
			}
			if err := e.client.SuspendWorkflow(ctx, id, "fraud review"); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the failure", has(isTaskFailed)); err != nil {
				return "", err
			}
			time.Sleep(1500 * time.Millisecond)
			if err := e.client.ResumeWorkflow(ctx, id, "cleared"); err != nil {
				return "", err
			}
			return id, e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"timer-recorded-after-fire-at", func(ctx context.Context, e *engine) (string, error) {
			// The charge fails once; the app takes 0.6 s to decide to
			// retry after 0.3 s, so the retry timer's fireAt is before its
			// own timestamp.
			e.prov.script("sluggish/charge", answer503, answerOK)
			return e.start(ctx, "timer-recorded-after-fire-at", "SluggishPaymentWorkflow", call{Key: "sluggish/charge", OrderID: "A-1013"},
				protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"terminate-while-suspended", func(ctx context.Context, e *engine) (string, error) {
			// Suspended while the charge runs, then terminated: the engine
			// records the termination and completes nothing.
			id := "terminate-while-suspended"
			e.prov.script("tws/charge", answerSlow(1500*time.Millisecond, answerOK))
			if _, err := e.start(ctx, id, "PaymentWorkflow", call{Key: "tws/charge", OrderID: "A-1005"}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the charge", has(isTaskScheduled)); err != nil {
				return "", err
			}
			if err := e.client.SuspendWorkflow(ctx, id, "fraud review"); err != nil {
				return "", err
			}
			if err := e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_SUSPENDED); err != nil {
				return "", err
			}
			// The sidecar's TerminateInstance waits for the run to
			// complete, which a suspended run never does: give up waiting
			// after 3 s (the termination is recorded by then).
			tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			err := e.client.TerminateWorkflow(tctx, id, workflow.WithOutput(cancelledByOps))
			cancel()
			if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the termination", has(isTerminated)); err != nil {
				return "", err
			}
			return id, e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_SUSPENDED)
		}},
		{"terminate-retry-pending", func(ctx context.Context, e *engine) (string, error) {
			// The charge fails; the run is terminated while its 30 s retry
			// timer waits.
			id := "terminate-retry-pending"
			e.prov.script("trp/charge", answer503, answerOK)
			if _, err := e.start(ctx, id, "SlowRetryWorkflow", call{Key: "trp/charge", OrderID: "A-1006"}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the retry timer", hasRetryTimer); err != nil {
				return "", err
			}
			if err := e.client.TerminateWorkflow(ctx, id, workflow.WithOutput(cancelledByOps)); err != nil {
				return "", err
			}
			return id, e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_TERMINATED)
		}},
		{"terminate-open-attempt", func(ctx context.Context, e *engine) (string, error) {
			// The charge's client gives up after 2 s (a timeout); the
			// retry's attempt hangs too and is still open when the run is
			// terminated, 1 s after it was scheduled.
			id := "terminate-open-attempt"
			e.prov.script("toa/charge", answerHang)
			if _, err := e.start(ctx, id, "PaymentWorkflow", call{Key: "toa/charge", OrderID: "A-1007", TimeoutMs: 2000}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the second attempt", count(isTaskScheduled, 2)); err != nil {
				return "", err
			}
			time.Sleep(time.Second)
			if err := e.client.TerminateWorkflow(ctx, id, workflow.WithOutput(cancelledByOps)); err != nil {
				return "", err
			}
			return id, e.waitStatus(ctx, id, protos.OrchestrationStatus_ORCHESTRATION_STATUS_TERMINATED)
		}},
		{"running-attempt-open", func(ctx context.Context, e *engine) (string, error) {
			// Read while the charge is still running (no answer yet).
			id := "running-attempt-open"
			e.prov.script("rao/charge", answerHang)
			if _, err := e.start(ctx, id, "PaymentWorkflow", call{Key: "rao/charge", OrderID: "A-1008"}); err != nil {
				return "", err
			}
			if err := e.waitFor(ctx, id, "the charge", has(isTaskScheduled)); err != nil {
				return "", err
			}
			time.Sleep(300 * time.Millisecond)
			return id, nil
		}},
		{"child-retry-new-id", func(ctx context.Context, e *engine) (string, error) {
			// The child fails twice (its booking answers 503) and is
			// retried under the SDK's ids: a new child id per attempt.
			e.prov.script("child-new/carrier", answer503, answer503, answerOK)
			return e.start(ctx, "child-retry-new-id", "FulfilWorkflow", call{Key: "child-new/carrier", OrderID: "A-1009"},
				protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"child-retry-same-id", func(ctx context.Context, e *engine) (string, error) {
			// The same, with one child id given for every attempt.
			e.prov.script("child-same/carrier", answer503, answer503, answerOK)
			return e.start(ctx, "child-retry-same-id", "FulfilWorkflow",
				call{Key: "child-same/carrier", OrderID: "A-1010", ChildID: "child-retry-same-id-ship"},
				protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, protos.OrchestrationStatus_ORCHESTRATION_STATUS_FAILED)
		}},
		{"continue-as-new-retry", func(ctx context.Context, e *engine) (string, error) {
			// Generation 1 checks once and continues as new; generation
			// 2's check fails once and is retried.
			e.prov.script("can/check-2", answer503, answerOK)
			return e.start(ctx, "continue-as-new-retry", "MonitorOrder",
				call{OrderID: "A-1011", Gen: 1, Keys: []string{"can/check-1", "can/check-2"}},
				protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
		{"timer-races-activity", func(ctx context.Context, e *engine) (string, error) {
			// The first quote takes 1.5 s; a 400 ms timer wins, the
			// workflow asks again, then takes the first's late answer.
			e.prov.script("race/quote-1", answerSlow(1500*time.Millisecond, answerOK))
			return e.start(ctx, "timer-races-activity", "QuoteWorkflow",
				call{OrderID: "A-1012", Keys: []string{"race/quote-1", "race/quote-2"}},
				protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED)
		}},
	}
}

// start schedules the workflow as run id and, when want is given, waits
// until its status is one of want.
func (e *engine) start(ctx context.Context, id, name string, in call, want ...protos.OrchestrationStatus) (string, error) {
	if _, err := e.client.ScheduleWorkflow(ctx, name, workflow.WithInstanceID(id), workflow.WithInput(in)); err != nil {
		return "", err
	}
	if len(want) == 0 {
		return id, nil
	}
	return id, e.waitStatus(ctx, id, want...)
}

func isTaskScheduled(ev *protos.HistoryEvent) bool { return ev.GetTaskScheduled() != nil }
func isTaskFailed(ev *protos.HistoryEvent) bool    { return ev.GetTaskFailed() != nil }
func isTerminated(ev *protos.HistoryEvent) bool    { return ev.GetExecutionTerminated() != nil }

func hasRetryTimer(h []*protos.HistoryEvent) bool {
	return has(func(ev *protos.HistoryEvent) bool { return ev.GetTimerCreated().GetActivityRetry() != nil })(h)
}

func has(f func(*protos.HistoryEvent) bool) func([]*protos.HistoryEvent) bool {
	return count(f, 1)
}

func count(f func(*protos.HistoryEvent) bool, n int) func([]*protos.HistoryEvent) bool {
	return func(h []*protos.HistoryEvent) bool {
		c := 0
		for _, ev := range h {
			if f(ev) {
				c++
			}
		}
		return c >= n
	}
}

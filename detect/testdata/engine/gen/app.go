package main

import (
	"errors"
	"time"

	"github.com/dapr/durabletask-go/workflow"
)

// call is an activity's and a workflow's input: the provider script's key,
// the activity's HTTP client timeout, and what the workflow passes on.
type call struct {
	Key       string `json:"key"`
	TimeoutMs int    `json:"timeoutMs,omitempty"`
	OrderID   string `json:"orderId,omitempty"`
	// Keys are the keys of the calls a workflow makes, in order.
	Keys []string `json:"keys,omitempty"`
	// Gen is a continue-as-new workflow's generation.
	Gen int `json:"gen,omitempty"`
	// ChildID, when set, is the child's instance id (every attempt).
	ChildID string `json:"childId,omitempty"`
}

// The retry policies the workflows use (the SDK's own RetryPolicy; its
// delays are InitialRetryInterval × BackoffCoefficient^n, capped).
var (
	// quick: 0.5 s, 1 s, 2 s.
	quick = &workflow.RetryPolicy{MaxAttempts: 4, InitialRetryInterval: 500 * time.Millisecond,
		BackoffCoefficient: 2, MaxRetryInterval: 10 * time.Second}
	// patient: 2 s, then 4 s.
	patient = &workflow.RetryPolicy{MaxAttempts: 3, InitialRetryInterval: 2 * time.Second,
		BackoffCoefficient: 2, MaxRetryInterval: 10 * time.Second}
	// sluggish: 0.3 s, judged by a Handle that takes 0.6 s (an app slow to
	// finish the turn: the SDK computes fireAt from the turn's start, the
	// engine stamps the timer when the turn is done, so fireAt is before
	// the timer's own timestamp).
	sluggish = &workflow.RetryPolicy{MaxAttempts: 3, InitialRetryInterval: 300 * time.Millisecond,
		BackoffCoefficient: 2, MaxRetryInterval: 10 * time.Second,
		Handle: func(error) bool { time.Sleep(600 * time.Millisecond); return true }}
	// slow: 30 s (a retry that is still pending when the run is ended).
	slow = &workflow.RetryPolicy{MaxAttempts: 3, InitialRetryInterval: 30 * time.Second,
		BackoffCoefficient: 2, MaxRetryInterval: time.Minute}
)

// registerApp registers the app's workflows and activities.
func registerApp(r *workflow.Registry, p *provider) error {
	activity := func(name string) error {
		return r.AddActivityN(name, func(ctx workflow.ActivityContext) (any, error) {
			var in call
			if err := ctx.GetInput(&in); err != nil {
				return nil, err
			}
			return p.call(ctx.Context(), in.Key, time.Duration(in.TimeoutMs)*time.Millisecond, in)
		})
	}
	for _, name := range []string{"ChargeCard", "ReserveStock", "SendEmail", "FetchQuote", "BookCarrier", "CheckStatus"} {
		if err := activity(name); err != nil {
			return err
		}
	}
	return errors.Join(
		r.AddWorkflowN("CheckoutWorkflow", checkoutWorkflow),
		r.AddWorkflowN("NotifyWorkflow", notifyWorkflow),
		r.AddWorkflowN("PaymentWorkflow", paymentWorkflow),
		r.AddWorkflowN("PatientPaymentWorkflow", patientPaymentWorkflow),
		r.AddWorkflowN("SlowRetryWorkflow", slowRetryWorkflow),
		r.AddWorkflowN("SluggishPaymentWorkflow", sluggishPaymentWorkflow),
		r.AddWorkflowN("FulfilWorkflow", fulfilWorkflow),
		r.AddWorkflowN("ShipOrder", shipOrder),
		r.AddWorkflowN("MonitorOrder", monitorOrder),
		r.AddWorkflowN("QuoteWorkflow", quoteWorkflow),
	)
}

// checkoutWorkflow calls ChargeCard and ReserveStock under one policy, both
// before awaiting either, then awaits them in order: the Go SDK creates a
// retry only when the task is awaited, so ReserveStock's first retry timer
// comes turns after its failure.
func checkoutWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	charge := ctx.CallActivity("ChargeCard", workflow.WithActivityInput(call{Key: in.Keys[0], OrderID: in.OrderID}),
		workflow.WithActivityRetryPolicy(quick))
	stock := ctx.CallActivity("ReserveStock", workflow.WithActivityInput(call{Key: in.Keys[1], OrderID: in.OrderID}),
		workflow.WithActivityRetryPolicy(quick))
	var a, b map[string]any
	if err := charge.Await(&a); err != nil {
		return nil, err
	}
	if err := stock.Await(&b); err != nil {
		return nil, err
	}
	return map[string]any{"charge": a["id"], "stock": b["id"]}, nil
}

// notifyWorkflow fans out one SendEmail per key and a named timer in one
// turn, then awaits them all.
func notifyWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	var tasks []workflow.Task
	for _, k := range in.Keys {
		tasks = append(tasks, ctx.CallActivity("SendEmail", workflow.WithActivityInput(call{Key: k, OrderID: in.OrderID}),
			workflow.WithActivityRetryPolicy(quick)))
	}
	digest := ctx.CreateTimer(300*time.Millisecond, workflow.WithTimerName("digest"))
	sent := 0
	for _, t := range tasks {
		if err := t.Await(nil); err != nil {
			return nil, err
		}
		sent++
	}
	if err := digest.Await(nil); err != nil {
		return nil, err
	}
	return map[string]any{"sent": sent}, nil
}

// paymentWorkflow charges once under the quick policy.
func paymentWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	return chargeWith(ctx, quick)
}

// patientPaymentWorkflow charges once under the patient policy (2 s first).
func patientPaymentWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	return chargeWith(ctx, patient)
}

// slowRetryWorkflow charges once under the slow policy (30 s first).
func slowRetryWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	return chargeWith(ctx, slow)
}

// sluggishPaymentWorkflow charges once under the sluggish policy.
func sluggishPaymentWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	return chargeWith(ctx, sluggish)
}

func chargeWith(ctx *workflow.WorkflowContext, policy *workflow.RetryPolicy) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	var out map[string]any
	if err := ctx.CallActivity("ChargeCard", workflow.WithActivityInput(in),
		workflow.WithActivityRetryPolicy(policy)).Await(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// fulfilWorkflow ships the order through a child workflow retried under
// the quick policy: with the SDK's child ids (a new one per attempt) or,
// when ChildID is set, that id for every attempt.
func fulfilWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	opts := []workflow.ChildWorkflowOption{
		workflow.WithChildWorkflowInput(call{Key: in.Key, OrderID: in.OrderID}),
		workflow.WithChildWorkflowRetryPolicy(quick),
	}
	if in.ChildID != "" {
		opts = append(opts, workflow.WithChildWorkflowInstanceID(in.ChildID))
	}
	var out map[string]any
	if err := ctx.CallChildWorkflow("ShipOrder", opts...).Await(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// shipOrder books a carrier once, without retries: a failed booking fails
// the child.
func shipOrder(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	var out map[string]any
	if err := ctx.CallActivity("BookCarrier", workflow.WithActivityInput(in)).Await(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// monitorOrder checks the order's status once per generation: generation 1
// continues as new; generation 2 checks under the quick policy and ends.
func monitorOrder(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	check := call{Key: in.Keys[in.Gen-1], OrderID: in.OrderID}
	if in.Gen == 1 {
		if err := ctx.CallActivity("CheckStatus", workflow.WithActivityInput(check)).Await(nil); err != nil {
			return nil, err
		}
		in.Gen = 2
		ctx.ContinueAsNew(in)
		return nil, nil
	}
	var out map[string]any
	if err := ctx.CallActivity("CheckStatus", workflow.WithActivityInput(check),
		workflow.WithActivityRetryPolicy(quick)).Await(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// quoteWorkflow races a quote against a 400 ms timer; when the timer
// fires first it asks again (a new call) and takes that answer, then waits
// for the first call's late answer too.
func quoteWorkflow(ctx *workflow.WorkflowContext) (any, error) {
	var in call
	if err := ctx.GetInput(&in); err != nil {
		return nil, err
	}
	first := ctx.CallActivity("FetchQuote", workflow.WithActivityInput(call{Key: in.Keys[0], OrderID: in.OrderID}))
	if err := ctx.CreateTimer(400 * time.Millisecond).Await(nil); err != nil {
		return nil, err
	}
	var second, late map[string]any
	if err := ctx.CallActivity("FetchQuote", workflow.WithActivityInput(call{Key: in.Keys[1], OrderID: in.OrderID})).Await(&second); err != nil {
		return nil, err
	}
	if err := first.Await(&late); err != nil {
		return nil, err
	}
	return map[string]any{"quote": second["id"], "late": late["id"]}, nil
}

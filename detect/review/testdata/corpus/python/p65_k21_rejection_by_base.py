"""A rejection class whose own name says nothing, known by its base: it is
raised on an input no retry changes, and the call site retries it."""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


class ValidationError(Exception):
    pass


class QuantityTooLarge(ValidationError):
    pass


@wfr.workflow(name="restock")
def restock(ctx: wf.DaprWorkflowContext, req: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=4)
    return (yield ctx.call_activity(plan_restock, input=req, retry_policy=policy))  # want: retried-rejection


@wfr.activity(name="plan_restock")
def plan_restock(ctx: wf.WorkflowActivityContext, req: dict) -> dict:
    if req["quantity"] > 500:
        raise QuantityTooLarge(f"{req['quantity']} is over the pallet limit")
    return {"sku": req["sku"], "pallets": req["quantity"] // 50}

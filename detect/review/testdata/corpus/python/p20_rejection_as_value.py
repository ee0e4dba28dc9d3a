# corpus: negative (already idempotent)
# negative-for: retried-rejection, shared-retry-policy
"""The charge returns its rejection as a value; each call site has its own policy."""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

transient = wf.RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=5)


@wfr.workflow(name="checkout")
def checkout(ctx: wf.DaprWorkflowContext, order: dict):
    customer = yield ctx.call_activity(get_customer, input=order["customer_id"], retry_policy=transient)
    result = yield ctx.call_activity(charge_card, input=order)
    if result["outcome"] == "rejected":
        return {"status": "declined", "reason": result["reason"]}
    return customer


@wfr.activity(name="get_customer")
def get_customer(ctx: wf.WorkflowActivityContext, customer_id: str) -> dict:
    return {"id": customer_id}


@wfr.activity(name="charge_card")
def charge_card(ctx: wf.WorkflowActivityContext, order: dict) -> dict:
    if order["amount"] > 100_000:
        return {"outcome": "rejected", "reason": "over limit"}
    return {"outcome": "charged", "charge_id": "ch_" + order["id"]}

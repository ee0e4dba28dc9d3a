"""One RetryPolicy for a charge that raises a decline and a read-only lookup."""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

retry_policy = wf.RetryPolicy(
    first_retry_interval=timedelta(seconds=1),
    max_number_of_attempts=5,
    backoff_coefficient=2,
)


class PaymentDeclined(Exception):
    pass


@wfr.workflow(name="checkout")
def checkout(ctx: wf.DaprWorkflowContext, order: dict):
    customer = yield ctx.call_activity(get_customer, input=order["customer_id"], retry_policy=retry_policy)  # want: shared-retry-policy
    yield ctx.call_activity(charge_card, input=order, retry_policy=retry_policy)  # want: retried-rejection, shared-retry-policy
    return customer


@wfr.activity(name="get_customer")
def get_customer(ctx: wf.WorkflowActivityContext, customer_id: str) -> dict:
    return {"id": customer_id}


@wfr.activity(name="charge_card")
def charge_card(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    if order["amount"] > 100_000:
        raise PaymentDeclined("card declined: over limit")
    return "ch_" + order["id"]

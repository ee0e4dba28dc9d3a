"""A child workflow, retried by its parent, keys its booking on its own instance id."""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()
policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=5), max_number_of_attempts=3)


@wfr.workflow(name="order")
def order(ctx: wf.DaprWorkflowContext, order_id: str):
    yield ctx.call_child_workflow(fulfil, input=order_id, retry_policy=policy)


@wfr.workflow(name="fulfil")
def fulfil(ctx: wf.DaprWorkflowContext, order_id: str):
    booking_key = f"ship-{ctx.instance_id}"
    yield ctx.call_activity(book_courier, input={"key": booking_key, "order": order_id})  # want: per-attempt-key


@wfr.activity(name="book_courier")
def book_courier(ctx: wf.WorkflowActivityContext, req: dict) -> str:
    return req["key"]

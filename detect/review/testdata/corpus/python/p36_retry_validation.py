"""Validation raises ValueError with 'invalid', and the call site retries it."""
from datetime import timedelta

from dapr.ext.workflow import DaprWorkflowContext, RetryPolicy, WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.workflow(name="place_order")
def place_order(ctx: DaprWorkflowContext, order: dict):
    yield ctx.call_activity(  # want: retried-rejection
        validate_address,
        input=order["address"],
        retry_policy=RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=4),
    )


@wfr.activity(name="validate_address")
def validate_address(ctx: WorkflowActivityContext, address: str) -> str:
    if len(address) < 5:
        raise ValueError(f"invalid address: {address!r}")
    return address

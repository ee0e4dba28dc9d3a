# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect
"""Sets the computed balance instead of incrementing it."""
import redis
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
r = redis.Redis(host="localhost", port=6379)


@wfr.activity(name="set_points")
def set_points(ctx: WorkflowActivityContext, balance: dict) -> None:
    r.set(f"points:{balance['customer_id']}", balance["points"])

"""Adds loyalty points with INCRBY."""
import redis
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
r = redis.Redis(host="localhost", port=6379)


@wfr.activity(name="award_points")
def award_points(ctx: WorkflowActivityContext, award: dict) -> int:
    return r.incrby(f"points:{award['customer_id']}", award["points"])  # want: unkeyed-side-effect

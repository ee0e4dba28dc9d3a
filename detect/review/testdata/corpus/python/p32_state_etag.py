# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, check-then-act
"""Reserves a seat with an etag precondition: the store refuses a stale write."""
import json

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="reserve_seat")
def reserve_seat(ctx: WorkflowActivityContext, req: dict) -> bool:
    key = f"seat-{req['flight']}-{req['seat']}"
    with DaprClient() as client:
        current = client.get_state("statestore", key)
        if current.data:
            return json.loads(current.data)["booking"] == req["booking"]
        client.save_state("statestore", key, json.dumps({"booking": req["booking"]}), etag=current.etag)
    return True

# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, check-then-act
"""Copies carts with Dapr's bulk state calls: a bulk read, then a bulk
save of whole values to their keys. Saving the same values again changes
nothing."""
from dapr.clients import DaprClient
from dapr.clients.grpc._state import StateItem
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="copy_carts")
def copy_carts(ctx: WorkflowActivityContext, ids: list) -> int:
    with DaprClient() as client:
        items = client.get_bulk_state(store_name="carts", keys=ids).items
        client.save_bulk_state(store_name="carts-archive", states=[StateItem(key=i.key, value=i.data) for i in items])
    return len(items)

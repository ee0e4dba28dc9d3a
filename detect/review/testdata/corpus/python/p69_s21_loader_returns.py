"""A helper loads the order's state and returns early when it finds it
(the loader's own return, not the activity's); the activity then saves
the status under the order's key: a whole value to a key, not a
check-then-act.
corpus: negative
negative-for: check-then-act"""
import json

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


def load_order(client, key: str) -> dict:
    state = client.get_state("orders", key)
    if state.data:
        return json.loads(state.data)
    return {"status": "new"}


@wfr.activity(name="mark_shipped")
def mark_shipped(ctx: WorkflowActivityContext, order_id: str) -> str:
    with DaprClient() as client:
        order = load_order(client, order_id)
        order["status"] = "shipped"
        client.save_state("orders", order_id, json.dumps(order))
        client.publish_event("pubsub", "shipped", json.dumps(order), publish_metadata={"cloudevent.id": f"shipped-{order_id}"})
    return order["status"]

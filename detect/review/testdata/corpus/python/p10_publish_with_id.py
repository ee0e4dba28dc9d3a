# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, key-generated-in-body
"""The CloudEvent id is derived from the order id."""
import json

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="publish_order_placed")
def publish_order_placed(ctx: WorkflowActivityContext, order: dict) -> None:
    with DaprClient() as client:
        client.publish_event(
            pubsub_name="pubsub",
            topic_name="orders",
            data=json.dumps(order),
            data_content_type="application/json",
            publish_metadata={"cloudevent.id": f"order-placed-{order['id']}"},
        )

"""Publishes to Kafka with confluent_kafka and no message id header."""
import json

from confluent_kafka import Producer
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
producer = Producer({"bootstrap.servers": "kafka:9092"})


@wfr.activity(name="emit_order_shipped")
def emit_order_shipped(ctx: WorkflowActivityContext, order: dict) -> None:
    producer.produce("orders.shipped", key=order["id"], value=json.dumps(order))  # want: unkeyed-side-effect
    producer.flush()

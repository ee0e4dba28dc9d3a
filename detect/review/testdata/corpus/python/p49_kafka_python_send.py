"""Publishes with kafka-python's producer.send and no message id header:
a retry publishes the event again."""
import json

from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime
from kafka import KafkaProducer

wfr = WorkflowRuntime()
producer = KafkaProducer(bootstrap_servers="kafka:9092", value_serializer=lambda v: json.dumps(v).encode())


@wfr.activity(name="emit_refund_issued")
def emit_refund_issued(ctx: WorkflowActivityContext, refund: dict) -> None:
    producer.send("refunds.issued", value=refund)  # want: unkeyed-side-effect
    producer.flush()

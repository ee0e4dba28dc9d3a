"""The message id is made in a helper the activity calls."""
import uuid

import boto3
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
sqs = boto3.client("sqs")
QUEUE = "https://sqs.us-east-1.amazonaws.com/123/orders.fifo"


def enqueue(body: str, group: str) -> None:
    sqs.send_message(
        QueueUrl=QUEUE,
        MessageBody=body,
        MessageGroupId=group,
        MessageDeduplicationId=uuid.uuid4().hex,  # want: key-generated-in-body
    )


@wfr.activity(name="enqueue_fulfilment")
def enqueue_fulfilment(ctx: WorkflowActivityContext, order: dict) -> None:
    enqueue(order["id"], order["warehouse"])

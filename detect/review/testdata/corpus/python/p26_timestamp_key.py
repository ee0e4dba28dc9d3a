"""Uses the current time as the object key."""
from datetime import datetime

import boto3
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
s3 = boto3.client("s3")


@wfr.activity(name="archive_order")
def archive_order(ctx: WorkflowActivityContext, order: dict) -> str:
    key = f"orders/{order['id']}-{datetime.now().isoformat()}.json"
    s3.put_object(Bucket="archive", Key=key, Body=str(order).encode())  # want: key-generated-in-body
    return key

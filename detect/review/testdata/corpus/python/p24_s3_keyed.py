# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, key-generated-in-body
"""Writes the record to an S3 key derived from the event id instead of appending."""
import json

import boto3
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
s3 = boto3.client("s3")


@wfr.activity(name="write_audit_record")
def write_audit_record(ctx: WorkflowActivityContext, event: dict) -> str:
    key = f"events/{event['id']}.json"
    s3.put_object(Bucket="audit", Key=key, Body=json.dumps(event).encode())
    return key

"""redis-py writes that add to what is there: RPUSH of an order event and
APPEND to a transcript both duplicate the content on a second run."""
import json

import redis
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
cache = redis.Redis(host="redis")


@wfr.activity(name="push_order_event")
def push_order_event(ctx: WorkflowActivityContext, event: dict) -> None:
    cache.rpush(f"events:{event['order']}", json.dumps(event))  # want: unkeyed-side-effect


@wfr.activity(name="append_transcript")
def append_transcript(ctx: WorkflowActivityContext, chunk: dict) -> None:
    cache.append(f"transcript:{chunk['call']}", chunk["text"])  # want: unkeyed-side-effect

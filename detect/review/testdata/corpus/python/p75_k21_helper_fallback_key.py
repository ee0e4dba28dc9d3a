"""A store helper falls back to a fresh id only when its caller sends
none; the activity always sends the key from its input, so a retry writes
the same record. (Issue 21: the shape of a job service whose handler
takes the caller's job id first.)"""
# corpus: negative
# negative-for: key-generated-in-body
import uuid

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


def _save_job(client: DaprClient, job_id: str, spec: dict) -> str:
    key = job_id or uuid.uuid4().hex
    client.save_state(store_name="jobs", key=key, value=str(spec))
    return key


@wfr.activity(name="queue_crawl")
def queue_crawl(ctx: WorkflowActivityContext, req: dict) -> str:
    with DaprClient() as client:
        return _save_job(client, req["jobId"], {"url": req["url"]})

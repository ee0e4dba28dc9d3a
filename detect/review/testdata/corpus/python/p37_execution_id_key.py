# corpus: negative (already idempotent)
# negative-for: per-attempt-key, retry-in-body, unkeyed-side-effect, key-generated-in-body
"""Keys each chunk on the task execution id, which every retry shares, and paces the writes."""
import time

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="store_chunks")
def store_chunks(ctx: WorkflowActivityContext, chunks: list) -> int:
    execution_id = ctx.get_inner_context().task_execution_id
    with DaprClient() as client:
        for i, chunk in enumerate(chunks):
            client.save_state("statestore", f"{execution_id}-{i}", chunk)
            time.sleep(0.05)
    return len(chunks)

"""A rate-limit counter keyed by the minute: the clock cut to a window is a
key every retry inside that minute shares, not one made per attempt.
(Issue 21: the shape of an MCP middleware's rate-limit check.)"""
# corpus: negative
# negative-for: key-generated-in-body
import time

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="check_quota")
def check_quota(ctx: WorkflowActivityContext, call: dict) -> None:
    window = f"quota:{call['tool']}:{int(time.time()) // 60}"
    with DaprClient() as client:
        state = client.get_state(store_name="quotas", key=window)
        if state.data and int(state.data) >= 100:
            raise RuntimeError("quota exceeded for this minute")

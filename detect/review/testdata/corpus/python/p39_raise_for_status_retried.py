"""raise_for_status() raises HTTPError for a 422 as for a 503, and the
workflow calls the activity with a RetryPolicy, which has no error
predicate: the validation failure is retried."""
from datetime import timedelta

import requests
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

retry = wf.RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=5)


@wfr.workflow(name="signup")
def signup(ctx: wf.DaprWorkflowContext, user: dict):
    return (yield ctx.call_activity(create_account, input=user, retry_policy=retry))  # want: retried-rejection


@wfr.activity(name="create_account")
def create_account(ctx: wf.WorkflowActivityContext, user: dict) -> str:
    resp = requests.put(f"https://accounts.example/users/{user['id']}", json=user, timeout=10)
    resp.raise_for_status()
    return user["id"]

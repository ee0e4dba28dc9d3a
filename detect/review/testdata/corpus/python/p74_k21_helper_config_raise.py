"""The activity branches on its input and calls a client helper that
raises when its token is not configured, or when the service's answer is
malformed: neither is a rejection of the input (a test in the caller
guards the call, not the helper's raise)."""
# corpus: negative
# negative-for: retried-rejection
import os
from datetime import timedelta

import dapr.ext.workflow as wf
import requests

wfr = wf.WorkflowRuntime()


class TeamApiError(Exception):
    pass


def _request(path: str) -> dict:
    token = os.environ.get("TEAM_API_TOKEN", "").strip()
    if not token:
        raise TeamApiError("TEAM_API_TOKEN is required for the team API")
    resp = requests.get("https://teams.example" + path, headers={"Authorization": token}, timeout=10)
    body = resp.json()
    if not isinstance(body.get("members"), list):
        raise TeamApiError("team status response was malformed (members must be a list)")
    return {"members": len(body["members"])}


@wfr.workflow(name="team_status")
def team_status(ctx: wf.DaprWorkflowContext, req: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=2), max_number_of_attempts=4)
    return (yield ctx.call_activity(team_op, input=req, retry_policy=policy))


@wfr.activity(name="team_op")
def team_op(ctx: wf.WorkflowActivityContext, req: dict) -> dict:
    if req.get("op") == "status":
        return _request(f"/teams/{req['team']}/status")
    return {"skipped": True}

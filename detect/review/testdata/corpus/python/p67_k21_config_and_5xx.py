"""A failure on configuration (a missing token) and on any status from 400
up, 5xx included: neither is a rejection of the input, and the retry
policy is right to redrive them."""
# corpus: negative
# negative-for: retried-rejection
import os
from datetime import timedelta

import dapr.ext.workflow as wf
import requests

wfr = wf.WorkflowRuntime()
API_TOKEN = os.environ.get("API_TOKEN", "")


@wfr.workflow(name="sync_team")
def sync_team(ctx: wf.DaprWorkflowContext, team: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=2), max_number_of_attempts=5)
    return (yield ctx.call_activity(fetch_team, input=team, retry_policy=policy))


@wfr.activity(name="fetch_team")
def fetch_team(ctx: wf.WorkflowActivityContext, team: dict) -> dict:
    if not API_TOKEN:
        raise RuntimeError("API_TOKEN is required for the team service")
    resp = requests.get(f"https://teams.example/api/teams/{team['id']}", headers={"Authorization": API_TOKEN}, timeout=10)
    if resp.status_code >= 400:
        raise RuntimeError(f"team service answered HTTP {resp.status_code}")
    return {"id": team["id"], "members": len(resp.json().get("members", []))}

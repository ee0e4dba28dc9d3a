"""Arguments that do not parse fail the same way on every attempt: raised
from the handler of the input's parse, they are a rejection the policy
retries. A server's answer that does not parse may be a cut response,
which a retry can fix. (Issue 21: the shape of an agent framework's tool
runner.)"""
import json
from datetime import timedelta

import dapr.ext.workflow as wf
import requests

wfr = wf.WorkflowRuntime()


class ToolError(Exception):
    pass


@wfr.workflow(name="agent_turn")
def agent_turn(ctx: wf.DaprWorkflowContext, turn: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=3)
    result = yield ctx.call_activity(run_tool, input=turn["tool_call"], retry_policy=policy)  # want: retried-rejection, shared-retry-policy
    status = yield ctx.call_activity(tool_status, input=turn["tool_call"], retry_policy=policy)  # want: shared-retry-policy
    return {"result": result, "status": status}


@wfr.activity(name="run_tool")
def run_tool(ctx: wf.WorkflowActivityContext, call: dict) -> dict:
    raw = call.get("arguments", "")
    try:
        args = json.loads(raw) if raw else {}
    except json.JSONDecodeError as exc:
        raise ToolError(f"Invalid JSON in tool arguments: {exc}") from exc
    return {"tool": call["name"], "argc": len(args)}


@wfr.activity(name="tool_status")
def tool_status(ctx: wf.WorkflowActivityContext, call: dict) -> str:
    resp = requests.get(f"https://tools.example/status/{call['name']}", timeout=5)
    try:
        body = resp.json()
    except ValueError as exc:
        raise RuntimeError(f"invalid JSON from the tool service: {exc}") from exc
    return str(body.get("status"))

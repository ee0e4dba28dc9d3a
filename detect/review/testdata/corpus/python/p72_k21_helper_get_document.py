"""A client helper GETs the whole run record and the activity returns it:
every item lands in the history. Its POST that starts a run answers with
an acknowledgement, which is no document."""
import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
BASE = "https://runs.example/api"


def _get(path: str) -> dict:
    resp = requests.get(BASE + path, timeout=10)
    resp.raise_for_status()
    return resp.json()


def _post(path: str, body: dict) -> dict:
    resp = requests.post(BASE + path, json=body, timeout=10)  # want: unkeyed-side-effect
    resp.raise_for_status()
    return resp.json()


@wfr.activity(name="load_run")
def load_run(ctx: WorkflowActivityContext, run_id: str) -> dict:
    return _get(f"/runs/{run_id}")  # want: large-payload


@wfr.activity(name="start_run")
def start_run(ctx: WorkflowActivityContext, req: dict) -> dict:
    return _post("/runs", {"suite": req["suite"], "runKey": req["runKey"]})

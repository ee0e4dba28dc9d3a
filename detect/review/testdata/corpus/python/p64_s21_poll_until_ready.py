"""Starts an export job once, then waits for it to finish by reading its
status every second until a deadline: the loop polls for a result, it
does not retry a failure. The start carries the order id as its key.
corpus: negative
negative-for: retry-in-body"""
import time

import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
EXPORTS = "https://exports.example.com"


@wfr.activity(name="export_and_wait")
def export_and_wait(ctx: WorkflowActivityContext, order: dict) -> str:
    job = requests.post(f"{EXPORTS}/jobs", json=order, headers={"Idempotency-Key": order["id"]}).json()["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            status = requests.get(f"{EXPORTS}/jobs/{job}").json()["status"]
            if status == "done":
                return job
        except requests.ConnectionError:
            pass
        time.sleep(1.0)
    raise TimeoutError(f"export {job} still running")

"""Keys a transfer on ctx.task_id, the per-attempt scheduling id."""
import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="transfer_funds")
def transfer_funds(ctx: WorkflowActivityContext, transfer: dict) -> int:
    key = f"{ctx.workflow_id}-{ctx.task_id}"
    resp = requests.post(
        "https://bank.example.com/transfers",
        json={"amount": transfer["amount"]},
        headers={"Idempotency-Key": key},  # want: per-attempt-key
        timeout=10,
    )
    return resp.status_code

"""Appends an audit line to a local file."""
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="append_audit_log")
def append_audit_log(ctx: WorkflowActivityContext, event: dict) -> None:
    with open("/var/log/orders/audit.log", "a", encoding="utf-8") as f:  # want: unkeyed-side-effect
        f.write(f"{event['type']} {event['order_id']}\n")

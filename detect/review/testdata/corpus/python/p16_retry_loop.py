"""Retries the warehouse call in a loop with time.sleep."""
import time

import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="reserve_stock")
def reserve_stock(ctx: WorkflowActivityContext, req: dict) -> None:
    for attempt in range(5):  # want: retry-in-body
        try:
            resp = requests.put(f"http://warehouse/reservations/{req['order_id']}", json=req, timeout=5)
            resp.raise_for_status()
            return
        except requests.RequestException:
            time.sleep(2**attempt)
    raise RuntimeError("warehouse unavailable")

"""POSTs to another service of the same cluster, whose base URL comes
from the environment with an in-cluster default, through a helper. Its
handler is not in the reviewed tree: twice cannot see what it does and
says so (code twice cannot see), rather than calling it a write.
corpus: negative
negative-for: unkeyed-side-effect"""
import os

import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


def _orders_url() -> str:
    return os.environ.get("ORDERS_URL", "http://orders.shop.svc.cluster.local:8080").rstrip("/")


def _post(url: str, body: dict) -> dict:
    resp = requests.post(url, json=body, timeout=30)
    resp.raise_for_status()
    return {"status": resp.status_code}


@wfr.activity(name="hold_order")
def hold_order(ctx: WorkflowActivityContext, order: dict) -> dict:
    endpoint = f"{_orders_url()}/api/orders/hold"
    return _post(endpoint, {"id": order["id"]})

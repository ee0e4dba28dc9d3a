"""Decrements stock kept in the Dapr state store: read, subtract, save to
the same key. A retry subtracts twice."""
import json

import dapr.ext.workflow as wf
from dapr.clients import DaprClient

wfr = wf.WorkflowRuntime()


@wfr.activity(name="reserve_stock")
def reserve_stock(ctx: wf.WorkflowActivityContext, line: dict) -> int:
    with DaprClient() as client:
        item = client.get_state("inventory", line["sku"])
        stock = json.loads(item.data)["stock"] - line["quantity"]
        client.save_state("inventory", line["sku"], json.dumps({"stock": stock}))  # want: unkeyed-side-effect
        return stock

"""A 404 from the catalogue raised as a failure: the item will not appear
on a retry, and the call site retries it."""
from datetime import timedelta

import dapr.ext.workflow as wf
import requests

wfr = wf.WorkflowRuntime()


@wfr.workflow(name="price_basket")
def price_basket(ctx: wf.DaprWorkflowContext, basket: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=1), max_number_of_attempts=3)
    return (yield ctx.call_activity(price_item, input=basket["sku"], retry_policy=policy))  # want: retried-rejection


@wfr.activity(name="price_item")
def price_item(ctx: wf.WorkflowActivityContext, sku: str) -> int:
    resp = requests.get(f"https://catalogue.example/items/{sku}", timeout=5)
    if resp.status_code == 404:
        raise RuntimeError(f"catalogue answered {resp.status_code} for {sku}")
    return int(resp.json()["price_cents"])

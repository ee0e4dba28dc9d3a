# corpus: negative (already idempotent)
# negative-for: large-payload
"""Stores the rates and returns a status and a key."""
import httpx
from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="fetch_shipping_rates")
def fetch_shipping_rates(ctx: WorkflowActivityContext, zip_code: str) -> dict:
    resp = httpx.get(f"https://carrier.example.com/rates?zip={zip_code}", timeout=10)
    resp.raise_for_status()
    key = f"rates-{zip_code}"
    with DaprClient() as client:
        client.save_state("statestore", key, resp.text)
    return {"status": "ok", "rates_key": key}

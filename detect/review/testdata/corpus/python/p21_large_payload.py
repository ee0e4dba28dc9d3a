"""Returns the carrier's whole rate response."""
import httpx
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="fetch_shipping_rates")
def fetch_shipping_rates(ctx: WorkflowActivityContext, zip_code: str) -> dict:
    resp = httpx.get(f"https://carrier.example.com/rates?zip={zip_code}", timeout=10)
    resp.raise_for_status()
    return resp.json()  # want: large-payload

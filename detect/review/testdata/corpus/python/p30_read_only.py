# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, check-then-act, large-payload
"""A read-only lookup: nothing observable."""
import requests
from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="get_customer_tier")
def get_customer_tier(ctx: WorkflowActivityContext, customer_id: str) -> str:
    with DaprClient() as client:
        cached = client.get_state("statestore", f"tier-{customer_id}")
        if cached.data:
            return cached.data.decode()
    resp = requests.get(f"https://crm.example.com/customers/{customer_id}", timeout=5)
    resp.raise_for_status()
    return resp.json()["tier"]

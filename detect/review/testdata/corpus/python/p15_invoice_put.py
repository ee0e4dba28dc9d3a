# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, key-generated-in-body
"""PUT of the whole computed invoice to a fixed key (Dapr state)."""
import json

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="put_invoice_document")
def put_invoice_document(ctx: WorkflowActivityContext, invoice: dict) -> str:
    invoice["total"] = sum(line["cents"] for line in invoice["lines"])
    key = f"invoice-{invoice['order_id']}"
    with DaprClient() as client:
        client.save_state(store_name="statestore", key=key, value=json.dumps(invoice))
    return key

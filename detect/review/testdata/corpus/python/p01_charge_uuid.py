"""Charges through Stripe's REST API with a fresh UUID as the idempotency key."""
import uuid

import requests
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.activity(name="charge_card")
def charge_card(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    resp = requests.post(
        "https://api.stripe.com/v1/payment_intents",
        data={"amount": order["amount"], "currency": "usd"},
        headers={"Idempotency-Key": str(uuid.uuid4())},  # want: key-generated-in-body
        timeout=10,
    )
    resp.raise_for_status()
    return resp.json()["id"]

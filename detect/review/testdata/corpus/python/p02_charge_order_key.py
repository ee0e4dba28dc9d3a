# corpus: negative (already idempotent)
# negative-for: key-generated-in-body, unkeyed-side-effect
"""The idempotency key is derived from the order id in the input."""
import requests
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.activity(name="charge_card")
def charge_card(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    headers = {"Idempotency-Key": f"charge-{order['order_id']}"}
    resp = requests.post(
        "https://api.stripe.com/v1/payment_intents",
        data={"amount": order["amount"], "currency": "usd"},
        headers=headers,
        timeout=10,
    )
    resp.raise_for_status()
    return resp.json()["id"]

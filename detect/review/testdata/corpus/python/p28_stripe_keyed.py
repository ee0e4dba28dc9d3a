# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect, key-generated-in-body
"""Stripe's SDK with an idempotency_key from the order id."""
import stripe
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="create_payment_intent")
def create_payment_intent(ctx: WorkflowActivityContext, order: dict) -> str:
    intent = stripe.PaymentIntent.create(
        amount=order["amount"],
        currency="usd",
        customer=order["customer_id"],
        confirm=True,
        idempotency_key=f"pi-{order['id']}",
    )
    return intent.id

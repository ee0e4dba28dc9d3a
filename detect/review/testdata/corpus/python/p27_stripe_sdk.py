"""Stripe's SDK with no idempotency_key."""
import stripe
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="create_payment_intent")
def create_payment_intent(ctx: WorkflowActivityContext, order: dict) -> str:
    intent = stripe.PaymentIntent.create(  # want: unkeyed-side-effect
        amount=order["amount"],
        currency="usd",
        customer=order["customer_id"],
        confirm=True,
    )
    return intent.id

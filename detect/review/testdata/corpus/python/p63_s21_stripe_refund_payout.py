"""Refunds an order and pays the seller out through Stripe. The refund
has no idempotency key: a second run refunds twice. The payout carries a
key made from the order id: Stripe returns the first payout."""
import stripe
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="refund_order")
def refund_order(ctx: WorkflowActivityContext, order: dict) -> str:
    refund = stripe.Refund.create(payment_intent=order["payment_intent"])  # want: unkeyed-side-effect
    return refund.id


@wfr.activity(name="pay_out")
def pay_out(ctx: WorkflowActivityContext, order: dict) -> str:
    payout = stripe.Payout.create(amount=order["seller_cents"], currency="eur", idempotency_key=f"payout-{order['id']}")
    return payout.id


@wfr.activity(name="capture_hold")
def capture_hold(ctx: WorkflowActivityContext, order: dict) -> str:
    intent = stripe.PaymentIntent.capture(order["payment_intent"])  # want: unkeyed-side-effect
    return intent.status

"""Finds the customer by email with a Stripe search and creates one when
none is found: two overlapping attempts both find nothing and both
create (list/search-then-create), and the create has no idempotency key:
a second customer."""
import stripe
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="ensure_customer")
def ensure_customer(ctx: WorkflowActivityContext, signup: dict) -> str:
    found = stripe.Customer.search(query=f"email:'{signup['email']}'")  # want: check-then-act
    if found.data:
        return found.data[0].id
    customer = stripe.Customer.create(email=signup["email"], name=signup["name"])  # want: unkeyed-side-effect
    return customer.id

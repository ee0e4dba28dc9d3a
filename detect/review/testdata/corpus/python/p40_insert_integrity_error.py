"""corpus: negative
negative-for: unkeyed-side-effect
Inserts the payment row keyed on the payment id and swallows the unique
constraint's IntegrityError: the database refuses the repeat."""
import dapr.ext.workflow as wf
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import Payment, engine

wfr = wf.WorkflowRuntime()


@wfr.activity(name="record_payment")
def record_payment(ctx: wf.WorkflowActivityContext, payment: dict) -> bool:
    with Session(engine) as session:
        try:
            session.add(Payment(payment_id=payment["id"], amount=payment["amount"]))
            session.commit()
        except IntegrityError:
            session.rollback()
            return False
        return True

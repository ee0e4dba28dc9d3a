# corpus: negative (already idempotent)
# negative-for: check-then-act, unkeyed-side-effect
"""The seed's CORRECT example: one conditional insert, then read back."""
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

from .models import Shipment, engine

wfr = WorkflowRuntime()


@wfr.activity(name="create_shipment")
def create_shipment(ctx: WorkflowActivityContext, order: dict) -> int:
    with Session(engine) as session:
        stmt = insert(Shipment).values(order_id=order["id"], address=order["address"])
        session.execute(stmt.on_conflict_do_nothing(index_elements=["order_id"]))
        session.commit()
        return session.scalars(select(Shipment.id).where(Shipment.order_id == order["id"])).one()

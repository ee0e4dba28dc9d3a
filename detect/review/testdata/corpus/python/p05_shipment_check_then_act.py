"""The seed's WRONG example: find by key, return if present, else create."""
from sqlalchemy.orm import Session
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

from .models import Shipment, engine

wfr = WorkflowRuntime()


@wfr.activity(name="create_shipment")
def create_shipment(ctx: WorkflowActivityContext, order: dict) -> int:
    with Session(engine) as session:
        existing = session.query(Shipment).filter_by(order_id=order["id"]).first()  # want: check-then-act
        if existing:
            return existing.id
        shipment = Shipment(order_id=order["id"], address=order["address"])
        session.add(shipment)  # want: unkeyed-side-effect
        session.commit()
        return shipment.id

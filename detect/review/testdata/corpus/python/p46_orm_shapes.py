"""ORM writes: Django's get_or_create and SQLAlchemy's merge find the row
the first run wrote; objects.create and a Core insert() do not; a query
that returns every row puts the whole result set in the history."""
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from shop.models import Coupon, Customer, Redemption, engine

wfr = WorkflowRuntime()


@wfr.activity(name="ensure_customer")
def ensure_customer(ctx: WorkflowActivityContext, customer: dict) -> int:
    row, _ = Customer.objects.get_or_create(email=customer["email"], defaults={"name": customer["name"]})
    return row.id


@wfr.activity(name="upsert_coupon")
def upsert_coupon(ctx: WorkflowActivityContext, coupon: dict) -> None:
    with Session(engine) as session:
        session.merge(Coupon(code=coupon["code"], percent=coupon["percent"]))
        session.commit()


@wfr.activity(name="redeem_coupon")
def redeem_coupon(ctx: WorkflowActivityContext, redemption: dict) -> None:
    Redemption.objects.create(code=redemption["code"], order=redemption["order"])  # want: unkeyed-side-effect


@wfr.activity(name="record_redemption")
def record_redemption(ctx: WorkflowActivityContext, redemption: dict) -> None:
    with Session(engine) as session:
        session.execute(insert(Redemption).values(code=redemption["code"], order=redemption["order"]))  # want: unkeyed-side-effect
        session.commit()


@wfr.activity(name="list_coupons")
def list_coupons(ctx: WorkflowActivityContext, _: None) -> list:
    with Session(engine) as session:
        result = session.execute(select(Coupon))
        return result.all()  # want: large-payload


@wfr.activity(name="export_customers")
def export_customers(ctx: WorkflowActivityContext, _: None) -> list:
    conn = engine.raw_connection()
    cursor = conn.cursor()
    cursor.execute("SELECT id, email FROM customers")
    return cursor.fetchall()  # want: large-payload

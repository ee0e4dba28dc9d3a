"""pymongo writes of four shapes: $inc counts twice; replace_one writes
the whole document to its key; insert_one keyed by _id from the input is
refused the second time; insert_one with no _id adds a second document."""
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime
from pymongo import MongoClient

wfr = WorkflowRuntime()
db = MongoClient("mongodb://mongo:27017").shop


@wfr.activity(name="count_sale")
def count_sale(ctx: WorkflowActivityContext, sale: dict) -> None:
    db.products.update_one({"_id": sale["sku"]}, {"$inc": {"sold": sale["qty"]}})  # want: unkeyed-side-effect


@wfr.activity(name="store_profile")
def store_profile(ctx: WorkflowActivityContext, profile: dict) -> None:
    db.profiles.replace_one({"_id": profile["id"]}, profile)


@wfr.activity(name="store_order")
def store_order(ctx: WorkflowActivityContext, order: dict) -> None:
    db.orders.insert_one({"_id": order["id"], "total": order["total"]})


@wfr.activity(name="log_visit")
def log_visit(ctx: WorkflowActivityContext, visit: dict) -> None:
    db.visits.insert_one({"page": visit["page"], "user": visit["user"]})  # want: unkeyed-side-effect

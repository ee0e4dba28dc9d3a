# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect
"""A Mongo upsert keyed on the order id."""
from pymongo import MongoClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
orders = MongoClient()["shop"]["orders"]


@wfr.activity(name="save_order")
def save_order(ctx: WorkflowActivityContext, order: dict) -> str:
    orders.update_one({"_id": order["id"]}, {"$set": order}, upsert=True)
    return order["id"]

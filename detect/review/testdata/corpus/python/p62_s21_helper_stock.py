"""A helper loads the product record from the state store; the activity
builds the new record with the quantity minus the order's and saves it
under the record's own id with no etag: a retry takes the stock down
twice."""
import pickle
from dataclasses import dataclass

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
STORE = "inventory"


@dataclass
class Stock:
    sku: str
    quantity: int


def load_stock(sku: str):
    with DaprClient() as client:
        state = client.get_state(store_name=STORE, key=sku)
        if not state.data:
            return None
        return pickle.loads(state.data)


@wfr.activity(name="take_stock")
def take_stock(ctx: WorkflowActivityContext, line: dict) -> bool:
    current = load_stock(line["sku"])
    if current is None:
        return False
    updated = Stock(sku=current.sku, quantity=current.quantity - line["quantity"])
    with DaprClient() as client:
        client.save_state(store_name=STORE, key=updated.sku, value=pickle.dumps(updated))  # want: unkeyed-side-effect
    return True

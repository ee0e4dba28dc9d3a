"""Service invocation and output bindings. The quote handler this app
serves only calculates: asking it twice changes nothing. The reserve
handler takes the stock down on every request (a read-modify-write with
no record of the order): a second run reserves again. The SMS goes out
through a Twilio output binding with no dedupe: a second text."""
import json

from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime
from flask import Flask, request

wfr = WorkflowRuntime()
app = Flask(__name__)


@app.route("/quote", methods=["POST"])
def quote():
    order = request.get_json()
    return {"total": sum(line["price"] * line["qty"] for line in order["lines"])}


@app.route("/reserve", methods=["POST"])
def reserve():
    order = request.get_json()
    with DaprClient() as client:
        item = client.get_state("stock", order["sku"])
        left = json.loads(item.data)["qty"] - order["qty"]
        client.save_state("stock", order["sku"], json.dumps({"qty": left}))  # want: unkeyed-side-effect
    return {"left": left}


@wfr.activity(name="price_order")
def price_order(ctx: WorkflowActivityContext, order: dict) -> float:
    with DaprClient() as client:
        resp = client.invoke_method("orders", "quote", data=json.dumps(order), http_verb="POST")
        return json.loads(resp.data)["total"]


@wfr.activity(name="reserve_order")
def reserve_order(ctx: WorkflowActivityContext, order: dict) -> int:
    with DaprClient() as client:
        resp = client.invoke_method("orders", "reserve", data=json.dumps(order))
        return json.loads(resp.data)["left"]


@wfr.activity(name="text_customer")
def text_customer(ctx: WorkflowActivityContext, order: dict) -> None:
    with DaprClient() as client:
        client.invoke_binding("twilio-sms", "create", json.dumps({"toNumber": order["phone"]}))  # want: unkeyed-side-effect
        client.invoke_binding("orders-archive", "get", "")

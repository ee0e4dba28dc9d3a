"""A POST made with requests.request, a page fetched and returned whole,
a ledger line appended through a Path, an append blob block: each repeats
or piles up on a second run. Logging in between is not a write."""
import logging
from pathlib import Path

import requests
from azure.storage.blob import BlobClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
log = logging.getLogger(__name__)
ledger = Path("/var/lib/shop/ledger.txt")


@wfr.activity(name="notify_partner")
def notify_partner(ctx: WorkflowActivityContext, order: dict) -> None:
    log.info("notifying partner of %s", order["id"])
    requests.request("POST", "https://partner.example.com/orders", json=order, timeout=10)  # want: unkeyed-side-effect


@wfr.activity(name="fetch_catalogue")
def fetch_catalogue(ctx: WorkflowActivityContext, _: None) -> str:
    resp = requests.get("https://partner.example.com/catalogue", timeout=10)
    return resp.text  # want: large-payload


@wfr.activity(name="append_ledger")
def append_ledger(ctx: WorkflowActivityContext, entry: dict) -> None:
    with ledger.open("a") as fh:  # want: unkeyed-side-effect
        fh.write(f"{entry['order']},{entry['amount']}\n")


@wfr.activity(name="append_audit_blob")
def append_audit_blob(ctx: WorkflowActivityContext, entry: dict) -> None:
    blob = BlobClient.from_connection_string("UseDevelopmentStorage=true", "audit", "log")
    blob.append_block(f"{entry['order']}\n")  # want: unkeyed-side-effect

"""Record keys made from every kind of value that is new on each run: a
UUID from the uuid6 and uuid_utils packages, a short uuid, an ObjectId, a
ULID, a nano id, a token from secrets, a random number, random bytes, the
clock. Each differs on the retry, so the record is written under a new
key every time."""
import os
import random
import secrets
import time

import boto3
import nanoid
import shortuuid
import ulid
import uuid6
import uuid_utils
from bson import ObjectId
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
table = boto3.resource("dynamodb").Table("receipts")


@wfr.activity(name="receipt_uuid6")
def receipt_uuid6(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": str(uuid6.uuid7()), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_uuid_utils")
def receipt_uuid_utils(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": str(uuid_utils.uuid4()), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_shortuuid")
def receipt_shortuuid(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": shortuuid.uuid(), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_object_id")
def receipt_object_id(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": str(ObjectId()), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_ulid")
def receipt_ulid(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": str(ulid.new()), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_nanoid")
def receipt_nanoid(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": nanoid.generate(), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_token")
def receipt_token(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": secrets.token_hex(8), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_random")
def receipt_random(ctx: WorkflowActivityContext, order: dict) -> None:
    suffix = random.randint(0, 1_000_000)
    table.put_item(Item={"id": f"{order['id']}-{suffix}", "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_urandom")
def receipt_urandom(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": os.urandom(8).hex(), "order": order["id"]})  # want: key-generated-in-body


@wfr.activity(name="receipt_clock")
def receipt_clock(ctx: WorkflowActivityContext, order: dict) -> None:
    table.put_item(Item={"id": f"{order['id']}-{time.time_ns()}", "order": order["id"]})  # want: key-generated-in-body

"""DynamoDB, SES and SQS from one service. A points balance kept with
ADD counts twice; the same update with a ConditionExpression on the last
applied order refuses the repeat; a put with attribute_not_exists refuses
a second insert; an SES receipt goes out again; an SQS message with no
deduplication id is delivered twice."""
import boto3
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
dynamodb = boto3.client("dynamodb")
ses = boto3.client("ses")
sqs = boto3.client("sqs")


@wfr.activity(name="add_points")
def add_points(ctx: WorkflowActivityContext, order: dict) -> None:
    dynamodb.update_item(  # want: unkeyed-side-effect
        TableName="loyalty",
        Key={"customer": {"S": order["customer"]}},
        UpdateExpression="ADD points :n",
        ExpressionAttributeValues={":n": {"N": str(order["points"])}},
    )


@wfr.activity(name="add_points_once")
def add_points_once(ctx: WorkflowActivityContext, order: dict) -> None:
    dynamodb.update_item(
        TableName="loyalty",
        Key={"customer": {"S": order["customer"]}},
        UpdateExpression="ADD points :n SET last_order = :o",
        ConditionExpression="attribute_not_exists(last_order) OR last_order <> :o",
        ExpressionAttributeValues={":n": {"N": str(order["points"])}, ":o": {"S": order["id"]}},
    )


@wfr.activity(name="record_order_once")
def record_order_once(ctx: WorkflowActivityContext, order: dict) -> None:
    dynamodb.put_item(
        TableName="orders",
        Item={"id": {"S": order["id"]}, "total": {"N": str(order["total"])}},
        ConditionExpression="attribute_not_exists(id)",
    )


@wfr.activity(name="email_receipt")
def email_receipt(ctx: WorkflowActivityContext, order: dict) -> None:
    ses.send_email(  # want: unkeyed-side-effect
        Source="shop@example.com",
        Destination={"ToAddresses": [order["email"]]},
        Message={"Subject": {"Data": "Your receipt"}, "Body": {"Text": {"Data": f"Order {order['id']}"}}},
    )


@wfr.activity(name="queue_fulfilment")
def queue_fulfilment(ctx: WorkflowActivityContext, order: dict) -> None:
    sqs.send_message(QueueUrl="https://sqs.example.com/fulfilment", MessageBody=order["id"])  # want: unkeyed-side-effect

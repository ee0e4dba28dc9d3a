"""Sends an SMS through Twilio."""
from twilio.rest import Client
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
client = Client()


@wfr.activity(name="send_delivery_sms")
def send_delivery_sms(ctx: WorkflowActivityContext, text: dict) -> str:
    message = client.messages.create(to=text["to"], from_="+15550001111", body=text["body"])  # want: unkeyed-side-effect
    return message.sid

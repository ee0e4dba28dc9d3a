"""Sends the receipt with smtplib and no dedupe record."""
import smtplib
from email.message import EmailMessage

from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="send_receipt")
def send_receipt(ctx: WorkflowActivityContext, order: dict) -> None:
    msg = EmailMessage()
    msg["Subject"] = f"Your order {order['id']}"
    msg["To"] = order["email"]
    msg.set_content("Thanks for your order!")
    with smtplib.SMTP("smtp.example.com", 587) as server:
        server.starttls()
        server.send_message(msg)  # want: unkeyed-side-effect

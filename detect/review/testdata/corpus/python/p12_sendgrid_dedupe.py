# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect
"""Claims a dedupe record (SET NX) before sending with SendGrid."""
import os

import redis
from sendgrid import SendGridAPIClient
from sendgrid.helpers.mail import Mail
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
r = redis.Redis()


@wfr.activity(name="send_receipt")
def send_receipt(ctx: WorkflowActivityContext, order: dict) -> str:
    if not r.set(f"dedupe:receipt:{order['id']}", 1, nx=True, ex=30 * 86400):
        return "already sent"
    message = Mail(from_email="shop@example.com", to_emails=order["email"], subject="Your order", html_content="Thanks!")
    SendGridAPIClient(os.environ["SENDGRID_API_KEY"]).send(message)
    return "sent"

"""Asks a model to summarise a ticket, then posts the summary to the
ticket's channel. The model call is a question, not a message sent: only
the publish repeats. The input's fields are read with .get (a dict in
memory, not a store), so no check-then-act."""
import anthropic
from opentelemetry import trace
from dapr.clients import DaprClient
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
llm = anthropic.Anthropic()
tracer = trace.get_tracer("tickets")


@wfr.activity(name="summarise_ticket")
def summarise_ticket(ctx: WorkflowActivityContext, ticket: dict) -> str:
    if ticket.get("summary"):
        return ticket["summary"]
    with tracer.start_as_current_span("summarise"):
        answer = llm.messages.create(model="a-model", max_tokens=400, messages=[{"role": "user", "content": ticket.get("text", "")}])
    text = answer.content[0].text[:500]
    with DaprClient() as dapr:
        dapr.converse_alpha1(name="moderation", inputs=[text])
        dapr.publish_event("pubsub", "ticket-summaries", text)  # want: unkeyed-side-effect
    return text

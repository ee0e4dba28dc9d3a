"""Returns the text of a model's answer: one field of the response, the
value the workflow asked for, not the whole body. (Issue 21: the shape of
the quickstarts' external-system-interaction tutorials.)"""
# corpus: negative
# negative-for: large-payload
import anthropic
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime
from openai import OpenAI

wfr = WorkflowRuntime()


@wfr.activity(name="summarize_claim")
def summarize_claim(ctx: WorkflowActivityContext, claim: dict) -> str:
    client = anthropic.Anthropic()
    resp = client.messages.create(model="claude-x", max_tokens=400, messages=[{"role": "user", "content": claim["text"]}])
    return resp.content[0].text


@wfr.activity(name="classify_claim")
def classify_claim(ctx: WorkflowActivityContext, claim: dict) -> str:
    response = OpenAI().chat.completions.create(model="gpt-x", messages=[{"role": "user", "content": claim["text"]}])
    return response.choices[0].message.content

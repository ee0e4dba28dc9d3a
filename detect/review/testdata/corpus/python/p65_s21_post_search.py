"""Searches a catalogue with a POST (the query is too long for a URL):
a read.
corpus: negative
negative-for: unkeyed-side-effect"""
import requests
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="find_products")
def find_products(ctx: WorkflowActivityContext, query: dict) -> list:
    hits = requests.post("https://catalogue.example.com/products/_search", json=query)
    return [h["id"] for h in hits.json()["hits"]][:20]

"""The activity is wrapped in tenacity's @retry."""
import requests
from tenacity import retry, stop_after_attempt, wait_exponential
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="refresh_catalog")
@retry(stop=stop_after_attempt(5), wait=wait_exponential(multiplier=1, max=30))  # want: retry-in-body
def refresh_catalog(ctx: WorkflowActivityContext, _input=None) -> None:
    requests.put("http://catalog/refresh", timeout=5).raise_for_status()

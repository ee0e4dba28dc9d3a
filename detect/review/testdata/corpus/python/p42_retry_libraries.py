"""Retries written inside activity bodies with the common Python retry
libraries: backoff's decorator, retrying's, retry's retry_call, a
requests session mounted with urllib3's Retry, stamina's retry_context,
and a loop that waits with asyncio.sleep. Each retries inside the body,
invisible to the history and multiplied by the engine's retries."""
import asyncio

import backoff
import requests
import retrying
import stamina
import urllib3
from requests.adapters import HTTPAdapter, Retry
from retry.api import retry_call
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="sync_crm_backoff")
@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=5)  # want: retry-in-body
def sync_crm_backoff(ctx: WorkflowActivityContext, contact: dict) -> None:
    requests.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)


@wfr.activity(name="sync_crm_retrying")
@retrying.retry(stop_max_attempt_number=3)  # want: retry-in-body
def sync_crm_retrying(ctx: WorkflowActivityContext, contact: dict) -> None:
    requests.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)


def _put_contact(contact: dict) -> None:
    requests.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)


@wfr.activity(name="sync_crm_retry_call")
def sync_crm_retry_call(ctx: WorkflowActivityContext, contact: dict) -> None:
    retry_call(_put_contact, fargs=[contact], tries=4, delay=1)  # want: retry-in-body


@wfr.activity(name="sync_crm_adapter")
def sync_crm_adapter(ctx: WorkflowActivityContext, contact: dict) -> None:
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=5, backoff_factor=1)))  # want: retry-in-body
    session.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)


@wfr.activity(name="sync_crm_stamina")
def sync_crm_stamina(ctx: WorkflowActivityContext, contact: dict) -> None:
    for attempt in stamina.retry_context(on=requests.RequestException, attempts=3):  # want: retry-in-body
        with attempt:
            requests.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)


@wfr.activity(name="sync_crm_async_loop")
async def sync_crm_async_loop(ctx: WorkflowActivityContext, contact: dict) -> None:
    for attempt in range(5):  # want: retry-in-body
        try:
            requests.put(f"https://crm.example.com/contacts/{contact['id']}", json=contact, timeout=10)
            return
        except requests.RequestException:
            await asyncio.sleep(2**attempt)


@wfr.activity(name="sync_crm_urllib3")
def sync_crm_urllib3(ctx: WorkflowActivityContext, contact: dict) -> None:
    http = urllib3.PoolManager(retries=urllib3.Retry(total=4, backoff_factor=0.5))  # want: retry-in-body
    http.request("PUT", f"https://crm.example.com/contacts/{contact['id']}", json=contact)

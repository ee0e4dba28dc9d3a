"""A rejection raised inside a try whose handler catches its base class and
returns it as a value: nothing leaves the activity for the policy to retry.
(Issue 21: the shape of a transcript store that raises typed errors and
turns them into a configuration error in its result.)"""
# corpus: negative
# negative-for: retried-rejection, shared-retry-policy
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

POLICY = wf.RetryPolicy(first_retry_interval=timedelta(seconds=2), max_number_of_attempts=3)


class LedgerError(Exception):
    pass


class LedgerInvalidReferenceError(LedgerError):
    pass


@wfr.workflow(name="settle")
def settle(ctx: wf.DaprWorkflowContext, req: dict):
    result = yield ctx.call_activity(close_entry, input=req, retry_policy=POLICY)
    yield ctx.call_activity(lookup_entry, input=req, retry_policy=POLICY)
    return result


@wfr.activity(name="close_entry")
def close_entry(ctx: wf.WorkflowActivityContext, req: dict) -> dict:
    try:
        ref = str(req.get("entryRef") or "").strip()
        if not ref:
            raise LedgerInvalidReferenceError("close_entry requires entryRef")
        return {"closed": ref}
    except LedgerError as exc:
        return {"error": str(exc)}


@wfr.activity(name="lookup_entry")
def lookup_entry(ctx: wf.WorkflowActivityContext, req: dict) -> dict:
    return {"ref": req.get("entryRef")}

"""One module-level RetryPolicy, under two names, passed by the workflow and
by the helper generators it yields from: the journal writes fail only
transiently, the quota check raises a permanent rejection. The policy is
one value for the file; the call that needs a policy of its own is the
rejecting activity's. (Issue 21: the shape of an orchestrator that splits
its steps into helpers sharing one policy constant.)"""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

JOURNAL_RETRY = wf.RetryPolicy(
    first_retry_interval=timedelta(seconds=2),
    max_number_of_attempts=5,
)
# Kept for older call sites.
QUOTA_RETRY = JOURNAL_RETRY


class QuotaRejected(Exception):
    pass


def _open_journal(ctx, job):
    yield ctx.call_activity(write_journal, input={"job": job["id"], "event": "opened"}, retry_policy=JOURNAL_RETRY)


def _check_quota(ctx, job):
    yield ctx.call_activity(check_quota, input=job, retry_policy=QUOTA_RETRY)  # want: retried-rejection, shared-retry-policy


@wfr.workflow(name="run_job")
def run_job(ctx: wf.DaprWorkflowContext, job: dict):
    yield from _open_journal(ctx, job)
    yield from _check_quota(ctx, job)
    yield ctx.call_activity(write_journal, input={"job": job["id"], "event": "done"}, retry_policy=JOURNAL_RETRY)
    return job["id"]


@wfr.activity(name="write_journal")
def write_journal(ctx: wf.WorkflowActivityContext, entry: dict) -> None:
    with open("/var/journal/" + entry["job"], "w") as fh:
        fh.write(entry["event"])


@wfr.activity(name="check_quota")
def check_quota(ctx: wf.WorkflowActivityContext, job: dict) -> dict:
    if job["cpus"] > 64:
        raise QuotaRejected("rejected: more than 64 cpus")
    return {"ok": True}

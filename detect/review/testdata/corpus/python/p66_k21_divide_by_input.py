"""One policy for a step that cannot fail and one that divides by its
input with no test of it: a zero divisor fails the same way on every
attempt, and both calls share the schedule meant for transient failures.
(Issue 21: the shape of the quickstarts' resiliency-and-compensation
tutorial.)"""
from datetime import timedelta

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.workflow(name="split_bill")
def split_bill(ctx: wf.DaprWorkflowContext, bill: dict):
    policy = wf.RetryPolicy(first_retry_interval=timedelta(seconds=2), max_number_of_attempts=3)
    total = yield ctx.call_activity(add_tip, input=bill, retry_policy=policy)  # want: shared-retry-policy
    share = yield ctx.call_activity(per_person, input=bill["people"], retry_policy=policy)  # want: retried-rejection, shared-retry-policy
    return {"total": total, "share": share}


@wfr.activity(name="add_tip")
def add_tip(ctx: wf.WorkflowActivityContext, bill: dict) -> float:
    return bill["amount"] * 1.15


@wfr.activity(name="per_person")
def per_person(ctx: wf.WorkflowActivityContext, people: int) -> float:
    print(f"splitting between {people}", flush=True)
    return round(100 / people, 2)

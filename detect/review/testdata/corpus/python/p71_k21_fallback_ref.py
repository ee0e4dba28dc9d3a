"""The artifact's reference comes from the input when the caller gives one,
else it is made here: a run without it stores a second artifact on every
retry. (Issue 21: the shape of a plan store's persist activity.)"""
import uuid

from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

from .store import plans

wfr = WorkflowRuntime()


@wfr.activity(name="save_plan")
def save_plan(ctx: WorkflowActivityContext, req: dict) -> dict:
    ref = str(req.get("planRef") or "").strip() or f"plan_{uuid.uuid4().hex[:12]}"
    plans.upsert({"planRef": ref, "goal": req["goal"], "steps": req["steps"]})  # want: key-generated-in-body
    return {"planRef": ref}

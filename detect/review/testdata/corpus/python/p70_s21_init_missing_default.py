"""Loads the session document through the app's own store wrapper and,
when there is none yet, initialises it with the default before working
on it: writing a default where nothing was is not a duplicate.
corpus: negative
negative-for: check-then-act"""
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

from .sessions import SessionStore

wfr = WorkflowRuntime()
store = SessionStore()


@wfr.activity(name="open_session")
def open_session(ctx: WorkflowActivityContext, session_id: str) -> dict:
    doc, etag = store.load_with_etag(session_id)
    if etag is None:
        store.save(session_id, {"turns": []})
    return {"session": session_id, "turns": len(doc.get("turns", [])) if doc else 0}

# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect
"""The INSERT refuses the repeat with ON CONFLICT DO NOTHING."""
import psycopg
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()

INSERT_ENTRY = """
    INSERT INTO ledger_entries (order_id, cents)
    VALUES (%(order_id)s, %(cents)s)
    ON CONFLICT (order_id) DO NOTHING
"""


@wfr.activity(name="record_entry")
def record_entry(ctx: WorkflowActivityContext, entry: dict) -> str:
    with psycopg.connect("postgresql://localhost/ledger") as conn:
        conn.execute(INSERT_ENTRY, entry)
    return entry["order_id"]

"""psycopg INSERT with no conflict clause."""
import psycopg
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="record_entry")
def record_entry(ctx: WorkflowActivityContext, entry: dict) -> None:
    with psycopg.connect("postgresql://localhost/ledger") as conn:
        with conn.cursor() as cur:
            cur.execute(  # want: unkeyed-side-effect
                "INSERT INTO ledger_entries (order_id, cents) VALUES (%s, %s)",
                (entry["order_id"], entry["cents"]),
            )
        conn.commit()

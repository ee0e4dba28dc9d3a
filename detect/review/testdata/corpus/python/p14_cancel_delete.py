# corpus: negative (already idempotent)
# negative-for: unkeyed-side-effect
"""DELETE by id: a second delete is a no-op."""
import psycopg2
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="cancel_reservation")
def cancel_reservation(ctx: WorkflowActivityContext, reservation_id: str) -> None:
    conn = psycopg2.connect("dbname=shop")
    with conn, conn.cursor() as cur:
        cur.execute("DELETE FROM reservations WHERE id = %s", (reservation_id,))

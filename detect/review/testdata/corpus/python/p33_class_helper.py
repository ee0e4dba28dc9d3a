"""Activities on a class; the INSERT is in a method the activity calls."""
import sqlite3

from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


class Payments:
    def __init__(self, path: str):
        self.conn = sqlite3.connect(path)

    def _record(self, payment_id: str, cents: int) -> None:
        self.conn.execute("INSERT INTO captures (payment_id, cents) VALUES (?, ?)", (payment_id, cents))  # want: unkeyed-side-effect
        self.conn.commit()

    def capture_payment(self, ctx: WorkflowActivityContext, capture: dict) -> None:
        self._record(capture["payment_id"], capture["cents"])


payments = Payments("payments.db")
wfr.register_activity(payments.capture_payment, name="capture_payment")

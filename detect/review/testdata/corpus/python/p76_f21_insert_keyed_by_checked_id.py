"""corpus: negative (already idempotent)
negative-for: check-then-act, unkeyed-side-effect
Looks a ticket up by the id the caller sends, returns it when found, else
inserts it under that same id: the table's key refuses a second row with
that id, so a repeat that raced past the check fails instead of
duplicating."""
import asyncpg
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
POOL: asyncpg.Pool


@wfr.activity(name="open_ticket")
async def open_ticket(ctx: WorkflowActivityContext, req: dict) -> str:
    ticket_id = req["ticketId"]
    async with POOL.acquire() as con:
        found = await con.fetchrow("SELECT status FROM tickets WHERE id = $1", ticket_id)
        if found is not None:
            return found["status"]
        await con.execute(
            "INSERT INTO tickets (id, status, subject) VALUES ($1, 'open', $2)",
            ticket_id,
            req["subject"],
        )
    return "open"

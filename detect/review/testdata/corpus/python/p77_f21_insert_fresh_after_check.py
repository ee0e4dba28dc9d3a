"""The twins of p76: after the same look-up, one INSERT binds a fresh id
and one leaves the checked column out (the table numbers it): no key refuses the second row."""
import uuid

import asyncpg
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()
POOL: asyncpg.Pool


@wfr.activity(name="open_ticket_fresh")
async def open_ticket_fresh(ctx: WorkflowActivityContext, req: dict) -> str:
    async with POOL.acquire() as con:
        found = await con.fetchrow("SELECT status FROM tickets WHERE id = $1", req["ticketId"])  # want: check-then-act
        if found is not None:
            return found["status"]
        await con.execute(  # want: key-generated-in-body, unkeyed-side-effect
            "INSERT INTO tickets (id, status, subject) VALUES ($1, 'open', $2)",
            uuid.uuid4().hex,
            req["subject"],
        )
    return "open"


@wfr.activity(name="open_ticket_by_subject")
async def open_ticket_by_subject(ctx: WorkflowActivityContext, req: dict) -> str:
    ticket_id = req["ticketId"]
    async with POOL.acquire() as con:
        found = await con.fetchrow("SELECT status FROM tickets WHERE id = $1", ticket_id)  # want: check-then-act
        if found is not None:
            return found["status"]
        await con.execute(  # want: unkeyed-side-effect
            "INSERT INTO tickets (subject, status) VALUES ($1, 'open')",
            req["subject"],
        )
    return "open"

"""Credits a balance in memory and commits: a second run counts twice."""
from sqlalchemy.orm import Session
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

from .models import Account, engine

wfr = WorkflowRuntime()


@wfr.activity(name="credit_account")
def credit_account(ctx: WorkflowActivityContext, credit: dict) -> None:
    with Session(engine) as session:
        account = session.get(Account, credit["account_id"])
        account.balance += credit["cents"]  # want: unkeyed-side-effect
        session.commit()

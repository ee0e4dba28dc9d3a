"""Calls a cart actor through its proxy: reading the cart is a read;
adding the line runs the actor's method again on a second run (two
lines)."""
from dapr.actor import ActorId, ActorProxy
from dapr.ext.workflow import WorkflowActivityContext, WorkflowRuntime

wfr = WorkflowRuntime()


@wfr.activity(name="add_to_cart")
async def add_to_cart(ctx: WorkflowActivityContext, line: dict) -> int:
    proxy = ActorProxy.create("CartActor", ActorId(line["cart"]))
    await proxy.invoke_method("GetCart")
    await proxy.invoke_method("AddLine", line)  # want: unkeyed-side-effect
    return 1

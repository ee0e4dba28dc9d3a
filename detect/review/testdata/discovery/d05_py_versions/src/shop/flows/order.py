# A src/ layout with relative imports; versioned workflows registered by
# decorator and by call, under names imported from another module;
# definitions nested in the function that builds the runtime.
import dapr.ext.workflow as wf

from ..names import ORDER_FLOW, REFUND_FLOW
from .steps import pack


def order_flow_v1(ctx, order):
    yield ctx.call_activity(pack, input=order)


def build():
    wfr = wf.WorkflowRuntime()

    @wfr.versioned_workflow(name=ORDER_FLOW, is_latest=True)
    def order_flow_v2(ctx, order):
        yield ctx.call_activity(pack, input=order)
        yield ctx.call_activity(label, input=order)

    def label(ctx, order):
        return "label"

    wfr.register_activity(label, name="label")
    wfr.register_activity(pack)
    wfr.register_versioned_workflow(refund_v1, name=REFUND_FLOW, version_name="1", is_latest=True)
    audit = make_audit_flow("orders")
    wfr.register_workflow(audit, name="audit_flow")
    return wfr


def make_audit_flow(topic):
    def audit_flow(ctx, order):
        yield ctx.call_activity(pack, input=order)

    return audit_flow


def refund_v1(ctx, order):
    yield ctx.call_activity(pack, input=order)

import dapr.ext.workflow as wf

from activities import ALL
from workflows.onboard import onboard

wfr = wf.WorkflowRuntime()


def _register(fn):
    wfr.register_activity(fn)


def main():
    for fn in ALL:
        _register(fn)
    wfr.register_workflow(onboard)
    wfr.start()

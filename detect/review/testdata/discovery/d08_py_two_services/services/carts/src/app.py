import dapr.ext.workflow as wf

from src.steps import settle

runtime = wf.WorkflowRuntime()
runtime.register_activity(settle)

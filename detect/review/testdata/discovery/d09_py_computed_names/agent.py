# Activity names computed from the agent's name at run time: the prefix
# is a constant, the agent's part is not known, the method's name is
# fn.__name__. Registered through a wrapper that renames what it wraps,
# in loops over methods returning the bound methods, one of two lists.
import functools

import dapr.ext.workflow as wf

from names import PREFIX, scrub


class Agent:
    def __init__(self, name, planner):
        self.name = name
        self.planner = planner

    def think(self, ctx, task):
        return task

    def speak(self, ctx, text):
        return text

    def plan(self, ctx, goal):
        return [goal]

    def replan(self, ctx, goal):
        return [goal, goal]

    def run(self, ctx, goal):
        steps = yield ctx.call_activity(self.plan, input=goal)
        return steps

    def _core(self):
        return (self.think, self.speak)

    def _planning(self):
        return (self.plan,)

    def _fallback(self):
        return (self.replan,)

    def _scoped(self, method):
        method_name = method if isinstance(method, str) else method.__name__
        return f"{PREFIX}.{scrub(self.name)}.{method_name}"

    @staticmethod
    def _renamed(fn, name):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        wrapper.__name__ = name
        return wrapper

    def register(self, runtime: wf.WorkflowRuntime):
        for activity in self._core():
            runtime.register_activity(self._renamed(activity, self._scoped(activity)))
        extra = self._planning() if self.planner else self._fallback()
        for activity in extra:
            runtime.register_activity(self._renamed(activity, self._scoped(activity)))

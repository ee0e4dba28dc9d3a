# Activities registered in a loop over a tuple, each through a wrapper
# that returns a closure (functools.wraps keeps the wrapped name); a bound
# method list returned by a method; a helper that registers its argument.
import functools

import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


def with_tracing(fn):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapped


def reserve_stock(ctx, order):
    return {"reserved": order["id"]}


def release_stock(ctx, order):
    return {"released": order["id"]}


def notify_buyer(ctx, order):
    return None


def _register(fn):
    wfr.register_activity(with_tracing(fn))


class Agent:
    def plan(self, ctx, task):
        return [task]

    def act(self, ctx, step):
        return step

    def _activities(self):
        return (self.plan, self.act)

    def register(self, runtime):
        for activity in self._activities():
            runtime.register_activity(self._renamed(activity))

    @staticmethod
    def _renamed(fn):
        def inner(*a):
            return fn(*a)

        return inner


def start():
    for activity in (reserve_stock, release_stock):
        wfr.register_activity(with_tracing(activity))
    _register(notify_buyer)
    wfr.start()

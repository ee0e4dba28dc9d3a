# The package registers whatever its modules define, found at run time.
import importlib
import inspect
import pkgutil
from pathlib import Path


def _discover():
    found = []
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        mod = importlib.import_module(f".{info.name}", package=__name__)
        for _, obj in inspect.getmembers(mod, inspect.isfunction):
            found.append(obj)
    return found


ALL = _discover()

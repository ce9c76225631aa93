"""Kernel backends (prepare -> compile -> runtime_env), looked up by their registered name
(kernelgen.specs.backends.BACKENDS).

`get_backend(name)` imports `kernelgen.bench.backends.<name>` lazily (so a missing toolchain never breaks the
harness) and builds the backend from the first of these the module defines: a function `create_backend(**opts)`,
`make_backend(**opts)` or `get_backend(**opts)`, or a class whose `name` attribute equals the requested name.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Any

from kernelgen.specs.backends import BACKENDS, backend_options

from ..model import Backend


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (not built, no toolchain, no device); the message says why."""


def get_backend(name: str, **options: Any) -> Backend:
    if name not in BACKENDS:
        raise BackendUnavailable(f"no kernel backend named {name!r} (registered: {', '.join(BACKENDS)})")
    try:
        mod = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{__name__}.{name}":
            raise BackendUnavailable(f"no kernel backend named {name!r} is installed in this build "
                                     f"(module kernelgen.bench.backends.{name} does not exist)") from e
        raise BackendUnavailable(f"backend {name!r} cannot be imported: {e}") from e
    except Exception as e:  # a backend's import-time failure is the backend's, reported as unavailable
        raise BackendUnavailable(f"backend {name!r} failed to import: {type(e).__name__}: {e}") from e
    for factory in ("create_backend", "make_backend", "get_backend"):
        fn = getattr(mod, factory, None)
        if callable(fn):
            return fn(**options)
    for _, cls in inspect.getmembers(mod, inspect.isclass):
        if cls.__module__ == mod.__name__ and getattr(cls, "name", None) == name:
            return cls(**options)
    raise BackendUnavailable(f"module {mod.__name__} defines no backend factory (create_backend) or class "
                             f"with name={name!r}")


def backend_for(evaluation: Any) -> Backend:
    """The backend a spec's evaluation block names, with the options it reads from that block."""
    return get_backend(evaluation.backend, **backend_options(evaluation))

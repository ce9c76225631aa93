"""A long-lived judge for one evaluator worker: runs the judge's steps one after another in one process.

Forked from the fork server (so torch is already imported, and the process is non-dumpable like its parent), it
serves `kernelgen.bench.judge` steps (``prepare``, ``compare``) for every case its worker runs, which saves a
fork and an exit of a torch-sized process per step (about 20 ms each on the 2-core dev machine, three times
the judge's own work on a small case). It is trusted like the per-step judge: it never loads candidate code,
and no case can reach it (cases run in their own PID namespace as another user, with no view of its pipes).

Protocol: requests are JSON lines on the FIFO ``req["requests"]`` (``{"id", "role", "job", "log", "cwd", "env"}``);
for each, after the step has written its result file, one line ``DONE <id> <status>`` on ``req["replies"]``
(status 0, or 70 when the step itself failed). Each step's stdout/stderr go to its own log, its cwd and
environment are the request's, and torch's global settings and the task's modules are restored afterwards, so
one case's reference cannot change how the next case's reference computes. A step that hangs is the client's to
kill (the whole process; the next request starts a new server). A server grown past `RECYCLE_RSS_MIB` exits by
itself after replying, and the next request starts a new one the same way.
"""
from __future__ import annotations

import ctypes
import gc
import json
import os
import sys
import tempfile
import traceback
from contextlib import contextmanager
from pathlib import Path

#: resident size (torch's shared pages included, ~0.5 GiB) past which a server exits after its reply: an evaluate
#: pod runs one server per worker thread, and a big case's freed heap should not stay with it
RECYCLE_RSS_MIB = 1536


@contextmanager
def _case_scope(job: dict):
    """Undo what a case's task code may change in this process: torch's global settings, its modules."""
    import torch
    saved = (torch.get_default_dtype(), torch.is_grad_enabled(), torch.are_deterministic_algorithms_enabled(),
             torch.get_num_threads(), list(sys.path))
    task_dir = str(Path(job.get("validation_dir") or "/nonexistent").resolve())
    try:
        yield
    finally:
        dtype, grad, deterministic, threads, path = saved
        if torch.get_default_dtype() != dtype:    # each setter only when changed: some are slow even as no-ops
            torch.set_default_dtype(dtype)
        if torch.is_grad_enabled() != grad:
            torch.set_grad_enabled(grad)
        if torch.are_deterministic_algorithms_enabled() != deterministic:
            torch.use_deterministic_algorithms(deterministic)
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        sys.path[:] = path
        for name, mod in list(sys.modules.items()):   # the task's own modules are imported afresh per case
            f = getattr(mod, "__dict__", {}).get("__file__") or ""   # no getattr: the candidate stub refuses it
            if name.startswith("kernelgen_task_") or name == "kernel_gen_ops" or f.startswith(task_dir + os.sep):
                sys.modules.pop(name, None)
        gc.collect(0)   # a full collection costs ~0.1 s in a torch-sized heap; tensors go by refcount anyway
        try:
            ctypes.CDLL(None).malloc_trim(0)   # hand the freed tensors' pages back before the next case
        except (OSError, AttributeError):
            pass


def _step(r: dict) -> int:
    from . import judge
    log = os.open(r["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    try:
        os.chdir(r["cwd"])
        os.environ.clear()
        os.environ.update(r["env"])
        tempfile.tempdir = None            # tempfile caches TMPDIR; each case has its own
        with open(r["job"]) as f:
            job = json.load(f)
        with _case_scope(job):
            judge.execute(r["role"], job)
        return 0
    except BaseException:  # noqa: BLE001 - the client sees a missing result file and a non-zero status
        traceback.print_exc()
        return 70
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def _rss_mib() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
    except (OSError, ValueError, IndexError):
        return 0


def serve(req: dict) -> None:
    """The server's loop (in a child of the fork server); returns when the request FIFO closes."""
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)   # fds 1 and 2 become each step's log
    sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
    replies = os.open(req["replies"], os.O_WRONLY)
    with open(req["requests"], "rb", buffering=0) as requests:
        for line in iter(requests.readline, b""):
            if not line.strip():
                continue
            r = json.loads(line)
            code = _step(r)
            os.write(replies, f"DONE {r['id']} {code}\n".encode())
            if _rss_mib() > RECYCLE_RSS_MIB:
                return

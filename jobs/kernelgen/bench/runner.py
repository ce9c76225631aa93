"""The candidate runner: the ONLY process that loads candidate code. It produces raw outputs, nothing else.

Started by `kernelgen.bench.sandbox` inside the jail (`kernelgen.bench.jail`: own mount/PID/network namespaces,
uid nobody, no capabilities, read-only root). It sees the inputs the judge generated (a tensor file), a copy
of the task's module.py (for ModelNew) and its own build; it never sees a seed, a reference output, a
tolerance or the verdict. For every planned call it gives ModelNew a fresh copy of that call's input draw and
writes ``call-<k>.bin`` (the outputs copied the moment the call returned, the inputs as the call left them,
the call's time) to its output directory, then ``status.json``. The judge reads those files; whatever this
process claims is only ever evidence against the candidate (a forged "done" still has its outputs compared).

Fresh outputs are NaN (integers: the type's maximum): torch's deterministic fill is on for every
uninitialised allocation, so a kernel that skips work cannot inherit a previous call's answer from the
allocator. After the last call the runner reports host threads still running and outputs that changed after
their call returned (work finished behind the caller's back), which the judge turns into a failure.
Usage (exec mode): ``python -m kernelgen.bench.runner JOB.json``.
"""
from __future__ import annotations

import importlib.util
import json
import os
import resource
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from . import jail, tensorio
from .compare import _bits_equal

#: what an allocation failure says (C, C++, torch, the simulator); also read in a crashed case's log (judge.py)
OOM_MARKERS = ("Cannot allocate memory", "can't allocate memory", "out of memory", "bad_alloc", "MemoryError")


def _one_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".strip().replace("\n", " ")[:500]


def _kind(e: BaseException) -> str:
    if isinstance(e, MemoryError) or any(m in str(e) for m in OOM_MARKERS):
        return "memory_exceeded"
    if isinstance(e, ImportError) or (isinstance(e, (AttributeError, OSError)) and "kernel_gen_ops" in str(e)):
        return "load_error"
    return "runtime_error"


def _limit_address_space(extra_mib: int) -> None:
    """Cap the address space at what the interpreter and torch already mapped plus the candidate's budget."""
    try:
        with open("/proc/self/statm") as f:
            now = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = now + (extra_mib << 20)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):
        pass


def _clone(x: Any, device: str | None = None) -> Any:
    import torch
    if isinstance(x, torch.Tensor):
        y = x.detach().clone()
        return y.to(device) if device else y
    if isinstance(x, (list, tuple)):
        return type(x)(_clone(v, device) for v in x)
    return x


def tensors(x: Any) -> list:
    import torch
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in tensors(v)]
    return []


def _to_cpu(x: Any) -> Any:
    import torch
    if isinstance(x, torch.Tensor):
        return x.detach().to("cpu", copy=True)
    if isinstance(x, (list, tuple)):
        return type(x)(_to_cpu(v) for v in x)
    return x


def sync(device: str) -> None:
    import torch
    if device.startswith("npu"):
        torch.npu.synchronize()  # provided by torch_npu on a real stack
    elif device.startswith("cuda"):
        torch.cuda.synchronize()


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return -1


def _same(a: Any, b: Any) -> bool:
    import torch
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return _bits_equal(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b)


def _import_path(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def run(job: dict[str, Any]) -> dict[str, Any]:
    import torch
    device = job["device"]
    out_dir = Path(job["out_dir"])
    torch.set_num_threads(1)
    # NaN/max-int fill of every uninitialised allocation; the torch._C setters, because the public
    # torch.use_deterministic_algorithms imports torch._dynamo (seconds per case)
    torch._C._set_deterministic_algorithms(True, warn_only=True)
    torch._C._set_deterministic_fill_uninitialized_memory(True)
    data, _ = tensorio.read(job["inputs"])
    draws, init = data["draws"], data["init"]
    for p in reversed(job.get("python_path", [])):
        sys.path.insert(0, p)
    if job.get("compat_dir"):
        sys.path.append(job["compat_dir"])
    torch.ones(2).add_(1)         # any lazily started torch threads exist before the baseline count
    threads_before = _threads()

    # Everything below may execute candidate code.
    _limit_address_space(int(job["memory_mib"]))
    stage = "loading module.py"
    try:
        mod = _import_path("kernelgen_task_module", Path(job["module"]))
        stage = "running ModelNew"
        with torch.no_grad():
            model = mod.ModelNew(*_clone(init, device))
            if hasattr(model, "to"):
                model = model.to(device)
            live = []
            for k, call in enumerate(job["calls"]):
                args = _clone(draws[int(call["draw"])], device)
                sync(device)
                t0 = time.perf_counter()
                out = model(*args)
                sync(device)
                ms = (time.perf_counter() - t0) * 1e3
                copied = _to_cpu(out)      # copied the moment the call returned: this is what is judged
                tensorio.write(out_dir / f"call-{k}.bin", {"out": copied, "inputs_after": _to_cpu(tensors(args))},
                               meta={"ms": ms})
                live.append((out, copied))
    except BaseException as e:  # noqa: BLE001 - the candidate failed; the judge records why
        return {"status": "error", "kind": _kind(e), "message": f"{stage}: {_one_line(e)}",
                "trace": traceback.format_exception(e)[-6:]}
    changed = [k for k, (out, copied) in enumerate(live) if not _same(out, copied)]
    return {"status": "done", "threads_left": max(0, _threads() - threads_before), "changed_after_return": changed}


def execute(job: dict[str, Any]) -> None:
    """Run one job and write status.json; never raises (the process then _exits without teardown)."""
    try:
        result = run(job)
    except BaseException as e:  # noqa: BLE001
        result = {"status": "error", "kind": _kind(e), "message": f"runner: {_one_line(e)}",
                  "trace": traceback.format_exception(e)[-6:]}
    path = Path(job["out_dir"]) / "status.json"
    tmp = path.with_suffix(".part")
    tmp.write_text(json.dumps(result, default=str))
    os.replace(tmp, path)
    sys.stderr.flush()


def jail_spec(job: dict[str, Any]) -> dict[str, Any]:
    """What the runner's sandbox shows: the interpreter and its packages, the candidate's build, the task's
    compat shims, the judge's inputs (read-only) and its own output directory (writable)."""
    ro = sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, *job.get("python_path", []),
                 *([job["compat_dir"]] if job.get("compat_dir") else []), str(Path(job["inputs"]).parent)})
    return {"ro": ro, "rw": [job["out_dir"]], "tmpfs_mib": job.get("tmpfs_mib", 256), "cwd": "/tmp",
            "fsize_mib": int(job["memory_mib"]) + 64, "devices": not job["device"].startswith("cpu")}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    job = json.loads(Path(argv[0]).read_text())
    import torch  # noqa: F401  - imported before the jail hides the file system it came from
    jail.enter(jail_spec(job))
    os.environ.clear()
    os.environ.update(job.get("env", {}))
    execute(job)
    os._exit(0)   # skip interpreter teardown: candidate extension destructors must not change the outcome


if __name__ == "__main__":
    main()

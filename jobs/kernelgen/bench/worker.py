"""Sandboxed case worker: runs ONE test case of ONE compiled candidate and prints one JSON line.

Started only by `kernelgen.bench.sandbox.run_case` (fresh process, own process group, rlimits, scratch cwd,
no network). Usage: ``python -m kernelgen.bench.worker JOB.json``.

Order of work (why): the candidate runs *before* the reference so it can never find the reference's result
in reused memory; the reference runs on CPU; both get their own clones of one seeded input draw; inputs the
reference leaves untouched must be bit-identical after the candidate (else ``input_mutation``), and inputs the
reference itself updates in place are compared like outputs.

The result line goes to a private duplicate of the original stdout; fd 1 is pointed at stderr before any
task or candidate code runs, so nothing they print can be mistaken for (or forge) the result.
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

RESULT_PREFIX = "KERNELGEN_CASE_RESULT "


class Row(dict):
    """Stands in for the pandas Series row NPUKernelBench passes to get_inputs / custom_check_precision."""

    name: Any = None

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


class Outcome(Exception):
    def __init__(self, verdict: str, message: str, diagnostics: list[str] | None = None):
        super().__init__(message)
        self.verdict, self.message, self.diagnostics = verdict, message, diagnostics or []


def _one_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}".strip().replace("\n", " ")
    return text[:500]


def _tail(e: BaseException) -> list[str]:
    return traceback.format_exception(e)[-6:]


def _import_path(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _is_load_problem(e: BaseException) -> bool:
    if isinstance(e, ImportError):
        return True
    if isinstance(e, (AttributeError, OSError)) and "kernel_gen_ops" in str(e):
        return True
    return False


_OOM_MARKERS = ("Cannot allocate memory", "can't allocate memory", "out of memory", "bad_alloc")


def _classify_candidate(e: BaseException, stage: str) -> Outcome:
    if isinstance(e, MemoryError) or any(m in str(e) for m in _OOM_MARKERS):
        return Outcome("memory_exceeded", f"{stage}: out of memory ({_one_line(e)})", _tail(e))
    if _is_load_problem(e):
        return Outcome("load_error", f"{stage}: {_one_line(e)}", _tail(e))
    return Outcome("runtime_error", f"{stage}: {_one_line(e)}", _tail(e))


def _limit_address_space(extra_mib: int) -> None:
    """Cap the address space at what torch already mapped plus the candidate's budget."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        now = pages * os.sysconf("SC_PAGE_SIZE")
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


def _tensors(x: Any) -> list:
    import torch
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in _tensors(v)]
    return []


def _sync(device: str) -> None:
    import torch
    if device.startswith("npu"):
        torch.npu.synchronize()  # provided by torch_npu on a real stack
    elif device.startswith("cuda"):
        torch.cuda.synchronize()


def run(job: dict[str, Any]) -> dict[str, Any]:
    t0 = time.perf_counter()
    device = job["device"]
    try:
        import torch
    except Exception as e:  # pragma: no cover - the harness image always has torch
        raise Outcome("infra_error", f"cannot import torch: {_one_line(e)}") from e
    from kernelgen.bench.compare import compare

    torch.set_num_threads(max(1, int(os.environ.get("OMP_NUM_THREADS", "1"))))
    vdir = Path(job["validation_dir"])
    try:
        prep = _import_path("kernelgen_task_prepare_inputs", vdir / "prepare_inputs.py")
    except Exception as e:
        raise Outcome("infra_error", f"task prepare_inputs.py failed to import: {_one_line(e)}", _tail(e)) from e

    row = Row(job["row"])
    row.name = job["case_id"]
    seed = int(job["seed"])
    torch.manual_seed(seed)
    try:
        inputs = prep.get_inputs(row, device="cpu")
        init = prep.get_init_inputs(row, device="cpu") if hasattr(prep, "get_init_inputs") else []
    except Exception as e:
        raise Outcome("infra_error", f"task get_inputs failed for case {job['case_id']}: {_one_line(e)}",
                      _tail(e)) from e
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    init = list(init) if isinstance(init, (list, tuple)) else [init]
    custom_check = getattr(prep, "custom_check_precision", None)
    if job.get("ignore_custom_check"):
        custom_check = None

    # Everything below may execute candidate code (module.py imports kernel_gen_ops at top level).
    _limit_address_space(int(job["memory_mib"]))
    try:
        mod = _import_path("kernelgen_task_module", vdir / "module.py")
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("torch_npu", "torch", "numpy"):
            raise Outcome("infra_error", f"task module.py needs {e.name}, which is not importable here",
                          _tail(e)) from e
        raise _classify_candidate(e, "loading module.py") from e
    except BaseException as e:
        raise _classify_candidate(e, "loading module.py") from e

    cand_inputs = _clone(inputs, device)
    cand_before = [t.detach().cpu().clone() for t in _tensors(cand_inputs)]
    try:
        with torch.no_grad():
            new_model = mod.ModelNew(*_clone(init, device))
            if hasattr(new_model, "to"):
                new_model = new_model.to(device)
            out = new_model(*cand_inputs)
            _sync(device)
    except BaseException as e:
        raise _classify_candidate(e, "running ModelNew") from e

    ref_inputs = _clone(inputs)
    ref_before = [t.clone() for t in _tensors(ref_inputs)]
    try:
        with torch.no_grad():
            ref_model = mod.Model(*_clone(init))
            ref = ref_model(*ref_inputs)
    except Exception as e:
        raise Outcome("infra_error", f"reference Model failed on case {job['case_id']}: {_one_line(e)}",
                      _tail(e)) from e

    from kernelgen.bench.compare import _bits_equal
    ref_after, cand_after = _tensors(ref_inputs), [t.detach().cpu() for t in _tensors(cand_inputs)]
    mutated_ref, mutated_cand = [], []
    for i, (rb, ra, cb, ca) in enumerate(zip(ref_before, ref_after, cand_before, cand_after)):
        if _bits_equal(rb, ra):
            if not _bits_equal(cb, ca):
                return {"verdict": "input_mutation",
                        "message": f"candidate wrote into input {i} (shape {list(cb.shape)}), which the "
                                   f"reference leaves unchanged", "seconds": time.perf_counter() - t0}
        else:  # an in-place op: the updated input is part of the result
            mutated_ref.append(ra)
            mutated_cand.append(ca)
    ref_all = ref if not mutated_ref else [*(ref if isinstance(ref, (list, tuple)) else [ref]), *mutated_ref]
    out_all = out if not mutated_ref else [*(out if isinstance(out, (list, tuple)) else [out]), *mutated_cand]
    declared = row.get("dtype") if isinstance(row.get("dtype"), str) else None
    check = compare(ref_all, out_all, tolerances=job.get("tolerances") or None,
                    custom_check=custom_check if not mutated_ref else None, row=row, declared_dtype=declared)
    result: dict[str, Any] = {"verdict": check.verdict.value, "message": check.message,
                              "max_abs_err": check.max_abs_err, "max_rel_err": check.max_rel_err,
                              "mismatch_fraction": check.mismatch_fraction}

    timing = job.get("timing")
    if timing and check.verdict.value == "ok":
        result.update(_time(mod, init, inputs, device, int(timing.get("warmup", 1)),
                            int(timing.get("trials", 10)), new_model))
    result["seconds"] = time.perf_counter() - t0
    return result


def _time(mod, init, inputs, device: str, warmup: int, trials: int, new_model) -> dict[str, Any]:
    """A/B interleaved timing of the eager reference (baseline) and the candidate on the same device."""
    import torch
    base_model = mod.Model(*_clone(init, device))
    if hasattr(base_model, "to"):
        base_model = base_model.to(device)
    b_in, c_in = _clone(inputs, device), _clone(inputs, device)
    if device.startswith("npu"):   # the ascend backend's protocol: device events, L2 flush, adaptive repeats
        from kernelgen.bench.backends.ascend.timing import npu_time_ab
        try:
            return npu_time_ab(base_model, new_model, b_in, c_in, warmup=warmup, trials=trials)
        except BaseException as e:
            raise _classify_candidate(e, "timing ModelNew") from e

    def once(model, args) -> float:
        _sync(device)
        t = time.perf_counter()
        model(*args)
        _sync(device)
        return (time.perf_counter() - t) * 1e3

    cand_ms, base_ms = [], []
    with torch.no_grad():
        for _ in range(max(0, warmup)):
            once(base_model, b_in)
            try:
                once(new_model, c_in)
            except BaseException as e:
                raise _classify_candidate(e, "timing ModelNew") from e
        for i in range(max(1, trials)):
            order = ((base_model, b_in, base_ms), (new_model, c_in, cand_ms))
            for model, args, sink in (order if i % 2 == 0 else order[::-1]):
                try:
                    sink.append(once(model, args))
                except BaseException as e:
                    raise _classify_candidate(e, "timing ModelNew") from e
    return {"candidate_ms": cand_ms, "baseline_ms": base_ms}


def execute(job: dict[str, Any]) -> dict[str, Any]:
    """Run one job (the worker's whole life after its output is redirected); never raises."""
    t0 = time.perf_counter()
    try:
        for p in reversed(job.get("python_path", [])):
            sys.path.insert(0, p)
        if job.get("compat_dir"):
            sys.path.append(job["compat_dir"])
        result = run(job)
    except Outcome as o:
        result = {"verdict": o.verdict, "message": o.message, "diagnostics": o.diagnostics}
    except MemoryError as e:
        result = {"verdict": "memory_exceeded", "message": _one_line(e)}
    except BaseException as e:  # the worker's own bug: an infrastructure failure, not the candidate's
        result = {"verdict": "infra_error", "message": f"case worker failed: {_one_line(e)}",
                  "diagnostics": _tail(e)}
    result.setdefault("seconds", time.perf_counter() - t0)
    return result


def emit(result_fd: int, result: dict[str, Any]) -> None:
    line = RESULT_PREFIX + json.dumps(result, default=str) + "\n"
    os.write(result_fd, line.encode())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    result_fd = os.dup(1)
    os.dup2(2, 1)  # anything printed from here on (task, candidate) goes to stderr
    sys.stdout = sys.stderr
    try:
        job = json.loads(Path(argv[0]).read_text())
    except (OSError, ValueError) as e:
        emit(result_fd, {"verdict": "infra_error", "message": f"unreadable job file: {_one_line(e)}"})
        os._exit(0)
    emit(result_fd, execute(job))
    sys.stderr.flush()
    os._exit(0)  # skip interpreter teardown: candidate extension destructors must not change the outcome


if __name__ == "__main__":
    main()

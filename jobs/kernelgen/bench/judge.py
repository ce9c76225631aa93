"""The judge: generates a case's inputs, computes the reference, compares, decides. It never loads candidate code.

Two steps per case, each in a process forked from the fork server (or a fresh interpreter), neither of which
ever imports the candidate's library (``kernel_gen_ops`` is a stub that refuses every use):

  prepare  seeds and draws the case's inputs (one draw per planned call group, each with its own seed), runs
           the reference ``Model`` on CPU on a private clone of each draw, times the eager baseline when asked,
           and writes the inputs for the runner (``exchange/inputs.bin``, read-only in the runner's sandbox)
           and the references for itself (``judge/reference.bin``, never visible to the runner);
  compare  reads what the runner wrote (hostile files: see `tensorio.read`) and compares EVERY call's outputs,
           timed calls included, with the reference of that call's draw; checks inputs the reference leaves
           alone for mutation (unless the op's definition declares it updates inputs: ``inplace_op``); fails
           host threads left running and outputs that changed after their call returned; checks the
           candidate's reported times against the wall time the harness measured; writes ``judge/result.json``,
           the only verdict the harness reads.
Usage (exec mode): ``python -m kernelgen.bench.judge prepare|compare JOB.json``.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any

from . import tensorio
from .runner import OOM_MARKERS, sync, tensors

STATUS_LIMIT = 1 << 20
RUNNER_VERDICTS = ("load_error", "runtime_error", "memory_exceeded")


class Row(dict):
    """Stands in for the pandas Series row NPUKernelBench passes to get_inputs / custom_check_precision."""

    name: Any = None

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


class Outcome(Exception):
    def __init__(self, verdict: str, message: str, diagnostics: list[str] | None = None, **errors: object):
        super().__init__(message)
        self.verdict, self.message, self.diagnostics = verdict, message, diagnostics or []
        self.errors = errors   # a failed comparison's magnitudes and largest differences, for the record


def _one_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".strip().replace("\n", " ")[:500]


class _NoCandidate(types.ModuleType):
    """`kernel_gen_ops` in the judge: module.py may import it at top level, but nothing here may call it."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"the judge never runs candidate code (kernel_gen_ops.{name})")


def _import_path(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _task_modules(job: dict) -> tuple[Any, Any]:
    sys.modules["kernel_gen_ops"] = _NoCandidate("kernel_gen_ops")
    if job.get("compat_dir") and job["compat_dir"] not in sys.path:
        sys.path.append(job["compat_dir"])
    vdir = Path(job["validation_dir"])
    try:
        prep = _import_path("kernelgen_task_prepare_inputs", vdir / "prepare_inputs.py")
    except Exception as e:
        raise Outcome("infra_error", f"task prepare_inputs.py failed to import: {_one_line(e)}") from e
    try:
        mod = _import_path("kernelgen_task_module", vdir / "module.py")
    except Exception as e:
        raise Outcome("infra_error", f"task module.py failed to import: {_one_line(e)}") from e
    return prep, mod


def _clone(x: Any, device: str | None = None) -> Any:
    """A fresh copy for the reference. A tensor keeps `requires_grad`: reference models of gradient ops call
    torch.autograd.grad on the inputs that get_inputs marks (inside torch.enable_grad)."""
    import torch
    if isinstance(x, torch.Tensor):
        y = x.detach().clone()
        y = y.to(device) if device else y
        return y.requires_grad_() if x.requires_grad else y
    if isinstance(x, (list, tuple)):
        return type(x)(_clone(v, device) for v in x)
    return x


def prepare(job: dict) -> dict:
    import torch
    from .compare import _bits_equal
    torch.set_num_threads(1)
    prep, mod = _task_modules(job)
    row = Row(job["row"])
    row.name = job["case_id"]
    draws, init = [], []
    for d, seed in enumerate(job["seeds"]):
        torch.manual_seed(int(seed))
        try:
            inputs = prep.get_inputs(row, device="cpu")
            if d == 0:
                init = prep.get_init_inputs(row, device="cpu") if hasattr(prep, "get_init_inputs") else []
        except Exception as e:
            raise Outcome("infra_error", f"task get_inputs failed for case {job['case_id']}: {_one_line(e)}") from e
        draws.append(tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,))
    init = list(init) if isinstance(init, (list, tuple)) else [init]
    refs, mutated = [], []
    for inputs in draws:
        ref_in = _clone(inputs)
        before = [t.clone() for t in tensors(ref_in)]
        try:
            with torch.no_grad():
                ref = mod.Model(*_clone(init))(*ref_in)
        except Exception as e:
            raise Outcome("infra_error", f"reference Model failed on case {job['case_id']}: {_one_line(e)}") from e
        after = tensors(ref_in)
        changed = [i for i, (b, a) in enumerate(zip(before, after)) if not _bits_equal(b, a)]
        refs.append({"out": ref, "mutated": [after[i] for i in changed]})
        mutated.append(changed)
    baseline_ms = _time_baseline(mod, init, draws, job) if job.get("timing") else []
    tensorio.write(job["inputs"], {"draws": draws, "init": init})
    tensorio.write(job["reference"], refs, meta={"mutated": mutated, "baseline_ms": baseline_ms})
    return {"ok": True}


def _time_baseline(mod, init, draws, job) -> list[float]:
    """The eager reference timed on the candidate's device with the candidate's call plan (the same draws)."""
    import torch
    device = job["device"]
    model = mod.Model(*_clone(init, device))
    if hasattr(model, "to"):
        model = model.to(device)
    times = []
    with torch.no_grad():
        for call in job["calls"]:
            args = _clone(draws[int(call["draw"])], device)
            sync(device)
            t0 = time.perf_counter()
            model(*args)
            sync(device)
            if call.get("timed"):
                times.append((time.perf_counter() - t0) * 1e3)
    return times


def _read_status(out_dir: Path) -> dict | None:
    try:
        raw = tensorio._read_bytes(out_dir / "status.json", STATUS_LIMIT)
        status = json.loads(raw)
    except (tensorio.BadFile, ValueError):
        return None
    return status if isinstance(status, dict) else None


def _log_tail(out_dir: Path) -> list[str]:
    try:
        raw = tensorio._read_bytes(out_dir / "runner.log", 1 << 30)
    except tensorio.BadFile:
        return []
    return raw[-4000:].decode(errors="replace").strip().splitlines()[-8:]


def _no_result(job: dict, tail: list[str]) -> Outcome:
    """A case process that ended without a status: why, from its exit and its log's last lines (kept as diagnostics)."""
    rc = int(job.get("run_rc", 0))
    text = "\n".join(tail)
    if rc < 0 and -rc == 24:   # SIGXCPU
        verdict, why = "timeout", f"case {job['case_id']} exceeded its CPU-time limit"
    elif any(m in text for m in OOM_MARKERS):
        verdict, why = "memory_exceeded", f"case {job['case_id']} exceeded the {job['memory_mib']} MiB memory limit"
    elif rc < 0:
        import signal
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        verdict, why = "runtime_error", f"candidate process died with signal {name} (candidate crashed)"
    else:
        verdict, why = "runtime_error", f"candidate process exited with status {rc} without a result"
    return Outcome(verdict, why, tail)


def compare_outputs(job: dict) -> dict:
    import torch
    from .compare import _bits_equal, compare
    out_dir = Path(job["out_dir"])
    tail = _log_tail(out_dir)
    status = _read_status(out_dir)
    if status is None:
        raise _no_result(job, tail)
    if status.get("status") != "done":
        kind = status.get("kind") if status.get("kind") in RUNNER_VERDICTS else "runtime_error"
        trace = [str(x) for x in status.get("trace", [])][-6:] if isinstance(status.get("trace"), list) else []
        raise Outcome(kind, str(status.get("message", "candidate failed"))[:500], trace + tail)
    prep, _ = _task_modules(job)
    custom_check = None if job.get("ignore_custom_check") else getattr(prep, "custom_check_precision", None)
    row = Row(job["row"])
    row.name = job["case_id"]
    declared = row.get("dtype") if isinstance(row.get("dtype"), str) else None
    data, _ = tensorio.read(job["inputs"])
    refs, rmeta = tensorio.read(job["reference"])
    draws, mutated = data["draws"], rmeta["mutated"]
    cand_ms: list[float] = []
    worst = None
    for k, call in enumerate(job["calls"]):
        d = int(call["draw"])
        try:
            got, meta = tensorio.read(out_dir / f"call-{k}.bin", max_bytes=int(job["memory_mib"] + 64) << 20)
            out, after = got["out"], got["inputs_after"]
            if not isinstance(after, list) or not all(isinstance(t, torch.Tensor) for t in after):
                raise tensorio.BadFile("inputs_after is not a list of tensors")
        except (tensorio.BadFile, KeyError, TypeError) as e:
            raise Outcome("runtime_error", f"call {k}: no usable output from the candidate process ({e})", tail)
        pristine = tensors(draws[d])
        if len(after) != len(pristine):
            raise Outcome("runtime_error", f"call {k}: the candidate process reported {len(after)} inputs, "
                                           f"expected {len(pristine)}")
        ref = refs[d]
        for i, (p, a) in enumerate(zip(pristine, after)):
            if i not in mutated[d] and not job.get("inplace_op") and not _bits_equal(p, a):
                raise Outcome("input_mutation", f"candidate wrote into input {i} (shape {list(p.shape)}), which "
                                                f"the reference leaves unchanged" + _which(call, k))
        if mutated[d]:   # an in-place op: the updated inputs are part of the result
            ref_all = [*(ref["out"] if isinstance(ref["out"], (list, tuple)) else [ref["out"]]), *ref["mutated"]]
            out_all = [*(out if isinstance(out, (list, tuple)) else [out]), *[after[i] for i in mutated[d]]]
        else:
            ref_all, out_all = ref["out"], out
        check = compare(ref_all, out_all, tolerances=job.get("tolerances") or None,
                        custom_check=custom_check if not mutated[d] else None, row=row, declared_dtype=declared)
        if check.verdict.value != "ok":
            raise Outcome(check.verdict.value, check.message + _which(call, k), max_abs_err=check.max_abs_err,
                          max_rel_err=check.max_rel_err, mismatch_fraction=check.mismatch_fraction,
                          worst=check.worst)
        worst = check if worst is None or (check.max_abs_err or 0) > (worst.max_abs_err or 0) else worst
        if call.get("timed"):
            ms = meta.get("ms")
            if not isinstance(ms, (int, float)) or not math.isfinite(ms) or ms < 0:
                raise Outcome("runtime_error", f"call {k}: the candidate process reported no valid time")
            cand_ms.append(float(ms))
    if status.get("threads_left"):
        raise Outcome("runtime_error", f"{status['threads_left']} host thread(s) of the candidate were still "
                                       f"running after its last call returned")
    if status.get("changed_after_return"):
        raise Outcome("runtime_error", "an output changed after its call had returned (work finished after the "
                                       "call, e.g. by a host thread)")
    if cand_ms and sum(cand_ms) / 1e3 > float(job.get("run_wall_s", math.inf)):
        raise Outcome("runtime_error", f"the candidate process reported {sum(cand_ms):.1f} ms of timed calls, more "
                                       f"than the {job['run_wall_s'] * 1e3:.1f} ms the whole run took (forged times)")
    result = {"verdict": "ok", "message": "", "candidate_ms": cand_ms, "baseline_ms": rmeta.get("baseline_ms", [])}
    if worst is not None:
        result.update(max_abs_err=worst.max_abs_err, max_rel_err=worst.max_rel_err,
                      mismatch_fraction=worst.mismatch_fraction)
    return result


def _which(call: dict, k: int) -> str:
    return f" (timed call {k}, input draw {call['draw']})" if call.get("timed") else \
        (f" (input draw {call['draw']})" if int(call["draw"]) else "")


def execute(role: str, job: dict) -> dict:
    """One judge step; never raises: an Outcome or any failure of the step becomes the result."""
    try:
        result = prepare(job) if role == "prepare" else compare_outputs(job)
    except Outcome as o:
        result = {**o.errors, "verdict": o.verdict, "message": o.message, "diagnostics": o.diagnostics}
    except BaseException as e:  # noqa: BLE001 - the judge's own failure: infrastructure, never the candidate's
        result = {"verdict": "infra_error", "message": f"judge {role} failed: {_one_line(e)}",
                  "diagnostics": traceback.format_exception(e)[-6:]}
    path = Path(job["result"] if role == "compare" else job["prepared"])
    tmp = path.with_suffix(".part")
    tmp.write_text(json.dumps(result, default=str))
    os.replace(tmp, path)
    return result


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    from . import jail
    jail.set_non_dumpable()
    execute(argv[0], json.loads(Path(argv[1]).read_text()))
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()

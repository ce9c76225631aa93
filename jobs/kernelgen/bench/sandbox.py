"""Run one test case of a compiled candidate in a fresh, isolated subprocess (`kernelgen.bench.worker`).

Isolation, per DEVELOPERS.md ("untrusted generated code never runs in the harness's own process"):
- a new process in its own session / process group (``start_new_session``); a timeout kills the whole group;
- RLIMIT_AS (address space) and RLIMIT_CPU, no core dumps; the worker lowers RLIMIT_AS further to
  "what torch mapped + memory_mib" before any candidate code is loaded;
- cwd, HOME and TMPDIR are the scratch directory; the environment is rebuilt from scratch (no proxies, no
  credentials from the harness's environment);
- no network: the worker runs under ``unshare -n`` (root) or ``unshare -rn`` (user namespaces) when the kernel
  allows it. Where neither works the case still runs, proxies are blanked, and ``network_isolation()`` says
  so; every CaseResult then carries a diagnostic line stating that the network was not isolated.
"""
from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Mapping

import kernelgen

from .model import CaseResult, RuntimeEnv, Task, TestCase, Verdict
from .tasks import case_row

WORKER_MODULE = "kernelgen.bench.worker"
RESULT_PREFIX = "KERNELGEN_CASE_RESULT "
COMPAT_DIR = Path(__file__).resolve().parent / "compat"
HARNESS_ROOT = Path(kernelgen.__file__).resolve().parent.parent   # the dir that holds the kernelgen package
#: torch alone maps ~3.1 GiB of address space on import; the parent's cap leaves room for it and the
#: worker then tightens the cap to (mapped so far + memory_mib) before candidate code loads.
TORCH_IMPORT_HEADROOM_MIB = 6144
_PASS_ENV = ("PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_OPP_PATH",
             "ASCEND_TOOLKIT_HOME", "ASCEND_RT_VISIBLE_DEVICES")


@functools.lru_cache(maxsize=1)
def network_isolation() -> tuple[list[str], str]:
    """(command prefix, description) for running without network access on this machine."""
    unshare = shutil.which("unshare")
    if unshare:
        for prefix in ([unshare, "-n"], [unshare, "-rn"]):
            try:
                r = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
            except (OSError, subprocess.SubprocessError):
                continue
            if r.returncode == 0:
                return prefix, f"network namespace ({' '.join(['unshare', *prefix[1:]])})"
    return [], "NOT isolated: unshare unavailable here; proxy variables blanked only"


@functools.lru_cache(maxsize=1)
def _signal_names() -> dict[int, str]:
    return {int(s): s.name for s in signal.Signals}


def _preexec(as_bytes: int, cpu_s: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_AS, (as_bytes, as_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
    return apply


def _timing_dict(timing: Any) -> dict[str, int] | None:
    if timing is None or timing is False:
        return None
    if isinstance(timing, Mapping):
        return {"warmup": int(timing.get("warmup", 1)), "trials": int(timing.get("trials", 10))}
    if isinstance(timing, (tuple, list)):
        return {"warmup": int(timing[0]), "trials": int(timing[1])}
    return {"warmup": int(getattr(timing, "warmup", 1)), "trials": int(getattr(timing, "trials", 10))}


def _tolerance_dict(tolerances: Any) -> dict[str, dict[str, float]] | None:
    if not tolerances:
        return None
    out = {}
    for k, v in dict(tolerances).items():
        if isinstance(v, Mapping):
            out[k] = {kk: float(vv) for kk, vv in v.items() if vv is not None}
        elif isinstance(v, (tuple, list)):
            out[k] = {"atol": float(v[0]), "rtol": float(v[1])}
        else:
            out[k] = {kk: float(vv) for kk, vv in v.model_dump().items() if vv is not None}
    return out


def run_case(task: Task, case: TestCase, rt: RuntimeEnv, *, seed: int, timeout_s: float, memory_mib: int,
             scratch: Path, tolerances: Any = None, timing: Any = None) -> CaseResult:
    """Run `case` of `task` against the candidate that `rt` makes importable; never raises for candidate faults."""
    t0 = time.perf_counter()
    scratch = Path(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    job = {
        "task_id": task.task_id, "validation_dir": str(task.validation_dir), "case_id": case.case_id,
        "row": case_row(task, case), "seed": int(seed), "device": rt.device,
        "python_path": [str(p) for p in rt.python_path], "compat_dir": str(COMPAT_DIR),
        "memory_mib": int(memory_mib), "tolerances": _tolerance_dict(tolerances), "timing": _timing_dict(timing),
    }
    job_file = scratch / f"case-{case.case_id}-{uuid.uuid4().hex[:8]}.json"
    job_file.write_text(json.dumps(job, default=str))

    env = {k: os.environ[k] for k in _PASS_ENV if k in os.environ}
    env.update({"HOME": str(scratch), "TMPDIR": str(scratch), "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONNOUSERSITE": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                "PYTHONPATH": os.pathsep.join([*map(str, rt.python_path), str(HARNESS_ROOT)])})
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env[proxy] = ""
    env.update({k: str(v) for k, v in rt.env.items() if k != "PYTHONPATH"})
    if "PYTHONPATH" in rt.env:
        env["PYTHONPATH"] = os.pathsep.join([rt.env["PYTHONPATH"], env["PYTHONPATH"]])

    prefix, net = network_isolation()
    cmd = [*prefix, sys.executable, "-m", WORKER_MODULE, str(job_file)]
    as_bytes = (int(memory_mib) + TORCH_IMPORT_HEADROOM_MIB) << 20
    cpu_s = max(1, int(timeout_s * 2) + 5)
    diagnostics = [] if prefix else [f"network {net}"]
    try:
        proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=_preexec(as_bytes, cpu_s))
    except OSError as e:
        return CaseResult(Verdict.INFRA_ERROR, f"could not start the case worker: {e}", seconds=time.perf_counter() - t0)
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        stdout, stderr = proc.communicate()
    finally:
        _kill_group(proc)  # stray grandchildren that outlived the worker
    seconds = time.perf_counter() - t0
    err_text = stderr.decode(errors="replace")
    err_tail = [ln for ln in err_text.strip().splitlines()[-8:]]
    if timed_out:
        return CaseResult(Verdict.TIMEOUT, f"case {case.case_id} exceeded {timeout_s:g}s; process group killed",
                          diagnostics=diagnostics + err_tail, seconds=seconds)
    result = None
    for line in stdout.decode(errors="replace").splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX):])
    if result is None:
        rc = proc.returncode
        if rc < 0 and -rc == signal.SIGXCPU:
            verdict, msg = Verdict.TIMEOUT, f"case {case.case_id} exceeded its CPU-time limit ({cpu_s}s)"
        elif "bad_alloc" in err_text or "MemoryError" in err_text or "Cannot allocate memory" in err_text:
            verdict, msg = Verdict.MEMORY_EXCEEDED, f"case {case.case_id} exceeded the {memory_mib} MiB memory limit"
        elif rc < 0:
            verdict, msg = Verdict.RUNTIME_ERROR, (f"case worker died with signal "
                                                   f"{_signal_names().get(-rc, -rc)} (candidate crashed)")
        else:
            verdict, msg = Verdict.RUNTIME_ERROR, f"case worker exited with status {rc} without a result"
        return CaseResult(verdict, msg, diagnostics=diagnostics + err_tail, seconds=seconds)
    try:
        verdict = Verdict(result["verdict"])
    except ValueError:
        verdict = Verdict.INFRA_ERROR
    diags = diagnostics + [str(d).rstrip() for d in result.get("diagnostics", [])]
    if verdict != Verdict.OK and not result.get("diagnostics"):
        diags += err_tail
    return CaseResult(verdict, result.get("message", ""), max_abs_err=result.get("max_abs_err"),
                      max_rel_err=result.get("max_rel_err"), mismatch_fraction=result.get("mismatch_fraction"),
                      candidate_ms=[float(x) for x in result.get("candidate_ms", [])],
                      baseline_ms=[float(x) for x in result.get("baseline_ms", [])],
                      diagnostics=diags, seconds=seconds)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

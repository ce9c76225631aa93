"""Run one test case of a compiled candidate in a fresh, isolated process (`kernelgen.bench.worker`).

Every case gets its own process: by default forked from a fork server (`kernelgen.bench.zygote`) that has
imported torch once, which cuts a case's start-up from seconds to milliseconds; with ``KERNELGEN_SANDBOX=exec``
(or a runtime env that sets loader/interpreter variables such as LD_*), a fresh interpreter is executed instead.
If the fork server cannot start or dies, the case runs in a fresh interpreter. The fork server also runs in its
own PID namespace where the kernel allows it, so cases can neither see nor signal the harness.

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
def zygote_isolation() -> tuple[list[str], str]:
    """Like network_isolation, plus a PID namespace for the fork server when the kernel allows it."""
    unshare = shutil.which("unshare")
    if unshare:
        for prefix in ([unshare, "-n", "-p", "-f", "--mount-proc"], [unshare, "-rnpf", "--mount-proc"]):
            try:
                r = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
            except (OSError, subprocess.SubprocessError):
                continue
            if r.returncode == 0:
                return prefix, f"network and PID namespaces ({' '.join(['unshare', *prefix[1:]])})"
    return network_isolation()


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
    cpu_s = max(1, int(timeout_s * 2) + 5)
    diagnostics = [] if prefix else [f"network {net}"]
    ran = None
    if _use_zygote(rt):
        try:
            ran = _zygote_run(job_file, env, scratch, timeout_s, cpu_s)
        except ZygoteError as e:   # fall back to a freshly executed worker; the case itself is unaffected
            diagnostics.append(f"fork server unavailable ({e}); ran a fresh interpreter")
    if ran is None:
        ran = _exec_run(prefix, job_file, env, scratch, timeout_s, cpu_s, memory_mib)
        if isinstance(ran, CaseResult):
            return ran
    returncode, stdout, stderr, timed_out = ran
    seconds = time.perf_counter() - t0
    err_text = stderr
    err_tail = [ln for ln in err_text.strip().splitlines()[-8:]]
    if timed_out:
        return CaseResult(Verdict.TIMEOUT, f"case {case.case_id} exceeded {timeout_s:g}s; process group killed",
                          diagnostics=diagnostics + err_tail, seconds=seconds)
    result = None
    for line in stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX):])
    if result is None:
        rc = returncode
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


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _exec_run(prefix: list[str], job_file: Path, env: dict[str, str], scratch: Path, timeout_s: float, cpu_s: int,
              memory_mib: int) -> tuple[int, str, str, bool] | CaseResult:
    """A freshly executed worker interpreter (the fallback, and the mode for runtime envs that need exec)."""
    cmd = [*prefix, sys.executable, "-m", WORKER_MODULE, str(job_file)]
    as_bytes = (int(memory_mib) + TORCH_IMPORT_HEADROOM_MIB) << 20
    try:
        proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=_preexec(as_bytes, cpu_s))
    except OSError as e:
        return CaseResult(Verdict.INFRA_ERROR, f"could not start the case worker: {e}")
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        stdout, stderr = proc.communicate()
    finally:
        _kill_group(proc.pid)  # stray grandchildren that outlived the worker
    return proc.returncode, stdout.decode(errors="replace"), stderr.decode(errors="replace"), timed_out


# -- fork server ------------------------------------------------------------------------------------------------

class ZygoteError(RuntimeError):
    pass


#: runtime-env variables that only take effect when a process starts (the dynamic loader, the interpreter)
_EXEC_ONLY_PREFIXES = ("LD_", "PYTHON", "MALLOC_", "GLIBC_")


def _use_zygote(rt: RuntimeEnv) -> bool:
    if os.environ.get("KERNELGEN_SANDBOX", "zygote") != "zygote":
        return False
    return not any(k.startswith(_EXEC_ONLY_PREFIXES) for k in rt.env)


class _Zygote:
    """Client of one `kernelgen.bench.zygote` process (see its docstring)."""

    def __init__(self, prefix: list[str]):
        import tempfile
        import threading
        self._lock = threading.Lock()
        self._waiters: dict[str, dict] = {}
        self._dir = Path(tempfile.mkdtemp(prefix="kg-zygote-"))
        env = {k: os.environ[k] for k in _PASS_ENV if k in os.environ}
        env.update({"HOME": str(self._dir), "TMPDIR": str(self._dir), "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTHONNOUSERSITE": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                    "PYTHONPATH": str(HARNESS_ROOT)})
        self.log = self._dir / "zygote.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([*prefix, sys.executable, "-m", "kernelgen.bench.zygote"], cwd=self._dir,
                                         env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                         start_new_session=True, preexec_fn=_no_core)
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, name="kg-zygote-reader", daemon=True)
        self._reader.start()
        if not self._ready.wait(120) or self.proc.poll() is not None:
            self.close()
            raise ZygoteError(f"did not start: {self.log.read_text(errors='replace')[-300:]}")

    def _read(self) -> None:
        for raw in self.proc.stdout:
            parts = raw.decode(errors="replace").split()
            if parts[:1] == ["READY"]:
                self._ready.set()
            elif len(parts) == 3 and parts[0] in ("STARTED", "EXITED"):
                w = self._waiters.get(parts[1])
                if w is None:
                    continue
                if parts[0] == "STARTED":
                    w["pid"] = int(parts[2])
                    w["started"].set()
                else:
                    w["status"] = int(parts[2])
                    w["exited"].set()
        for w in list(self._waiters.values()):   # the zygote died: release everyone
            w["started"].set()
            w["exited"].set()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, req: dict, timeout_s: float) -> tuple[int | None, bool]:
        import threading
        w = {"started": threading.Event(), "exited": threading.Event(), "pid": None, "status": None}
        self._waiters[req["id"]] = w
        try:
            with self._lock:
                try:
                    self.proc.stdin.write((json.dumps(req) + "\n").encode())
                    self.proc.stdin.flush()
                except (BrokenPipeError, OSError) as e:
                    raise ZygoteError(f"not accepting work: {e}") from e
            if not w["started"].wait(60) or w["pid"] is None:
                raise ZygoteError("did not fork the case worker")
            timed_out = not w["exited"].wait(timeout_s)
            if timed_out:                  # the zygote kills (pids are its own in a PID namespace)
                with self._lock:
                    try:
                        self.proc.stdin.write(f"KILL {req['id']}\n".encode())
                        self.proc.stdin.flush()
                    except (BrokenPipeError, OSError):
                        pass
                w["exited"].wait(30)
            if w["status"] is None and not timed_out:
                raise ZygoteError("died while a case was running")
            return w["status"], timed_out
        finally:
            self._waiters.pop(req["id"], None)

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            _kill_group(self.proc.pid)
        shutil.rmtree(self._dir, ignore_errors=True)


def _no_core() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


_ZYGOTE: _Zygote | None = None
_ZYGOTE_LOCK = __import__("threading").Lock()


def _get_zygote() -> _Zygote:
    global _ZYGOTE
    with _ZYGOTE_LOCK:
        if _ZYGOTE is None or not _ZYGOTE.alive():
            prefix, _ = zygote_isolation()
            _ZYGOTE = _Zygote(prefix)
            import atexit
            atexit.register(_ZYGOTE.close)
        return _ZYGOTE


def shutdown_zygote() -> None:
    global _ZYGOTE
    with _ZYGOTE_LOCK:
        if _ZYGOTE is not None:
            _ZYGOTE.close()
            _ZYGOTE = None


def _zygote_run(job_file: Path, env: dict[str, str], scratch: Path, timeout_s: float,
                cpu_s: int) -> tuple[int, str, str, bool]:
    rid = uuid.uuid4().hex
    result, log = scratch / f"result-{rid[:8]}.txt", scratch / f"worker-{rid[:8]}.log"
    req = {"id": rid, "job": str(job_file), "env": env, "scratch": str(scratch), "cpu_s": cpu_s,
           "result": str(result), "log": str(log)}
    status, timed_out = _get_zygote().run(req, timeout_s)
    read = lambda p: p.read_text(errors="replace") if p.exists() else ""  # noqa: E731
    return (status if status is not None else -signal.SIGKILL), read(result), read(log), timed_out

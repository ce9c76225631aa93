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

from . import jail
from .model import CaseResult, RuntimeEnv, Task, TestCase, Verdict
from .tasks import case_row

JUDGE_MODULE = "kernelgen.bench.judge"
RUNNER_MODULE = "kernelgen.bench.runner"
COMPAT_DIR = Path(__file__).resolve().parent / "compat"
HARNESS_ROOT = Path(kernelgen.__file__).resolve().parent.parent   # the dir that holds the kernelgen package
#: torch alone maps ~3.1 GiB of address space on import; the parent's cap leaves room for it and the
#: worker then tightens the cap to (mapped so far + memory_mib) before candidate code loads.
TORCH_IMPORT_HEADROOM_MIB = 6144
MAX_TIMED_DRAWS = 32
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


def derive_seed(base: int, task_id: str, case_id: int, draw: int = 0) -> int:
    """A fixed, fresh seed per (run seed, task, case, draw): every sample of a task sees the same inputs."""
    import hashlib
    text = f"{base}:{task_id}:{case_id}" + (f":{draw}" if draw else "")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little") & 0x7FFFFFFF


def plan_calls(draws: int, timing: dict | None) -> list[dict]:
    """The candidate's calls, each on its own input draw. Timed: warm-up calls on draw 0, then one timed call per
    fresh draw, so an answer cached by an earlier call (or memorised from any earlier run) never fits."""
    if not timing:
        return [{"draw": d, "timed": False} for d in range(max(1, draws))]
    trials = max(1, timing["trials"])
    warm = [{"draw": 0, "timed": False} for _ in range(max(1, timing["warmup"]))]
    fresh = min(trials, MAX_TIMED_DRAWS)   # bounded memory: long timing runs reuse the draws in turn
    return warm + [{"draw": 1 + i % fresh, "timed": True} for i in range(trials)]


def _case_dirs(scratch: Path) -> dict[str, Path]:
    """judge/ (trusted only), exchange/ (read-only for the candidate), out/ (the candidate's only writable dir)."""
    scratch.mkdir(parents=True, exist_ok=True)
    root = scratch / f"case-{uuid.uuid4().hex[:12]}"   # callers may share one scratch between concurrent cases
    dirs = {k: root / k for k in ("judge", "exchange", "out")}
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)
    dirs["judge"].mkdir(mode=0o700)
    dirs["exchange"].mkdir(mode=0o755)
    dirs["out"].mkdir(mode=0o700)
    if os.geteuid() == 0:   # the runner is uid nobody inside its sandbox
        os.chown(dirs["out"], jail.NOBODY, jail.NOBODY)
    return dirs


def run_case(task: Task, case: TestCase, rt: RuntimeEnv, *, seed: int, timeout_s: float, memory_mib: int,
             scratch: Path, tolerances: Any = None, timing: Any = None, draws: int = 2,
             keep_scratch: bool = False) -> CaseResult:
    """Run `case` of `task` against the candidate that `rt` makes importable; never raises for candidate faults.

    Three steps: the judge prepares (inputs, reference), the jailed runner runs the candidate, the judge
    compares; only the judge's result file becomes the CaseResult. With the fork server the judge's steps run in
    this thread's long-lived judge (`kernelgen.bench.judge_server`), else each is a process of its own."""
    t0 = time.perf_counter()
    d = _case_dirs(Path(scratch))
    try:
        timing = _timing_dict(timing)
        calls = plan_calls(draws, timing)
        n_draws = max(c["draw"] for c in calls) + 1
        shutil.copyfile(task.validation_dir / "module.py", d["exchange"] / "module.py")
        common = {"task_id": task.task_id, "case_id": case.case_id, "device": rt.device, "calls": calls,
                  "compat_dir": str(COMPAT_DIR), "memory_mib": int(memory_mib), "inputs": str(d["exchange"] / "inputs.bin"),
                  "out_dir": str(d["out"])}
        judge_job = {**common, "validation_dir": str(task.validation_dir), "row": case_row(task, case),
                     "seeds": [derive_seed(seed, task.task_id, case.case_id, i) if i else int(seed)
                               for i in range(n_draws)],
                     "tolerances": _tolerance_dict(tolerances), "timing": timing, "inplace_op": bool(rt.inplace_op),
                     "reference": str(d["judge"] / "reference.bin"), "prepared": str(d["judge"] / "prepared.json"),
                     "result": str(d["judge"] / "result.json")}
        run_job = {**common, "python_path": [str(p) for p in rt.python_path], "module": str(d["exchange"] / "module.py"),
                   "env": _case_env(rt)}
        (d["judge"] / "job.json").write_text(json.dumps(judge_job, default=str))
        (d["exchange"] / "job.json").write_text(json.dumps(run_job, default=str))
        cpu_s = max(1, int(timeout_s * 2) + 5)
        judge_timeout = timeout_s * 2 + 60     # the reference and, when timed, the baseline trials
        diagnostics: list[str] = []
        steps = _Steps(rt, d, cpu_s, memory_mib, diagnostics)

        ran = steps.judge("prepare", judge_timeout)
        prepared = _read_json(d["judge"] / "prepared.json")
        if ran.timed_out or not prepared or not prepared.get("ok"):
            why = (prepared or {}).get("message") or ("timed out" if ran.timed_out else f"exit status {ran.status}")
            return CaseResult(Verdict(prepared["verdict"]) if prepared and prepared.get("verdict") else Verdict.INFRA_ERROR,
                              f"judge could not prepare case {case.case_id}: {why}",
                              diagnostics=diagnostics + _tail(d["judge"] / "prepare.log"), seconds=time.perf_counter() - t0)

        r0 = time.perf_counter()
        ran = steps.run(timeout_s)
        run_wall = time.perf_counter() - r0
        if ran.timed_out:
            return CaseResult(Verdict.TIMEOUT, f"case {case.case_id} exceeded {timeout_s:g}s; its sandbox was killed",
                              diagnostics=diagnostics, seconds=time.perf_counter() - t0)
        if ran.status == jail.JAIL_SETUP_FAILED:
            return CaseResult(Verdict.INFRA_ERROR, "the case sandbox could not be set up",
                              diagnostics=diagnostics + _tail(d["out"] / "runner.log"), seconds=time.perf_counter() - t0)
        judge_job.update(run_rc=ran.status if ran.status is not None else -signal.SIGKILL, run_wall_s=run_wall)
        (d["judge"] / "job.json").write_text(json.dumps(judge_job, default=str))
        ran = steps.judge("compare", judge_timeout)
        result = _read_json(d["judge"] / "result.json")
        if ran.timed_out or result is None:
            return CaseResult(Verdict.INFRA_ERROR, f"judge could not compare case {case.case_id}",
                              diagnostics=diagnostics + _tail(d["judge"] / "compare.log"), seconds=time.perf_counter() - t0)
        try:
            verdict = Verdict(result["verdict"])
        except ValueError:
            verdict = Verdict.INFRA_ERROR
        return CaseResult(verdict, result.get("message", ""), max_abs_err=result.get("max_abs_err"),
                          max_rel_err=result.get("max_rel_err"), mismatch_fraction=result.get("mismatch_fraction"),
                          worst=list(result.get("worst") or []),
                          candidate_ms=[float(x) for x in result.get("candidate_ms", [])],
                          baseline_ms=[float(x) for x in result.get("baseline_ms", [])],
                          diagnostics=diagnostics + [str(x).rstrip() for x in result.get("diagnostics", [])],
                          seconds=time.perf_counter() - t0)

    finally:   # a case's tensors can be GBs (inputs, reference, every call's outputs): none outlive the verdict
        if not keep_scratch:
            shutil.rmtree(d["judge"].parent, ignore_errors=True)


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _tail(path: Path) -> list[str]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return []
    try:
        size = os.fstat(fd).st_size
        os.lseek(fd, max(0, size - 4000), os.SEEK_SET)
        return os.read(fd, 4000).decode(errors="replace").strip().splitlines()[-8:]
    finally:
        os.close(fd)


def _base_env(home: Path | str) -> dict[str, str]:
    env = {k: os.environ[k] for k in _PASS_ENV if k in os.environ}
    env.update({"HOME": str(home), "TMPDIR": str(home), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1",
                "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONPATH": str(HARNESS_ROOT)})
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env[proxy] = ""
    return env


def _case_env(rt: RuntimeEnv) -> dict[str, str]:
    """The candidate's environment inside its sandbox: nothing of the harness's, plus the backend's variables."""
    env = {k: v for k, v in _base_env("/tmp").items() if k != "PYTHONPATH"}
    env.update({k: str(v) for k, v in rt.env.items() if k != "PYTHONPATH"})
    return env


class _Ran:
    def __init__(self, status: int | None, timed_out: bool):
        self.status, self.timed_out = status, timed_out


class _Steps:
    """Starts a case's steps through the fork server, or as fresh interpreters (exec mode / fallback)."""

    def __init__(self, rt: RuntimeEnv, dirs: dict[str, Path], cpu_s: int, memory_mib: int, diagnostics: list[str]):
        self.rt, self.d, self.cpu_s, self.memory_mib, self.diagnostics = rt, dirs, cpu_s, memory_mib, diagnostics
        self.zygote = _use_zygote(rt)

    def _zygote(self, role: str, job: Path, log: Path, cwd: Path, env: dict, timeout_s: float) -> _Ran | None:
        if not self.zygote:
            return None
        req = {"id": uuid.uuid4().hex, "role": role, "job": str(job), "log": str(log), "cwd": str(cwd), "env": env,
               "cpu_s": self.cpu_s}
        try:
            status, timed_out = _get_zygote().run(req, timeout_s)
            return _Ran(status, timed_out)
        except ZygoteError as e:   # fall back to fresh interpreters; the case itself is unaffected
            self.zygote = False
            self.diagnostics.append(f"fork server unavailable ({e}); ran fresh interpreters")
            return None

    def judge(self, role: str, timeout_s: float) -> _Ran:
        job, log = self.d["judge"] / "job.json", self.d["judge"] / f"{role}.log"
        env = _base_env(self.d["judge"])
        ran = None
        if self.zygote:
            try:
                ran = _judge_server().step(role, job, log, self.d["judge"], env, timeout_s)
            except (ZygoteError, OSError) as e:   # one fork per step instead; the case itself is unaffected
                self.diagnostics.append(f"judge server unavailable ({e}); forked the step")
        ran = ran or self._zygote(role, job, log, self.d["judge"], env, timeout_s)
        if ran is None:
            prefix, _ = network_isolation()
            ran = _exec([*prefix, sys.executable, "-m", JUDGE_MODULE, role, str(job)], log, self.d["judge"], env,
                        timeout_s, self.cpu_s, (int(self.memory_mib) * 4 + TORCH_IMPORT_HEADROOM_MIB) << 20)
        return ran

    def run(self, timeout_s: float) -> _Ran:
        job, log = self.d["exchange"] / "job.json", self.d["out"] / "runner.log"
        env = _case_env(self.rt)
        ran = self._zygote("run", job, log, self.d["out"], env, timeout_s)
        if ran is None:
            exec_env = {**env, "PYTHONPATH": str(HARNESS_ROOT)}
            ran = _exec([sys.executable, "-m", RUNNER_MODULE, str(job)], log, self.d["out"], exec_env, timeout_s,
                        self.cpu_s, (int(self.memory_mib) + TORCH_IMPORT_HEADROOM_MIB) << 20)
        return ran


def _exec(cmd: list[str], log: Path, cwd: Path, env: dict, timeout_s: float, cpu_s: int, as_bytes: int) -> _Ran:
    """A fresh interpreter; output goes to a file, never a pipe (a process left holding a pipe cannot stall us)."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=fd, stderr=fd,
                                start_new_session=True, preexec_fn=_preexec(as_bytes, cpu_s))
    except OSError as e:
        os.write(fd, f"could not start {cmd[:3]}: {e}\n".encode())
        return _Ran(None, False)
    finally:
        os.close(fd)
    try:
        proc.wait(timeout=timeout_s)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    _kill_group(proc.pid)   # also strays the step left behind in its process group
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    return _Ran(proc.returncode, timed_out)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


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
        env = _base_env(self._dir)
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

    def start(self, req: dict) -> dict:
        """Fork `req`'s step; returns its waiter (``exited`` is set when it ends, ``status`` then holds its status)."""
        import threading
        w = {"started": threading.Event(), "exited": threading.Event(), "pid": None, "status": None}
        self._waiters[req["id"]] = w
        with self._lock:
            try:
                self.proc.stdin.write((json.dumps(req) + "\n").encode())
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as e:
                self._waiters.pop(req["id"], None)
                raise ZygoteError(f"not accepting work: {e}") from e
        if not w["started"].wait(60) or w["pid"] is None:
            self._waiters.pop(req["id"], None)
            raise ZygoteError("did not fork the case worker")
        return w

    def kill(self, rid: str) -> None:
        """Kill a step's process group (pids are the zygote's: where it has a PID namespace only it can name them)."""
        with self._lock:
            try:
                self.proc.stdin.write(f"KILL {rid}\n".encode())
                self.proc.stdin.flush()
            except (OSError, ValueError):   # gone, or closed by shutdown: nothing left to kill
                pass

    def forget(self, rid: str) -> None:
        self._waiters.pop(rid, None)

    def run(self, req: dict, timeout_s: float) -> tuple[int | None, bool]:
        w = self.start(req)
        try:
            timed_out = not w["exited"].wait(timeout_s)
            if timed_out:
                self.kill(req["id"])
                w["exited"].wait(30)
            if w["status"] is None and not timed_out:
                raise ZygoteError("died while a case was running")
            return w["status"], timed_out
        finally:
            self.forget(req["id"])

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            _kill_group(self.proc.pid)
        shutil.rmtree(self._dir, ignore_errors=True)


class _JudgeServer:
    """Client of one long-lived judge (`kernelgen.bench.judge_server`), forked from the fork server; one per
    evaluator thread, so concurrent cases never queue behind each other's reference."""

    def __init__(self, zygote: _Zygote):
        import tempfile
        self.zygote, self.id = zygote, uuid.uuid4().hex
        self.dir = Path(tempfile.mkdtemp(prefix="kg-judge-", dir=zygote._dir))   # 0700, root's: no case sees it
        requests, replies = self.dir / "requests", self.dir / "replies"
        os.mkfifo(requests, 0o600)
        os.mkfifo(replies, 0o600)
        # both ends held read-write here, so neither open blocks and a dead server is seen through the zygote
        self._req = os.open(requests, os.O_RDWR)
        self._rep = os.open(replies, os.O_RDWR)
        self._buf = b""
        (self.dir / "server.json").write_text(json.dumps({"requests": str(requests), "replies": str(replies)}))
        env = _base_env(self.dir)
        try:
            self.waiter = zygote.start({"id": self.id, "role": "serve", "job": str(self.dir / "server.json"),
                                        "log": str(self.dir / "server.log"), "cwd": str(self.dir), "env": env,
                                        "cpu_s": 0})
        except ZygoteError:
            os.close(self._req)
            os.close(self._rep)
            shutil.rmtree(self.dir, ignore_errors=True)
            raise

    def alive(self) -> bool:
        return self._req is not None and not self.waiter["exited"].is_set()

    def step(self, role: str, job: Path, log: Path, cwd: Path, env: dict, timeout_s: float) -> _Ran:
        import select
        rid = uuid.uuid4().hex
        os.write(self._req, (json.dumps({"id": rid, "role": role, "job": str(job), "log": str(log),
                                         "cwd": str(cwd), "env": env}) + "\n").encode())
        deadline = time.monotonic() + timeout_s
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                parts = line.decode(errors="replace").split()
                if parts[:2] == ["DONE", rid]:
                    return _Ran(int(parts[2]), False)
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()       # a step that hangs takes its server with it; the next case starts another
                return _Ran(None, True)
            if not self.alive():
                raise ZygoteError("the judge server died")
            ready, _, _ = select.select([self._rep], [], [], min(left, 0.5))
            if ready:
                self._buf += os.read(self._rep, 65536)

    def close(self, wait: bool = True) -> None:
        if self._req is None:
            return
        self.zygote.kill(self.id)
        if wait:
            self.waiter["exited"].wait(10)
        self.zygote.forget(self.id)
        os.close(self._req)
        os.close(self._rep)
        self._req = self._rep = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __del__(self) -> None:
        # its thread has ended (an evaluator's pool shut down): the server would otherwise idle until the harness
        # exits. Not waiting: this may run during a thread's teardown.
        try:
            self.close(wait=False)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


_JUDGES = __import__("threading").local()


def _judge_server() -> _JudgeServer:
    zygote = _get_zygote()
    server = getattr(_JUDGES, "server", None)
    if server is None or server.zygote is not zygote or not server.alive():
        if server is not None:
            server.close()
        server = _JUDGES.server = _JudgeServer(zygote)
    return server


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

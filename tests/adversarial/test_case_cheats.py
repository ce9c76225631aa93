"""Cheating candidates against the real judge, runner and sandbox (issue 15): each must come back not `ok`, or
leave the host untouched.

The candidates are Python stand-ins for `kernel_gen_ops` (the tests' boundary double of a compiled extension,
see tests/bench/helpers.py): they run in the candidate process exactly where a compiled kernel's host code
would, with the same rights, so whatever they can reach a native candidate can reach too. Each cheat is
written so that it WOULD pass if its trick worked (it returns the right answer only on success, or does the
damage and then answers correctly); the assertion is that it does not.
All scenarios run concurrently in one module fixture (each case costs well under a second with the fork
server warm).
"""
from __future__ import annotations

import json
import os
import subprocess
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_task

from ..bench.helpers import PyStandInBackend, candidate, make_task

torch = pytest.importorskip("torch")

ADD = "args[0] + args[1]"


def cheat(body: str, prelude: str = "") -> str:
    """A stand-in `add` whose body is arbitrary Python (it must `return` something)."""
    return "import torch, os, sys, time\n" + textwrap.dedent(prelude) + "\ndef add(*args):\n" + \
        textwrap.indent(textwrap.dedent(body), "    ")


KEPT_SCRATCH = {"daemon", "empty"}   # kept (keep_scratch=True) for the tests that look inside a finished case


def scenarios(host: Path, answer: Path, validation: Path) -> dict[str, tuple[str, dict]]:
    """name -> (stand-in source, run_case options)."""
    return {
        # 1a. replace the comparison in the process that runs the candidate (it no longer exists there)
        "patch_compare": (cheat(f"""
            for name, mod in list(sys.modules.items()):
                if name.startswith("kernelgen") and hasattr(mod, "compare"):
                    mod.compare = lambda *a, **k: None
            return torch.zeros_like(args[0])"""), {}),
        # 1b. forge a result: claim success in every file this process can write, then leave without outputs
        "forge_status": (cheat("""
            import glob, json
            out_dir = os.path.dirname(os.readlink("/proc/self/fd/2"))   # its log sits in its output directory
            for d in (out_dir, "/tmp", os.getcwd(), *glob.glob("/tmp/**/", recursive=True)):
                for name in ("status.json", "result.json", "prepared.json"):
                    try:
                        open(os.path.join(d, name), "w").write(json.dumps({"status": "done", "verdict": "ok"}))
                    except OSError:
                        pass
            for fd in range(3, 64):
                try:
                    os.write(fd, b'{"verdict": "ok"}\\n')
                except OSError:
                    pass
            os._exit(0)"""), {}),
        # 1c. zero every tensor in its own memory (inputs, any copy of them), then answer zeros
        "zero_memory": (cheat("""
            import gc
            for t in gc.get_objects():
                if isinstance(t, torch.Tensor):
                    try:
                        t.zero_()
                    except Exception:
                        pass
            return torch.zeros_like(args[0])"""), {}),
        # 2. write into the build cache / 4. write outside the scratch directory (host must stay untouched)
        "write_host": (cheat(f"""
            for p in ({str(host / 'cache' / 'poison.o')!r}, {str(host / 'marker')!r}, "/usr/poison"):
                try:
                    open(p, "w").write("x")
                except OSError:
                    pass
            return {ADD}"""), {}),
        # 4. read the reference answer / validation files, answer right only if that worked
        "read_answer": (cheat(f"""
            open({str(answer)!r}).read()
            open({str(validation / 'prepare_inputs.py')!r}).read()
            return {ADD}""", ), {}),
        # 4. a host Unix socket (the test listens on it)
        "unix_socket": (cheat(f"""
            import socket
            s = socket.socket(socket.AF_UNIX)
            s.connect({str(host / 'sock')!r})
            return {ADD}"""), {}),
        # 9. write into the memory of PID 1 of its namespace (was: the fork server) or ptrace it
        "proc_mem": (cheat("""
            import ctypes
            try:
                open("/proc/1/mem", "wb").write(b"x")
            except OSError:
                libc = ctypes.CDLL(None, use_errno=True)
                if libc.ptrace(16, 1, 0, 0) != 0:   # PTRACE_ATTACH
                    return torch.zeros_like(args[0])
            return args[0] + args[1]"""), {}),
        # 7/11. a daemon that outlives the call, keeps writing, and holds every descriptor it inherited
        "daemon": (cheat("""
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    path = os.path.join(os.path.dirname(os.readlink("/proc/self/fd/2")), "daemon.txt")
                    for _ in range(600):
                        try:
                            with open(path, "a") as f:
                                f.write("x")
                        except OSError:
                            pass
                        time.sleep(0.1)
                os._exit(0)
            time.sleep(0.5)
            return torch.zeros_like(args[0])"""), {}),
        # 7. kill every process it can signal (other candidates' cases, the harness)
        "kill_all": (cheat("""
            try:
                os.kill(-1, 9)
            except OSError:
                pass
            return args[0] + args[1]"""), {}),
        # 12. memorised constants: a kernel that never reads its inputs (answers for a known seed's first draw)
        "memorised": ("MEMORISED", {}),
        # 13a. compute only on the first call, serve the cached answer after (timed calls)
        "first_call_only": (cheat("""
            global CACHE
            try:
                return CACHE
            except NameError:
                CACHE = args[0] + args[1]
                return CACHE""", "CACHE_DOC = 'first call only'"),
                            {"timing": {"warmup": 1, "trials": 3}}),
        # 13b. return at once and finish the output from a host thread
        "async_thread": (cheat("""
            import threading
            out = torch.empty_like(args[0])
            a, b = args[0].clone(), args[1].clone()
            threading.Thread(target=lambda: (time.sleep(0.05), out.copy_(a + b))).start()
            return out"""), {}),
        # 13c. a host thread left running after the last call (even with a correct answer)
        "thread_left": (cheat("""
            import threading
            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
            return args[0] + args[1]"""), {}),
        # caught before, must stay caught: empty, half-written, input-copied outputs, _exit(0) without a result
        "empty": (cheat("return torch.empty_like(args[0])"), {}),
        "half_written": (cheat("""
            out = torch.empty_like(args[0]).reshape(-1)
            ref = (args[0] + args[1]).reshape(-1)
            out[: out.numel() // 2] = ref[: out.numel() // 2]
            return out.reshape(args[0].shape)"""), {}),
        "input_copied": (cheat("return args[0].clone()"), {}),
        "exit0": (cheat("os._exit(0)"), {}),
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("adv")
    host = root / "host"
    (host / "cache").mkdir(parents=True)
    task = load_task(make_task(root / "suite", "Add", "add"))
    answer = next(p for p in (task.root / "answer").rglob("*") if p.is_file())
    return root, host, task, answer


def _memorised(task, case) -> str:
    """The answer for seed 0's first draw, baked in as constants."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("prep_for_memo", task.validation_dir / "prepare_inputs.py")
    prep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prep)
    from kernelgen.bench.judge import Row
    from kernelgen.bench.tasks import case_row
    torch.manual_seed(0)
    a, b = prep.get_inputs(Row(case_row(task, case)), device="cpu")
    ref = (a + b)
    return cheat(f"return torch.tensor({ref.tolist()!r}, dtype=args[0].dtype)")


@pytest.fixture(scope="module")
def results(world):
    import socket
    root, host, task, answer = world
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(host / "sock"))
    listener.listen(4)
    victim = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "120"])
    backend = PyStandInBackend()
    case = task.cases[0]
    table = scenarios(host, answer, task.validation_dir)

    def one(name):
        src, opts = table[name]
        if src == "MEMORISED":
            src = _memorised(task, case)
        ws = backend.prepare(task, candidate(task, 0, src), root / "work" / name)
        assert backend.compile(ws, 10).ok
        t0 = time.perf_counter()
        res = run_case(task, case, backend.runtime_env(ws), seed=0, timeout_s=30, memory_mib=1024,
                       scratch=root / "scratch" / name, keep_scratch=name in KEPT_SCRATCH, **opts)
        return name, (res, time.perf_counter() - t0)

    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            out = dict(pool.map(one, table))
        out["_victim_alive"] = victim.poll() is None
        out["_socket_accepted"] = _accepted(listener)
        return out
    finally:
        victim.kill()
        listener.close()


def _accepted(listener) -> bool:
    listener.setblocking(False)
    try:
        listener.accept()
        return True
    except BlockingIOError:
        return False


NOT_OK = ["patch_compare", "forge_status", "zero_memory", "read_answer", "unix_socket", "proc_mem", "daemon",
          "memorised", "first_call_only", "async_thread", "thread_left", "empty", "half_written", "input_copied",
          "exit0"]


@pytest.mark.parametrize("name", NOT_OK)
def test_cheat_is_not_ok(results, name):
    res, _ = results[name]
    assert res.verdict != Verdict.OK, (name, res.message)
    assert res.verdict != Verdict.INFRA_ERROR, (name, res.message, res.diagnostics[-4:])   # scored, not retried


def test_specific_verdicts(results):
    assert results["exit0"][0].verdict == Verdict.RUNTIME_ERROR
    assert results["thread_left"][0].verdict == Verdict.RUNTIME_ERROR and "thread" in results["thread_left"][0].message
    assert results["empty"][0].verdict == Verdict.NAN_MISMATCH            # fresh outputs are NaN
    assert results["input_copied"][0].verdict == Verdict.VALUE_MISMATCH
    assert "timed call" in results["first_call_only"][0].message          # every timed call is compared


def test_host_untouched(results, world):
    _, host, _, _ = world
    assert not (host / "cache" / "poison.o").exists() and not (host / "marker").exists()
    assert not Path("/usr/poison").exists()
    assert results["write_host"][0].verdict == Verdict.OK      # it answered right; its writes went nowhere


def test_no_host_socket(results):
    assert not results["_socket_accepted"]


def test_kill_minus_one_reaches_nothing_outside(results):
    assert results["_victim_alive"], "a process of the same uid outside the case was killed"
    assert results["kill_all"][0].verdict == Verdict.OK


def test_nothing_survives_a_case(results, world):
    root = world[0]
    trace = next((root / "scratch" / "daemon").glob("case-*")) / "out" / "daemon.txt"
    size = trace.stat().st_size if trace.exists() else 0
    time.sleep(1.0)
    assert (trace.stat().st_size if trace.exists() else 0) == size, "a daemon kept running after its case"
    assert results["daemon"][1] < 20, "a daemon holding descriptors stalled the harness"


def test_a_case_leaves_no_tensors_behind(world, results):
    root = world[0]
    for name in results:
        if not name.startswith("_") and name not in KEPT_SCRATCH:
            assert not list((root / "scratch" / name).glob("case-*")), name


def test_the_runner_never_sees_a_seed_or_the_judge(world, results):
    root = world[0]
    case_dir = next((root / "scratch" / "empty").glob("case-*"))
    job = json.loads((case_dir / "exchange" / "job.json").read_text())
    assert not {"seed", "seeds", "tolerances", "reference", "validation_dir", "row"} & set(job)
    assert oct((case_dir / "judge").stat().st_mode & 0o777) == "0o700"

"""ascsim speed on level-2/3 tasks, and the cube-path target: a 1024 x 1024 x 1024 fp16 matmul.

    python benchmarks/sim_speed_l23.py [--suite fixtures|builtin|both] [--case 0] [--repeats 3] [--skip-tasks]

For every level-2/3 reference answer: compile time (normal build cache: cold the first time, cached after) and the
median wall time of one simulated run of a test case next to the PyTorch CPU reference (measured in a subprocess,
like the harness's worker; same timer as benchmarks/sim_speed.py). Then the built-in MatmulHalf kernel (cube only:
Nd2Nz, LoadData, Mmad, Fixpipe on 24 simulated AIC cores) and, when ../shared is present, the NPUKernelBench
BasicMatmul (catlass) answer on m = k = n = 1024 fp16. The simulator runs one simulated core at a time, so the
wall time is single-CPU-core time; CPU time is reported too. Target (issue 4): <= 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "jobs"))
sys.path.insert(0, str(REPO / "benchmarks"))

from kernelgen.bench.model import Candidate  # noqa: E402
from kernelgen.bench.tasks import case_row, load_task  # noqa: E402
from sim_speed import answer  # noqa: E402

# Times one case: median wall / min CPU of ModelNew.forward (simulated) and Model.forward (PyTorch CPU).
TIMER = r'''
import importlib.util, json, statistics, sys, time
import torch
torch.set_num_threads(1)
vdir, case_json, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(n):
    s = importlib.util.spec_from_file_location(n, f"{vdir}/{n}.py"); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
class Row(dict):
    def __getattr__(self, k): return self[k]
row = Row(json.loads(case_json))
mod, prep = load("module"), load("prepare_inputs")
torch.manual_seed(0)
inputs = prep.get_inputs(row, device="cpu"); init = prep.get_init_inputs(row, device="cpu")
ref, new = mod.Model(*init), mod.ModelNew(*init)
def t(m):
    wall, cpu = [], []
    for _ in range(repeats):
        args = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        t0, c0 = time.perf_counter(), time.process_time(); m(*args)
        wall.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)
    return statistics.median(wall), min(cpu)
new(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])   # the first call loads the module
(sw, sc), (rw, rc) = t(new), t(ref)
print(json.dumps({"sim_s": sw, "ref_s": rw, "sim_cpu_s": sc, "ref_cpu_s": rc}))
'''

FIXTURES = REPO / ".." / "shared" / "fixtures" / "npukernelbench-sample" / "tasks"
BUILTIN = REPO / "jobs" / "kernelgen" / "bench" / "suite" / "builtin" / "tasks"
MATMULS = [(BUILTIN / "level3" / "GMM" / "MatmulHalf", {"m": 1024, "k": 1024, "n": 1024, "dtype": "float16"}),
           (FIXTURES / "level3" / "GMM" / "BasicMatmul", {"m": 1024, "k": 1024, "n": 1024, "dtype": "float16"})]


def tasks(which: str):
    roots = {"fixtures": [FIXTURES], "builtin": [BUILTIN], "both": [FIXTURES, BUILTIN]}[which]
    for root in roots:
        for level in ("level2", "level3"):
            for p in sorted((root / level).glob("*/*")):
                if (p / "answer" / "0").is_dir():
                    yield load_task(p.resolve())


def timed_run(be, ws, task, row: dict, repeats: int) -> dict:
    from kernelgen.bench.backends.sim import SIM_PYTHON
    compat = REPO / "jobs" / "kernelgen" / "bench" / "compat"   # NPUKernelBench's `framework` helpers, as in the worker
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(be.build_dir(ws)), str(SIM_PYTHON), str(REPO / "jobs"), str(compat)]),
               OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", TIMER, str(task.validation_dir), json.dumps(row, default=str), str(repeats)],
                       capture_output=True, text=True, env=env, timeout=1800)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise RuntimeError((r.stderr or r.stdout)[-600:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="both", choices=["fixtures", "builtin", "both"])
    ap.add_argument("--case", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-tasks", action="store_true", help="only the 1024^3 matmul figure")
    args = ap.parse_args()
    from kernelgen.bench.backends.sim import SimBackend
    be = SimBackend()
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / "sim-speed-l23"
    rows = []
    if not args.skip_tasks:
        print(f"{'task':42s} {'compile':>8s} {'sim run':>10s} {'torch':>10s} {'ratio':>7s}")
        for task in tasks(args.suite):
            ws = be.prepare(task, Candidate(task.task_id, 0, answer(task), "reference"), tmp / "ws" / task.op_name)
            c = be.compile(ws, 1800)
            if not c.ok:
                print(f"{task.task_id:42s} compile failed: {c.log[-300:]}")
                continue
            case = next(x for x in task.cases if x.case_id == args.case)
            try:
                t = timed_run(be, ws, task, case_row(task, case), args.repeats)
            except RuntimeError as e:
                print(f"{task.task_id:42s} run failed: {e}")
                continue
            ratio = t["sim_s"] / max(t["ref_s"], 1e-9)
            rows.append({"task": task.task_id, "compile_s": c.seconds, "cached": c.cached, **t, "ratio": ratio})
            print(f"{task.task_id:42s} {c.seconds:7.1f}s {t['sim_s'] * 1e3:8.1f}ms {t['ref_s'] * 1e3:8.2f}ms {ratio:7.1f}",
                  flush=True)
    for path, row in MATMULS:
        if not path.is_dir():
            print(f"{path.name}: not present, skipped")
            continue
        task = load_task(path.resolve())
        ws = be.prepare(task, Candidate(task.task_id, 0, answer(task), "reference"), tmp / "mm" / task.op_name)
        c = be.compile(ws, 1800)
        if not c.ok:
            print(f"{task.task_id}: compile failed: {c.log[-300:]}")
            continue
        t = timed_run(be, ws, task, row, 1)
        ok = "meets" if t["sim_s"] <= 30 else "MISSES"
        print(f"1024x1024x1024 fp16 matmul, {task.task_id}: simulated run {t['sim_s']:.2f} s wall, {t['sim_cpu_s']:.2f} s CPU "
              f"(torch CPU reference {t['ref_s'] * 1e3:.1f} ms) — {ok} the 30 s target", flush=True)
        rows.append({"task": f"{task.task_id}@1024^3", **t})
    if rows:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""ascsim speed per task (levels 1-3): cold, cached and incremental compile, simulated run, PyTorch CPU reference;
then the cube-path figure, a 1024 x 1024 x 1024 fp16 matmul.

    python benchmarks/sim_speed.py [--levels 1 2 3] [--suite fixtures|builtin|both] [--case N] [--repeats 5]
                                   [--keep-cache] [--no-matmul]

- cold compile: a fresh object cache (the simulator runtime objects and the precompiled headers are built first and
  reported separately as toolchain warm-up, since every task shares them);
- cached compile: the same candidate again (whole-build cache hit, what a resumed or repeated run pays);
- incremental compile: the kernel edited (a new candidate for an already-seen task: host and binding objects hit);
- run (the case with the most input elements unless --case): median wall time of ModelNew.forward (simulated kernel
  incl. tiling, GM copies, core threads) and of Model.forward (PyTorch CPU reference) on one test case, measured in a
  subprocess like the harness's worker. Wall times are medians, CPU times the minimum over repeats (robust on a
  shared machine).
- matmul: the built-in MatmulHalf kernel (cube only: Nd2Nz, LoadData, Mmad, Fixpipe on 24 simulated AIC cores) and,
  when ../shared is present, NPUKernelBench's BasicMatmul (catlass) answer, m = k = n = 1024 fp16. The simulator runs
  one simulated core at a time, so its wall time is single-CPU-core time.
Targets: issue 3 (level 1): cached compile + run <= 2 s median per candidate; simulated run <= 20x the reference.
"Cached" is read strictly: a NEW candidate with the toolchain caches warm (the incremental column), not a rebuild of
an identical candidate (a whole-build cache hit). Issue 4: the 1024^3 fp16 matmul in <= 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "jobs"))

from kernelgen.bench.model import Candidate  # noqa: E402
from kernelgen.bench.tasks import load_task  # noqa: E402

FIXTURES = REPO / ".." / "shared" / "fixtures" / "npukernelbench-sample" / "tasks"
BUILTIN = REPO / "jobs" / "kernelgen" / "bench" / "suite" / "builtin" / "tasks"

TIMER = r'''
import importlib.util, json, statistics, sys, time
import torch
torch.set_num_threads(1)
vdir, cases_json, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(n):
    s = importlib.util.spec_from_file_location(n, f"{vdir}/{n}.py"); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
class Row(dict):
    def __getattr__(self, k): return self[k]
mod, prep = load("module"), load("prepare_inputs")
best = None   # time the case with the most input elements (the cases CPU torch can generate)
for idx, r in enumerate(json.loads(cases_json)):
    row = Row(r)
    torch.manual_seed(0)
    try:
        cand = prep.get_inputs(row, device="cpu")
    except Exception:
        continue
    n = sum(x.numel() for x in cand if isinstance(x, torch.Tensor))
    if best is None or n > best[0]:
        best = (n, row, cand, idx)
_, row, inputs, best_idx = best
init = prep.get_init_inputs(row, device="cpu")
ref, new = mod.Model(*init), mod.ModelNew(*init)
def t(m):
    wall, cpu = [], []
    for _ in range(repeats):
        args = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        t0, c0 = time.perf_counter(), time.process_time(); m(*args)
        wall.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)
    return statistics.median(wall), min(cpu)
new(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])   # first call loads the module
(sw, sc), (rw, rc) = t(new), t(ref)
print(json.dumps({"sim_s": sw, "ref_s": rw, "sim_cpu_s": sc, "ref_cpu_s": rc, "case_index": best_idx, "elements": best[0]}))
'''


def answer(task):
    ans = task.answer_dir
    return {str(p.relative_to(ans)): p.read_text() for p in sorted(ans.rglob("*"))
            if p.is_file() and p.parent.name in ("op_host", "op_kernel")}


MATMULS = [(BUILTIN / "level3" / "GMM" / "MatmulHalf", {"m": 1024, "k": 1024, "n": 1024, "dtype": "float16"}),
           (FIXTURES / "level3" / "GMM" / "BasicMatmul", {"m": 1024, "k": 1024, "n": 1024, "dtype": "float16"})]


def tasks(which: str, levels: list[int]):
    roots = {"fixtures": [FIXTURES], "builtin": [BUILTIN], "both": [FIXTURES, BUILTIN]}[which]
    for root in roots:
        for level in levels:
            for p in sorted((root / f"level{level}").glob("*/*")):
                if (p / "answer" / "0").is_dir():
                    yield load_task(p.resolve())


def run_env(be, ws) -> dict:
    from kernelgen.bench.backends.sim import SIM_PYTHON
    compat = REPO / "jobs" / "kernelgen" / "bench" / "compat"   # NPUKernelBench's `framework` helpers, as in the worker
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(be.build_dir(ws)), str(SIM_PYTHON), str(REPO / "jobs"), str(compat)]),
                OMP_NUM_THREADS="1")


def timed(be, ws, task, rows: list[dict], repeats: int) -> dict:
    r = subprocess.run([sys.executable, "-c", TIMER, str(task.validation_dir), json.dumps(rows, default=str), str(repeats)],
                       capture_output=True, text=True, env=run_env(be, ws), timeout=1800)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise RuntimeError((r.stderr or r.stdout)[-400:]) from None


def matmul_figures(be, tmp: Path) -> None:
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
        t = timed(be, ws, task, [row], 1)
        ok = "meets" if t["sim_s"] <= 30 else "MISSES"
        print(f"1024x1024x1024 fp16 matmul, {task.task_id}: simulated run {t['sim_s']:.2f} s wall, {t['sim_cpu_s']:.2f} s CPU "
              f"(torch CPU reference {t['ref_s'] * 1e3:.1f} ms) - {ok} the 30 s target", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3], choices=[1, 2, 3])
    ap.add_argument("--suite", default="both", choices=["fixtures", "builtin", "both"])
    ap.add_argument("--no-matmul", action="store_true", help="skip the 1024^3 matmul figure")
    ap.add_argument("--case", type=int, default=-1, help="case id to time (default: the one with the most input elements)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--keep-cache", action="store_true", help="use the normal build cache (cold numbers then lie)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="sim-speed-"))
    if not args.keep_cache:
        os.environ["KERNELGEN_SIM_CACHE"] = str(tmp / "cache")
    from kernelgen.bench.backends.sim import SimBackend, torch_build_info  # noqa: E402
    torch_build_info()
    be = SimBackend()
    t0 = time.perf_counter()
    be.warm_up(time.monotonic() + 900)
    print(f"toolchain warm-up (runtime objects + precompiled kernel_operator.h and torch headers): {time.perf_counter() - t0:.1f} s")
    print(f"{'task':42s} {'cold':>7s} {'cached':>7s} {'incr':>7s} {'sim run':>9s} {'torch':>9s} {'ratio':>7s} "
          f"{'cached+run':>10s}")
    rows = []
    for task in tasks(args.suite, args.levels):
        files = answer(task)
        ws = be.prepare(task, Candidate(task.task_id, 0, files, "reference"), tmp / "ws" / task.op_name)
        cold = be.compile(ws, 1800)
        if not cold.ok:
            print(f"{task.task_id:42s} compile failed: {cold.log[-300:]}")
            continue
        cached = be.compile(ws, 600)
        files2 = dict(files)
        k = f"op_kernel/{task.kernel_name}.cpp"
        files2[k] = files2[k] + f"\n// incremental {time.time()}\n"
        ws2 = be.prepare(task, Candidate(task.task_id, 1, files2, "edit"), tmp / "ws2" / task.op_name)
        incr = be.compile(ws2, 600)
        from kernelgen.bench.tasks import case_row
        chosen = task.cases if args.case < 0 else [c for c in task.cases if c.case_id == args.case]
        try:
            t = timed(be, ws, task, [case_row(task, c) for c in chosen], args.repeats)
        except RuntimeError as e:
            print(f"{task.task_id:42s} run failed: {e}")
            continue
        t["case_id"] = chosen[t["case_index"]].case_id
        ratio = t["sim_s"] / max(t["ref_s"], 1e-9)
        cpu_ratio = t["sim_cpu_s"] / max(t["ref_cpu_s"], 1e-6)
        row = {"task": task.task_id, "case_id": t["case_id"], "cold_s": cold.seconds, "cached_s": cached.seconds, "incremental_s": incr.seconds,
               "sim_run_s": t["sim_s"], "torch_ref_s": t["ref_s"], "ratio": ratio, "sim_cpu_s": t["sim_cpu_s"],
               "torch_cpu_s": t["ref_cpu_s"], "cpu_ratio": cpu_ratio,
               "cached_plus_run_s": cached.seconds + t["sim_s"]}
        row["level"] = task.level
        rows.append(row)
        print(f"{task.task_id:42s} {cold.seconds:7.1f} {cached.seconds:7.3f} {incr.seconds:7.1f} {t['sim_s'] * 1e3:7.2f}ms "
              f"{t['ref_s'] * 1e3:7.3f}ms {ratio:7.1f} {row['cached_plus_run_s']:9.3f}s  (case {t['case_id']}, {t['elements']} "
              f"input elements; cpu: {t['sim_cpu_s'] * 1e3:.2f} ms vs {t['ref_cpu_s'] * 1e3:.3f} ms, {cpu_ratio:.1f}x)", flush=True)
    for level in sorted({r["level"] for r in rows}):
        lr = [r for r in rows if r["level"] == level]
        med_inc = statistics.median(r["incremental_s"] + r["sim_run_s"] for r in lr)
        worst = max(lr, key=lambda r: r["cpu_ratio"])
        print(f"level {level}: {len(lr)} tasks; median incremental compile + run {med_inc:.2f} s; median sim/torch "
              f"{statistics.median(r['ratio'] for r in lr):.1f}x wall, {statistics.median(r['cpu_ratio'] for r in lr):.1f}x cpu; "
              f"worst {worst['cpu_ratio']:.1f}x cpu ({worst['task']})")
        if level == 1:
            over = [r["task"] for r in lr if r["cpu_ratio"] > 20]   # CPU time: robust on a shared machine
            print(f"  targets: incremental compile + run <= 2 s: {'met' if med_inc <= 2 else 'MISSED'}; sim/torch <= 20x "
                  f"(cpu): {'met for every task' if not over else 'MISSED for ' + ', '.join(over)}")
    if rows:
        print(json.dumps(rows))
    if 3 in args.levels and not args.no_matmul:
        matmul_figures(be, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())

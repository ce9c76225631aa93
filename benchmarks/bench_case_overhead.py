"""Per-case overhead of the sandboxed case runner: fork server (default) vs a fresh interpreter per case.

Builds a tiny task (element-wise add, 4x33 fp32) and a Python stand-in `kernel_gen_ops`, then runs N cases
sequentially in each mode and prints the wall time per case (median, p90). No kernel is compiled, so this is the
harness's own cost per case: process start, imports, input generation, reference + candidate, comparison; with
the trusted judge and the jailed runner that is one forked runner per case (straight into its own PID namespace)
plus two steps of the thread's long-lived judge, the jail's namespaces and mounts, and the files between them. `--draws 1` measures one input draw per case (as before issue 15); the default static
mode evaluates 2. Run the same script from a checkout of the previous harness for the before/after figure.

    python benchmarks/bench_case_overhead.py [--cases 10] [--draws 1] [--modes zygote,exec]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kernelgen.bench import sandbox
from kernelgen.bench.model import RuntimeEnv
from kernelgen.bench.tasks import load_task

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bench"))
from helpers import make_task  # noqa: E402  (the tests' tiny-task writer)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10)
    ap.add_argument("--draws", type=int, default=None, help="input draws per case (this harness only)")
    ap.add_argument("--modes", default="zygote,exec")
    args = ap.parse_args()
    import inspect
    extra = {"draws": args.draws} if args.draws and "draws" in inspect.signature(sandbox.run_case).parameters else {}
    root = Path(tempfile.mkdtemp(prefix="kg-overhead-"))
    task = load_task(make_task(root / "suite", "Add", "add"))
    stand = root / "standin"
    stand.mkdir()
    (stand / "kernel_gen_ops.py").write_text("def add(a, b):\n    return a + b\n")
    rt = RuntimeEnv(env={}, python_path=[stand], device="cpu")
    print(f"cpus={os.cpu_count()} python={sys.version.split()[0]} cases={args.cases} "
          f"network={sandbox.network_isolation()[1]}")
    for mode in args.modes.split(","):
        os.environ["KERNELGEN_SANDBOX"] = mode
        if mode == "zygote":
            t0 = time.perf_counter()
            sandbox._get_zygote()
            print(f"zygote start-up (imports torch once): {time.perf_counter() - t0:.2f} s")
        times = []
        for i in range(args.cases):
            t0 = time.perf_counter()
            res = sandbox.run_case(task, task.cases[0], rt, seed=i, timeout_s=60, memory_mib=1024,
                                   scratch=root / mode / str(i), **extra)
            times.append(time.perf_counter() - t0)
            assert res.verdict.value == "ok", res.message
        times.sort()
        print(f"{mode:7s} {extra or ''} per case: median {statistics.median(times) * 1e3:8.1f} ms   "
              f"p90 {times[int(0.9 * (len(times) - 1))] * 1e3:8.1f} ms   total {sum(times):.2f} s")
    sandbox.shutdown_zygote()


if __name__ == "__main__":
    main()

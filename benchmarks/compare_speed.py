"""Time and peak memory of the judge's output comparison (kernelgen.bench.compare) on large outputs.

Each measurement runs in its own process, on one thread as in the judge, and prints the wall time of one `compare`
call and the process's peak RSS (inputs included: the reference and the output themselves are 2 x 4 bytes per
element for float32). `--chunks` lists the CHUNK_ELEMENTS values to measure; `whole` is one piece per output, the
comparison as it was before it was chunked (the same rules on whole-tensor float64 temporaries).

    python benchmarks/compare_speed.py [--elements 1048576,67108864] [--chunks whole,65536]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

CASES = {
    "passes": lambda ref: ref + 1e-6,                  # every rule runs to the end
    "elements fail": lambda ref: ref * 1.01,           # the per-element rule rejects most of them
}


def measure(elements: int, chunk: int, case: str) -> dict:
    import torch

    from kernelgen.bench import compare
    torch.set_num_threads(1)
    compare.CHUNK_ELEMENTS = chunk
    ref = torch.randn(elements // 64, 64, generator=torch.Generator().manual_seed(0))
    out = CASES[case](ref)
    t0 = time.perf_counter()
    check = compare.compare(ref, out)
    return {"seconds": time.perf_counter() - t0, "verdict": check.verdict.value,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", default="1048576,16777216,67108864")
    ap.add_argument("--chunks", default="whole,65536")
    ap.add_argument("--one", help=argparse.SUPPRESS)   # elements,chunk,case: measure in this process
    args = ap.parse_args()
    if args.one:
        elements, chunk, case = args.one.split(",", 2)
        print(json.dumps(measure(int(elements), 1 << 62 if chunk == "whole" else int(chunk), case)))
        return
    print(f"{'elements':>10} {'chunk':>8} {'case':<14} {'seconds':>8} {'peak RSS MiB':>12}  verdict")
    for elements in args.elements.split(","):
        for case in CASES:
            for chunk in args.chunks.split(","):
                proc = subprocess.run([sys.executable, __file__, "--one", f"{elements},{chunk},{case}"],
                                      capture_output=True, text=True, check=True)
                r = json.loads(proc.stdout)
                print(f"{int(elements):>10} {chunk:>8} {case:<14} {r['seconds']:>8.2f} {r['peak_rss_mib']:>12}  "
                      f"{r['verdict']}", flush=True)


if __name__ == "__main__":
    main()

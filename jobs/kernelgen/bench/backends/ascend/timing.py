"""Timing protocol for NPU runs (evaluation-methodology §2): the timer is outside candidate code (device events
recorded by the harness around the call, cross-checked by host time), warm-up, an L2 flush before every timed
call, A/B interleaving with the eager torch_npu baseline (ABBA order), and adaptive repeats until the relative
standard error of both medians is under the target or a trial/time budget is spent. Speedup = baseline / candidate
(medians), computed by the harness from the returned samples; versions (SoC, CANN, torch_npu) go with every record.

`measure_ab` is the protocol with the device hidden behind three callables (tested on CPU with a fake clock);
`npu_time_ab` binds it to torch_npu events (NOT run on hardware here).
"""
from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

L2_FLUSH_MIB = int(os.environ.get("KERNELGEN_NPU_L2_FLUSH_MIB", "384"))   # >= 2x the 192 MiB L2 of Atlas A2


@dataclass
class TimingResult:
    baseline_ms: list[float] = field(default_factory=list)
    candidate_ms: list[float] = field(default_factory=list)
    stopped_by: str = ""            # "rse" | "max_trials" | "budget"
    rse: tuple[float, float] = (math.inf, math.inf)


def rel_std_err_of_median(xs: list[float]) -> float:
    """Relative standard error of the median (1.2533 * sd / sqrt(n) / median); inf for fewer than 3 samples."""
    if len(xs) < 3:
        return math.inf
    med = statistics.median(xs)
    return 1.2533 * statistics.stdev(xs) / math.sqrt(len(xs)) / med if med > 0 else math.inf


def measure_ab(baseline: Callable[[], Any], candidate: Callable[[], Any], timed: Callable[[Callable[[], Any]], float],
               flush: Callable[[], None], *, warmup: int = 3, min_trials: int = 10, max_trials: int = 200,
               rse_target: float = 0.01, budget_s: float = 10.0, now: Callable[[], float] = time.monotonic
               ) -> TimingResult:
    """`timed(fn)` runs fn once and returns its device time in ms; `flush()` evicts L2 before each timed call."""
    for _ in range(max(0, warmup)):
        baseline()
        candidate()
    res = TimingResult()
    t_end = now() + budget_s
    pairs = ((baseline, res.baseline_ms), (candidate, res.candidate_ms))
    i = 0
    while True:
        order = pairs if i % 2 == 0 else pairs[::-1]      # A B, B A, ...: drift hits both equally
        for fn, sink in order:
            flush()
            sink.append(timed(fn))
        i += 1
        res.rse = (rel_std_err_of_median(res.baseline_ms), rel_std_err_of_median(res.candidate_ms))
        if i >= min_trials and max(res.rse) <= rse_target:
            res.stopped_by = "rse"
            break
        if i >= max_trials:
            res.stopped_by = "max_trials"
            break
        if now() >= t_end and i >= min(min_trials, 3):
            res.stopped_by = "budget"
            break
    return res


def npu_time_ab(base_model: Any, new_model: Any, b_in: tuple, c_in: tuple, *, warmup: int, trials: int
                ) -> dict[str, Any]:
    """The protocol on torch_npu: Event pairs on the current stream, host-time cross-check, L2 flush buffer."""
    import torch
    flush_buf = torch.empty(L2_FLUSH_MIB << 20, dtype=torch.uint8, device="npu")
    suspicious: list[str] = []

    def timed(fn: Callable[[], Any]) -> float:
        start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
        torch.npu.synchronize()
        h0 = time.perf_counter()
        start.record()
        fn()
        end.record()
        torch.npu.synchronize()
        host_ms = (time.perf_counter() - h0) * 1e3
        dev_ms = start.elapsed_time(end)
        if dev_ms > host_ms * 1.05 + 0.05:      # device time cannot exceed the host's view of the same call
            suspicious.append(f"event {dev_ms:.3f} ms > host {host_ms:.3f} ms")
        return dev_ms

    with torch.no_grad():
        r = measure_ab(lambda: base_model(*b_in), lambda: new_model(*c_in), timed, flush_buf.zero_,
                       warmup=warmup, min_trials=max(3, trials), max_trials=max(3, trials) * 10)
    del flush_buf
    return {"candidate_ms": r.candidate_ms, "baseline_ms": r.baseline_ms}

"""The NPU timing protocol with the device replaced by a fake clock (boundary double): interleaving, flush before
every timed call, adaptive stopping."""
from __future__ import annotations

import itertools
import random

from kernelgen.bench.backends.ascend.timing import measure_ab, rel_std_err_of_median


def _rig(base_ms, cand_ms, noise=0.0, seed=0):
    rng = random.Random(seed)
    log: list[str] = []
    cost = {"base": base_ms, "cand": cand_ms}

    def fn(name):
        def run():
            log.append(name)
        run.__name__ = name
        return run

    def timed(f):
        f()
        return cost[f.__name__] * (1 + rng.uniform(-noise, noise))

    return fn("base"), fn("cand"), timed, (lambda: log.append("flush")), log


def test_interleaved_with_a_flush_before_every_timed_call():
    b, c, timed, flush, log = _rig(2.0, 1.0)
    r = measure_ab(b, c, timed, flush, warmup=2, min_trials=4, max_trials=4, rse_target=-1.0)
    assert log[:4] == ["base", "cand", "base", "cand"]           # warm-up, untimed
    timed_part = log[4:]
    assert all(timed_part[i] == "flush" for i in range(0, len(timed_part), 2))
    calls = timed_part[1::2]
    assert calls == ["base", "cand", "cand", "base", "base", "cand", "cand", "base"]   # ABBA
    assert r.stopped_by == "max_trials" and len(r.baseline_ms) == len(r.candidate_ms) == 4


def test_stops_early_when_stable_and_runs_longer_when_noisy():
    b, c, timed, flush, _ = _rig(2.0, 1.0, noise=0.0)
    quiet = measure_ab(b, c, timed, flush, warmup=0, min_trials=5, max_trials=100, rse_target=0.01)
    assert quiet.stopped_by == "rse" and len(quiet.candidate_ms) == 5
    b, c, timed, flush, _ = _rig(2.0, 1.0, noise=0.5, seed=1)
    noisy = measure_ab(b, c, timed, flush, warmup=0, min_trials=5, max_trials=100, rse_target=0.01)
    assert len(noisy.candidate_ms) > 20
    speedup = sorted(noisy.baseline_ms)[len(noisy.baseline_ms) // 2] / sorted(noisy.candidate_ms)[len(noisy.candidate_ms) // 2]
    assert 1.5 < speedup < 2.5


def test_time_budget_bounds_the_run():
    b, c, timed, flush, _ = _rig(2.0, 1.0, noise=0.9, seed=2)
    tick = itertools.count()
    r = measure_ab(b, c, timed, flush, warmup=0, min_trials=10, max_trials=10_000, rse_target=1e-9, budget_s=50,
                   now=lambda: float(next(tick)))
    assert r.stopped_by == "budget" and len(r.candidate_ms) < 60


def test_rse_of_median():
    assert rel_std_err_of_median([1.0, 1.0]) == float("inf")
    assert rel_std_err_of_median([1.0, 1.0, 1.0]) == 0.0
    assert 0 < rel_std_err_of_median([1.0, 1.1, 0.9, 1.0]) < 0.1

"""The periodic resync (the level-triggered safety net) at scale: it looks only at runs no event has reconciled
within the last interval, and it never holds more than a quarter of the reconcile pool, so a resync of many runs
cannot queue ahead of new runs' first reconciles (benchmarks/operator_scale.py: the p99 of first child Job)."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import warnings

from kernelgen_operator import handlers
from kernelgen_operator.metrics import RunState


def _state(name: str, terminal: bool = False, ttl_due: float | None = None) -> RunState:
    return RunState(kind="BenchRun", namespace="ns", name=name, terminal=terminal, ttl_due=ttl_due)


def test_resync_skips_runs_reconciled_within_the_interval():
    states = [_state("fresh"), _state("stale"), _state("never"), _state("done", terminal=True),
              _state("ttl", terminal=True, ttl_due=123.0)]
    last = {("BenchRun", "ns", "fresh"): 95.0, ("BenchRun", "ns", "stale"): 60.0, ("BenchRun", "ns", "ttl"): 10.0}
    got = handlers.stale_runs(states, last, now=100.0, interval=30.0)
    assert got == {("BenchRun", "ns", "stale"), ("BenchRun", "ns", "never"), ("BenchRun", "ns", "ttl")}


def test_resync_holds_at_most_a_quarter_of_the_pool(monkeypatch):
    assert [handlers.resync_concurrency(w) for w in (1, 3, 4, 16, 64)] == [1, 1, 1, 4, 16]
    active = peak = 0

    async def reconcile(kind: str, namespace: str, name: str) -> None:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.001)
        active -= 1

    monkeypatch.setattr(handlers, "reconcile", reconcile)

    async def scenario() -> int:
        limit = asyncio.Semaphore(handlers.resync_concurrency(16))
        await asyncio.gather(*(handlers._bounded(limit, ("BenchRun", "ns", f"r{i}")) for i in range(100)))
        return peak

    assert asyncio.run(scenario()) == 4


def test_a_cancelled_resync_leaves_no_reconcile_unawaited(monkeypatch):
    """The operator stopping mid-resync: reconciles still waiting for the semaphore were never created."""
    started = []

    async def reconcile(*key: str) -> None:
        started.append(key)
        await asyncio.sleep(10)

    monkeypatch.setattr(handlers, "reconcile", reconcile)

    async def scenario() -> None:
        limit = asyncio.Semaphore(1)
        batch = asyncio.gather(*(handlers._bounded(limit, ("BenchRun", "ns", f"r{i}")) for i in range(5)))
        await asyncio.sleep(0.05)
        batch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await batch

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(scenario())
        gc.collect()
    assert len(started) == 1
    assert not [w for w in caught if "never awaited" in str(w.message)]

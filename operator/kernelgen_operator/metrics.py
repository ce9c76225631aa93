"""Prometheus metrics, named after kube-state-metrics conventions with the single prefix ``kernelgen_``.

Event metrics (counters, histograms) are updated by the reconciler on transitions it records in status, so each
transition is counted once. Object-state metrics (one series per run field) come from a custom collector over a
snapshot of the runs the operator has seen, so a deleted run's series disappear at the next scrape.

Object state (collector):
  kernelgen_run_info{kind,namespace,name,model}                       1
  kernelgen_run_status_phase{kind,namespace,name,phase}               one-hot over the five phases
  kernelgen_run_start_time_seconds / _completion_time_seconds{kind,namespace,name}
  kernelgen_run_progress_ratio{kind,namespace,name}                   0..1
  kernelgen_run_status_restarts{kind,namespace,name}
  kernelgen_runs{kind,phase}                                          runs by kind and phase
  kernelgen_benchrun_compile_ratio / _exec_ratio / _speedup_geomean{namespace,name}
  kernelgen_benchrun_pass_at_k{namespace,name,k}
  kernelgen_benchrun_fast_p{namespace,name,p}     KernelBench fast_p: correct and at least p times faster
  kernelgen_benchrun_level_compile_ratio / _level_exec_ratio{namespace,name,level}   from results.byLevel
Events:
  kernelgen_runs_started_total{kind}, kernelgen_runs_finished_total{kind,result}
  kernelgen_run_duration_seconds{kind,result}, kernelgen_stage_duration_seconds{kind,stage,result}
  kernelgen_run_restarts_total{kind,reason}
  kernelgen_reconcile_total{kind,result}, kernelgen_reconcile_duration_seconds{kind}
  kernelgen_kube_api_errors_total{verb,code}
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Iterable

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

PHASES = ("Pending", "Suspended", "Running", "Succeeded", "Failed")
DURATION_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800, 86400, 172800)

RECONCILE_TOTAL = Counter("kernelgen_reconcile_total", "Reconciles by kind and result (ok, error).",
                          ["kind", "result"])
RECONCILE_DURATION = Histogram("kernelgen_reconcile_duration_seconds", "Time of one reconcile.", ["kind"],
                               buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
KUBE_API_ERRORS = Counter("kernelgen_kube_api_errors_total", "Kubernetes API errors by verb and HTTP code.",
                          ["verb", "code"])
RUNS_STARTED = Counter("kernelgen_runs_started_total", "Runs that started running.", ["kind"])
RUNS_FINISHED = Counter("kernelgen_runs_finished_total", "Runs that finished, by result.", ["kind", "result"])
RUN_DURATION = Histogram("kernelgen_run_duration_seconds", "Run wall time, start to finish.", ["kind", "result"],
                         buckets=DURATION_BUCKETS)
STAGE_DURATION = Histogram("kernelgen_stage_duration_seconds", "Stage (child Job) wall time.",
                           ["kind", "stage", "result"], buckets=DURATION_BUCKETS)
RUN_RESTARTS = Counter("kernelgen_run_restarts_total", "Stage retries (child Job recreated).", ["kind", "reason"])

# Counters with known label values start at 0, so the first event is an increase Prometheus can see (a series that
# appears at 1 has no increase(), and an alert on it would never fire).
for _kind in ("BenchRun", "TrainRun", "CoTBuild"):
    RUNS_STARTED.labels(kind=_kind)
    for _result in ("succeeded", "failed", "terminated"):
        RUNS_FINISHED.labels(kind=_kind, result=_result)
    for _result in ("ok", "error"):
        RECONCILE_TOTAL.labels(kind=_kind, result=_result)


@dataclass
class RunState:
    kind: str
    namespace: str
    name: str
    phase: str = "Pending"
    model: str = ""
    start: float | None = None
    completion: float | None = None
    progress: float | None = None
    restarts: int = 0
    results: dict[str, Any] = field(default_factory=dict)
    terminal: bool = False
    ttl_due: float | None = None  # epoch seconds when the TTL deletes the run


class RunStore:
    """The runs the operator knows about (fed by watch events and reconciles); read by the collector."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[tuple[str, str, str], RunState] = {}

    def put(self, state: RunState) -> None:
        with self._lock:
            self._runs[(state.kind, state.namespace, state.name)] = state

    def remove(self, kind: str, namespace: str, name: str) -> None:
        with self._lock:
            self._runs.pop((kind, namespace, name), None)

    def snapshot(self) -> list[RunState]:
        with self._lock:
            return list(self._runs.values())


STORE = RunStore()


def _ts(s: str | None) -> float | None:
    from kernelgen_operator.status import parse_time

    t = parse_time(s)
    return t.timestamp() if t else None


def state_from_body(kind: str, body: dict[str, Any]) -> RunState:
    from kernelgen_operator.status import derive_phase, is_terminal

    meta = body.get("metadata") or {}
    spec = body.get("spec") or {}
    st = body.get("status") or {}
    conds = st.get("conditions") or []
    model = ""
    for path in (("generator", "model", "uri"), ("model", "uri"), ("teacher", "model", "uri")):
        node: Any = spec
        for p in path:
            node = node.get(p) if isinstance(node, dict) else None
        if isinstance(node, str):
            model = node
            break
    pct = (st.get("progress") or {}).get("percent")
    completion = _ts(st.get("completionTime"))
    ttl = spec.get("ttlSecondsAfterFinished")
    return RunState(
        kind=kind, namespace=meta.get("namespace", ""), name=meta.get("name", ""),
        phase=st.get("phase") or derive_phase(conds), model=model, start=_ts(st.get("startTime")),
        completion=completion, progress=None if pct is None else float(pct) / 100.0,
        restarts=int(st.get("restarts") or 0), results=dict(st.get("results") or {}),
        terminal=is_terminal(conds),
        ttl_due=(completion + ttl) if (completion is not None and ttl is not None and is_terminal(conds)) else None,
    )


class RunCollector(Collector):
    def __init__(self, store: RunStore):
        self.store = store

    def collect(self) -> Iterable[GaugeMetricFamily]:
        runs = self.store.snapshot()
        lbl = ["kind", "namespace", "name"]
        info = GaugeMetricFamily("kernelgen_run_info", "Run metadata (value 1).", labels=lbl + ["model"])
        phase = GaugeMetricFamily("kernelgen_run_status_phase", "Run phase (one-hot).", labels=lbl + ["phase"])
        start = GaugeMetricFamily("kernelgen_run_start_time_seconds", "When the run started.", labels=lbl)
        done = GaugeMetricFamily("kernelgen_run_completion_time_seconds", "When the run finished.", labels=lbl)
        prog = GaugeMetricFamily("kernelgen_run_progress_ratio", "Progress of the run, 0..1.", labels=lbl)
        restarts = GaugeMetricFamily("kernelgen_run_status_restarts", "Stage retries of the run so far (status.restarts).", labels=lbl)
        by_phase = GaugeMetricFamily("kernelgen_runs", "Runs by kind and phase.", labels=["kind", "phase"])
        compile_r = GaugeMetricFamily("kernelgen_benchrun_compile_ratio", "Fraction of candidates that compiled.",
                                      labels=["namespace", "name"])
        exec_r = GaugeMetricFamily("kernelgen_benchrun_exec_ratio", "Fraction of candidates that ran correctly.",
                                   labels=["namespace", "name"])
        pass_k = GaugeMetricFamily("kernelgen_benchrun_pass_at_k", "Unbiased pass@k.", labels=["namespace", "name", "k"])
        fast = GaugeMetricFamily("kernelgen_benchrun_fast_p", "Share of candidates correct and at least p times faster "
                                 "than the baseline (KernelBench fast_p).", labels=["namespace", "name", "p"])
        speed = GaugeMetricFamily("kernelgen_benchrun_speedup_geomean", "Geometric-mean speedup of correct kernels.",
                                  labels=["namespace", "name"])
        lvl_compile = GaugeMetricFamily("kernelgen_benchrun_level_compile_ratio",
                                        "Fraction of candidates that compiled, per difficulty level.",
                                        labels=["namespace", "name", "level"])
        lvl_exec = GaugeMetricFamily("kernelgen_benchrun_level_exec_ratio",
                                     "Fraction of candidates that ran correctly, per difficulty level.",
                                     labels=["namespace", "name", "level"])
        err_cls = GaugeMetricFamily("kernelgen_benchrun_compile_errors",
                                    "Candidates that failed to compile, by compile-error class.",
                                    labels=["namespace", "name", "class"])
        verdicts = GaugeMetricFamily("kernelgen_benchrun_candidates", "Candidates by verdict.",
                                     labels=["namespace", "name", "verdict"])
        counts: dict[tuple[str, str], int] = {}
        for r in runs:
            key = [r.kind, r.namespace, r.name]
            info.add_metric(key + [r.model], 1)
            for p in PHASES:
                phase.add_metric(key + [p], 1.0 if r.phase == p else 0.0)
            if r.start is not None:
                start.add_metric(key, r.start)
            if r.completion is not None:
                done.add_metric(key, r.completion)
            if r.progress is not None:
                prog.add_metric(key, r.progress)
            restarts.add_metric(key, r.restarts)
            counts[(r.kind, r.phase)] = counts.get((r.kind, r.phase), 0) + 1
            if r.kind == "BenchRun" and r.results:
                nn = [r.namespace, r.name]
                if r.results.get("compileRate") is not None:
                    compile_r.add_metric(nn, float(r.results["compileRate"]))
                if r.results.get("execRate") is not None:
                    exec_r.add_metric(nn, float(r.results["execRate"]))
                for k in (1, 10, 100):
                    v = r.results.get(f"passAt{k}")
                    if v is not None:
                        pass_k.add_metric(nn + [str(k)], float(v))
                for p, v in sorted((r.results.get("fastP") or {}).items()):
                    fast.add_metric(nn + [str(p)], float(v))
                if r.results.get("speedupGeomean") is not None:
                    speed.add_metric(nn, float(r.results["speedupGeomean"]))
                for level, fig in sorted((r.results.get("byLevel") or {}).items()):
                    if isinstance(fig, dict) and fig.get("compileRate") is not None:
                        lvl_compile.add_metric(nn + [str(level)], float(fig["compileRate"]))
                    if isinstance(fig, dict) and fig.get("execRate") is not None:
                        lvl_exec.add_metric(nn + [str(level)], float(fig["execRate"]))
                for cls, n in sorted((r.results.get("compileErrorClasses") or {}).items()):
                    err_cls.add_metric(nn + [str(cls)], float(n))
                for verdict, n in sorted((r.results.get("verdicts") or {}).items()):
                    verdicts.add_metric(nn + [str(verdict)], float(n))
        for kind in sorted({k for k, _ in counts} | {"BenchRun", "TrainRun", "CoTBuild"}):
            for p in PHASES:
                by_phase.add_metric([kind, p], counts.get((kind, p), 0))
        yield from (info, phase, start, done, prog, restarts, by_phase, compile_r, exec_r, pass_k, fast, speed,
                   lvl_compile, lvl_exec, err_cls, verdicts)


_collector_registered = False


def register_collector(registry: CollectorRegistry = REGISTRY) -> None:
    global _collector_registered
    if not _collector_registered:
        registry.register(RunCollector(STORE))
        _collector_registered = True


def serve(port: int) -> None:
    register_collector()
    start_http_server(port, addr="0.0.0.0")

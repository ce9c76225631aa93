"""The Grafana dashboard and the Prometheus alert rules, as plain Python dicts (no dashboard SDK: the JSON model is
small and stable, and plain dicts need no pinned experimental package).

`python hack/gen_chart_files.py` writes them to dashboards/kernelgen.json and into the chart
(charts/ascend-kernelgen/files/); tests/deploy checks the files are current, runs every query through a real
Prometheus that scraped the operator during a run, and checks the rules with promtool.

Metric names: operator/kernelgen_operator/metrics.py.
"""

from __future__ import annotations

from typing import Any

UID = "kernelgen-runs"
DS = {"type": "prometheus", "uid": "${datasource}"}
# Template-variable filters shared by the per-run queries.
RUN_SEL = 'namespace=~"$namespace", name=~"$run"'
KIND_SEL = 'kind=~"$kind"'


def _target(expr: str, legend: str, ref: str, instant: bool = False) -> dict[str, Any]:
    t = {"datasource": DS, "expr": expr, "legendFormat": legend, "refId": ref, "range": not instant}
    if instant:
        t["instant"] = True
    return t


def _panel(pid: int, title: str, kind: str, targets: list[tuple[str, str]], grid: tuple[int, int, int, int],
           unit: str = "short", description: str = "", instant: bool = False, **extra: Any) -> dict[str, Any]:
    x, y, w, h = grid
    panel = {
        "id": pid, "type": kind, "title": title, "description": description, "datasource": DS,
        "gridPos": {"x": x, "y": y, "w": w, "h": h},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "options": {"legend": {"displayMode": "table", "placement": "bottom", "showLegend": True}},
        "targets": [_target(e, lg, chr(ord("A") + i), instant) for i, (e, lg) in enumerate(targets)],
    }
    panel.update(extra)
    return panel


def _row(pid: int, title: str, y: int) -> dict[str, Any]:
    return {"id": pid, "type": "row", "title": title, "collapsed": False, "panels": [],
            "gridPos": {"x": 0, "y": y, "w": 24, "h": 1}}


def _var(name: str, label: str, query: str, include_all: bool = True) -> dict[str, Any]:
    return {"name": name, "label": label, "type": "query", "datasource": DS, "refresh": 2, "sort": 1,
            "query": {"query": query, "refId": f"{name}-var"}, "definition": query,
            "includeAll": include_all, "multi": include_all, "allValue": ".*",
            "current": {"selected": True, "text": ["All"], "value": ["$__all"]}}


def panels() -> list[dict[str, Any]]:
    p: list[dict[str, Any]] = []
    p.append(_row(1, "Runs", 0))
    p.append(_panel(2, "Runs by phase", "timeseries",
                    [(f"sum by (kind, phase) (kernelgen_runs{{{KIND_SEL}}})", "{{kind}} {{phase}}")],
                    (0, 1, 12, 8), description="Runs the operator knows about, by kind and phase.",
                    fieldConfig={"defaults": {"unit": "short", "custom": {"stacking": {"mode": "normal"}}},
                                 "overrides": []}))
    p.append(_panel(3, "Run phase", "table",
                    [(f"kernelgen_run_status_phase{{{KIND_SEL}, {RUN_SEL}}} == 1", "{{kind}} {{namespace}}/{{name}}")],
                    (12, 1, 12, 8), description="One row per run: its current phase.", instant=True))
    p.append(_panel(4, "Progress", "bargauge",
                    [(f"kernelgen_run_progress_ratio{{{KIND_SEL}, {RUN_SEL}}}", "{{kind}} {{namespace}}/{{name}}")],
                    (0, 9, 12, 8), unit="percentunit", instant=True))
    p.append(_panel(5, "Stage duration (p50 / p95)", "timeseries",
                    [((f"histogram_quantile(0.5, sum by (le, kind, stage) "
                      f"(rate(kernelgen_stage_duration_seconds_bucket{{{KIND_SEL}}}[$__rate_interval])))"),
                      "p50 {{kind}} {{stage}}"),
                     ((f"histogram_quantile(0.95, sum by (le, kind, stage) "
                      f"(rate(kernelgen_stage_duration_seconds_bucket{{{KIND_SEL}}}[$__rate_interval])))"),
                      "p95 {{kind}} {{stage}}")],
                    (12, 9, 12, 8), unit="s", description="Wall time of the stages' Jobs that finished."))
    p.append(_panel(6, "Runs finished", "timeseries",
                    [(f"sum by (kind, result) (increase(kernelgen_runs_finished_total{{{KIND_SEL}}}[$__rate_interval]))",
                      "{{kind}} {{result}}")], (0, 17, 12, 8)))
    p.append(_panel(7, "Failures by class", "timeseries",
                    [(f"sum by (kind, reason) (increase(kernelgen_run_restarts_total{{{KIND_SEL}}}[$__rate_interval]))",
                      "retry {{kind}} {{reason}}"),
                     ((f"sum by (kind) (increase(kernelgen_runs_finished_total{{{KIND_SEL}, result=\"failed\"}}"
                      "[$__rate_interval]))"), "failed {{kind}}")],
                    (12, 17, 12, 8),
                    description="Stage retries by failure reason (exit code, deadline, backoff) and failed runs."))
    p.append(_row(8, "BenchRun results", 25))
    p.append(_panel(9, "Compile rate per level", "bargauge",
                    [(f"kernelgen_benchrun_level_compile_ratio{{{RUN_SEL}}}", "{{name}} L{{level}}"),
                     (f"kernelgen_benchrun_compile_ratio{{{RUN_SEL}}}", "{{name}} all")],
                    (0, 26, 12, 8), unit="percentunit", instant=True))
    p.append(_panel(10, "Execution (correctness) rate per level", "bargauge",
                    [(f"kernelgen_benchrun_level_exec_ratio{{{RUN_SEL}}}", "{{name}} L{{level}}"),
                     (f"kernelgen_benchrun_exec_ratio{{{RUN_SEL}}}", "{{name}} all")],
                    (12, 26, 12, 8), unit="percentunit", instant=True))
    p.append(_panel(11, "pass@1 / pass@10 / pass@100", "bargauge",
                    [(f"kernelgen_benchrun_pass_at_k{{{RUN_SEL}}}", "{{name}} pass@{{k}}")],
                    (0, 34, 12, 8), unit="percentunit", instant=True))
    p.append(_panel(12, "Speedup (geometric mean over correct kernels)", "stat",
                    [(f"kernelgen_benchrun_speedup_geomean{{{RUN_SEL}}}", "{{name}}")],
                    (12, 34, 12, 8), unit="x", instant=True))
    p.append(_panel(17, "Compile errors by class", "bargauge",
                    [(f"kernelgen_benchrun_compile_errors{{{RUN_SEL}}}", "{{name}} {{class}}")],
                    (0, 42, 12, 8), unit="short", instant=True,
                    description="Candidates that failed to compile, by the paper's six error classes (+ other)."))
    p.append(_panel(18, "Candidates by verdict", "bargauge",
                    [(f"kernelgen_benchrun_candidates{{{RUN_SEL}}}", "{{name}} {{verdict}}")],
                    (12, 42, 12, 8), unit="short", instant=True,
                    description="Each candidate's verdict: ok, or its first failing case's verdict."))
    p.append(_row(13, "Operator", 50))
    p.append(_panel(14, "Reconciles by result", "timeseries",
                    [(f"sum by (kind, result) (rate(kernelgen_reconcile_total{{{KIND_SEL}}}[$__rate_interval]))",
                      "{{kind}} {{result}}")], (0, 51, 8, 8), unit="ops",
                    description="result=error are failing reconciles (retried with backoff)."))
    p.append(_panel(15, "Reconcile latency p95", "timeseries",
                    [((f"histogram_quantile(0.95, sum by (le, kind) "
                      f"(rate(kernelgen_reconcile_duration_seconds_bucket{{{KIND_SEL}}}[$__rate_interval])))"),
                      "{{kind}}")], (8, 51, 8, 8), unit="s"))
    p.append(_panel(16, "Kubernetes API errors", "timeseries",
                    [(("sum by (verb, code) (rate(kernelgen_kube_api_errors_total[$__rate_interval])) "
                      "or vector(0)"), "{{verb}} {{code}}")], (16, 51, 8, 8), unit="ops"))
    return p


def dashboard() -> dict[str, Any]:
    return {
        "uid": UID, "title": "KernelGen runs", "tags": ["kernelgen", "ascend", "npu"],
        "timezone": "utc", "editable": True, "graphTooltip": 1, "schemaVersion": 39, "version": 1,
        "refresh": "30s", "time": {"from": "now-6h", "to": "now"},
        "templating": {"list": [
            {"name": "datasource", "label": "Data source", "type": "datasource", "query": "prometheus",
             "current": {}, "hide": 0},
            _var("namespace", "Namespace", "label_values(kernelgen_run_info, namespace)"),
            _var("kind", "Kind", "label_values(kernelgen_run_info, kind)"),
            _var("run", "Run", 'label_values(kernelgen_run_info{namespace=~"$namespace", kind=~"$kind"}, name)'),
        ]},
        "annotations": {"list": []},
        "panels": panels(),
    }


# Alert rules. `signal` is the figure an alert watches, without its threshold: tests/deploy checks that each
# signal returns data from a real Prometheus after a run, and that each full `expr` evaluates without error.
ALERTS: list[dict[str, Any]] = [
    {"alert": "KernelgenRunFailed",
     "signal": 'sum by (kind) (increase(kernelgen_runs_finished_total{result="failed"}[15m]))',
     "expr": 'sum by (kind) (increase(kernelgen_runs_finished_total{result="failed"}[15m])) > 0',
     "for": "0m", "severity": "warning",
     "summary": "{{ $labels.kind }} runs failed in the last 15 minutes",
     "description": "{{ $value | humanize }} {{ $labels.kind }} runs ended Failed; `kubectl get npujobs -A` and "
                    "the run's status.conditions give the reason."},
    {"alert": "KernelgenRunStuckPending",
     "signal": 'kernelgen_run_status_phase{phase="Pending"}',
     "expr": 'kernelgen_run_status_phase{phase="Pending"} == 1',
     "for": "30m", "severity": "warning",
     "summary": "{{ $labels.kind }} {{ $labels.namespace }}/{{ $labels.name }} has been Pending for 30 minutes",
     "description": "Its pods are not scheduled (no free NPUs, a node selector or toleration that matches no node, "
                    "or a quota)."},
    {"alert": "KernelgenRunNoProgress",
     "signal": "changes(kernelgen_run_progress_ratio[2h])",
     "expr": 'changes(kernelgen_run_progress_ratio[2h]) == 0 and on (kind, namespace, name) '
             'kernelgen_run_status_phase{phase="Running"} == 1',
     "for": "0m", "severity": "warning",
     "summary": "{{ $labels.kind }} {{ $labels.namespace }}/{{ $labels.name }} is Running without progress",
     "description": "Its progress has not changed for 2 hours while it is Running."},
    {"alert": "KernelgenReconcileErrors",
     # `or ... * 0`: a ratio of 0 rather than no data while no reconcile has failed yet.
     "signal": 'sum by (kind) (rate(kernelgen_reconcile_total{result="error"}[10m]) or '
               'rate(kernelgen_reconcile_total[10m]) * 0) / sum by (kind) (rate(kernelgen_reconcile_total[10m]))',
     "expr": '(sum by (kind) (rate(kernelgen_reconcile_total{result="error"}[10m]) or '
             'rate(kernelgen_reconcile_total[10m]) * 0) / sum by (kind) (rate(kernelgen_reconcile_total[10m]))) > 0.1',
     "for": "15m", "severity": "critical",
     "summary": "More than 10% of {{ $labels.kind }} reconciles fail",
     "description": "The operator's reconciles of {{ $labels.kind }} fail ({{ $value | humanizePercentage }}); "
                    "see the operator's log and kernelgen_kube_api_errors_total."},
]


def rules() -> dict[str, Any]:
    return {"groups": [{"name": "kernelgen.rules", "rules": [
        {"alert": a["alert"], "expr": a["expr"], "for": a["for"], "labels": {"severity": a["severity"]},
         "annotations": {"summary": a["summary"], "description": a["description"]}}
        for a in ALERTS]}]}


def queries(d: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """(panel title, expr) of every panel target and template-variable query."""
    d = d or dashboard()
    out = [(p["title"], t["expr"]) for p in d["panels"] for t in p.get("targets", [])]
    out += [(f"variable {v['name']}", v["query"]["query"]) for v in d["templating"]["list"] if v["type"] == "query"]
    return out

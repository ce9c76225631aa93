"""The generated dashboard and rules: Grafana model sanity, and every metric they use is one the operator exports."""

from __future__ import annotations

import importlib.util
import re

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from .helpers import REPO


def _mod():
    spec = importlib.util.spec_from_file_location("kernelgen_dashboard", REPO / "dashboards" / "kernelgen_dashboard.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _exported_series() -> set[str]:
    """Series names the operator exposes: its collector over one finished BenchRun, plus its counters/histograms."""
    from kernelgen_operator import metrics

    store = metrics.RunStore()
    store.put(metrics.RunState(kind="BenchRun", namespace="ns", name="r", phase="Succeeded", start=1.0,
                               completion=2.0, progress=1.0, results={
                                   "compileRate": 0.5, "execRate": 0.25, "passAt1": 0.25, "passAt10": 0.5,
                                   "passAt100": 1.0, "speedupGeomean": 1.1,
                                   "byLevel": {"1": {"compileRate": 0.5, "execRate": 0.25}},
                                   "compileErrorClasses": {"scope": 2}, "verdicts": {"ok": 1, "compile_error": 2}}))
    reg = CollectorRegistry()
    reg.register(metrics.RunCollector(store))
    names = {s.name for f in text_string_to_metric_families(generate_latest(reg).decode()) for s in f.samples}
    for c in (metrics.RECONCILE_TOTAL, metrics.RECONCILE_DURATION, metrics.KUBE_API_ERRORS, metrics.RUNS_STARTED,
              metrics.RUNS_FINISHED, metrics.RUN_DURATION, metrics.STAGE_DURATION, metrics.RUN_RESTARTS):
        for fam in c.describe():
            base = fam.name
            if fam.type == "counter":
                names.add(base + "_total")
            else:
                names |= {base + "_bucket", base + "_sum", base + "_count"}
    return names


IDENT = re.compile(r"\b(kernelgen_[a-z0-9_]+)\b")


def test_every_metric_used_is_exported():
    mod = _mod()
    exported = _exported_series()
    used = {m for _, expr in mod.queries() for m in IDENT.findall(expr)}
    used |= {m for a in mod.ALERTS for m in IDENT.findall(a["expr"] + " " + a["signal"])}
    assert used, "the dashboard queries no kernelgen metric"
    assert used <= exported, f"not exported by the operator: {sorted(used - exported)}"


def test_dashboard_model():
    d = _mod().dashboard()
    ids = [p["id"] for p in d["panels"]]
    assert len(ids) == len(set(ids))
    assert d["uid"] == "kernelgen-runs"
    names = [v["name"] for v in d["templating"]["list"]]
    assert names == ["datasource", "namespace", "kind", "run"]
    titles = " | ".join(p["title"] for p in d["panels"]).lower()
    for want in ("runs by phase", "stage duration", "compile rate per level", "execution", "pass@1", "speedup",
                 "failures by class", "reconciles"):
        assert want in titles, want
    # panels on the same rows never overlap
    cells = set()
    for p in d["panels"]:
        g = p["gridPos"]
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                assert (x, y) not in cells, f"panel {p['title']} overlaps"
                cells.add((x, y))
        assert g["x"] + g["w"] <= 24
        for t in p.get("targets", []):
            assert t["datasource"]["uid"] == "${datasource}"

"""End to end: `helm install` the chart into the hermetic cluster, run the operator under the chart's own
ServiceAccount, RBAC and config, reconcile BenchRuns to completion on kwok nodes, and have a real Prometheus
(Debian's package) scrape the operator during the runs; then run every dashboard query and alert rule through
Prometheus' HTTP API and check the rules and the metrics exposition with promtool.

What is real and what is not: kwok runs no containers, so the operator Deployment the chart creates becomes Ready
on a fake node but its container never runs. The operator process runs here instead (`python -m kernelgen_operator`,
as the image's entrypoint would), authenticated with a token of the chart's operator ServiceAccount (so the
chart's RBAC is what allows or denies every call) and configured from the chart's rendered ConfigMap.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest
import yaml

from .helpers import CHART, REPO, helm, helm_bin, load_testenv, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

RELEASE, NS, RUNS_NS = "kg", "kernelgen", "kg-runs"
SA = f"{RELEASE}-ascend-kernelgen-operator"
JOB_SA = f"{RELEASE}-ascend-kernelgen-jobs"
RESULTS = {"compileRate": 0.75, "execRate": 0.5, "passAt1": 0.5, "passAt10": 0.9, "passAt100": 1.0,
           "speedupGeomean": 1.25, "tasks": 4,
           "byLevel": {"1": {"compileRate": 1.0, "execRate": 0.75}, "2": {"compileRate": 0.5, "execRate": 0.25}},
           "compileErrorClasses": {"api_signature": 1}, "verdicts": {"ok": 2, "compile_error": 1, "value_mismatch": 1}}
# Grafana's template variables, as "All" would expand them.
GRAFANA_VARS = {"$__rate_interval": "10m", "$namespace": ".*", "$kind": ".*", "$run": ".*"}


def _dashboard_module():
    spec = importlib.util.spec_from_file_location("kernelgen_dashboard", REPO / "dashboards" / "kernelgen_dashboard.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod




def _get(url: str, timeout: float = 5) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    te = load_testenv()
    missing = te.missing_binaries()
    if missing:
        pytest.skip(f"test cluster binaries not built ({', '.join(missing)} missing in {te.default_bin_dir()}); "
                    "build them with: bash hack/testenv/build.sh")
    helm_bin()
    c = te.TestCluster(tmp_path_factory.mktemp("cluster"), ascend_nodes=1, cpu_nodes=1)
    c.start()
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def installed(cluster):
    """helm install with the values a kwok cluster needs (tolerate kwok's fake-node taint), watching RUNS_NS."""
    fake = {"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}
    values = {
        "operator": {"watchNamespaces": [RUNS_NS], "tolerations": [fake]},
        "npu": {"tolerations": [{"key": "huawei.com/Ascend910", "operator": "Exists", "effect": "NoSchedule"}, fake]},
        "cpu": {"tolerations": [fake]},
        "timerInterval": 2,
        "workers": 4,
        "s3": {"egress": {"cidrs": ["10.20.0.0/16"], "ports": [9000]}},
    }
    vf = cluster.workdir / "values.yaml"
    vf.write_text(yaml.safe_dump(values))
    cluster.kubectl("create", "namespace", RUNS_NS)
    env = cluster.env()
    cp = helm("install", RELEASE, str(CHART), "-n", NS, "--create-namespace", "-f", str(vf),
              "--kubeconfig", str(cluster.kubeconfig), env=env)
    for crd in ("benchruns", "trainruns", "cotbuilds"):
        cluster.kubectl("wait", "--for=condition=Established", f"crd/{crd}.kernelgen.ai", "--timeout=60s")
    return cp.stdout


@pytest.fixture(scope="module")
def operator_proc(cluster, installed):
    """The operator, as the chart's Deployment would run it: the chart's ServiceAccount token and config file."""
    token = cluster.kubectl("-n", NS, "create", "token", SA, "--duration=1h").stdout.strip()
    kubeconfig = cluster.workdir / "operator.kubeconfig"
    kubeconfig.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "sa",
        "clusters": [{"name": "c", "cluster": {"server": cluster.server,
                                               "certificate-authority": str(cluster.pki / "ca.crt")}}],
        "users": [{"name": "sa", "user": {"token": token}}],
        "contexts": [{"name": "sa", "context": {"cluster": "c", "user": "sa", "namespace": NS}}],
    }))
    cm = json.loads(cluster.kubectl("-n", NS, "get", "configmap", f"{RELEASE}-ascend-kernelgen-config",
                                    "-o", "json").stdout)
    config = cluster.workdir / "operator-config.yaml"
    config.write_text(cm["data"]["config.yaml"])
    dep = json.loads(cluster.kubectl("-n", NS, "get", "deploy", f"{RELEASE}-ascend-kernelgen-operator",
                                     "-o", "json").stdout)
    args = dep["spec"]["template"]["spec"]["containers"][0]["args"]
    metrics_port, health_port = load_testenv().free_port(), load_testenv().free_port()
    # the Deployment's own arguments, with the health port moved to a free loopback port
    args = [a.replace("0.0.0.0:8080", f"127.0.0.1:{health_port}") for a in args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNELGEN_")}
    env.update({"KUBECONFIG": str(kubeconfig), "KERNELGEN_OPERATOR_CONFIG": str(config),
                "KERNELGEN_METRICS_PORT": str(metrics_port),  # the chart's 8000 may be taken on this machine
                "KERNELGEN_WATCH_TIMEOUT": "10",
                "POD_NAMESPACE": NS, "POD_NAME": "operator-0",  # the Deployment's downward API (leader election)
                "PYTHONPATH": os.pathsep.join([str(REPO / "operator"), str(REPO / "jobs")])})
    log = cluster.workdir / "operator.log"
    proc = load_testenv().spawn([sys.executable, "-m", "kernelgen_operator", *args], log, env=env)
    try:
        wait_for(lambda: _get(f"http://127.0.0.1:{metrics_port}/metrics"), 60, "operator metrics endpoint")
        yield {"metrics_port": metrics_port, "health_port": health_port, "log": log, "args": args}
    finally:
        load_testenv().terminate(proc)
    text = log.read_text(errors="replace")
    # An API refusal as kopf logs it (a bare "403" also matches log timestamps such as 05:06:01,403).
    assert not re.search(r"status=403\b|'code': 403\b|Forbidden", text), f"RBAC denied a call:\n{text[-3000:]}"


@pytest.fixture(scope="module")
def prometheus(cluster, operator_proc):
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.skip("Debian's prometheus is not installed; install it with: bash hack/prometheus/install.sh")
    port = load_testenv().free_port()
    d = cluster.workdir / "prometheus"
    d.mkdir()
    (d / "prometheus.yml").write_text(yaml.safe_dump({
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(CHART / "files" / "kernelgen.rules.yaml")],
        "scrape_configs": [{"job_name": "kernelgen-operator", "honor_labels": True, "metrics_path": "/metrics",
                            "static_configs": [{"targets": [f"127.0.0.1:{operator_proc['metrics_port']}"]}]}],
    }))
    proc = load_testenv().spawn([binary, f"--config.file={d / 'prometheus.yml'}", f"--storage.tsdb.path={d / 'data'}",
                            f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=1h"],
                           d / "prometheus.log")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _get(f"{url}/-/ready"), 60, "prometheus ready")
        wait_for(lambda: any(t["health"] == "up" for t in _api(url, "targets")["activeTargets"]), 30,
                 "prometheus scraping the operator")
        yield url
    finally:
        load_testenv().terminate(proc)


def _api(url: str, path: str, **params) -> dict:
    q = urllib.parse.urlencode(params)
    body = json.loads(_get(f"{url}/api/v1/{path}" + (f"?{q}" if q else ""), timeout=20))
    assert body["status"] == "success", body
    return body["data"]


def _query(url: str, expr: str) -> list:
    for k, v in GRAFANA_VARS.items():
        expr = expr.replace(k, v)
    return _api(url, "query", query=expr)["result"]


def _benchrun(name: str, annotations: dict[str, str], **controls) -> dict:
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
            "spec": {"evaluation": {"backend": "ascend"}, "evalShards": 2,
                     "candidates": {"source": "reference"}, "output": {"uri": "s3://results/bench"},
                     "podTemplate": {"metadata": {"annotations": annotations}}, **controls}}


@pytest.fixture(scope="module")
def runs(cluster, prometheus):
    ok = _benchrun("bench-ok", {"testenv.kernelgen.ai/termination-message": json.dumps({"results": RESULTS})})
    bad = _benchrun("bench-bad", {"testenv.kernelgen.ai/exit-code": "1"}, backoffLimit=1)
    for doc in (ok, bad):
        cluster.kubectl("-n", RUNS_NS, "apply", "-f", "-", input=json.dumps(doc))

    def phase(name):
        st = json.loads(cluster.kubectl("-n", RUNS_NS, "get", "benchrun", name, "-o", "json").stdout).get("status", {})
        return st.get("phase"), st

    wait_for(lambda: phase("bench-ok")[0] == "Succeeded", 120, "bench-ok Succeeded")
    wait_for(lambda: phase("bench-bad")[0] == "Failed", 120, "bench-bad Failed")
    return {"ok": phase("bench-ok")[1], "bad": phase("bench-bad")[1]}


def test_helm_install_objects(cluster, installed):
    assert "AscendKernelGen operator" in installed  # NOTES.txt
    cluster.kubectl("-n", NS, "rollout", "status", f"deploy/{RELEASE}-ascend-kernelgen-operator", "--timeout=60s")
    sa = json.loads(cluster.kubectl("-n", RUNS_NS, "get", "serviceaccount", JOB_SA, "-o", "json").stdout)
    assert sa["automountServiceAccountToken"] is False
    cluster.kubectl("-n", RUNS_NS, "get", "networkpolicy", f"{RELEASE}-ascend-kernelgen-evaluate-egress")
    cm = json.loads(cluster.kubectl("-n", NS, "get", "configmap", f"{RELEASE}-ascend-kernelgen-dashboard",
                                    "-o", "json").stdout)
    assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
    # least privilege, asked of the API server itself
    who = f"system:serviceaccount:{NS}:{SA}"

    def can(*a):
        return cluster.kubectl("auth", "can-i", *a, "--as", who, check=False).stdout.strip() == "yes"

    assert can("create", "jobs.batch", "-n", RUNS_NS)
    assert can("patch", "benchruns.kernelgen.ai", "--subresource=status", "-n", RUNS_NS)
    assert not can("create", "jobs.batch", "-n", "default"), "namespaced install must not reach other namespaces"
    assert can("get", "secrets", "-n", RUNS_NS)  # a run's referenced Secrets are checked before any pod
    assert not can("list", "secrets", "-n", RUNS_NS) and not can("watch", "secrets", "-n", RUNS_NS)
    assert not can("delete", "pods", "-n", RUNS_NS)
    assert can("watch", "customresourcedefinitions.apiextensions.k8s.io")


def test_benchruns_reconcile_to_completion(cluster, operator_proc, runs):
    assert runs["ok"]["results"]["passAt10"] == 0.9
    assert runs["ok"]["results"]["byLevel"]["2"]["execRate"] == 0.25
    reason = next(c for c in runs["bad"]["conditions"] if c["type"] == "Failed")["reason"]
    assert reason == "BackoffLimitExceeded"
    jobs = json.loads(cluster.kubectl("-n", RUNS_NS, "get", "jobs", "-l", "kernelgen.ai/run=bench-ok",
                                      "-o", "json").stdout)["items"]
    assert {j["metadata"]["labels"]["kernelgen.ai/stage"] for j in jobs} >= {"evaluate", "report"}
    pods = json.loads(cluster.kubectl("-n", RUNS_NS, "get", "pods", "-l", "kernelgen.ai/run=bench-ok",
                                      "-o", "json").stdout)["items"]
    assert pods and all(p["spec"]["serviceAccountName"] == JOB_SA for p in pods)
    evaluate = [p for p in pods if p["metadata"]["labels"]["kernelgen.ai/stage"] == "evaluate"]
    assert evaluate and all(p["spec"]["nodeName"].startswith("ascend-") for p in evaluate)
    assert all(p["spec"]["containers"][0]["resources"]["limits"]["huawei.com/Ascend910"] for p in evaluate)
    # kopf's liveness endpoint, which the chart's probes call
    assert _get(f"http://127.0.0.1:{operator_proc['health_port']}/healthz")


def test_dashboard_queries_return_data(prometheus, runs):
    mod = _dashboard_module()
    time.sleep(3)  # a few scrapes after the last status change
    empty = []
    for title, expr in mod.queries():
        if title.startswith("variable "):
            # label_values(metric, label) is Grafana's; check the metric selector instead
            expr = expr[len("label_values("):].rsplit(",", 1)[0]
        result = wait_for(lambda e=expr: _query(prometheus, e), 20, f"data for {title}: {expr}")
        if not result:
            empty.append((title, expr))
    assert not empty
    passk = {r["metric"]["k"]: float(r["value"][1]) for r in _query(prometheus, "kernelgen_benchrun_pass_at_k")}
    assert passk == {"1": 0.5, "10": 0.9, "100": 1.0}
    lvl = {r["metric"]["level"]: float(r["value"][1])
           for r in _query(prometheus, 'kernelgen_benchrun_level_exec_ratio{name="bench-ok"}')}
    assert lvl == {"1": 0.75, "2": 0.25}
    # honor_labels: the run's namespace survives the scrape (not exported_namespace)
    assert {r["metric"]["namespace"] for r in _query(prometheus, "kernelgen_run_info")} == {RUNS_NS}


def test_alert_rules_evaluate(prometheus, runs):
    mod = _dashboard_module()
    for a in mod.ALERTS:
        _query(prometheus, a["expr"])  # parses and evaluates
        assert wait_for(lambda a=a: _query(prometheus, a["signal"]), 20, f"data for {a['alert']}'s signal")

    def rules():
        return [r for g in _api(prometheus, "rules")["groups"] for r in g["rules"]]

    got = wait_for(lambda: (rs := rules()) and all(r.get("lastEvaluation", "").startswith("20") for r in rs) and rs,
                   30, "rules evaluated")
    assert {r["name"] for r in got} == {a["alert"] for a in mod.ALERTS}
    assert all(r["health"] == "ok" for r in got), [(r["name"], r.get("lastError")) for r in got]
    failed = next(r for r in got if r["name"] == "KernelgenRunFailed")
    wait_for(lambda: any(a["labels"]["alertname"] == "KernelgenRunFailed" and a["state"] == "firing"
                         for a in _api(prometheus, "alerts")["alerts"]), 30, "KernelgenRunFailed firing")
    assert failed["labels"]["severity"] == "warning"


def test_promtool_checks(operator_proc, runs, tmp_path):
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed; install it with: bash hack/prometheus/install.sh")
    cp = subprocess.run([promtool, "check", "rules", str(CHART / "files" / "kernelgen.rules.yaml")],
                        check=False, capture_output=True, text=True)
    assert cp.returncode == 0 and "SUCCESS: 4 rules found" in cp.stdout, cp.stdout + cp.stderr
    exposition = _get(f"http://127.0.0.1:{operator_proc['metrics_port']}/metrics")
    assert b"kernelgen_benchrun_pass_at_k" in exposition
    cp = subprocess.run([promtool, "check", "metrics"], input=exposition, check=False, capture_output=True)
    assert cp.returncode == 0, (cp.stdout + cp.stderr).decode()


def test_default_render_passes_server_side_dry_run(cluster, installed):
    """The default values (cluster-wide operator) render objects the API server accepts."""
    cp = helm("template", "other", str(CHART), "-n", NS, "--kube-version", "1.36.3")
    out = cluster.kubectl("apply", "--dry-run=server", "-f", "-", input=cp.stdout)
    assert "deployment.apps/other-ascend-kernelgen-operator created (server dry run)" in out.stdout

"""The Helm chart: lint, render with several value sets, schema rejections, and what the rendered objects say."""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from .helpers import CHART, REPO, by_kind, helm, render

MONITORING = ("monitoring.coreos.com/v1/ServiceMonitor", "monitoring.coreos.com/v1/PrometheusRule")


def test_helm_lint_strict():
    cp = helm("lint", str(CHART), "--strict")
    assert "0 chart(s) failed" in cp.stdout


def test_chart_files_are_generated_and_current():
    cp = __import__("subprocess").run([sys.executable, str(REPO / "hack" / "gen_chart_files.py"), "--check"],
                                      capture_output=True, text=True)
    assert cp.returncode == 0, f"run: python hack/gen_chart_files.py\n{cp.stderr}"
    # the chart's CRDs are byte-for-byte the generated ones
    for crd in (REPO / "crds").glob("*.yaml"):
        assert (CHART / "crds" / crd.name).read_text() == crd.read_text()


def test_default_render_objects():
    docs = render()
    kinds = sorted(d["kind"] for d in docs)
    assert kinds.count("Deployment") == 1
    assert {"ServiceAccount", "ClusterRole", "ClusterRoleBinding", "ConfigMap", "Service", "NetworkPolicy"} <= set(kinds)
    # ServiceMonitor / PrometheusRule are opt-in
    assert "ServiceMonitor" not in kinds and "PrometheusRule" not in kinds

    dep = by_kind(docs, "Deployment")[0]
    # leader election on by default: a Lease decides which replica reconciles, so rollouts may overlap
    assert dep["spec"]["replicas"] == 1 and dep["spec"]["strategy"]["type"] == "RollingUpdate"
    assert "--leader-elect" in dep["spec"]["template"]["spec"]["containers"][0]["args"]
    pod = dep["spec"]["template"]["spec"]
    c = pod["containers"][0]
    assert "--liveness=http://0.0.0.0:8080/healthz" in c["args"]
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "health"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": "health"}
    assert c["resources"]["requests"] and c["resources"]["limits"]["memory"]
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert {p["name"]: p["containerPort"] for p in c["ports"]} == {"health": 8080, "metrics": 8000}
    # the config ConfigMap is what the operator's own loader accepts
    sys.path.insert(0, str(REPO / "operator"))
    from kernelgen_operator.config import OperatorConfig

    cm = next(d for d in by_kind(docs, "ConfigMap") if "config.yaml" in d.get("data", {}))
    cfg = OperatorConfig.model_validate(yaml.safe_load(cm["data"]["config.yaml"]))
    assert cfg.npu_resource_name == "huawei.com/Ascend910"
    assert cfg.service_account_name == "kg-ascend-kernelgen-jobs"
    assert cfg.metrics_port == 8000 and cfg.driver_mounts is True
    env = {e["name"]: e.get("value") or e["valueFrom"]["fieldRef"]["fieldPath"] for e in c["env"]}
    assert env["KERNELGEN_OPERATOR_CONFIG"] == "/etc/kernelgen-operator/config.yaml"
    assert env["POD_NAMESPACE"] == "metadata.namespace" and env["POD_NAME"] == "metadata.name"
    # config changes roll the pod
    assert dep["spec"]["template"]["metadata"]["annotations"]["checksum/config"]


def test_values_reach_the_operator_config():
    docs = render("npu.resourceName=huawei.com/Ascend910B3", "npu.driverMounts.enabled=false",
                  "npu.nodeSelector.node\\.kubernetes\\.io/npu\\.chip\\.name=910B3",
                  "jobImages.BenchRun=registry.example/kg:1", "metrics.port=9100", "timerInterval=5")
    cm = next(d for d in by_kind(docs, "ConfigMap") if "config.yaml" in d.get("data", {}))
    cfg = yaml.safe_load(cm["data"]["config.yaml"])
    assert cfg["npuResourceName"] == "huawei.com/Ascend910B3"
    assert cfg["driverMounts"] is False
    assert cfg["npuNodeSelector"]["node.kubernetes.io/npu.chip.name"] == "910B3"
    assert cfg["images"]["BenchRun"] == "registry.example/kg:1"
    assert cfg["metricsPort"] == 9100 and cfg["timerInterval"] == 5
    svc = by_kind(docs, "Service")[0]
    assert svc["spec"]["ports"][0]["port"] == 9100


def test_rbac_is_least_privilege():
    docs = render()
    roles = {r["metadata"]["name"]: r["rules"] for r in by_kind(docs, "ClusterRole")
             if "-operator" in r["metadata"]["name"]}  # the users' aggregated roles: test_user_roles_aggregate
    granted = {(g, res, v) for rules in roles.values() for r in rules for g in r["apiGroups"]
               for res in r["resources"] for v in r["verbs"]}
    assert not any("*" in t for t in granted), "no wildcards"
    # Secrets: get only (the referenced ones are checked to exist before any pod); pods are read-only
    assert {v for g, res, v in granted if res == "secrets"} == {"get"}
    assert {v for g, res, v in granted if res == "pods"} == {"get", "list", "watch"}
    assert ("kernelgen.ai", "benchruns/status", "patch") in granted
    assert ("batch", "jobs", "create") in granted
    assert ("apiextensions.k8s.io", "customresourcedefinitions", "watch") in granted
    assert not any(res == "customresourcedefinitions" and v in ("create", "update", "patch", "delete")
                   for _, res, v in granted)


def test_watch_namespaces_use_rolebindings():
    docs = render("operator.watchNamespaces={team-a,team-b}")
    rbs = [r for r in by_kind(docs, "RoleBinding") if not r["metadata"]["name"].endswith("-leader-election")]
    assert sorted(r["metadata"]["namespace"] for r in rbs) == ["team-a", "team-b"]
    # only the discovery ClusterRole is bound cluster-wide
    crbs = by_kind(docs, "ClusterRoleBinding")
    assert [b["roleRef"]["name"] for b in crbs] == ["kg-ascend-kernelgen-operator-discovery"]
    args = by_kind(docs, "Deployment")[0]["spec"]["template"]["spec"]["containers"][0]["args"]
    assert "--namespace=team-a" in args and "--namespace=team-b" in args
    # the job ServiceAccount and the NetworkPolicy exist where the runs are
    sas = [s["metadata"]["namespace"] for s in by_kind(docs, "ServiceAccount") if s["metadata"]["name"].endswith("-jobs")]
    assert sorted(sas) == ["team-a", "team-b"]
    assert sorted(n["metadata"]["namespace"] for n in by_kind(docs, "NetworkPolicy")) == ["team-a", "team-b"]


def test_network_policy_allows_only_dns_and_the_store():
    docs = render("s3.egress.cidrs={10.20.0.0/16}", "s3.egress.ports={9000}")
    (np,) = by_kind(docs, "NetworkPolicy")
    assert np["spec"]["podSelector"]["matchLabels"] == {"kernelgen.ai/kind": "BenchRun", "kernelgen.ai/stage": "evaluate"}
    assert np["spec"]["policyTypes"] == ["Egress"]
    rules = np["spec"]["egress"]
    assert len(rules) == 2
    assert {p["port"] for p in rules[0]["ports"]} == {53}
    assert rules[1]["to"] == [{"ipBlock": {"cidr": "10.20.0.0/16"}}]
    assert rules[1]["ports"] == [{"protocol": "TCP", "port": 9000}]
    # without a store configured, only DNS is allowed
    (np,) = by_kind(render(), "NetworkPolicy")
    assert len(np["spec"]["egress"]) == 1


def test_monitoring_objects():
    docs = render("metrics.serviceMonitor.enabled=true", "metrics.prometheusRule.enabled=true",
                  "metrics.serviceMonitor.additionalLabels.release=kps", api_versions=MONITORING)
    (sm,) = by_kind(docs, "ServiceMonitor")
    ep = sm["spec"]["endpoints"][0]
    assert ep["honorLabels"] is True and ep["port"] == "metrics"
    assert sm["metadata"]["labels"]["release"] == "kps"
    svc = by_kind(docs, "Service")[0]
    assert sm["spec"]["selector"]["matchLabels"].items() <= svc["spec"]["selector"].items()
    (rule,) = by_kind(docs, "PrometheusRule")
    alerts = {r["alert"] for g in rule["spec"]["groups"] for r in g["rules"]}
    assert {"KernelgenRunFailed", "KernelgenRunStuckPending", "KernelgenReconcileErrors"} <= alerts
    # without the Prometheus Operator's CRDs the chart refuses rather than render objects that cannot apply
    cp = helm("template", "kg", str(CHART), "--kube-version", "1.36.3", "--set",
              "metrics.serviceMonitor.enabled=true", check=False)
    assert cp.returncode != 0 and "ServiceMonitor CRD" in cp.stderr


def test_dashboard_configmap():
    docs = render("grafana.dashboards.folder=Bench")
    cm = next(d for d in by_kind(docs, "ConfigMap") if d["metadata"]["name"].endswith("-dashboard"))
    assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert cm["metadata"]["annotations"]["grafana_folder"] == "Bench"
    dash = json.loads(cm["data"]["kernelgen.json"])
    assert dash == json.loads((REPO / "dashboards" / "kernelgen.json").read_text())
    assert not any(d["metadata"]["name"].endswith("-dashboard") for d in render("grafana.dashboards.enabled=false"))


@pytest.mark.parametrize("bad", [
    "npu.resourceName=Ascend910",               # no domain prefix
    "operator.image.pullPolicy=Sometimes",
    "metrics.port=0",
    "workers=0",
    "s3.endpoint=s3.example.com",               # no scheme
    "unknownTopLevel=1",
])
def test_schema_rejects_bad_values(bad):
    cp = helm("template", "kg", str(CHART), "--kube-version", "1.36.3", "--set", bad, check=False)
    assert cp.returncode != 0
    assert "values don't meet the specifications of the schema" in cp.stderr or "schema" in cp.stderr.lower()


def test_user_roles_aggregate_to_edit_and_view():
    roles = {r["metadata"]["name"]: r for r in by_kind(render(), "ClusterRole")}
    edit, view = roles["kg-ascend-kernelgen-edit"], roles["kg-ascend-kernelgen-view"]
    assert edit["metadata"]["labels"]["rbac.authorization.k8s.io/aggregate-to-edit"] == "true"
    assert view["metadata"]["labels"]["rbac.authorization.k8s.io/aggregate-to-view"] == "true"
    assert "create" in edit["rules"][0]["verbs"] and set(view["rules"][0]["verbs"]) == {"get", "list", "watch"}
    names = {r["metadata"]["name"] for r in by_kind(render("rbac.aggregateToDefaultRoles=false"), "ClusterRole")}
    assert not names & {"kg-ascend-kernelgen-edit", "kg-ascend-kernelgen-view"}


def test_evaluation_runtime_class_reaches_the_operator_config():
    cfg = lambda docs: yaml.safe_load(next(d for d in by_kind(docs, "ConfigMap")  # noqa: E731
                                           if "config.yaml" in d.get("data", {}))["data"]["config.yaml"])
    assert "evaluateRuntimeClassName" not in cfg(render())
    assert cfg(render("evaluation.runtimeClassName=gvisor"))["evaluateRuntimeClassName"] == "gvisor"


def test_leader_election_can_be_turned_off_and_replicas_raised():
    dep = by_kind(render("operator.replicas=2"), "Deployment")[0]
    assert dep["spec"]["replicas"] == 2
    lease_role = next(r for r in by_kind(render(), "Role") if r["metadata"]["name"].endswith("-leader-election"))
    assert lease_role["metadata"]["namespace"] == "kernelgen"
    assert lease_role["rules"] == [{"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
                                    "verbs": ["get", "create", "update"]}]
    off = render("operator.leaderElection.enabled=false", "operator.replicas=3")
    dep = by_kind(off, "Deployment")[0]
    assert dep["spec"]["replicas"] == 1 and dep["spec"]["strategy"]["type"] == "Recreate"
    assert "--leader-elect" not in dep["spec"]["template"]["spec"]["containers"][0]["args"]
    assert not [r for r in by_kind(off, "Role") if r["metadata"]["name"].endswith("-leader-election")]


def test_evaluate_pod_isolation_from_the_chart_values():
    """The chart's config, loaded by the operator, gives evaluate pods exactly the jail's settings."""
    from kernelgen.specs import load_spec
    from kernelgen_operator.children import build_job, plan_stages
    from kernelgen_operator.config import OperatorConfig
    from tests.operator.operator_manifests import benchrun

    def pods(*values):
        cm = next(d for d in by_kind(render(*values), "ConfigMap") if "config.yaml" in d.get("data", {}))
        cfg = OperatorConfig.model_validate(yaml.safe_load(cm["data"]["config.yaml"]))
        doc = benchrun("b")
        doc["metadata"]["namespace"] = "ns"
        run = load_spec(doc)
        return {p.name: build_job(run, {}, p, 0, cfg)["spec"]["template"]["spec"] for p in plan_stages(run)}

    ev = pods()["evaluate"]
    sc = ev["containers"][0]["securityContext"]
    assert ev["hostUsers"] is False and sc["procMount"] == "Unmasked" and sc["seccompProfile"]["type"] == "Unconfined"
    assert {"name": "tmp", "emptyDir": {"sizeLimit": "40Gi"}} in ev["volumes"]
    ev = pods("evaluation.seccompLocalhostProfile=kernelgen/jail.json", "scratchSizeLimit=10Gi")["evaluate"]
    assert ev["containers"][0]["securityContext"]["seccompProfile"] == {"type": "Localhost",
                                                                       "localhostProfile": "kernelgen/jail.json"}
    assert {"name": "work", "emptyDir": {"sizeLimit": "10Gi"}} in ev["volumes"]
    ev = pods("evaluation.jail=false")["evaluate"]
    assert "hostUsers" not in ev and "procMount" not in ev["containers"][0]["securityContext"]
    with pytest.raises(Exception):
        render("scratchSizeLimit=lots")

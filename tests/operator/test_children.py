"""Spec -> child Job manifests (pure functions; no cluster)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from kernelgen.specs import load_spec
from .operator_manifests import benchrun, cotbuild, trainrun

from kernelgen_operator.children import build_job, headless_service, job_name, plan_stages, resolved_spec_yaml
from kernelgen_operator.config import load_config
from kernelgen_operator.status import derive_phase, job_state, set_condition

CFG = load_config({})
NPU = "huawei.com/Ascend910"


def model(doc):
    doc["metadata"]["namespace"] = "ns"
    return load_spec(doc)


def stages(doc):
    return {p.name: p for p in plan_stages(model(doc))}


def test_benchrun_stage_plan_follows_candidates_and_backend():
    assert list(stages(benchrun("b"))) == ["generate", "evaluate", "report"]
    ref = benchrun("b")
    ref["spec"]["candidates"] = {"source": "reference"}
    del ref["spec"]["generator"]
    assert list(stages(ref)) == ["evaluate", "report"]
    openai = benchrun("b", backend="sim")
    openai["spec"]["generator"].update(engine="openai", endpoint="http://llm:8000/v1")
    plan = stages(openai)
    assert plan["generate"].npus == 0 and plan["evaluate"].npus == 0  # remote LLM + simulator: no NPU at all
    assert stages(benchrun("b", shards=5))["evaluate"].completions == 5


def test_sim_evaluations_can_request_npus():
    """evaluation.npus overrides the backend's default: the simulator's evaluations placed on Ascend nodes."""
    sim = benchrun("b", backend="sim")
    assert stages(sim)["evaluate"].npus == 0
    sim["spec"]["evaluation"]["npus"] = 1
    assert stages(sim)["evaluate"].npus == 1
    ascend = benchrun("b")
    ascend["spec"]["evaluation"]["npus"] = 0
    assert stages(ascend)["evaluate"].npus == 0


def test_host_network_only_when_configured():
    run = model(benchrun("b"))
    plan = {p.name: p for p in plan_stages(run)}["evaluate"]
    assert "hostNetwork" not in build_job(run, {}, plan, 0, CFG)["spec"]["template"]["spec"]
    pod = build_job(run, {}, plan, 0, load_config({"KERNELGEN_HOST_NETWORK": "true"}))["spec"]["template"]["spec"]
    assert pod["hostNetwork"] is True and pod["dnsPolicy"] == "ClusterFirstWithHostNet"


def test_npu_and_cpu_pods():
    run = model(benchrun("b", shards=4))
    plans = {p.name: p for p in plan_stages(run)}
    ev = build_job(run, {"generation": 3}, plans["evaluate"], 0, CFG, active_deadline_seconds=99.5)
    pod = ev["spec"]["template"]["spec"]
    c = pod["containers"][0]
    assert c["resources"]["limits"] == {NPU: "1"} and c["resources"]["requests"][NPU] == "1"
    assert pod["nodeSelector"] == {"accelerator-type": "module-910b-8"}
    assert {"key": NPU, "operator": "Exists", "effect": "NoSchedule"} in pod["tolerations"]
    paths = {v["hostPath"]["path"] for v in pod["volumes"] if "hostPath" in v}
    assert "/usr/local/Ascend/driver" in paths
    assert {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}} in pod["volumes"]
    assert ev["spec"]["activeDeadlineSeconds"] == 99 and ev["spec"]["backoffLimit"] == 0
    assert ev["spec"]["completionMode"] == "Indexed" and ev["metadata"]["name"] == "b-evaluate-r0"
    assert c["env"][0]["name"] == "JOB_COMPLETION_INDEX"

    rep = build_job(run, {}, plans["report"], 2, CFG)
    rpod = rep["spec"]["template"]["spec"]
    assert NPU not in json.dumps(rep)  # CPU-only stages never request (or tolerate) NPUs
    assert "nodeSelector" not in rpod and not any("hostPath" in v for v in rpod["volumes"])
    assert rep["metadata"]["name"] == "b-report-r2" and rep["metadata"]["labels"]["kernelgen.ai/attempt"] == "2"
    sc = rpod["containers"][0]["securityContext"]
    assert sc == {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True,
                  "capabilities": {"drop": ["ALL"]}}
    assert rpod["automountServiceAccountToken"] is False and rpod["restartPolicy"] == "Never"


def test_configured_resource_name_selectors_and_tolerations():
    cfg = load_config({"KERNELGEN_NPU_RESOURCE": "huawei.com/Ascend910B3",
                       "KERNELGEN_NPU_NODE_SELECTOR": '{"node.kubernetes.io/npu.chip.name": "910B3"}',
                       "KERNELGEN_CPU_TOLERATIONS": '[{"key": "batch", "operator": "Exists"}]',
                       "KERNELGEN_DRIVER_MOUNTS": "false"})
    run = model(benchrun("b"))
    plans = {p.name: p for p in plan_stages(run)}
    gen = build_job(run, {}, plans["generate"], 0, cfg)["spec"]["template"]["spec"]
    assert gen["containers"][0]["resources"]["limits"] == {"huawei.com/Ascend910B3": "1"}
    assert gen["nodeSelector"] == {"node.kubernetes.io/npu.chip.name": "910B3"}
    assert not any("hostPath" in v for v in gen["volumes"])
    rep = build_job(run, {}, plans["report"], 0, cfg)["spec"]["template"]["spec"]
    assert rep["tolerations"] == [{"key": "batch", "operator": "Exists"}]


def test_pod_template_overlay_and_failure_policy_projection():
    doc = benchrun("b")
    doc["spec"]["podTemplate"] = {
        "metadata": {"labels": {"team": "k"}, "annotations": {"a": "1"}},
        "spec": {"nodeSelector": {"zone": "z1"}, "env": [{"name": "X", "value": "y"}],
                 "priorityClassName": "high", "serviceAccountName": "runner",
                 "tolerations": [{"key": "spot", "operator": "Exists"}]},
    }
    doc["spec"]["failurePolicy"] = {"rules": [
        {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3, 3, 4]}},
        {"action": "Count", "onPodConditions": [{"type": "ConfigIssue"}]}]}
    run = model(doc)
    job = build_job(run, {"labels": {"kueue.x-k8s.io/queue-name": "npu"}}, plan_stages(run)[1], 0, CFG)
    tpl = job["spec"]["template"]
    assert tpl["metadata"]["labels"]["team"] == "k" and tpl["metadata"]["annotations"] == {"a": "1"}
    assert job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "npu"
    assert tpl["spec"]["nodeSelector"] == {"accelerator-type": "module-910b-8", "zone": "z1"}
    assert tpl["spec"]["priorityClassName"] == "high" and tpl["spec"]["serviceAccountName"] == "runner"
    assert {"key": "spot", "operator": "Exists"} in tpl["spec"]["tolerations"]
    assert {"name": "X", "value": "y"} in tpl["spec"]["containers"][0]["env"]
    rules = job["spec"]["podFailurePolicy"]["rules"]
    # FailIndex needs backoffLimitPerIndex (only tolerant indexed stages): elsewhere it counts.
    assert rules[0] == {"action": "Count", "onExitCodes": {"containerName": "main", "operator": "In", "values": [3, 4]}}
    assert rules[1] == {"action": "Count", "onPodConditions": [{"type": "ConfigIssue", "status": "True"}]}


def test_cotbuild_tolerant_shards_use_per_index_backoff():
    doc = cotbuild("c", shards=6)
    doc["spec"].update(allowedFailedShards=2, maxParallelShards=4)
    doc["spec"]["failurePolicy"] = {"rules": [{"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [5]}}]}
    run = model(doc)
    gen = build_job(run, {}, plan_stages(run)[0], 0, CFG)
    assert (gen["spec"]["completions"], gen["spec"]["parallelism"]) == (6, 4)
    assert gen["spec"]["maxFailedIndexes"] == 2 and gen["spec"]["backoffLimitPerIndex"] == 0
    assert "backoffLimit" not in gen["spec"]
    assert gen["spec"]["podFailurePolicy"]["rules"][0]["action"] == "FailIndex"
    assert gen["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"] == {NPU: "2"}


def test_multi_node_trainrun():
    run = model(trainrun("t", {"uri": "s3://d"}, nodes=4, npus=8))
    plan = plan_stages(run)[0]
    job = build_job(run, {}, plan, 1, CFG)
    pod = job["spec"]["template"]["spec"]
    env = {e["name"]: e.get("value") for e in pod["containers"][0]["env"]}
    assert env["MASTER_ADDR"] == "t-train-r1-0.t-train-r1" and env["NNODES"] == "4"
    assert env["NPROC_PER_NODE"] == "8" and "WORLD_SIZE" not in env  # torchrun sets WORLD_SIZE per process
    assert env["NODE_RANK"] == "$(JOB_COMPLETION_INDEX)" and env["HCCL_CONNECT_TIMEOUT"] == "600"
    assert pod["subdomain"] == "t-train-r1" and job["spec"]["podReplacementPolicy"] == "Failed"
    # `kernelgen train run` relaunches itself under torchrun from that environment.
    assert pod["containers"][0]["command"] == ["kernelgen"]
    assert pod["containers"][0]["args"] == ["train", "run", "--spec", "/etc/kernelgen/spec.yaml"]
    svc = headless_service(run, plan, 1)
    assert svc["metadata"]["name"] == "t-train-r1" and svc["spec"]["clusterIP"] == "None"
    single = model(trainrun("s", {"uri": "s3://d"}, nodes=1, npus=1))
    sjob = build_job(single, {}, plan_stages(single)[0], 0, CFG)
    assert sjob["spec"]["completionMode"] == "NonIndexed"
    assert sjob["spec"]["template"]["spec"]["containers"][0]["command"] == ["kernelgen"]


def test_child_names_fit_kubernetes_limits():
    name = "a" * 40  # the longest valid run name
    for doc in (benchrun(name, shards=256), cotbuild(name, shards=1024), trainrun(name, {"uri": "x"}, nodes=256)):
        run = model(doc)
        for plan in plan_stages(run):
            jn = job_name(name, plan.name, 20)  # backoffLimit <= 20
            assert len(jn) <= 63 and len(f"{jn}-{plan.completions - 1}") <= 63


def test_resolved_spec_replaces_the_cotbuild_reference():
    run = model(trainrun("t", {"fromCoTBuild": {"name": "c"}}))
    text = resolved_spec_yaml(run, {"dataset.uri": "s3://ds/c", "dataset.fromCoTBuild": None})
    again = load_spec(text)
    assert again.spec.dataset.uri == "s3://ds/c" and again.spec.dataset.from_co_t_build is None


def test_conditions_and_phase():
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    conds = set_condition([], "Running", True, "StageRunning", "a", 1, t0)
    later = set_condition(conds, "Running", True, "StageRunning", "b", 2, t0 + dt.timedelta(seconds=5))
    assert later[0]["lastTransitionTime"] == conds[0]["lastTransitionTime"]  # unchanged status keeps its time
    assert later[0]["message"] == "b" and later[0]["observedGeneration"] == 2
    flipped = set_condition(later, "Running", False, "Completed", "", 2, t0 + dt.timedelta(seconds=9))
    assert flipped[0]["lastTransitionTime"] == "2026-01-01T00:00:09Z"
    assert derive_phase(later) == "Running"
    assert derive_phase(set_condition(later, "Suspended", True, "S", "", 2, t0)) == "Suspended"
    assert derive_phase(set_condition(later, "Failed", True, "X", "", 2, t0)) == "Failed"
    assert derive_phase([]) == "Pending"


@pytest.mark.parametrize("status,allowed,state", [
    ({"conditions": [{"type": "Complete", "status": "True"}]}, 0, "Complete"),
    ({"conditions": [{"type": "FailureTarget", "status": "True", "reason": "PodFailurePolicy"}]}, 0, "Failed"),
    ({"conditions": [{"type": "Failed", "status": "True", "reason": "FailedIndexes"}],
      "failedIndexes": "1,4", "completedIndexes": "0,2-3,5"}, 2, "Complete"),
    ({"conditions": [{"type": "Failed", "status": "True", "reason": "FailedIndexes"}],
      "failedIndexes": "1-3", "completedIndexes": "0,4-5"}, 2, "Failed"),
    ({"active": 2}, 0, "Active"),
])
def test_job_state(status, allowed, state):
    assert job_state({"spec": {"completions": 6}, "status": status}, allowed)[0] == state


def test_config_file_then_environment(tmp_path):
    f = tmp_path / "operator.yaml"
    f.write_text("npuResourceName: huawei.com/Ascend910B4\ntimerInterval: 7\ncpuNodeSelector: {pool: cpu}\n")
    cfg = load_config({"KERNELGEN_OPERATOR_CONFIG": str(f), "KERNELGEN_TIMER_INTERVAL": "3"})
    assert cfg.npu_resource_name == "huawei.com/Ascend910B4"
    assert cfg.cpu_node_selector == {"pool": "cpu"} and cfg.timer_interval == 3.0  # the environment wins
    with pytest.raises(Exception):
        load_config({"KERNELGEN_OPERATOR_CONFIG": str(f), "KERNELGEN_WORKERS": "many"})


def test_evaluate_pods_take_the_runtime_class_of_the_run_or_the_operator():
    def pods(doc, cfg=CFG):
        run = model(doc)
        return {p.name: build_job(run, {"generation": 1}, p, 0, cfg)["spec"]["template"]["spec"]
                for p in plan_stages(run)}

    assert all("runtimeClassName" not in p for p in pods(benchrun("b")).values())
    by_cfg = pods(benchrun("b"), load_config({"KERNELGEN_EVALUATE_RUNTIME_CLASS": "gvisor"}))
    assert by_cfg["evaluate"]["runtimeClassName"] == "gvisor"
    assert "runtimeClassName" not in by_cfg["generate"] and "runtimeClassName" not in by_cfg["report"]
    doc = benchrun("b")
    doc["spec"]["evaluation"]["runtimeClassName"] = "kata"
    assert pods(doc, load_config({"KERNELGEN_EVALUATE_RUNTIME_CLASS": "gvisor"}))["evaluate"]["runtimeClassName"] == "kata"


def _pods_of(doc, cfg=CFG):
    run = model(doc)
    return {p.name: build_job(run, {"generation": 1}, p, 0, cfg)["spec"]["template"]["spec"] for p in plan_stages(run)}


def test_every_pod_is_locked_down_and_scratch_is_bounded():
    pods = {**_pods_of(benchrun("b")), **{f"cot-{k}": v for k, v in _pods_of(cotbuild("c", shards=2)).items()}}
    for name, pod in pods.items():
        c = pod["containers"][0]
        sc = c["securityContext"]
        assert sc["allowPrivilegeEscalation"] is False and sc["readOnlyRootFilesystem"] is True, name
        assert sc["capabilities"] == {"drop": ["ALL"]} and sc["runAsNonRoot"] is True, name
        assert "add" not in sc["capabilities"], name
        assert pod["automountServiceAccountToken"] is False, name
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert pod["securityContext"]["runAsUser"] == 1000, name
        scratch = {v["name"]: v["emptyDir"] for v in pod["volumes"] if v["name"] in ("tmp", "work")}
        assert scratch == {"tmp": {"sizeLimit": "40Gi"}, "work": {"sizeLimit": "40Gi"}}, name
        writable = {m["mountPath"] for m in c["volumeMounts"] if not m.get("readOnly")}
        assert {"/tmp", "/work"} <= writable, name


def test_only_evaluate_pods_get_what_the_candidate_jail_needs():
    pods = _pods_of(benchrun("b"))
    ev = pods["evaluate"]
    sc = ev["containers"][0]["securityContext"]
    # user namespaces, mounts and a fresh /proc for bench/jail.py; still no capability and non-root
    assert ev["hostUsers"] is False and sc["procMount"] == "Unmasked"
    assert sc["seccompProfile"] == {"type": "Unconfined"} and sc["appArmorProfile"] == {"type": "Unconfined"}
    for name in ("generate", "report"):
        other = pods[name]
        assert "hostUsers" not in other, name
        assert not {"procMount", "seccompProfile", "appArmorProfile"} & set(other["containers"][0]["securityContext"])

    cfg = load_config({"KERNELGEN_EVALUATE_SECCOMP_PROFILE": "profiles/kernelgen-jail.json",
                       "KERNELGEN_EVALUATE_APPARMOR_PROFILE": "kernelgen-jail", "KERNELGEN_SCRATCH_SIZE_LIMIT": "8Gi"})
    ev = _pods_of(benchrun("b"), cfg)["evaluate"]
    sc = ev["containers"][0]["securityContext"]
    assert sc["seccompProfile"] == {"type": "Localhost", "localhostProfile": "profiles/kernelgen-jail.json"}
    assert sc["appArmorProfile"] == {"type": "Localhost", "localhostProfile": "kernelgen-jail"}
    assert {"name": "tmp", "emptyDir": {"sizeLimit": "8Gi"}} in ev["volumes"]


def test_without_the_jail_settings_evaluate_pods_are_like_the_others():
    # hostUsers: false is invalid with hostNetwork; turned off, nothing is relaxed (cases then fail closed)
    for env in ({"KERNELGEN_HOST_NETWORK": "true"}, {"KERNELGEN_EVALUATE_JAIL": "false"}):
        pods = _pods_of(benchrun("b"), load_config(env))
        ev, rep = pods["evaluate"], pods["report"]
        assert "hostUsers" not in ev, env
        assert ev["containers"][0]["securityContext"] == rep["containers"][0]["securityContext"], env

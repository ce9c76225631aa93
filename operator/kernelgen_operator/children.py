"""Spec -> child objects: the stage plan of each kind and the Job, ConfigMap and Service manifests.

Pure functions (no API calls), so every rule here is unit-tested without a cluster. Children are named
deterministically (``<run>-<stage>-r<attempt>``) so that creating them is idempotent: a second create after a crash
gets 409 AlreadyExists instead of a duplicate.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from kernelgen.specs import GROUP_VERSION
from kernelgen.specs.backends import evaluator_npus
from kernelgen.specs.refs import apply_overrides

from kernelgen_operator.config import OperatorConfig
from kernelgen_operator.isolation import container_security_context, pod_security_fields, runs_candidate_code

GROUP = "kernelgen.ai"
LABEL_RUN = f"{GROUP}/run"
LABEL_KIND = f"{GROUP}/kind"
LABEL_STAGE = f"{GROUP}/stage"
LABEL_ATTEMPT = f"{GROUP}/attempt"
MANAGED_BY = "kernelgen-operator"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"

SPEC_DIR = "/etc/kernelgen"
SPEC_FILE = f"{SPEC_DIR}/spec.yaml"
CONFIG_ERROR_EXIT_CODE = 2  # `kernelgen` exits 2 on an invalid spec or usage error
MASTER_PORT = 29500

KIND_CLI = {"BenchRun": "bench", "TrainRun": "train", "CoTBuild": "cot"}


@dataclass(frozen=True)
class StagePlan:
    """One stage of a run = one child Job (recreated as -r<N+1> on retry)."""

    name: str
    args: tuple[str, ...]          # after `kernelgen`
    npus: int = 0                  # NPUs per pod; 0 = CPU-only stage (never requests NPUs)
    completions: int = 1
    parallelism: int = 1
    indexed: bool = False
    allowed_failed_indexes: int = 0
    nodes: int = 1                 # >1: multi-node torchrun (Indexed Job + headless Service)
    cpu: str | None = None
    memory: str | None = None


def _shard_args(n: int) -> tuple[str, ...]:
    return ("--shard", "$(JOB_COMPLETION_INDEX)", "--shards", str(n))


def plan_stages(run: Any) -> list[StagePlan]:
    """The ordered stages of a validated run model (kernelgen.specs.BenchRun/TrainRun/CoTBuild)."""
    kind = run.kind
    spec = run.spec
    base = ("--spec", SPEC_FILE)
    if kind == "BenchRun":
        stages = []
        if spec.candidates.source == "generate":
            gen = spec.generator
            npus = 0 if gen.engine == "openai" else gen.npus
            stages.append(StagePlan("generate", ("bench", "generate", *base), npus=npus))
        n = spec.eval_shards
        npus = evaluator_npus(spec.evaluation)
        stages.append(StagePlan("evaluate", ("bench", "evaluate", *base, *_shard_args(n)), npus=npus,
                                completions=n, parallelism=n, indexed=True))
        stages.append(StagePlan("report", ("bench", "report", *base)))
        return stages
    if kind == "CoTBuild":
        n = spec.shards
        npus = 0 if spec.teacher.engine == "openai" else spec.teacher.npus
        return [
            StagePlan("generate", ("cot", "generate", *base, *_shard_args(n)), npus=npus, completions=n,
                      parallelism=min(n, spec.max_parallel_shards), indexed=True,
                      allowed_failed_indexes=spec.allowed_failed_shards),
            StagePlan("merge", ("cot", "merge", *base)),
        ]
    if kind == "TrainRun":
        r = spec.resources
        nodes = r.num_nodes
        return [StagePlan("train", ("train", "run", *base), npus=r.npus_per_node, completions=nodes,
                          parallelism=nodes, indexed=nodes > 1, nodes=nodes, cpu=r.cpu, memory=r.memory)]
    raise ValueError(f"unknown kind {kind}")


def job_name(run_name: str, stage: str, attempt: int) -> str:
    return f"{run_name}-{stage}-r{attempt}"


def spec_configmap_name(run_name: str) -> str:
    return f"{run_name}-spec"


def run_labels(kind: str, run_name: str) -> dict[str, str]:
    return {LABEL_RUN: run_name, LABEL_KIND: kind, "app.kubernetes.io/managed-by": MANAGED_BY,
            "app.kubernetes.io/name": "kernelgen"}


def spec_configmap(kind: str, run_name: str, spec_yaml: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": spec_configmap_name(run_name), "labels": run_labels(kind, run_name)},
        "data": {"spec.yaml": spec_yaml},
    }


def pod_failure_policy(run: Any, plan: StagePlan) -> dict[str, Any]:
    """The run's failurePolicy projected onto a child Job (first match wins, as in Kubernetes)."""
    rules = []
    for rule in run.spec.failure_policy.rules:
        action = {"Ignore": "Ignore", "FailRun": "FailJob", "Count": "Count", "FailIndex": "FailIndex"}[rule.action]
        if action == "FailIndex" and not (plan.indexed and plan.allowed_failed_indexes):
            action = "Count"  # FailIndex needs backoffLimitPerIndex, which only tolerant indexed stages use
        out: dict[str, Any] = {"action": action}
        if rule.on_exit_codes is not None:
            out["onExitCodes"] = {"containerName": "main", "operator": rule.on_exit_codes.operator,
                                  "values": sorted(set(rule.on_exit_codes.values))}
        else:
            out["onPodConditions"] = [{"type": c.type, "status": "True"} for c in rule.on_pod_conditions or []]
        rules.append(out)
    return {"rules": rules}


S3_SECRET_KEYS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")
OPENAI_SECRET_KEY = "OPENAI_API_KEY"


@dataclass(frozen=True)
class SecretRef:
    """A Secret the run's pods read: the spec field that names it and the keys the pods need from it."""

    field: str
    name: str
    keys: tuple[str, ...]


def secret_refs(run: Any) -> list[SecretRef]:
    """Every Secret build_job puts into the pods (envFrom / secretKeyRef), so the operator can check them first."""
    spec = run.spec
    refs = []
    if spec.output.secret_ref is not None:
        refs.append(SecretRef("spec.output.secretRef", spec.output.secret_ref.name, S3_SECRET_KEYS))
    api_key_ref = getattr(getattr(spec, "generator", None), "api_key_secret_ref", None)
    if api_key_ref is not None:
        refs.append(SecretRef("spec.generator.apiKeySecretRef", api_key_ref.name, (OPENAI_SECRET_KEY,)))
    return refs


def _merge_tolerations(*lists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for lst in lists:
        for t in lst:
            if t not in out:
                out.append(t)
    return out


def _npu_env(cfg: OperatorConfig) -> list[dict[str, Any]]:
    return [
        # Which chips the container sees is decided by the device plugin (ASCEND_VISIBLE_DEVICES); these only tune
        # the frameworks the way the vllm-ascend images do.
        {"name": "TASK_QUEUE_ENABLE", "value": "1"},
        {"name": "OMP_NUM_THREADS", "value": "1"},
    ]


def _train_env(job: str, plan: StagePlan) -> list[dict[str, Any]]:
    env = [
        {"name": "NNODES", "value": str(plan.nodes)},
        {"name": "NPROC_PER_NODE", "value": str(max(plan.npus, 1))},
        {"name": "MASTER_PORT", "value": str(MASTER_PORT)},
        {"name": "HCCL_CONNECT_TIMEOUT", "value": "600"},
        {"name": "HCCL_EXEC_TIMEOUT", "value": "1800"},
        {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
        {"name": "HCCL_IF_IP", "value": "$(POD_IP)"},
    ]
    # No WORLD_SIZE here: torchrun sets it (with LOCAL_RANK) for the processes it starts.
    if plan.nodes > 1:
        env += [{"name": "MASTER_ADDR", "value": f"{job}-0.{job}"},
                {"name": "NODE_RANK", "value": "$(JOB_COMPLETION_INDEX)"}]
    else:
        env += [{"name": "MASTER_ADDR", "value": "127.0.0.1"}, {"name": "NODE_RANK", "value": "0"}]
    return env


def _command(run: Any, plan: StagePlan) -> tuple[list[str], list[str]]:
    # Multi-process training: `kernelgen train run` relaunches itself under torchrun (HCCL on NPUs) from NNODES,
    # NPROC_PER_NODE, NODE_RANK, MASTER_ADDR and MASTER_PORT, so every stage has the same plain entrypoint.
    return ["kernelgen"], list(plan.args)


def build_job(run: Any, body_meta: dict[str, Any], plan: StagePlan, attempt: int, cfg: OperatorConfig,
              active_deadline_seconds: int | None = None, suspend: bool = False) -> dict[str, Any]:
    """The child Job of one stage attempt. The caller adopts it (ownerReference) before creating it."""
    kind, name = run.kind, run.metadata.name
    spec = run.spec
    jname = job_name(name, plan.name, attempt)
    labels = {**run_labels(kind, name), LABEL_STAGE: plan.name, LABEL_ATTEMPT: str(attempt)}
    queue = (body_meta.get("labels") or {}).get(QUEUE_LABEL)
    if queue:
        labels[QUEUE_LABEL] = queue  # Kueue admits child Jobs that carry the queue label
    pt = spec.pod_template
    pt_meta = pt.metadata if pt else None
    pt_spec = pt.spec if pt else None
    npu = plan.npus > 0
    npu_resource = cfg.npu_resource_name
    if kind == "TrainRun" and spec.resources.npu_resource_name != "huawei.com/Ascend910":
        npu_resource = spec.resources.npu_resource_name  # a per-run override of the configured name

    requests = {"cpu": plan.cpu or (cfg.npu_cpu_request if npu else cfg.cpu_request),
                "memory": plan.memory or (cfg.npu_memory_request if npu else cfg.memory_request)}
    limits: dict[str, str] = {}
    if pt_spec and pt_spec.resources:
        requests.update({k: v for k, v in pt_spec.resources.requests.items() if k != npu_resource})
        limits.update({k: v for k, v in pt_spec.resources.limits.items() if k != npu_resource})
    if npu:  # extended resources: integers, requests == limits
        requests[npu_resource] = str(plan.npus)
        limits[npu_resource] = str(plan.npus)

    env: list[dict[str, Any]] = [
        {"name": "KERNELGEN_RUN", "value": name},
        {"name": "KERNELGEN_KIND", "value": kind},
        {"name": "KERNELGEN_STAGE", "value": plan.name},
        {"name": "KERNELGEN_ATTEMPT", "value": str(attempt)},
        {"name": "KERNELGEN_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
        {"name": "HF_HUB_OFFLINE", "value": "1"},
        {"name": "HOME", "value": "/work"},
        {"name": "TMPDIR", "value": "/tmp"},
    ]
    if plan.indexed:
        env.insert(0, {"name": "JOB_COMPLETION_INDEX", "valueFrom": {"fieldRef": {
            "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}})
    if spec.output.endpoint:
        env.append({"name": "AWS_ENDPOINT_URL", "value": spec.output.endpoint})
    if spec.output.region:
        env.append({"name": "AWS_DEFAULT_REGION", "value": spec.output.region})
    if npu:
        env += _npu_env(cfg)
    if kind == "TrainRun":
        env += _train_env(jname, plan)
    env_from = []
    for ref in secret_refs(run):
        if ref.keys == (OPENAI_SECRET_KEY,):
            env.append({"name": OPENAI_SECRET_KEY, "valueFrom": {"secretKeyRef": {"name": ref.name,
                                                                                  "key": OPENAI_SECRET_KEY}}})
        else:
            env_from.append({"secretRef": {"name": ref.name}})
    if pt_spec:
        env += [{"name": e.name, "value": e.value} for e in pt_spec.env]

    mounts = [{"name": "spec", "mountPath": SPEC_DIR, "readOnly": True},
              {"name": "tmp", "mountPath": "/tmp"}, {"name": "work", "mountPath": "/work"}]
    volumes: list[dict[str, Any]] = [
        {"name": "spec", "configMap": {"name": spec_configmap_name(name)}},
        {"name": "tmp", "emptyDir": {"sizeLimit": cfg.scratch_size_limit}},
        {"name": "work", "emptyDir": {"sizeLimit": cfg.scratch_size_limit}},
    ]
    if npu:
        mounts.append({"name": "dshm", "mountPath": "/dev/shm"})
        volumes.append({"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": cfg.shm_size}})
        if cfg.driver_mounts:
            for i, path in enumerate(cfg.driver_paths):
                vname = f"ascend-driver-{i}"
                mounts.append({"name": vname, "mountPath": path, "readOnly": True})
                volumes.append({"name": vname, "hostPath": {"path": path}})
    if pt_spec:
        volumes += copy.deepcopy(pt_spec.volumes)
        mounts += copy.deepcopy(pt_spec.volume_mounts)

    command, args = _command(run, plan)
    candidate = runs_candidate_code(kind, plan.name)
    image = spec.image or cfg.images.get(kind) or cfg.images.get("default", "kernelgen:latest")
    container = {
        "name": "main", "image": image, "imagePullPolicy": cfg.image_pull_policy,
        "command": command, "args": args, "env": env, "volumeMounts": mounts,
        "resources": {"requests": requests, **({"limits": limits} if limits else {})},
        "securityContext": container_security_context(cfg, candidate),
        "terminationMessagePolicy": "File",
    }
    if env_from:
        container["envFrom"] = env_from

    selector = dict(cfg.npu_node_selector if npu else cfg.cpu_node_selector)
    tolerations = list(cfg.npu_tolerations if npu else cfg.cpu_tolerations)
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never",  # podFailurePolicy requires it
        "enableServiceLinks": False,
        **pod_security_fields(cfg, candidate),
        "containers": [container],
        "volumes": volumes,
    }
    if cfg.host_network:
        pod_spec["hostNetwork"] = True
        pod_spec["dnsPolicy"] = "ClusterFirstWithHostNet"
    if pt_spec:
        selector.update(pt_spec.node_selector)
        tolerations = _merge_tolerations(tolerations, [t.model_dump(by_alias=True, exclude_none=True)
                                                       for t in pt_spec.tolerations])
        if pt_spec.affinity:
            pod_spec["affinity"] = copy.deepcopy(pt_spec.affinity)
        if pt_spec.priority_class_name:
            pod_spec["priorityClassName"] = pt_spec.priority_class_name
        if pt_spec.image_pull_secrets:
            pod_spec["imagePullSecrets"] = [{"name": s.name} for s in pt_spec.image_pull_secrets]
    if candidate:
        runtime_class = spec.evaluation.runtime_class_name or cfg.evaluate_runtime_class_name
        if runtime_class:
            pod_spec["runtimeClassName"] = runtime_class
    sa = (pt_spec.service_account_name if pt_spec else None) or cfg.service_account_name
    if sa:
        pod_spec["serviceAccountName"] = sa
    if selector:
        pod_spec["nodeSelector"] = selector
    if tolerations:
        pod_spec["tolerations"] = tolerations
    if plan.nodes > 1:
        pod_spec["subdomain"] = jname  # stable <job>-<index>.<job> hostnames through the headless Service

    pod_labels = {**labels, **(pt_meta.labels if pt_meta else {})}
    pod_annotations = dict(pt_meta.annotations) if pt_meta else {}

    job_spec: dict[str, Any] = {
        "completions": plan.completions,
        "parallelism": plan.parallelism,
        "completionMode": "Indexed" if plan.indexed else "NonIndexed",
        "backoffLimit": 0,  # the operator retries whole stages (-r<N+1>), bounded by spec.backoffLimit
        "podFailurePolicy": pod_failure_policy(run, plan),
        "podReplacementPolicy": "Failed",  # never two live pods for one index/rank
        "suspend": suspend,
        "template": {"metadata": {"labels": pod_labels, "annotations": pod_annotations}, "spec": pod_spec},
    }
    if plan.indexed and plan.allowed_failed_indexes:
        del job_spec["backoffLimit"]
        job_spec["backoffLimitPerIndex"] = 0
        job_spec["maxFailedIndexes"] = plan.allowed_failed_indexes
    if plan.nodes > 1:
        job_spec["successPolicy"] = {"rules": [{"succeededIndexes": "0"}]}  # rank 0 done = training done
    if active_deadline_seconds is not None:
        job_spec["activeDeadlineSeconds"] = max(1, int(active_deadline_seconds))
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": jname, "labels": labels,
                         "annotations": {f"{GROUP}/run-generation": str(body_meta.get("generation", ""))}},
            "spec": job_spec}


def headless_service(run: Any, plan: StagePlan, attempt: int) -> dict[str, Any]:
    jname = job_name(run.metadata.name, plan.name, attempt)
    return {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": jname, "labels": {**run_labels(run.kind, run.metadata.name), LABEL_STAGE: plan.name,
                                                LABEL_ATTEMPT: str(attempt)}},
        "spec": {"clusterIP": "None", "publishNotReadyAddresses": True,
                 "selector": {"batch.kubernetes.io/job-name": jname},
                 "ports": [{"name": "torchrun", "port": MASTER_PORT, "targetPort": MASTER_PORT}]},
    }


def resolved_spec_yaml(run: Any, overrides: dict[str, Any] | None = None) -> str:
    """The spec the pods read: the run as validated (defaults filled in), plus operator-resolved fields."""
    import yaml

    doc = {"apiVersion": GROUP_VERSION, "kind": run.kind,
           "metadata": {"name": run.metadata.name, **({"namespace": run.metadata.namespace}
                                                      if run.metadata.namespace else {})},
           "spec": run.spec.to_yaml_dict()}
    apply_overrides(doc["spec"], overrides or {})
    return yaml.safe_dump(doc, sort_keys=False)

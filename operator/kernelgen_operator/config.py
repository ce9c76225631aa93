"""Operator configuration: cluster-specific choices that do not belong in a run's spec.

Read from a YAML file (``KERNELGEN_OPERATOR_CONFIG``, which the Helm chart mounts from its values) and then from
``KERNELGEN_*`` environment variables, which win. Every field has a default that fits a plain cluster with the
MindCluster device plugin.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

DEFAULT_NPU_RESOURCE = "huawei.com/Ascend910"


class OperatorConfig(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    npu_resource_name: str = Field(DEFAULT_NPU_RESOURCE, description="Extended resource of one NPU.")
    npu_node_selector: dict[str, str] = Field(default_factory=lambda: {"accelerator-type": "module-910b-8"})
    npu_tolerations: list[dict[str, Any]] = Field(
        default_factory=lambda: [{"key": DEFAULT_NPU_RESOURCE, "operator": "Exists", "effect": "NoSchedule"}])
    cpu_node_selector: dict[str, str] = Field(default_factory=dict)
    cpu_tolerations: list[dict[str, Any]] = Field(default_factory=list)
    # Images per kind (a run's spec.image wins).
    images: dict[str, str] = Field(default_factory=lambda: {
        "BenchRun": "ghcr.io/kernelgen/kernelgen:latest",
        "TrainRun": "ghcr.io/kernelgen/kernelgen-train:latest",
        "CoTBuild": "ghcr.io/kernelgen/kernelgen:latest",
    })
    image_pull_policy: str = "IfNotPresent"
    # hostPath mounts of the Ascend driver (needed without Ascend Docker Runtime; they need PSA "privileged").
    driver_mounts: bool = True
    driver_paths: list[str] = Field(default_factory=lambda: [
        "/usr/local/Ascend/driver", "/usr/local/dcmi", "/usr/local/bin/npu-smi", "/etc/ascend_install.info"])
    service_account_name: str | None = None
    # Pods in the node's network namespace: for clusters without a pod network (the hermetic test cluster's real
    # node, where the API server and S3 listen on loopback). Never for untrusted code on a shared cluster.
    host_network: bool = False
    # RuntimeClass of BenchRun evaluate pods (untrusted kernels) when the run names none; None: the cluster default.
    evaluate_runtime_class_name: str | None = None
    # The settings evaluate pods need for the harness's own jail (isolation.py): hostUsers false, procMount Unmasked,
    # seccomp and AppArmor that allow its namespaces and mounts. Off: evaluate pods get the defaults of every other
    # pod, and each case fails closed (infra_error) where the runtime forbids the jail.
    evaluate_jail: bool = True
    # Localhost profiles (paths under the kubelet's seccomp root / AppArmor profile names) for evaluate pods; None:
    # Unconfined, the jail being what confines candidate code.
    evaluate_seccomp_profile: str | None = None
    evaluate_apparmor_profile: str | None = None
    # sizeLimit of each scratch emptyDir (/tmp: builds, the sim build cache, case scratch; /work: HOME): the kubelet
    # evicts a pod that writes more, so a runaway candidate cannot fill the node's disk.
    scratch_size_limit: str = "40Gi"
    run_as_user: int = 1000
    cpu_request: str = "1"
    memory_request: str = "2Gi"
    npu_cpu_request: str = "8"
    npu_memory_request: str = "64Gi"
    shm_size: str = "16Gi"
    # Seconds between level-triggered reconciles of each run (TTL, deadlines, dependencies).
    timer_interval: float = 30.0
    metrics_port: int = 8000
    # Sync handler threads (each reconcile blocks on the API).
    workers: int = 16


ENV_FIELDS = {
    "KERNELGEN_NPU_RESOURCE": "npu_resource_name",
    "KERNELGEN_NPU_NODE_SELECTOR": "npu_node_selector",
    "KERNELGEN_NPU_TOLERATIONS": "npu_tolerations",
    "KERNELGEN_CPU_NODE_SELECTOR": "cpu_node_selector",
    "KERNELGEN_CPU_TOLERATIONS": "cpu_tolerations",
    "KERNELGEN_IMAGES": "images",
    "KERNELGEN_DRIVER_MOUNTS": "driver_mounts",
    "KERNELGEN_SERVICE_ACCOUNT": "service_account_name",
    "KERNELGEN_HOST_NETWORK": "host_network",
    "KERNELGEN_EVALUATE_RUNTIME_CLASS": "evaluate_runtime_class_name",
    "KERNELGEN_EVALUATE_JAIL": "evaluate_jail",
    "KERNELGEN_EVALUATE_SECCOMP_PROFILE": "evaluate_seccomp_profile",
    "KERNELGEN_EVALUATE_APPARMOR_PROFILE": "evaluate_apparmor_profile",
    "KERNELGEN_SCRATCH_SIZE_LIMIT": "scratch_size_limit",
    "KERNELGEN_TIMER_INTERVAL": "timer_interval",
    "KERNELGEN_METRICS_PORT": "metrics_port",
    "KERNELGEN_WORKERS": "workers",
}


def load_config(environ: dict[str, str] | None = None) -> OperatorConfig:
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    path = env.get("KERNELGEN_OPERATOR_CONFIG")
    if path:
        data.update(yaml.safe_load(Path(path).read_text()) or {})
    for var, field in ENV_FIELDS.items():
        if var in env:
            raw = env[var]
            # Structured values are JSON (or YAML) text; scalars are validated by pydantic.
            data[to_camel(field)] = yaml.safe_load(raw) if raw.strip()[:1] in "[{" else raw
    return OperatorConfig.model_validate(data)


def dump_env(cfg: OperatorConfig) -> dict[str, str]:
    """The environment that reproduces cfg (for starting the operator as a subprocess)."""
    out = {}
    for var, field in ENV_FIELDS.items():
        v = getattr(cfg, field)
        if v is None:
            continue
        out[var] = json.dumps(v) if isinstance(v, (dict, list)) else str(v).lower() if isinstance(v, bool) else str(v)
    return out

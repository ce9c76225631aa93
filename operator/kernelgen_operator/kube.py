"""The few Kubernetes API calls the reconciler makes, on plain dicts (camelCase, as in manifests).

Every write goes through `_write`, which counts API errors for the metrics and implements the crash-injection hook
used by the resilience test: with KERNELGEN_OPERATOR_CRASH_AFTER_WRITES=N the process exits abruptly right after
its N-th successful write, i.e. between two steps of a reconcile.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Callable

from kubernetes import client
from kubernetes.client.rest import ApiException

from kernelgen_operator import metrics

GROUP, VERSION = "kernelgen.ai", "v1alpha1"
PLURALS = {"BenchRun": "benchruns", "TrainRun": "trainruns", "CoTBuild": "cotbuilds"}


class _CrashHook:
    def __init__(self) -> None:
        raw = os.environ.get("KERNELGEN_OPERATOR_CRASH_AFTER_WRITES", "")
        self.after = int(raw) if raw.strip() else 0
        self.count = 0
        self.lock = threading.Lock()

    def wrote(self) -> None:
        if not self.after:
            return
        with self.lock:
            self.count += 1
            if self.count >= self.after:
                os._exit(137)  # as abrupt as SIGKILL: no cleanup, no flush


_crash = _CrashHook()


def _load(resp: Any) -> dict[str, Any]:
    return json.loads(resp.data)


class Kube:
    def __init__(self, api_client: client.ApiClient | None = None):
        self.api = api_client or client.ApiClient()
        self.core = client.CoreV1Api(self.api)
        self.batch = client.BatchV1Api(self.api)
        self.custom = client.CustomObjectsApi(self.api)

    # ---- plumbing
    def _call(self, verb: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ApiException as e:
            metrics.KUBE_API_ERRORS.labels(verb=verb, code=str(e.status)).inc()
            raise

    def _write(self, verb: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        out = self._call(verb, fn, *args, **kwargs)
        _crash.wrote()
        return out

    # ---- runs
    def get_run(self, kind: str, ns: str, name: str) -> dict[str, Any] | None:
        try:
            return _load(self._call("get", self.custom.get_namespaced_custom_object, GROUP, VERSION, ns,
                                    PLURALS[kind], name, _preload_content=False))
        except ApiException as e:
            if e.status == 404:
                return None
            raise

    def list_runs(self, kind: str, ns: str) -> list[dict[str, Any]]:
        return _load(self._call("list", self.custom.list_namespaced_custom_object, GROUP, VERSION, ns,
                                PLURALS[kind], _preload_content=False))["items"]

    def patch_run_status(self, kind: str, ns: str, name: str, status: dict[str, Any]) -> None:
        try:
            self._write("patch", self.custom.patch_namespaced_custom_object_status, GROUP, VERSION, ns,
                        PLURALS[kind], name, {"status": status})
        except ApiException as e:
            if e.status != 404:
                raise

    def delete_run(self, kind: str, ns: str, name: str, uid: str) -> None:
        try:
            self._write("delete", self.custom.delete_namespaced_custom_object, GROUP, VERSION, ns, PLURALS[kind],
                        name, body=client.V1DeleteOptions(propagation_policy="Background",
                                                          preconditions=client.V1Preconditions(uid=uid)))
        except ApiException as e:
            if e.status not in (404, 409):
                raise

    # ---- children
    def list_jobs(self, ns: str, run_name: str, label: str) -> list[dict[str, Any]]:
        return _load(self._call("list", self.batch.list_namespaced_job, ns, label_selector=f"{label}={run_name}",
                                _preload_content=False))["items"]

    def create(self, ns: str, obj: dict[str, Any]) -> dict[str, Any] | None:
        """Create; on AlreadyExists return the existing object (the caller checks its owner)."""
        kind = obj["kind"]
        create, read = {
            "Job": (self.batch.create_namespaced_job, self.batch.read_namespaced_job),
            "ConfigMap": (self.core.create_namespaced_config_map, self.core.read_namespaced_config_map),
            "Service": (self.core.create_namespaced_service, self.core.read_namespaced_service),
        }[kind]
        try:
            return _load(self._write("create", create, ns, obj, _preload_content=False))
        except ApiException as e:
            if e.status != 409:
                raise
            try:
                return _load(self._call("get", read, obj["metadata"]["name"], ns, _preload_content=False))
            except ApiException as e2:
                if e2.status == 404:  # deleted in between (garbage collection): try again next time
                    return None
                raise

    def get_configmap(self, ns: str, name: str) -> dict[str, Any] | None:
        try:
            return _load(self._call("get", self.core.read_namespaced_config_map, name, ns, _preload_content=False))
        except ApiException as e:
            if e.status == 404:
                return None
            raise

    def secret_keys(self, ns: str, name: str) -> set[str] | None:
        """The key names of a Secret (None when it does not exist); the values are never kept or logged."""
        try:
            sec = _load(self._call("get", self.core.read_namespaced_secret, name, ns, _preload_content=False))
        except ApiException as e:
            if e.status == 404:
                return None
            raise
        return set(sec.get("data") or {})

    def patch_configmap(self, ns: str, name: str, data: dict[str, str]) -> None:
        self._write("patch", self.core.patch_namespaced_config_map, name, ns, {"data": data})

    def patch_job(self, ns: str, name: str, patch: dict[str, Any]) -> None:
        try:
            self._write("patch", self.batch.patch_namespaced_job, name, ns, patch)
        except ApiException as e:
            if e.status != 404:
                raise

    def delete_job(self, ns: str, name: str) -> None:
        try:
            self._write("delete", self.batch.delete_namespaced_job, name, ns,
                        body=client.V1DeleteOptions(propagation_policy="Background"))
        except ApiException as e:
            if e.status != 404:
                raise

    def create_event(self, ns: str, event: dict[str, Any]) -> None:
        self._call("create", self.core.create_namespaced_event, ns, event, _preload_content=False)

    def patch_event(self, ns: str, name: str, patch: dict[str, Any]) -> None:
        self._call("patch", self.core.patch_namespaced_event, name, ns, patch, _preload_content=False)

    def failed_creates(self, ns: str, job_uid: str) -> list[dict[str, Any]]:
        """The Job controller's FailedCreate Events about one Job (pods it could not create: a missing
        ServiceAccount, a quota, a PodSecurity or admission refusal)."""
        return _load(self._call("list", self.core.list_namespaced_event, ns,
                                field_selector=f"involvedObject.uid={job_uid},reason=FailedCreate",
                                _preload_content=False))["items"]

    def job_pods(self, ns: str, job_name: str) -> list[dict[str, Any]]:
        return _load(self._call("list", self.core.list_namespaced_pod, ns,
                                label_selector=f"batch.kubernetes.io/job-name={job_name}",
                                _preload_content=False))["items"]

"""Fixtures for the operator tests: a real control plane (hack/testenv) and the operator under KopfRunner.

The cluster is started once per session (about 10-20 s) from the binaries that `bash hack/testenv/build.sh` puts in
~/.cache/kernelgen/testenv/<k8s-version>/bin; without them the cluster tests skip and say so. Each test works in
its own namespace (t-<random>), which the session operator watches (pattern t-*).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("kernelgen_testenv", REPO / "hack" / "testenv" / "cluster.py")
testenv = importlib.util.module_from_spec(_spec)
sys.modules["kernelgen_testenv"] = testenv
_spec.loader.exec_module(testenv)



def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def operator_env(metrics_port: int) -> dict[str, str]:
    """Operator configuration for the kwok cluster (tolerate kwok's fake-node taint), resyncing every 2 s."""
    return {**testenv.operator_env(metrics_port, timer_interval=2), "KERNELGEN_WORKERS": "8"}


def wait_for(pred: Callable[[], Any], timeout: float = 60, interval: float = 0.3, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = pred()
        except Exception as e:  # noqa: BLE001 - keep polling; report the last error on timeout
            last = e
        else:
            if last:
                return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}; last: {last!r}")


class Kubectl:
    """kubectl against the test cluster, in one namespace, returning parsed JSON where useful."""

    def __init__(self, cluster: Any, namespace: str):
        self.cluster = cluster
        self.ns = namespace

    def __call__(self, *args: str, input: str | None = None, check: bool = True):
        return self.cluster.kubectl("-n", self.ns, *args, input=input, check=check)

    def apply(self, doc: dict[str, Any] | str) -> None:
        # JSON, not YAML: kubectl reads YAML 1.1, where a key such as `n` (sampling.n) would become the boolean false.
        text = doc if isinstance(doc, str) else json.dumps(doc)
        self("apply", "-f", "-", input=text)

    def get(self, kind: str, name: str | None = None, selector: str | None = None) -> Any:
        args = ["get", kind, "-o", "json"]
        if name:
            args.insert(2, name)
        if selector:
            args += ["-l", selector]
        cp = self(*args, check=False)
        if cp.returncode != 0:
            if "NotFound" in cp.stderr:
                return None
            raise AssertionError(cp.stderr)
        return json.loads(cp.stdout)

    def items(self, kind: str, selector: str | None = None) -> list[dict[str, Any]]:
        return (self.get(kind, selector=selector) or {}).get("items", [])

    def run_status(self, kind: str, name: str) -> dict[str, Any]:
        obj = self.get(kind, name)
        return (obj or {}).get("status") or {}

    def wait_phase(self, kind: str, name: str, phase: str, timeout: float = 90) -> dict[str, Any]:
        return wait_for(lambda: (s := self.run_status(kind, name)).get("phase") == phase and s,
                        timeout, what=f"{kind} {name} phase {phase} (now {self.run_status(kind, name).get('phase')})")

    def events(self, name: str) -> list[tuple[str, str, str]]:
        """(type, reason, message) of the Events about the object `name`, oldest first."""
        items = [e for e in self.items("events") if e["involvedObject"].get("name") == name]
        # The operator names its Events <run>.<nanoseconds in hex> (as client-go does): name order is time order,
        # finer than the timestamps' seconds.
        items.sort(key=lambda e: e["metadata"]["name"])
        return [(e["type"], e["reason"], e.get("message", "")) for e in items]

    def jobs(self, run: str) -> dict[str, dict[str, Any]]:
        return {j["metadata"]["name"]: j for j in self.items("jobs", f"kernelgen.ai/run={run}")}

    def pods(self, job: str) -> list[dict[str, Any]]:
        return self.items("pods", f"batch.kubernetes.io/job-name={job}")


@pytest.fixture(scope="session")
def k8s():
    missing = testenv.missing_binaries()
    if missing:
        pytest.skip(f"test cluster binaries not built ({', '.join(missing)} missing in {testenv.default_bin_dir()}); "
                    "build them with: bash hack/testenv/build.sh")
    cluster = testenv.TestCluster(ascend_nodes=2, cpu_nodes=2)
    cluster.start()
    try:
        cluster.kubectl("apply", "--server-side", "-f", str(REPO / "crds"))
        for crd in ("benchruns", "trainruns", "cotbuilds"):
            cluster.kubectl("wait", "--for=condition=Established", f"crd/{crd}.kernelgen.ai", "--timeout=60s")
        os.environ["KUBECONFIG"] = str(cluster.kubeconfig)
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def metrics_port() -> int:
    return _free_port()


@pytest.fixture(scope="session")
def operator(k8s, metrics_port):
    """The operator in this process (kopf's KopfRunner), watching namespaces t-*."""
    from kopf.testing import KopfRunner

    os.environ.update(operator_env(metrics_port))
    runner = KopfRunner(["run", "--standalone", "--namespace=t-*", "-m", "kernelgen_operator.handlers"],
                        timeout=60)
    with runner:
        import urllib.request

        wait_for(lambda: urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=2).status == 200,
                 60, what="operator metrics endpoint")
        yield runner
    if runner.exception is not None and not isinstance(runner.exception, (SystemExit, KeyboardInterrupt)):
        raise runner.exception


@pytest.fixture
def ns(k8s, request):
    name = f"t-{uuid.uuid4().hex[:8]}"
    k8s.kubectl("create", "namespace", name)
    wait_for(lambda: k8s.kubectl("-n", name, "get", "serviceaccount", "default", check=False).returncode == 0,
             30, what="default service account")
    yield Kubectl(k8s, name)
    k8s.kubectl("delete", "namespace", name, "--wait=false", check=False)

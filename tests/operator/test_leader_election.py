"""Two operator replicas with --leader-elect (as the chart runs them): one holds the Lease and reconciles, the other
waits answering its liveness endpoint; killing the leader (SIGKILL) hands the runs to the standby, which finishes
them without duplicating a Job."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import urllib.request
import uuid

import pytest
from .conftest import operator_env, testenv, wait_for
from .operator_manifests import HOLD, benchrun

pytestmark = [pytest.mark.cluster, pytest.mark.slow]
LEASE_SECONDS = 4


def _candidate(ns: str, name: str, health: int, log):
    env = {**os.environ, **operator_env(0), "POD_NAME": name}
    args = ["--namespace", ns, "--leader-elect", "--leader-elect-namespace", ns, f"--lease-duration={LEASE_SECONDS}",
            "--renew-deadline=3", "--retry-period=0.5", f"--liveness=http://127.0.0.1:{health}/healthz"]
    return testenv.spawn([sys.executable, "-m", "kernelgen_operator", *args], log, env=env)


def test_killing_the_leader_hands_over_to_the_standby(k8s, tmp_path):
    ns = f"le-{uuid.uuid4().hex[:6]}"  # not watched by the session operator (t-*)
    k8s.kubectl("create", "namespace", ns)
    wait_for(lambda: k8s.kubectl("-n", ns, "get", "sa", "default", check=False).returncode == 0, 30, what="sa")

    def kget(*args):
        return json.loads(k8s.kubectl("-n", ns, "get", *args, "-o", "json").stdout)

    def holder():
        cp = k8s.kubectl("-n", ns, "get", "lease", "kernelgen-operator", "-o", "json", check=False)
        return json.loads(cp.stdout)["spec"].get("holderIdentity") if cp.returncode == 0 else None

    ports = {n: testenv.free_port() for n in ("a", "b")}
    procs = {"a": _candidate(ns, "a", ports["a"], tmp_path / "a.log")}
    try:
        wait_for(lambda: holder() == "a", 60, what="a holding the Lease")
        procs["b"] = _candidate(ns, "b", ports["b"], tmp_path / "b.log")
        # the standby is alive for the probes, and does not reconcile
        wait_for(lambda: urllib.request.urlopen(f"http://127.0.0.1:{ports['b']}/healthz", timeout=2).status == 200,
                 60, what="the standby's liveness endpoint")
        k8s.kubectl("-n", ns, "apply", "-f", "-", input=json.dumps(benchrun("le", shards=1, hold=True)))
        wait_for(lambda: [p for p in kget("pods", "-l", "kernelgen.ai/run=le")["items"]
                          if p["status"].get("phase") == "Running"], 60, what="the leader starting the run")
        assert holder() == "a" and "is the leader" not in (tmp_path / "b.log").read_text()

        os.killpg(procs["a"].pid, signal.SIGKILL)
        killed = time.monotonic()
        wait_for(lambda: holder() == "b", 30, what="the standby taking the Lease")
        takeover = time.monotonic() - killed
        assert takeover < LEASE_SECONDS + 5, takeover
        print(f"standby took over {takeover:.1f}s after the leader was killed (lease {LEASE_SECONDS}s)")

        def release_held():
            for p in kget("pods", "-l", "kernelgen.ai/run=le")["items"]:
                if HOLD in p["metadata"].get("annotations", {}):
                    k8s.kubectl("-n", ns, "annotate", "pod", p["metadata"]["name"], f"{HOLD}-", check=False)
            return (kget("benchrun", "le").get("status") or {}).get("phase") == "Succeeded"

        wait_for(release_held, 120, interval=1, what="the new leader finishing the run")
        jobs = sorted(j["metadata"]["name"] for j in kget("jobs", "-l", "kernelgen.ai/run=le")["items"])
        assert jobs == ["le-evaluate-r0", "le-generate-r0", "le-report-r0"]
        assert kget("benchrun", "le")["status"]["restarts"] == 0
    finally:
        for p in procs.values():
            testenv.terminate(p)
        k8s.kubectl("delete", "namespace", ns, "--wait=false", check=False)

"""Killing the operator between reconcile steps never creates a duplicate Job or loses a run.

The operator runs as a subprocess with KERNELGEN_OPERATOR_CRASH_AFTER_WRITES=k: it exits abruptly (os._exit, like
SIGKILL) right after its k-th API write, i.e. between two steps of a reconcile (ConfigMap created but no Job yet, Job
created but status not written, ...). A new operator is started after each crash, at least 20 times.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
import uuid

import pytest
from .conftest import operator_env, testenv, wait_for
from .operator_manifests import benchrun

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

MIN_CRASHES = 20


def _start_operator(namespace: str, crash_after: int | None, log) -> subprocess.Popen:
    env = {**os.environ, **operator_env(0)}
    env.pop("KERNELGEN_OPERATOR_CRASH_AFTER_WRITES", None)
    if crash_after:
        env["KERNELGEN_OPERATOR_CRASH_AFTER_WRITES"] = str(crash_after)
    return testenv.spawn([sys.executable, "-m", "kernelgen_operator", "--namespace", namespace], log, env=env)


def test_killing_the_operator_between_reconcile_steps(k8s, tmp_path):
    ns = f"crash-{uuid.uuid4().hex[:6]}"  # not watched by the session operator (t-*)
    k8s.kubectl("create", "namespace", ns)
    wait_for(lambda: k8s.kubectl("-n", ns, "get", "sa", "default", check=False).returncode == 0, 30, what="sa")

    import json

    def apply(name):
        k8s.kubectl("-n", ns, "apply", "-f", "-", input=json.dumps(benchrun(name, shards=2)))

    def runs():
        out = json.loads(k8s.kubectl("-n", ns, "get", "benchruns", "-o", "json").stdout)["items"]
        return {r["metadata"]["name"]: (r.get("status") or {}) for r in out}

    names = [f"k{i}" for i in range(4)]
    for n in names:
        apply(n)
    crashes = 0
    schedule = itertools.cycle([1, 2, 1, 3])
    log = tmp_path / "operator.log"
    deadline = time.monotonic() + 420
    proc = None
    try:
        while time.monotonic() < deadline:
            done = all(s.get("phase") == "Succeeded" for s in runs().values())
            if done and crashes >= MIN_CRASHES:
                break
            if done:  # keep the operator busy until it has been killed often enough
                names.append(f"k{len(names)}")
                apply(names[-1])
            proc = _start_operator(ns, next(schedule), log)
            try:
                rc = proc.wait(timeout=20)
            except subprocess.TimeoutExpired:  # nothing left to write: stop it the hard way too
                testenv.terminate(proc, grace=0.1)
                rc = proc.returncode
            if rc == 137:
                crashes += 1
        else:
            pytest.fail(f"runs did not finish: {runs()} after {crashes} crashes\n{log.read_text()[-3000:]}")
    finally:
        if proc is not None:
            testenv.terminate(proc)
    print(f"operator killed {crashes} times between reconcile steps; {len(names)} runs")
    assert crashes >= MIN_CRASHES

    jobs = json.loads(k8s.kubectl("-n", ns, "get", "jobs", "-o", "json").stdout)["items"]
    by_run: dict[str, list[str]] = {}
    for j in jobs:
        by_run.setdefault(j["metadata"]["labels"]["kernelgen.ai/run"], []).append(j["metadata"]["name"])
    statuses = runs()
    assert set(statuses) == set(names)  # no run lost
    for n in names:
        assert sorted(by_run[n]) == [f"{n}-evaluate-r0", f"{n}-generate-r0", f"{n}-report-r0"], by_run[n]
        assert statuses[n]["phase"] == "Succeeded" and statuses[n]["restarts"] == 0
    k8s.kubectl("delete", "namespace", ns, "--wait=false", check=False)

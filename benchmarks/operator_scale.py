"""Operator scale: apply N BenchRuns at once and measure time to first child Job and the operator's peak memory.

For each N (default 200 and 1000) a fresh hermetic cluster is started (hack/testenv; build it first with
`bash hack/testenv/build.sh`), the operator runs as a subprocess (`python -m kernelgen_operator`), and the N runs are
applied with one `kubectl apply` of a List. Two watch streams from the same client record when each BenchRun and
its first child Job appear; the difference is the run's time to first child Job. Peak RSS is the operator
process's VmHWM. Runs then proceed (kwok completes the pods) for up to --settle seconds, and the number that reached
Succeeded is printed too.

    python benchmarks/operator_scale.py [--runs 200 1000] [--settle 300]

Figures depend on the machine: on the 2-core development machine the control plane, kwok and the operator share
the same cores.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path


REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("kernelgen_testenv", REPO / "hack" / "testenv" / "cluster.py")
testenv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(testenv)

NS = "scale"


def benchrun(name: str) -> dict:
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name, "namespace": NS},
            "spec": {"generator": {"engine": "vllm", "model": {"uri": "s3://models/kernelgen-lm"}},
                     "evaluation": {"backend": "sim"}, "evalShards": 2, "output": {"uri": "s3://results"},
                     # kwok runs no container: the report's termination message stands in for its results
                     # (without results a BenchRun fails with NoResults).
                     "podTemplate": {"metadata": {"annotations": {
                         "testenv.kernelgen.ai/termination-message": json.dumps({"results": {"tasks": 1}})}}}}}


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def vm_hwm_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Watcher(threading.Thread):
    """Records the first time (monotonic) each object shows up in a watch stream."""

    def __init__(self, list_fn, key_fn, **kwargs):
        super().__init__(daemon=True)
        self.list_fn, self.key_fn, self.kwargs = list_fn, key_fn, kwargs
        self.seen: dict[str, float] = {}
        self.stop = False
        self.ready = threading.Event()

    def run(self) -> None:
        from kubernetes import watch

        while not self.stop:
            w = watch.Watch()
            self.ready.set()
            try:
                for ev in w.stream(self.list_fn, timeout_seconds=30, **self.kwargs):
                    obj = ev["object"]
                    obj = obj if isinstance(obj, dict) else obj.to_dict()
                    key = self.key_fn(obj)
                    if key and key not in self.seen:
                        self.seen[key] = time.monotonic()
                    if self.stop:
                        break
            except Exception as e:  # noqa: BLE001 - a dropped watch is re-opened
                print(f"watch restarted: {e}", file=sys.stderr)


def job_run(obj: dict) -> str | None:
    meta = obj.get("metadata") or {}
    labels = meta.get("labels") or {}
    return labels.get("kernelgen.ai/run")


def measure(n: int, settle: float, workdir: Path) -> dict:
    from kubernetes import client, config

    shutil.rmtree(workdir / f"cluster-{n}", ignore_errors=True)  # a fresh etcd every time
    cluster = testenv.TestCluster(workdir / f"cluster-{n}", ascend_nodes=8, cpu_nodes=8)
    cluster.start()
    op = None
    try:
        cluster.kubectl("apply", "--server-side", "-f", str(REPO / "crds"))
        for crd in ("benchruns", "trainruns", "cotbuilds"):
            cluster.kubectl("wait", "--for=condition=Established", f"crd/{crd}.kernelgen.ai", "--timeout=60s")
        cluster.kubectl("create", "namespace", NS)
        testenv.TestCluster._wait(cluster, "default service account", lambda: cluster.kubectl(
            "-n", NS, "get", "sa", "default", check=False).returncode == 0)
        env = {**os.environ, **testenv.operator_env(metrics_port=0, timer_interval=30),
               "KUBECONFIG": str(cluster.kubeconfig), "KERNELGEN_WORKERS": "16"}
        op = testenv.spawn([sys.executable, "-m", "kernelgen_operator", "--namespace", NS],
                           workdir / f"operator-{n}.log", env=env)
        time.sleep(3)  # let kopf list and start its watches

        config.load_kube_config(str(cluster.kubeconfig))
        api = client.ApiClient()
        runs_w = Watcher(client.CustomObjectsApi(api).list_namespaced_custom_object,
                         lambda o: o["metadata"]["name"], group="kernelgen.ai", version="v1alpha1",
                         namespace=NS, plural="benchruns")
        jobs_w = Watcher(client.BatchV1Api(api).list_namespaced_job, job_run, namespace=NS,
                         label_selector="kernelgen.ai/run")
        runs_w.start()
        jobs_w.start()
        runs_w.ready.wait()
        jobs_w.ready.wait()
        time.sleep(1)

        names = [f"r{i:05d}" for i in range(n)]
        doc = {"apiVersion": "v1", "kind": "List", "items": [benchrun(x) for x in names]}
        t_apply = time.monotonic()
        cluster.kubectl("apply", "-f", "-", input=json.dumps(doc), timeout=1800)
        apply_s = time.monotonic() - t_apply
        deadline = time.monotonic() + 600
        while len(jobs_w.seen) < n and time.monotonic() < deadline:
            if op.poll() is not None:
                raise RuntimeError(f"operator exited with {op.returncode}")
            time.sleep(0.5)
        all_first_s = time.monotonic() - t_apply
        lat = [jobs_w.seen[x] - runs_w.seen[x] for x in names if x in jobs_w.seen and x in runs_w.seen]

        succeeded = 0
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:
            out = json.loads(cluster.kubectl("-n", NS, "get", "benchruns", "-o", "json", timeout=300).stdout)
            succeeded = sum((r.get("status") or {}).get("phase") == "Succeeded" for r in out["items"])
            if succeeded == n:
                break
            time.sleep(5)
        settle_s = time.monotonic() - t_apply
        rss = vm_hwm_mib(op.pid)
        runs_w.stop = jobs_w.stop = True
        return {"runs": n, "apply_s": apply_s, "with_job": len(lat), "p50": percentile(lat, 0.5),
                "p99": percentile(lat, 0.99), "max": max(lat) if lat else float("nan"),
                "mean": statistics.fmean(lat) if lat else float("nan"), "all_first_jobs_s": all_first_s,
                "succeeded": succeeded, "elapsed_s": settle_s, "peak_rss_mib": rss}
    finally:
        if op is not None:
            testenv.terminate(op)
        cluster.stop()
        shutil.rmtree(workdir / f"cluster-{n}", ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--settle", type=float, default=300, help="seconds to let runs proceed after applying")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/kernelgen-operator-scale"))
    args = ap.parse_args()
    missing = testenv.missing_binaries()
    if missing:
        print(f"missing test-cluster binaries {missing}: run bash hack/testenv/build.sh", file=sys.stderr)
        return 2
    args.workdir.mkdir(parents=True, exist_ok=True)
    print(f"cores={os.cpu_count()} load={os.getloadavg()[0]:.1f}")
    print(f"{'runs':>6} {'apply_s':>8} {'first_job_p50_s':>16} {'first_job_p99_s':>16} {'max_s':>7} "
          f"{'all_first_s':>12} {'succeeded':>10} {'elapsed_s':>10} {'peak_rss_MiB':>13}")
    for n in args.runs:
        r = measure(n, args.settle, args.workdir)
        print(f"{r['runs']:>6} {r['apply_s']:>8.1f} {r['p50']:>16.2f} {r['p99']:>16.2f} {r['max']:>7.2f} "
              f"{r['all_first_jobs_s']:>12.1f} {r['succeeded']:>10} {r['elapsed_s']:>10.1f} {r['peak_rss_mib']:>13.1f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

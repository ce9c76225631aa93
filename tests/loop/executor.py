"""Runs the containers of kwok's pods: the test cluster's nodes are kwok fakes that run nothing, so this stands in
for the container runtime. It takes each pod of a run that the operator created (held Running by the
testenv.kernelgen.ai/hold annotation), runs the pod's own command (`kernelgen <args>`) here with the pod's
environment and the spec from the pod's spec ConfigMap, and then completes the pod the way a kubelet would report
it: exit 0 with the container's termination message (what the entrypoint wrote to its termination-log file), or
the non-zero exit code. What differs from a real pod: the process runs on this machine, with its HOME and TMPDIR
(the pod's are emptyDirs that do not exist here) and the spec file at a local path instead of /etc/kernelgen.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HOLD = "testenv.kernelgen.ai/hold"
EXIT_CODE = "testenv.kernelgen.ai/exit-code"
MESSAGE = "testenv.kernelgen.ai/termination-message"
POD_SPEC_FILE = "/etc/kernelgen/spec.yaml"
LOCAL_ONLY = ("HOME", "TMPDIR")   # the pod's emptyDir paths


def _field(pod: dict[str, Any], path: str) -> str:
    m = re.fullmatch(r"metadata\.annotations\['(.+)'\]", path)
    if m:
        return (pod["metadata"].get("annotations") or {}).get(m.group(1), "")
    if path == "metadata.namespace":
        return pod["metadata"]["namespace"]
    if path == "metadata.name":
        return pod["metadata"]["name"]
    if path == "status.podIP":
        return "127.0.0.1"
    raise KeyError(path)


def pod_env(pod: dict[str, Any], base: dict[str, str]) -> dict[str, str]:
    """The container's environment, resolved as the kubelet does (fieldRefs, $(VAR) references)."""
    env = dict(base)
    for e in pod["spec"]["containers"][0].get("env") or []:
        if e["name"] in LOCAL_ONLY:
            continue
        if "valueFrom" in e:
            env[e["name"]] = _field(pod, e["valueFrom"]["fieldRef"]["fieldPath"])
        else:
            env[e["name"]] = expand(e.get("value", ""), env)
    return env


def expand(text: str, env: dict[str, str]) -> str:
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), text)


class PodExecutor:
    def __init__(self, kubectl: Any, workdir: Path, base_env: dict[str, str]):
        self.k = kubectl
        self.workdir = workdir
        self.base_env = base_env
        self.ran: list[dict[str, Any]] = []   # name, args, rc, seconds, message
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self.error: BaseException | None = None

    def __enter__(self) -> PodExecutor:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                for pod in self.k.items("pods", "kernelgen.ai/run"):
                    ann = pod["metadata"].get("annotations") or {}
                    if (pod["status"].get("phase") == "Running" and HOLD in ann
                            and not pod["metadata"].get("deletionTimestamp")
                            and pod["metadata"]["name"] not in {r["pod"] for r in self.ran}):
                        self.run_pod(pod)
            except Exception as e:  # noqa: BLE001 - surfaced by the test through .error
                self.error = e
            self._stop.wait(1.0)

    def run_pod(self, pod: dict[str, Any]) -> None:
        name = pod["metadata"]["name"]
        c = pod["spec"]["containers"][0]
        assert c["command"] == ["kernelgen"], c["command"]
        cm = next(v["configMap"]["name"] for v in pod["spec"]["volumes"] if v["name"] == "spec")
        here = self.workdir / name
        here.mkdir(parents=True, exist_ok=True)
        spec = here / "spec.yaml"
        spec.write_text(self.k.get("configmap", cm)["data"]["spec.yaml"])
        log = here / "termination-log"
        log.write_text("")
        env = pod_env(pod, self.base_env)
        env["KERNELGEN_TERMINATION_LOG"] = str(log)
        args = [str(spec) if a == POD_SPEC_FILE else expand(a, env) for a in c["args"]]
        t0 = time.monotonic()
        with open(here / "output.log", "w") as out:
            rc = subprocess.run([sys.executable, "-m", "kernelgen.cli.main", *args], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=here).returncode
        message = log.read_text()
        self.ran.append({"pod": name, "args": args, "rc": rc, "seconds": round(time.monotonic() - t0, 1),
                         "message": message, "log": here / "output.log"})
        if rc == 0:
            self.k("annotate", "pod", name, "--overwrite", f"{MESSAGE}={message}", f"{HOLD}-")
        else:
            self.k("annotate", "pod", name, "--overwrite", f"{EXIT_CODE}={rc}")

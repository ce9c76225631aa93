"""Does a self-contained kernel snippet compile? Checked with the simulator's kernel build, syntax only.

The include layout is the one the `sim` backend compiles NPUKernelBench answers with (its kernel defines, the
simulator's headers under sim/include) plus the include roots of the source spec (a repository's shared `inc/`
or a CANN toolkit's include directory), so a snippet that passes here is one the simulator front end accepts.
Every failure carries a short reason that can be counted across thousands of snippets:
  missing_header:<path>      an #include found nowhere on the path (a toolkit header the simulator lacks)
  undeclared:<name>          a name used but never declared (macros such as DTYPE_X that a build system defines)
  error:<signature>          any other first error, normalised like debug-CoT signatures (paths, numbers removed)
  timeout / no_compiler
The compiler runs as a subprocess in its own process group with a deadline (`-fsyntax-only`: nothing is
linked or executed).
"""
from __future__ import annotations

import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from kernelgen.bench.backends.sim import CXX, SIM_INCLUDE, preprocess_kernel
from kernelgen.bench.torch_cxx import binding_std_flag
from kernelgen.bench.procs import StepTimedOut, run_group

from .debug import error_signature

# The defines of the simulator's kernel build (SimBackend._kernel_flags): the CPU-debug branches of the headers.
KERNEL_DEFINES = ("-D__CCE_KT_TEST__=1", "-DASCENDC_CPU_DEBUG=1")
_MISSING = re.compile(r"fatal error:\s*([^\s:]+):\s*No such file or directory")
_UNDECLARED = re.compile(r"error:\s*[‘'`]([\w:]+)[’'`] (?:was not declared in this scope|has not been declared|"
                         r"does not name a type|is not a member of)")


@dataclass
class CompileOutcome:
    ok: bool
    reason: str = ""        # "" when ok
    log: str = ""           # the compiler's first lines (for drops.jsonl)


def failure_reason(log: str) -> str:
    """The countable reason of a failed compile, from its log."""
    if (m := _MISSING.search(log)):
        return f"missing_header:{m.group(1)}"
    if (m := _UNDECLARED.search(log)):
        return f"undeclared:{m.group(1).split('::')[-1]}"
    sig, _ = error_signature(log, max_lines=1)
    return f"error:{sig[:120]}"


def include_flags(include_roots: list[Path]) -> list[str]:
    return [f"-I{SIM_INCLUDE}", *(f"-I{r}" for r in include_roots)]


def check_snippet(text: str, include_roots: list[Path] = (), *, timeout_s: float = 60.0,
                  cxx: str = CXX) -> CompileOutcome:
    """Syntax-check one snippet the way the simulator compiles kernels."""
    if shutil.which(cxx) is None:
        return CompileOutcome(False, "no_compiler", f"{cxx} not found")
    with tempfile.TemporaryDirectory(prefix="cot-cc-") as d:
        f = Path(d) / "snippet.cpp"
        f.write_text(preprocess_kernel(text, None), encoding="utf-8")
        argv = [cxx, binding_std_flag(), "-fsyntax-only", "-w", "-fmax-errors=5", *KERNEL_DEFINES,
                *include_flags([Path(r).resolve() for r in include_roots]), "-x", "c++", str(f)]
        try:
            rc, out = run_group(argv, time.monotonic() + timeout_s, cwd=Path(d))
        except StepTimedOut:
            return CompileOutcome(False, "timeout", f"no result in {timeout_s:.0f} s")
    if rc == 0:
        return CompileOutcome(True)
    log = out.replace(d, "<tmp>")
    return CompileOutcome(False, failure_reason(log), log[:2000])

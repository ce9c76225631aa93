"""Candidate sources with the candidate's own macros expanded, so the lint sees what the compiler sees.

`#define MAKE(T) new T` or `#define V virtual` hide a construct from a scan of the raw text; the preprocessor does
not. Every file is run through the C preprocessor with only the candidate's own files includable: an `#include` of
anything else (AscendC, the STL, an absolute path) is blanked first, so the toolkit's macros stay unexpanded names
(the lint already knows them) and nothing outside the candidate is read. The preprocessor runs in the build sandbox
(no host paths but the sources' copy and the toolchain; time and size limits), one sandbox for all files.

Line markers map every expanded line back to (file, line) of the original source, so findings point at the
macro's use. An include the blanking misses (spelled with comments or digraphs) fails the preprocessor; so does
anything else it cannot expand: the caller reports that as an error (fail closed), never lints less.
"""
from __future__ import annotations

import re
import shlex
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..torch_cxx import binding_std_flag

TIMEOUT_S = 60
MAX_OUTPUT_BYTES = 32 << 20
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include(?:_next)?\b[ \t]*(.*)$')
_QUOTED = re.compile(r'^"([^"\n]+)"')
_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')


class ExpandError(RuntimeError):
    """The sources could not be preprocessed (a fatal preprocessor error, a limit, the sandbox)."""


@dataclass
class Expanded:
    text: str                          # the expanded translation unit, marker lines blanked
    origin: list[tuple[str, int]]      # per line of text: (source file, 1-based line), ("", 0) for none


def _own_include(line: str, here: str, files: set[str]) -> bool:
    """`#include "x"` naming one of the candidate's files, relative to the including file or the root?"""
    m = _INCLUDE.match(line)
    q = _QUOTED.match(m.group(1)) if m else None
    if q is None:
        return False
    name = q.group(1)
    if name.startswith("/") or "\\" in name:
        return False
    for base in (str(Path(here).parent), ""):
        cand = Path(base, name).as_posix()
        parts = []
        for p in cand.split("/"):
            if p in ("", "."):
                continue
            if p == "..":
                if not parts:
                    break
                parts.pop()
            else:
                parts.append(p)
        else:
            if "/".join(parts) in files:
                return True
    return False


def _blank_foreign_includes(rel: str, text: str, files: set[str]) -> str:
    # join continued lines first (`#inc\<newline>lude` is one directive), keeping the line count
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line, extra = lines[i], 0
        while line.endswith("\\") and i + extra + 1 < len(lines):
            extra += 1
            line = line[:-1] + lines[i + extra]
        if _INCLUDE.match(line) and not _own_include(line, rel, files):
            line = ""
        out.append(line)
        out.extend([""] * extra)
        i += extra + 1
    return "\n".join(out)


def expand(sources: dict[str, str], cxx: str = "g++", defines: tuple[str, ...] = ()) -> dict[str, Expanded]:
    """{relative path: text} -> {relative path: Expanded}, for every source (headers too, each on its own)."""
    from ..jail import JAIL_SETUP_FAILED
    from ..model import Verdict
    from ..procs import StepTimedOut, run_group
    from .build_sandbox import BuildError, sandboxed

    exe = shutil.which(cxx) or cxx
    files = set(sources)
    with tempfile.TemporaryDirectory(prefix="kg-expand-") as tmp:
        Path(tmp).chmod(0o755)   # the sandbox reads it as another uid
        root = Path(tmp) / "src"
        out = Path(tmp) / "out"
        root.mkdir()
        out.mkdir(mode=0o777)
        out.chmod(0o777)   # written by the sandbox's uid
        names = {}
        for i, (rel, text) in enumerate(sorted(sources.items())):
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(_blank_foreign_includes(rel, text, files))
            names[rel] = f"{i}.i"
        flags = ["-E", "-x", "c++", "-nostdinc", binding_std_flag(), f"-I{root}", *defines]
        # to stdout, not -o: the driver deletes an -o output after any error, and a candidate's #error (true for
        # the toolkit's unexpanded macros) must not hide the rest of the file
        script = "ulimit -v 2097152; ulimit -f %d; rc=0; " % (MAX_OUTPUT_BYTES // 512) + "; ".join(
            f"{shlex.join([exe, *flags, str(root / rel)])} > {shlex.quote(str(out / names[rel]))} || rc=1"
            for rel in sorted(sources)) + "; exit $rc"
        try:
            rc, log = run_group(sandboxed(["/bin/sh", "-c", script], [root], [out]), time.monotonic() + TIMEOUT_S,
                                env={})
        except StepTimedOut:
            raise ExpandError(f"macro expansion timed out after {TIMEOUT_S}s") from None
        if rc == JAIL_SETUP_FAILED:   # the harness's fault, not the candidate's
            raise BuildError(f"[macro expansion] the build sandbox could not be set up\n{log[-500:]}", Verdict.INFRA_ERROR)
        first_error = next((ln for ln in log.splitlines() if "error" in ln), "")
        if rc != 0 and ("fatal error" in log or not all((out / n).exists() for n in names.values())):
            raise ExpandError("the preprocessor could not expand the sources: " + first_error.replace(str(root) + "/", ""))
        result = {}
        for rel, name in names.items():
            p = out / name
            if not p.exists() or p.stat().st_size > MAX_OUTPUT_BYTES:
                raise ExpandError(f"{rel}: macro expansion produced no output or more than {MAX_OUTPUT_BYTES >> 20} MiB")
            result[rel] = _parse(p.read_text(errors="replace"), str(root) + "/")
        return result


def _parse(text: str, root: str) -> Expanded:
    lines, origin = [], []
    cur_file, cur_line = "", 0
    for raw in text.split("\n"):
        m = _MARKER.match(raw)
        if m:
            path = m.group(2)
            cur_file = path[len(root):] if path.startswith(root) else ""
            cur_line = int(m.group(1))
            lines.append("")
            origin.append(("", 0))
            continue
        lines.append(raw)
        origin.append((cur_file, cur_line) if cur_file else ("", 0))
        cur_line += 1
    return Expanded("\n".join(lines), origin)

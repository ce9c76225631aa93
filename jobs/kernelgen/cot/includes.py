"""Include resolution: one self-contained snippet per kernel file (paper Appendix D.2).

Quoted and angled includes are looked up in the including file's directory, then in each configured include
root, then by unique path-suffix match inside the repository (real repos refer to shared headers by partial
paths). Resolved headers are inlined once each, dependencies first, with include guards and `#pragma once`
removed; SDK headers (kernel_operator.h, kernel_tiling/..., lib/...) and system headers stay as #include lines
at the top. A quoted include that cannot be found is reported, and the snippet is not self-contained.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .cpp import includes

SDK_PATTERNS = (r"^kernel_operator\.h$", r"^kernel_tiling/", r"^lib/", r"^adv_api", r"^basic_api", r"^simt_api",
                r"^ascendc/", r"^kernel_[a-z_]+\.h$", r"^register/", r"^tiling/", r"^graph/", r"^exe_graph/",
                r"^platform/", r"^acl/", r"^aclnn/")
HEADER_EXT = (".h", ".hpp", ".hh", ".inc", ".cuh", ".asc", ".cpp", ".cc")


@dataclass
class Snippet:
    path: str                                  # the kernel file, relative to the repo
    text: str
    inlined: list[str] = field(default_factory=list)      # repo-relative headers inlined, in order
    external: list[str] = field(default_factory=list)     # SDK/system includes kept as #include
    unresolved: list[str] = field(default_factory=list)   # quoted includes found nowhere
    own_text: str = ""                                     # the kernel file alone (what it defines itself)

    @property
    def self_contained(self) -> bool:
        return not self.unresolved


def strip_guard(src: str) -> str:
    """Remove `#pragma once` and a whole-file include guard (#ifndef X / #define X ... #endif)."""
    src = re.sub(r"^[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n?", "", src, flags=re.MULTILINE)
    body = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: " " * len(m.group(0)), src, flags=re.DOTALL)
    m = re.match(r"\s*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n\s*#[ \t]*define[ \t]+(\w+)[^\n]*\n", body)
    if not m or m.group(1) != m.group(2):
        return src
    last = list(re.finditer(r"^[ \t]*#[ \t]*endif[^\n]*$", body, flags=re.MULTILINE))
    if not last or body[last[-1].end():].strip():
        return src
    return src[m.end():last[-1].start()]


class IncludeResolver:
    def __init__(self, repo: Path, include_roots: list[Path] = (), sdk_patterns: tuple[str, ...] = SDK_PATTERNS):
        self.repo = Path(repo).resolve()
        self.roots = [Path(r).resolve() for r in include_roots]
        self.sdk = [re.compile(p) for p in sdk_patterns]
        self._files: list[str] | None = None

    def _repo_files(self) -> list[str]:
        if self._files is None:
            self._files = sorted(p.relative_to(self.repo).as_posix() for p in self.repo.rglob("*")
                                 if p.is_file() and p.suffix in HEADER_EXT)
        return self._files

    def is_sdk(self, inc: str) -> bool:
        return any(p.search(inc) for p in self.sdk)

    def lookup(self, inc: str, from_dir: Path) -> Path | None:
        for base in (from_dir, *self.roots, self.repo):
            cand = Path(os.path.normpath(base / inc))
            if cand.is_file():
                return cand
        # Suffix fallback: `../inc/x.h` or `op_kernel/x.h` written against a layout we do not have.
        tail = "/".join(p for p in Path(inc).parts if p not in ("..", "."))
        hits = [f for f in self._repo_files() if f == tail or f.endswith("/" + tail)]
        return self.repo / hits[0] if len(hits) == 1 else None

    def _rel(self, p: Path) -> str:
        p = p.resolve()
        for base in (self.repo, *self.roots):
            try:
                return p.relative_to(base).as_posix()
            except ValueError:
                continue
        return p.as_posix()

    def resolve(self, path: Path) -> Snippet:
        path = Path(path).resolve()
        snip = Snippet(path=self._rel(path), text="")
        seen: set[Path] = set()
        parts: list[str] = []
        external: list[str] = []

        def visit(f: Path, top: bool) -> None:
            seen.add(f)
            src = f.read_text(encoding="utf-8", errors="replace")
            if top:
                snip.own_text = src
            out, pos = [], 0
            for inc, angled, start, end in includes(src):
                out.append(src[pos:start])
                pos = end
                if self.is_sdk(inc):
                    line = f"#include <{inc}>" if angled else f'#include "{inc}"'
                    if line not in external:
                        external.append(line)
                    continue
                target = self.lookup(inc, f.parent)
                if target is None:
                    if angled:                   # a system header (<cstdint>): external
                        line = f"#include <{inc}>"
                        if line not in external:
                            external.append(line)
                    else:
                        snip.unresolved.append(inc)
                        out.append(f'#include "{inc}"')
                    continue
                target = target.resolve()
                if target not in seen:
                    visit(target, False)
            out.append(src[pos:])
            body = "".join(out)
            if not top:
                body = strip_guard(body)
                snip.inlined.append(self._rel(f))
                parts.append(f"// ===== inlined from {self._rel(f)} =====\n{body.strip()}\n")
            else:
                parts.append(f"// ===== {self._rel(f)} =====\n{body.strip()}\n")

        visit(path, True)
        snip.external = external
        head = "\n".join(external)
        snip.text = (head + "\n\n" if head else "") + "\n".join(parts)
        return snip

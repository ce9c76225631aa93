"""How much real AscendC kernel code the simulator's headers accept: compiles every kernel entry of a fetched ops
repository (`fetch hicann/ops-nn`, then `git archive HEAD | tar -x -C DIR`) for syntax against sim/include and prints
what stops the ones that fail, grouped by cause (a missing header, an AscendC name, a call no overload takes, ...),
with the names that stop most kernels first.

A measurement of how the simulator generalises to code it was not tuned on, not a test: nothing runs, and no test
depends on a fetched repository. Entries of the Ascend 950 generation (arch35 / regbase folders, *_apt.cpp) are out of
scope. Class-style tiling (BEGIN_TILING_DATA_DEF in op_host) is made by the build from the host dump, which a
syntax check does not have: the sweep declares each such class as a plain struct of its fields (as the kernel sees
it) — the op's own, those of shared host folders and the simulator's library classes (TCubeTiling, ...) that the
kernel names, with the classes their fields name; what still fails on a tiling struct is counted apart ("needs the
build's tiling header"). DTYPE_<NAME> macros,
which the build defines per dtype combination, are float here. Other ops' kernel folders are reachable as
`../<op>/...`, as in the toolkit's build tree.

    python benchmarks/sim_kernel_sweep.py /tmp/ops-nn [--jobs 8] [--limit 50] [--show 25] [--details out.json]
        [--sim-include OTHER/sim/include]
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SIM_INCLUDE = Path(__file__).resolve().parents[1] / "sim" / "include"
SKIP = ("arch35", "regbase", "v35", "/tests/", "aicpu", "_apt.cpp")
INCLUDE_RX = re.compile(r'#\s*include\s*"([^"]+)"')
# the DT_* numbers the build's kernel TU defines (ge::DataType)
DATA_TYPES = {"FLOAT": 0, "FLOAT16": 1, "INT8": 2, "INT32": 3, "UINT8": 4, "INT16": 6, "UINT16": 7, "UINT32": 8, "INT64": 9,
              "UINT64": 10, "DOUBLE": 11, "BOOL": 12, "COMPLEX64": 16, "COMPLEX128": 17, "BF16": 27, "INT4": 29}
CAUSES = [   # (cause, pattern on the first error; group 1 names what is missing)
    ("missing header", re.compile(r"fatal error: (\S+): No such file")),
    ("ascsim: not simulated", re.compile(r"error: static assertion failed: (ascsim: [^\n]*)")),
    ("ascsim: stopped by #error", re.compile(r"error: #error \"?(ascsim: [^\"\n]*)")),
    # the build generates every host TilingData class the op's host code defines or includes (SoftMaxTiling,
    # TCubeTiling, ...) into the kernel's tiling header; a syntax check has only the op's own
    ("needs the build's tiling header",
     re.compile(r"error: [^\n]*?\b(ascsim_default_tiling_t|NoTilingDataRegistered\w*|\w*TilingData\w*|\w*Tiling)\b"
                r"'? (?:in namespace '[\w:]+' )?does not name a type|error: [^\n]*?\b(ascsim_default_tiling_t)\b")),
    ("AscendC name missing", re.compile(r"error: '(\w+)' is not a member of '(?:AscendC|AscendC::\w+)'")),
    ("name not declared", re.compile(r"error: '(\w+)' was not declared in this scope")),
    ("no overload takes the call", re.compile(r"error: no matching function for call to '([\w:]+)")),
    ("other", re.compile(r"error: (.{0,90})")),
]


def entries(root: Path) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*.cpp")):
        s = p.as_posix()
        if "op_kernel" not in p.parts or any(k in s for k in SKIP):
            continue
        text = p.read_text(errors="replace")
        if "__global__" not in text or any(k in inc for inc in INCLUDE_RX.findall(text) for k in ("arch35", "regbase")):
            continue
        out.append(p)
    return out


TILING_BEGIN_RX = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)END_TILING_DATA_DEF", re.S)
FIELD_RX = re.compile(r"TILING_DATA_FIELD_DEF(_ARR|_STRUCT)?\s*\(([^;]*)\)\s*;")


REGISTER_RX = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
CONST_RX = re.compile(r"^\s*(?:static\s+)?(?:constexpr|const)\s+[\w:]+\s+(\w+)\s*=\s*([^;]+);|^\s*#define\s+(\w+)\s+(\S+)\s*$", re.M)


def _render(text: str, consts: dict) -> dict[str, tuple[str, set[str], list[str]]]:
    """Each class-style TilingData class of one file as (plain struct, the classes its struct fields name, the
    constant definitions its array sizes need)."""
    out = {}
    for name, body in TILING_BEGIN_RX.findall(text):
        fields, deps, head = [], set(), []
        for kind, args in FIELD_RX.findall(body):
            a = [x.strip() for x in args.split(",")]
            if kind == "_ARR" and len(a) == 3:
                fields.append(f"{a[0]} {a[2]}[{a[1]}];")
                if a[1] in consts:
                    head.append(f"constexpr int64_t {a[1]} = {consts[a[1]]};")
            elif len(a) == 2:
                fields.append(f"{a[0]} {a[1]};")
                if kind == "_STRUCT":
                    deps.add(a[0])
        out.setdefault(name, (f"struct {name} {{ {' '.join(fields)} }};", deps, head))
    return out


def _consts(text: str) -> dict:
    return {m.group(1) or m.group(3): (m.group(2) or m.group(4)).strip() for m in CONST_RX.finditer(text)}


def _host_texts(folder: Path) -> list[str]:
    return [p.read_text(errors="replace") for p in sorted(folder.rglob("*")) if p.suffix in (".h", ".cpp", ".hpp")]


def tiling_index(root: Path, sim_include: Path) -> tuple[dict[str, tuple[str, set[str], list[str]]], dict[str, str]]:
    """Every class-style TilingData class of the repository's host code (any op_host folder: shared ones such as
    foreach_utils too) and the simulator's library tiling classes (TCubeTiling, SoftMaxTiling, ...), which the build
    generates into the kernel's tiling header when an op's host code reaches them; and which class each op type
    registers (REGISTER_TILING_DATA_CLASS, often in a shared folder), GET_TILING_DATA's default."""
    classes: dict = {}
    registered: dict = {}
    folders = [d for d in root.rglob("op_host") if d.is_dir()] + [sim_include / "ascsim" / "host"]
    for d in folders:
        for text in _host_texts(d):
            for name, v in _render(text, _consts(text)).items():
                classes.setdefault(name, v)
            for op_type, cls in REGISTER_RX.findall(text):
                registered.setdefault(op_type, cls)
    return classes, registered


NAME_RX = re.compile(r"\b\w+\b")
DEFINED_RX = re.compile(r"\b(?:struct|class)\s+(\w+)\s*[{:]")


def tiling_structs(op: Path, index: tuple[dict, dict], extra: tuple[str, ...] = ()) -> str:
    """The TilingData classes a kernel of this op can see, as the plain structs a kernel reads: the op's own, any
    other the kernel sources name (a shared host folder's, a library one), and what their struct fields need, in
    dependency order; then GET_TILING_DATA's default: the class registered for this op."""
    texts = _host_texts(op / "op_host") if (op / "op_host").is_dir() else []
    own: dict = {}
    registered = []
    for text in texts:
        own.update({k: v for k, v in _render(text, _consts(text)).items() if k not in own})
        registered += REGISTER_RX.findall(text)
    kernel_names = set()
    if (op / "op_kernel").is_dir():
        for t in _host_texts(op / "op_kernel"):
            kernel_names |= set(NAME_RX.findall(t)) - set(DEFINED_RX.findall(t))   # a kernel's own struct wins
    classes, all_registered = index
    camel = "".join(w.title() for w in op.name.split("_"))
    if camel in all_registered and all(o != camel for o, _ in registered):
        registered.append((camel, all_registered[camel]))
    table = {**classes, **own}
    wanted = kernel_names | set(extra) | {c for _, c in registered}
    todo = list(own) + sorted(n for n in wanted & set(classes) if n not in own)
    order, seen = [], set()

    def visit(n: str) -> None:
        if n in seen or n not in table:
            return
        seen.add(n)
        for d in sorted(table[n][1]):
            visit(d)
        order.append(n)
    for n in todo:
        visit(n)
    heads = sorted({h for n in order for h in table[n][2]})
    default = [c for o, c in registered if o == camel] + [c for _, c in registered]
    tail = [f"using ascsim_default_tiling_t = {default[0]};"] if default and default[0] in seen else []
    return "\n".join(heads + [table[n][0] for n in order] + tail)


PARAM_RX = re.compile(r"\b(?:Input|Output)\s*\(\s*\"(\w+)\"")


def tu_text(entry: Path, index: tuple[dict, dict], extra: tuple[str, ...] = ()) -> str:
    """The TU the build would compile for one dtype combination: DTYPE_<PARAM> (float) and ORIG_DTYPE_<PARAM> (DT_FLOAT)
    for every input and output the op's OpDef declares, then the op's tiling structs, then the entry."""
    kdir = entry.parent
    host = kdir.parent / "op_host"
    params = set()
    for p in (host.rglob("*") if host.is_dir() else []):
        if p.suffix in (".h", ".cpp", ".hpp"):
            params |= {n.upper() for n in PARAM_RX.findall(p.read_text(errors="replace"))}
    defs = "".join(f"#define DTYPE_{n} float\n#define ORIG_DTYPE_{n} DT_FLOAT\n" for n in sorted(params))
    defs += "".join(f"#define DT_{n} {v}\n" for n, v in DATA_TYPES.items())
    return (f'#define ASCENDC_TPL_KERNEL 1\n#include "kernel_operator.h"\n#include <array>\n#include <tuple>\n{defs}'
            f'{tiling_structs(kdir.parent, index, extra)}\n#include "{entry}"\n')


def op_links(root: Path, tmp: Path) -> Path:
    """tmp/ops/<op> -> <op>/op_kernel for every op, and <dir> -> <dir> for folders of shared kernel headers
    (foreach_utils, inc): `../<op>/x.h` resolves from tmp/ops/_ and `../../<op>/x.h` from tmp/ops/_/_."""
    ops = tmp / "ops"
    (ops / "_" / "_").mkdir(parents=True, exist_ok=True)
    for k in root.rglob("op_kernel"):
        link = ops / k.parent.name
        if k.is_dir() and not link.exists():
            link.symlink_to(k)
    for d in root.rglob("*"):   # header folders that are not an op's op_kernel
        link = ops / d.name
        if d.is_dir() and not link.exists() and "op_kernel" in d.parts and any(d.glob("*.h")):
            link.symlink_to(d)
    return ops / "_"


MISSING_TYPE_RX = re.compile(r"error: '(\w+)' (?:does not name a type|was not declared in this scope|has not been declared)")


def check(entry: Path, root: Path, cxx: str, links: Path, sim_include: Path, index: tuple[dict, dict]) -> tuple[Path, str, str, str]:
    op = entry.parent.parent
    inc = [sim_include, entry.parent, op, op / "op_host", root, links, links / "_",
           *(d for d in (root / "common", root / "common" / "inc") if d.is_dir())]
    extra: tuple[str, ...] = ()
    for _ in range(4):   # a class named only in a shared kernel header: add it from the index and compile again
        with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
            f.write(tu_text(entry, index, extra))
        try:
            r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-w", "-fmax-errors=1", *(f"-I{d}" for d in inc), f.name],
                               capture_output=True, text=True, timeout=300, env={**os.environ, "LC_ALL": "C"})
        except subprocess.TimeoutExpired:
            return entry, "timeout", "", ""
        finally:
            Path(f.name).unlink()
        m = MISSING_TYPE_RX.search(r.stderr)
        if r.returncode == 0 or not m or m.group(1) not in index[0] or m.group(1) in extra:
            break
        extra += (m.group(1),)
    if r.returncode == 0:
        return entry, "ok", "", ""
    first = next((ln for ln in r.stderr.splitlines() if "error" in ln), r.stderr.strip()[-300:])
    for cause, rx in CAUSES:
        m = rx.search(r.stderr)
        if m:
            return entry, cause, next((g for g in m.groups() if g), ""), first
    return entry, "other", "", first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="only the first N entries")
    ap.add_argument("--show", type=int, default=20, help="names listed per cause")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--details", type=Path, help="write every failing entry's first error here (JSON)")
    ap.add_argument("--sim-include", type=Path, default=SIM_INCLUDE,
                    help="the simulator headers to check against (default: this checkout's; e.g. an older commit's)")
    args = ap.parse_args()
    todo = entries(args.repo)
    if args.limit:
        todo = todo[: args.limit]
    results = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        links = op_links(args.repo, Path(tmp))
        index = tiling_index(args.repo, args.sim_include.resolve())
        futs = [pool.submit(check, e, args.repo, args.cxx, links, args.sim_include.resolve(), index) for e in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            results.append(fut.result())
            print(f"\r{i}/{len(todo)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if args.details:
        args.details.write_text(json.dumps([{"entry": str(e.relative_to(args.repo)), "cause": c, "what": w, "error": f}
                                            for e, c, w, f in sorted(results) if c != "ok"], indent=1))
    by_cause = collections.Counter(c for _, c, _, _ in results)
    print(f"{args.repo}: {len(results)} kernel entries (without the Ascend 950 ones)")
    for cause, n in by_cause.most_common():
        print(f"  {n:4d}  {cause}")
        names = collections.Counter(what for _, c, what, _ in results if c == cause and what)
        for what, k in names.most_common(args.show):
            print(f"          {k:3d}  {what}")


if __name__ == "__main__":
    main()

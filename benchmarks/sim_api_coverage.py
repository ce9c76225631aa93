"""How much of the AscendC surface real operator code uses the simulator lacks: scans a checkout of an ops repository
(e.g. `fetch hicann/ops-math`, then `git archive HEAD | tar -x -C DIR`) and prints

  - the tiling styles of its op_host sources (class-style BEGIN_TILING_DATA_DEF, standard C++ structs through
    GetTilingData<T>, tiling templates through GET_TPL_TILING_KEY) and the kernel types its ASCENDC_TPL_SEL selects;
  - every `AscendC::Name` (and `AscendC::Name::Member`) its op_kernel sources write that no header under sim/include
    defines, with the number of files using it. Unqualified calls are not counted (they cannot be told from the
    kernel's own helpers by text); names of the Ascend 950 register API (`MicroAPI`, arch35 folders) are out of scope.

For measurement only: nothing here runs the code, and no test depends on a fetched repository.

    python benchmarks/sim_api_coverage.py /tmp/ops-math [--top 30]
"""
from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

SIM_INCLUDE = Path(__file__).resolve().parents[1] / "sim" / "include"
SKIP_PARTS = ("arch35", "regbase", "v35", "tests", "aicpu")
HOST_STYLES = {"class-style TilingData (BEGIN_TILING_DATA_DEF)": "BEGIN_TILING_DATA_DEF",
               "standard C++ TilingData (GetTilingData<T>)": "GetTilingData<",
               "tiling template keys (GET_TPL_TILING_KEY)": "GET_TPL_TILING_KEY"}
QUALIFIED = re.compile(r"\bAscendC::([A-Za-z_]\w*)(?:::([A-Za-z_]\w*))?")
KERNEL_TYPE_SEL = re.compile(r"ASCENDC_TPL_KERNEL_TYPE_SEL\(\s*(\w+)")


def sources(root: Path, part: str) -> list[Path]:
    """*.h / *.cpp files under a folder named `part` (op_kernel, op_host), outside the skipped folders."""
    return [p for p in root.rglob("*") if p.suffix in (".h", ".cpp", ".hpp") and part in p.parts
            and not any(s in q for q in p.relative_to(root).parts for s in SKIP_PARTS)]


def sim_words() -> set[str]:
    words: set[str] = set()
    for p in SIM_INCLUDE.rglob("*"):
        if p.is_file():
            words |= set(re.findall(r"\w+", p.read_text(errors="replace")))
    return words


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    hosts, kernels = sources(args.repo, "op_host"), sources(args.repo, "op_kernel")
    host_texts = [p.read_text(errors="replace") for p in hosts]
    kernel_texts = [p.read_text(errors="replace") for p in kernels]
    print(f"{args.repo}: {len(hosts)} op_host files, {len(kernels)} op_kernel files (without {', '.join(SKIP_PARTS)})")
    print("\nop_host files by tiling style:")
    for label, marker in HOST_STYLES.items():
        print(f"  {sum(marker in t for t in host_texts):5d}  {label}")
    kinds = collections.Counter(m for t in kernel_texts for m in KERNEL_TYPE_SEL.findall(t))
    if kinds:
        print("ASCENDC_TPL_KERNEL_TYPE_SEL values: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))

    known = sim_words()
    files_using: dict[str, set[int]] = collections.defaultdict(set)
    for i, t in enumerate(kernel_texts):
        for name, member in QUALIFIED.findall(t):
            if name == "MicroAPI":
                continue
            missing = member if name in known and member else name
            if missing not in known:
                files_using[f"AscendC::{name}" + (f"::{member}" if member else "")].add(i)
    ranked = sorted(files_using.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    print(f"\nAscendC:: names written by op_kernel sources and defined nowhere under sim/include: {len(ranked)}"
          f" (top {args.top}; files using each)")
    for name, used in ranked[:args.top]:
        print(f"  {len(used):5d}  {name}")


if __name__ == "__main__":
    main()

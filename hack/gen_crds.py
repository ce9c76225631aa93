#!/usr/bin/env python
"""Regenerate crds/*.yaml from the pydantic specs (same as `kernelgen crds generate`). --check: exit 1 on drift."""

import sys
from pathlib import Path

from kernelgen.specs import crd

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        drift = crd.check(ROOT / "crds")
        for name in drift:
            print(f"crds/{name} is out of date: run python hack/gen_crds.py", file=sys.stderr)
        sys.exit(1 if drift else 0)
    for path in crd.generate(ROOT / "crds"):
        print(path.relative_to(ROOT))

"""Harness-side build steps of the ascend backend, run as commands so `--dry-run` shows them like the others.

  install-sources   put the candidate's op_host/op_kernel files into the msopgen project (replacing the generated
                    stubs) and write the private vendor name, CANN path and compute unit into CMakePresets.json
  install-opp       run the built custom_opp_*.run with --install-path=<private dir> (never the global vendor dir)
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path


def install_sources(src: Path, proj: Path, kernel: str, vendor: str, cann: str, unit: str) -> int:
    presets = proj / "CMakePresets.json"
    if not presets.is_file():
        print(f"error: {presets} not found (did msopgen generate the project?)", file=sys.stderr)
        return 2
    for sub in ("op_host", "op_kernel"):
        dst = proj / sub
        dst.mkdir(parents=True, exist_ok=True)
        for old in dst.iterdir():      # the generated stubs; CMakeLists.txt stays
            if old.is_file() and old.suffix in (".cpp", ".h", ".hpp", ".cc"):
                old.unlink()
        for f in sorted((src / sub).rglob("*")) if (src / sub).is_dir() else []:
            if f.is_file():
                target = dst / f.relative_to(src / sub)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, target)
    if not (proj / "op_kernel" / f"{kernel}.cpp").is_file():
        print(f"error: op_kernel/{kernel}.cpp missing after copying the candidate", file=sys.stderr)
        return 2
    doc = json.loads(presets.read_text())
    wanted = {"vendor_name": vendor, "ASCEND_CANN_PACKAGE_PATH": cann, "ASCEND_COMPUTE_UNIT": unit}
    for preset in doc.get("configurePresets", []):
        cv = preset.setdefault("cacheVariables", {})
        for key, value in wanted.items():
            if isinstance(cv.get(key), dict):
                cv[key]["value"] = value
            else:
                cv[key] = {"type": "STRING", "value": value}
    presets.write_text(json.dumps(doc, indent=4))
    print(f"sources installed into {proj}; vendor_name={vendor} ASCEND_COMPUTE_UNIT={unit}")
    return 0


def install_opp(build_out: Path, install_path: Path, vendor: str) -> int:
    runs = sorted(build_out.glob("custom_opp_*.run"))
    if not runs:
        print(f"error: no custom_opp_*.run in {build_out} (the package target did not produce one)", file=sys.stderr)
        return 2
    install_path.mkdir(parents=True, exist_ok=True)
    rc = subprocess.call(["bash", str(runs[0]), "--quiet", f"--install-path={install_path}"])
    if rc == 0 and not (install_path / "vendors" / vendor).is_dir():
        print(f"error: {runs[0].name} installed no vendors/{vendor} under {install_path}", file=sys.stderr)
        return 2
    return rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="kernelgen.bench.backends.ascend.tool")
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("install-sources")
    a.add_argument("--src", type=Path, required=True)
    a.add_argument("--proj", type=Path, required=True)
    a.add_argument("--kernel", required=True)
    a.add_argument("--vendor", required=True)
    a.add_argument("--cann", required=True)
    a.add_argument("--compute-unit", required=True)
    b = sub.add_parser("install-opp")
    b.add_argument("--build-out", type=Path, required=True)
    b.add_argument("--install-path", type=Path, required=True)
    b.add_argument("--vendor", required=True)
    args = ap.parse_args(argv)
    if args.cmd == "install-sources":
        return install_sources(args.src, args.proj, args.kernel, args.vendor, args.cann, args.compute_unit)
    return install_opp(args.build_out, args.install_path, args.vendor)


if __name__ == "__main__":
    sys.exit(main())

"""`kernelgen bench run --backend ascend --dry-run` on the 13 sample tasks prints the full command sequence."""
from __future__ import annotations

import re

from kernelgen.bench.backends.ascend.toolchain import HELPER_DIR
from kernelgen.cli.main import app
from typer.testing import CliRunner

from .ascend_support import SAMPLE

STEPS = ["msopgen", "install-sources", "configure", "build-binary", "build-package", "install-opp", "pybind"]


def test_dry_run_prints_every_step_for_every_task(sample_suite, tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELGEN_ASCEND_CACHE", str(tmp_path / "cache"))
    r = CliRunner().invoke(app, ["bench", "run", "--backend", "ascend", "--dry-run", "--suite", str(SAMPLE),
                                 "-o", str(tmp_path / "runs")])
    assert r.exit_code == 0, r.output
    blocks = r.output.split("\n# task ")[1:]
    assert len(blocks) == 13
    for block in blocks:
        op, op_u = re.search(r"# op (\w+) -> (\w+)", block).groups()
        assert op_u.startswith(op + "Kg")
        assert [s for s in STEPS if f". {s}\n" in block] == STEPS
        assert "msopgen gen -i " in block and "-c ai_core-Ascend910B2 -lan cpp" in block
        assert "cmake -S . -B build_out --preset=default" in block
        assert "--target binary" in block and "--target package" in block
        assert "--install-path" in block and "ASCEND_CUSTOM_OPP_PATH=" in block   # private dir at run time only
        assert f"aclnn{op_u}GetWorkspaceSize" in block
        pybind = block.split("# 7. pybind\n")[1].splitlines()[0]
        assert f"-I{HELPER_DIR}" in pybind and "cust_opapi" not in pybind and "-ltorch_npu" in pybind
        build_env = block.split("# build environment: ")[1].splitlines()[0]
        assert "ASCEND_CUSTOM_OPP_PATH" not in build_env
        assert "kernelgen.bench.runner" in block and "kernelgen.bench.judge compare" in block and "TASK_QUEUE_ENABLE=0" in block
    assert not (tmp_path / "cache").exists()        # nothing was built


def test_dry_run_needs_the_ascend_backend(tmp_path):
    r = CliRunner().invoke(app, ["bench", "run", "--backend", "sim", "--dry-run", "-o", str(tmp_path)])
    assert r.exit_code == 2

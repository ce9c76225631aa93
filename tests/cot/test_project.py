import shutil
import subprocess
from pathlib import Path

import pytest
from .conftest import FIXTURES
from kernelgen.cot.project import (
    check_tiling,
    field_name,
    find_projects,
    mine_scenarios,
)

OPS = FIXTURES / "ops_repo"
UT = OPS / "math/scaled_add/tests/ut/op_host/test_scaled_add_tiling.cpp"


def test_mines_scenarios_from_tiling_unit_tests():
    scs = mine_scenarios(UT.read_text())
    assert [s.name for s in scs] == ["ScaledAddTiling.float32_4096_on_8_cores", "ScaledAddTiling.float16_large_on_2_cores"]
    a, b = scs
    assert a.dtypes == ["float"] and a.shapes == [[4096]] and a.core_num == 8 and a.ub_size == 196608
    assert a.expected == {"blockDim": 8, "blockLength": 512, "tileLength": 512, "tileNum": 1, "tilingKey": 2}
    assert b.dtypes == ["float16"] and b.shapes == [[64, 2048]] and b.core_num == 2
    assert b.expected["tileNum"] == 4 and b.expected["tileLength"] == 16384


def test_field_names():
    assert field_name("t.blockDim") == "blockDim"
    assert field_name("context->GetBlockDim()") == "blockDim"
    assert field_name("tiling.offsets[0]") == "offsets"


def test_finds_host_kernel_pairs_with_their_tests():
    ops = {p.name: p for p in find_projects(OPS)}
    assert set(ops) == {"scaled_add", "leaky_clip"}          # row_scale and broken_gather have no op_host
    assert [t.name for t in ops["scaled_add"].tiling_tests] == ["test_scaled_add_tiling.cpp"]
    assert [t.name for t in ops["leaky_clip"].tiling_tests] == ["test_leaky_clip_tiling.cpp"]   # repo-level UT


def test_check_tiling_field_by_field():
    exp = {"blockDim": 8, "tileNum": 1, "tilingKey": 2}
    assert check_tiling({"block_dim": "8", "tiling": {"tileNum": 1, "tiling_key": 2}}, exp)["status"] == "agree"
    r = check_tiling({"blockDim": 8, "tileNum": 3}, exp)
    assert r["status"] == "partial" and r["mismatched"] == {"tileNum": 3} and r["missing"] == ["tilingKey"]
    assert check_tiling(None, exp)["status"] == "disagree"
    assert check_tiling({}, {})["status"] == "unchecked"


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_asserted_values_are_what_the_tiling_code_computes(tmp_path: Path):
    """The mined expectations are ground truth only if the host code really computes them: run it."""
    scs = mine_scenarios(UT.read_text())
    calls = [("4096, 4, 8, 196608", scs[0]), ("131072, 2, 2, 196608", scs[1])]
    main = ['#include "scaled_add_tiling.h"', "#include <cstdio>", "int main() {"]
    for args, _ in calls:
        main.append(f"  {{ auto t = scaled_add_host::ComputeTiling({args}); std::printf(\"%u %u %u %u %u\\n\", "
                    "t.blockDim, t.blockLength, t.tileLength, t.tileNum, t.tilingKey); }")
    main.append("}")
    (tmp_path / "main.cpp").write_text("\n".join(main))
    host = OPS / "math/scaled_add/op_host"
    exe = tmp_path / "tiling"
    subprocess.run(["g++", "-std=c++17", f"-I{host}", str(tmp_path / "main.cpp"), str(host / "scaled_add_tiling.cpp"),
                    "-o", str(exe)], check=True, timeout=120)
    lines = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")
    for line, (_, sc) in zip(lines, calls):
        got = dict(zip(["blockDim", "blockLength", "tileLength", "tileNum", "tilingKey"], map(int, line.split())))
        assert check_tiling(got, sc.expected)["status"] == "agree", (got, sc.expected)

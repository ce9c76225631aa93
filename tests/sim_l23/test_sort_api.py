"""The sort family of ascsim (sim/include/ascsim/kernel/vec_sort.h): the C++ driver tests/sim_l23/cpp/sort_test.cpp
checks Sort32 / Sort / Concat / Extract / MrgSort (both shapes) / GetMrgSortResult / GetSortLen / GetSortOffset, TopK
(Normal and Small modes), the host tmp-size and TopK tiling helpers and the region-proposal APIs against std::sort
references, plus their strict checks; the dtype tables are compile-time errors, and the proposal APIs warn that
Atlas A2 does not support them."""
import shutil
import subprocess

import pytest

from .conftest import REPO, cpp_test_binary

SRC = REPO / "tests" / "sim_l23" / "cpp" / "sort_test.cpp"
INCLUDE = REPO / "sim" / "include"


@pytest.fixture(scope="module")
def sort_test_binary():
    return cpp_test_binary(SRC)


def test_sort_api_semantics(sort_test_binary):
    r = subprocess.run([str(sort_test_binary)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL 0" in r.stdout
    # the proposal APIs run, with the documented-unsupported warning (one message per API kind)
    for api in ("RpSort16", "MrgSort4", "ProposalConcat", "ProposalExtract"):
        assert f"[ascsim] warning: {api}: documented as not supported on Atlas A2" in r.stderr
    assert "Sort32:" not in r.stderr and "MrgSort:" not in r.stderr   # the A2 APIs are not warned about


@pytest.mark.parametrize("call,api", [
    ("AscendC::Sort32(d, s, i, 1);", "Sort32"),
    ("AscendC::Sort<int32_t, true>(d, s, i, d, 1);", "Sort"),
    ("AscendC::Extract(d, i, s, 1);", "Extract"),
    ("uint16_t l[4] = {1, 1, 0, 0}; uint32_t n[4]; AscendC::MrgSortSrcList<int32_t> L(s, s, s, s);"
     " AscendC::MrgSort<int32_t>(d, L, l, n, 3, 1);", "MrgSort"),
    ("AscendC::RpSort16(d, s, 1);", "RpSort16"),
    ("(void)AscendC::GetSortLen<int32_t>(4);", "GetSortLen"),
    ("AscendC::tiling::TopkTiling t; AscendC::TopK<int32_t>(d, d, s, d, AscendC::LocalTensor<bool>(), 1, t,"
     " AscendC::TopKInfo{1, 32, 32});", "TopK"),
])
def test_sort_dtype_tables_are_compile_errors(tmp_path, call, api):
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("g++ not installed")
    src = tmp_path / "bad.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "void f(AscendC::LocalTensor<int32_t>& d, AscendC::LocalTensor<int32_t>& s, "
                   "AscendC::LocalTensor<uint32_t>& i) { " + call + " }\n")
    r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", f"-I{INCLUDE}", str(src)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0
    assert f"Failed to check dtype in {api}," in r.stderr, r.stderr[-2000:]

"""SoftmaxFlashV2 (tests/sim/cpp/softmax_flash_test.cpp): plain and online-update semantics against a double
reference (half, float, half data with float statistics), the host tiling / tmp-size helpers against the kernel's
temp check, and the strict checks. NZ format is rejected at compile time."""
import subprocess

import pytest

from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "softmax_flash_test.cpp"


def test_softmax_flash_v2():
    r = run_cpp_driver(SRC)
    # the outReduceMax overload with SOFTMAX_NORMAL does nothing and says so
    assert "SOFTMAX_OUTPUT_WITHOUT_BRC" in r.stdout + r.stderr


@pytest.mark.parametrize("call", [
    "SoftmaxFlashV2<float, true, false, false, true>(t, t, t, t, t, t, t, tmp, Tl{8, 8});",
    "SoftMax<float, false, false, true>(t, t, t, t, tmp, Tl{8, 8});",
    "SimpleSoftMax<float, false, false, true>(t, t, t, t, Tl{8, 8});",
    "SoftmaxGrad<float, false, true>(t, t, t, tmp, Tl{8, 8});",
], ids=["SoftmaxFlashV2", "SoftMax", "SimpleSoftMax", "SoftmaxGrad"])
def test_nz_format_is_a_compile_error(tmp_path, call):
    """NZ-format softmax is not simulated: a compile error, never a silent ND computation."""
    from kernelgen.bench.backends.sim import CXX, SIM_INCLUDE
    src = tmp_path / "nz.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "using namespace AscendC;\n"
        "struct Tl { uint32_t srcM, srcK; };\n"
        "void k(LocalTensor<float>& t, LocalTensor<uint8_t>& tmp) {\n"
        f"    {call}\n"
        "}\n")
    r = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", f"-I{SIM_INCLUDE}", str(src)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode != 0
    assert "NZ format" in r.stderr and "not simulated" in r.stderr, r.stderr[-2000:]

"""Address-list transposes (TransDataTo5HD, scatter_vnchwconv_b8/b16/b32) and the matmul::Matmul batch/quant variants
(tests/sim/cpp/vnchwconv_matmul_test.cpp): transposes element by element against index formulas, IterateBatch
against a naive batched GEMM, int8 quantised matmul against hand-computed dequantised values, and the strict checks
(misaligned / out-of-UB block addresses, repeat range, uninitialised address registers, unsupported variants)."""
from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "vnchwconv_matmul_test.cpp"


def test_vnchwconv_and_matmul_variants():
    r = run_cpp_driver(SRC)
    # the documented repeat-1 stride quirk is reported once as a warning
    assert "repeatTimes 1 with a non-zero repStride" in r.stderr

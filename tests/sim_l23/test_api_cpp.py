"""Level-2/3 kernel-API semantics (tests/sim_l23/cpp/l23_test.cpp): the cube data path against a naive GEMM,
Fixpipe quantisation/relu, raw intrinsics, high-level math and the strict checks, on one simulated core."""
from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim_l23" / "cpp" / "l23_test.cpp"


def test_level23_api_semantics():
    run_cpp_driver(SRC)

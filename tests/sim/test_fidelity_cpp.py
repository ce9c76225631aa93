"""Documented device behaviour that real NPUKernelBench answers rely on (tests/sim/cpp/fidelity_test.cpp): the
reduce unit's summation order and half saturation, the ReduceSum/ReduceMax/ReduceMin overloads, and the GM
out-of-bounds model that follows torch_npu's allocator (reads past a tensor warn, writes into another fail)."""
from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "fidelity_test.cpp"


def test_documented_device_behaviour():
    r = run_cpp_driver(SRC)
    assert "FAIL 0" in r.stdout


def test_integer_division_by_zero_runs_on_like_the_device():
    """x86 traps on an integer division by zero; kernel code on a simulated core runs on (tests/sim/cpp/div_zero_test.cpp)."""
    run_cpp_driver(REPO / "tests" / "sim" / "cpp" / "div_zero_test.cpp")

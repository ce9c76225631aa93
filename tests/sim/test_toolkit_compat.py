"""Toolkit compatibility of the simulator's headers, checked by C++ drivers against references written from the
documentation: half/bfloat16_t as literal types (constant initialisation gives the IEEE round-to-nearest-even bits
of the run-time path), under g++ and, where installed, clang++ (the device compiler is clang-based)."""
import shutil

import pytest

from .conftest import REPO, run_cpp_driver

CPP = REPO / "tests" / "sim" / "cpp"


@pytest.mark.parametrize("cxx", ["g++", "clang++"])
def test_half_and_bfloat16_are_literal_types(cxx):
    if shutil.which(cxx) is None:
        pytest.skip(f"{cxx} not installed")
    run_cpp_driver(CPP / "numeric_literal_test.cpp", cxx=cxx)

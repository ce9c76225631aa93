"""classify_compile_error maps real-shaped g++ / clang diagnostics to the paper's classes."""
import pytest

from kernelgen.bench.errors import classify_compile_error
from kernelgen.bench.model import CompileErrorClass as C

CASES = [
    ("k.cpp:3:5: error: 'tileLen' was not declared in this scope; did you mean 'tileLength'?", C.SCOPE),
    ("k.cpp:3:5: error: use of undeclared identifier 'tileLen'", C.SCOPE),
    ("k.cpp:9:14: error: no matching function for call to 'Add(LocalTensor<half>&, LocalTensor<half>&, uint32_t&)'\n"
     "note: candidate expects 4 arguments, 3 provided", C.API_SIGNATURE),
    ("vec_arith.h:1:1: error: static assertion failed: Failed to check dtype in Add, current api support dtype "
     "combination is src and dst both: half / float / int16_t / int32_t.", C.DATA_TYPE),
    ("k.cpp:2:1: error: invalid conversion from 'int*' to 'uint8_t*' [-fpermissive]", C.DATA_TYPE),
    ("k.cpp:4:9: error: 'class AscendC::LocalTensor<float>' has no member named 'GetData'", C.MEMORY_OBJECT),
    ("k.cpp:7:1: error: expected ';' before '}' token", C.SYNTAX),
    ("k.cpp:1:1: error: aggregate 'NoTilingDataRegistered_UseREGISTER_TILING_DEFAULT var' has incomplete type\n",
     C.MACRO),
    ("", C.OTHER),
    ("ld: something odd happened", C.OTHER),
]


@pytest.mark.parametrize("log,expected", CASES)
def test_classify(log, expected):
    assert classify_compile_error(log) == expected

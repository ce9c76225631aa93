"""Kernel-API semantics of ascsim, on one simulated core. tests/sim/cpp/api_test.cpp: rounding, cast modes, the
repeat engine, reductions, data movement units and strict checks. tests/sim/cpp/cube_api_test.cpp: the cube data
path against a naive GEMM, Fixpipe quantisation/relu, raw intrinsics, high-level math and their strict checks.
tests/sim/cpp/hl_shape_api_test.cpp: the pattern reductions, CumSum and Broadcast against the docs' worked examples,
with the host functions that size their temporary buffers. tests/sim/cpp/pool_sync_debug_test.cpp: TBufPool, TQueSync,
printf, the CTRL register and the tiling-copy macros. tests/sim/cpp/hl_rounding_math_test.cpp: Floor/Ceil/Round/Trunc,
the inverse hyperbolic functions, ClampMax/ClampMin, Xor, Lgamma/Digamma and the high-level Exp/Axpy overloads.
tests/sim/cpp/hl_activation_test.cpp: the Gelu family, Silu, Swish, SwiGLU/GeGLU/ReGlu and LogSoftMax.
tests/sim/cpp/hl_norm_test.cpp: LayerNorm (both layouts), Normalize, RmsNorm, GroupNorm, BatchNorm, DeepNorm and the
Welford pair with their tiling structs. tests/sim/cpp/hl_quant_pad_test.cpp: AscendQuant/AscendDequant/AscendAntiQuant,
Pad/UnPad and DropOut. hl_softmax_more_test.cpp / hl_norm_grad_test.cpp / hl_misc_more_test.cpp: SoftmaxFlash,
SoftmaxFlashV3, SoftmaxGradFront, LayerNormGrad, LayerNormGradBeta and ReduceXorSum; vec_transpose_test.cpp: the basic
Transpose (16x16 and NCHW <-> NHWC). int4_test.cpp: int4b_t tensors (nibble layout, sizes, offsets), its Cast pairs and
DataCopy; hl_fmod_trans_data_test.cpp: Fmod and the NCDHW <-> NDC1HWC0 / FRACTAL_Z_3D TransData; vec_composite_test.cpp:
AddReluCast, SubReluCast, MulCast, MulAddRelu; vec_reduce_misc_test.cpp: ReduceDataBlock, ReducePairElem, ReduceRepeat,
Gatherb, the store-atomic config and the task / trace / debug calls; cube_config_test.cpp: the cube unit's registers
(HF32 mode, the 3D-load fmatrix / padding / repeat / boundary, the Fixpipe NZ->ND and quantisation registers) and the
LoadData3D / DataCopyCO12DstParams forms that read them."""
import pytest

from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "api_test.cpp"
CUBE_SRC = REPO / "tests" / "sim" / "cpp" / "cube_api_test.cpp"
HL_SHAPE_SRC = REPO / "tests" / "sim" / "cpp" / "hl_shape_api_test.cpp"
POOL_SYNC_DEBUG_SRC = REPO / "tests" / "sim" / "cpp" / "pool_sync_debug_test.cpp"
ROUNDING_MATH_SRC = REPO / "tests" / "sim" / "cpp" / "hl_rounding_math_test.cpp"
ACTIVATION_SRC = REPO / "tests" / "sim" / "cpp" / "hl_activation_test.cpp"
NORM_SRC = REPO / "tests" / "sim" / "cpp" / "hl_norm_test.cpp"
QUANT_PAD_SRC = REPO / "tests" / "sim" / "cpp" / "hl_quant_pad_test.cpp"
MORE_SRCS = [REPO / "tests" / "sim" / "cpp" / f"{n}.cpp" for n in ("hl_softmax_more_test", "hl_norm_grad_test", "hl_misc_more_test",
                                                                      "vec_transpose_test", "int4_test",
                                                                      "hl_fmod_trans_data_test", "vec_composite_test",
                                                                      "vec_reduce_misc_test", "cube_config_test")]


def test_kernel_api_semantics():
    r = run_cpp_driver(SRC)
    # the DataCopy truncation is reported as a warning, not silently swallowed
    assert "not a multiple of 32 B" in r.stderr


def test_cube_and_high_level_api_semantics():
    run_cpp_driver(CUBE_SRC)


def test_shape_driven_high_level_apis():
    run_cpp_driver(HL_SHAPE_SRC)


def test_pools_sync_printf_and_ctrl():
    r = run_cpp_driver(POOL_SYNC_DEBUG_SRC)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("[")]
    # the argument's type decides the conversion (an int8 for %d, an int64 for %ld, half for %f); a conversion with
    # no argument prints nothing; the prefix names the core; a record past the per-core budget is dropped
    assert lines == ["[AIV Block 0/1] ints -5 1099511627776 65535 ff|",
                     "[AIV Block 0/1] floats 1.500000 2.25   3.0|",
                     "[AIV Block 0/1] str ok pct % missing |",
                     "[AIV Block 3/8] unqualified 7|"], r.stdout
    assert "hands out 1056 B" in r.stderr            # the pool overrun warns
    assert "saturation mode (CTRL[48] = 0) is simulated for the reductions only" in r.stderr


def test_rounding_hyperbolic_clamp_xor_and_gamma_apis():
    run_cpp_driver(ROUNDING_MATH_SRC)


def test_activation_apis():
    run_cpp_driver(ACTIVATION_SRC)


def test_normalisation_apis():
    run_cpp_driver(NORM_SRC)


def test_quantisation_padding_and_dropout_apis():
    run_cpp_driver(QUANT_PAD_SRC)


@pytest.mark.parametrize("src", MORE_SRCS, ids=lambda p: p.stem)
def test_softmax_flash_family_norm_gradients_and_reduce_xor_sum(src):
    run_cpp_driver(src)

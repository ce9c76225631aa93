"""Seeded level-2/3 bugs: one-line patches applied at test time to reference kernels (the built-in suite's cube
matmul, and the NPUKernelBench sample answers under ../shared, which are never copied into this repository).
Each names the bug class it seeds and the verdicts a faithful simulator must give; none may pass."""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelgen.bench.model import CompileErrorClass as C
from kernelgen.bench.model import Verdict as V

WRONG = {V.VALUE_MISMATCH, V.NAN_MISMATCH}
ERR = {V.RUNTIME_ERROR}


@dataclass(frozen=True)
class Mutant:
    id: str
    suite: str                 # "fixture" (../shared sample), "builtin", or "data" (tests/sim_l23/data)
    task: str                  # levelN/Category/Op
    file: str                  # path under answer/0
    old: str                   # exact text to replace (must occur)
    new: str
    expect: frozenset          # acceptable verdicts for the first non-OK case
    cases: tuple = (0,)
    message: str = ""          # substring expected in the failing case's message (runtime errors)
    error_class: frozenset = field(default_factory=frozenset)


def M(id, suite, task, file, old, new, expect, **kw):
    if "error_class" in kw:
        kw["error_class"] = frozenset(kw["error_class"])
    return Mutant(id, suite, task, file, old, new, frozenset(expect), **kw)


MM = ("builtin", "level3/GMM/MatmulHalf", "op_kernel/matmul_half.cpp")
BM = ("fixture", "level3/GMM/BasicMatmul", "op_kernel/basic_matmul.cpp")
RMS = ("fixture", "level2/Norm/RmsNorm", "op_kernel/rms_norm_merge_n.h")
RMSC = ("fixture", "level2/Norm/RmsNorm", "op_kernel/reduce_common.h")
MIX = ("data", "level3/Mix/MatmulRelu", "op_kernel/matmul_relu.cpp")
MAPI = ("data", "level3/Mix/MatmulApi", "op_kernel/matmul_api.cpp")
MSM = ("fixture", "level2/Reduce/MulSigmoidMulAddCustom", "op_kernel/mul_sigmoid_mul_add_custom.cpp")

MUTANTS = [
    # --- cube path: fractal layouts -------------------------------------------------------------------------
    M("mm-l0b-not-transposed", *MM, "params.ifTranspose = true;", "params.ifTranspose = false;", WRONG),
    M("mm-l0a-wrong-fractal-order", *MM, "params.srcStride = static_cast<uint16_t>(mFrac);",
      "params.srcStride = static_cast<uint16_t>(1);", WRONG | ERR, cases=(0, 2)),
    M("mm-nd2nz-unaligned-c0-stride", *MM, "params.dstNzC0Stride = static_cast<uint16_t>(mAligned);",
      "params.dstNzC0Stride = static_cast<uint16_t>(mCur);", WRONG | ERR, cases=(1,)),
    M("mm-gemv-m1", *MM, "params.m = static_cast<uint16_t>(mCur == 1 ? FRACTAL : mCur);",
      "params.m = static_cast<uint16_t>(mCur);", WRONG, cases=(3,)),
    M("mm-no-k-accumulation", *MM, "params.cmatrixInitVal = (k0 == 0);", "params.cmatrixInitVal = true;", WRONG,
      cases=(2,)),
    # --- cube path: capacities, positions, core types ---------------------------------------------------------
    M("mm-l0c-overflow", *MM, "pipe_.InitBuffer(c1Que_, 1,", "pipe_.InitBuffer(c1Que_, 3,", ERR, message="L0C"),
    M("mm-l0a-overflow", *MM, "pipe_.InitBuffer(a2Que_, 1,", "pipe_.InitBuffer(a2Que_, 3,", ERR, message="L0A"),
    M("mm-a-in-l0b", *MM, "TQue<QuePosition::A2, 1> a2Que_;", "TQue<QuePosition::B2, 1> a2Que_;", ERR,
      message="must be in L0A"),
    M("mm-cube-on-aiv", *MM, "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);",
      "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", ERR, message="AIV"),
    M("mm-mmad-bad-dtype", *MM, "LocalTensor<float> c1 = c1Que_.AllocTensor<float>();",
      "LocalTensor<half> c1 = c1Que_.AllocTensor<half>();", {V.COMPILE_ERROR}),
    # --- cube path: Fixpipe ----------------------------------------------------------------------------------
    M("mm-fixpipe-quant-mismatch", *MM, "fix.quantPre = QuantMode_t::NoQuant;", "fix.quantPre = QuantMode_t::F322F16;",
      ERR, message="quantPre"),
    M("mm-fixpipe-src-stride", *MM, "fix.srcStride = static_cast<uint16_t>(mAligned);",
      "fix.srcStride = static_cast<uint16_t>(mCur);", WRONG | ERR, cases=(1,)),
    M("mm-fixpipe-dst-stride", *MM, "fix.dstStride = n_;", "fix.dstStride = nCur;", WRONG | ERR, cases=(2,)),
    M("bm-fixpipe-quant-mismatch", *BM, "intriParams.quantPre = quantPre;",
      "intriParams.quantPre = QuantMode_t::NoQuant;", ERR, message="quantPre"),
    M("bm-l0b-not-transposed", *BM, "loadDataParams.ifTranspose = true;", "loadDataParams.ifTranspose = false;", WRONG),
    # --- mixed kernels: cross-core flags (1 AIC + 2 AIV per AI core) -----------------------------------------------
    M("mix-missing-cross-core-wait", *MIX, "                CrossCoreWaitFlag(FLAG_READY);\n", "", WRONG, cases=(0,)),
    M("mix-missing-cross-core-set", *MIX, "                CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);\n", "", ERR,
      message="CrossCoreWaitFlag"),
    M("mix-wrong-flag-id", *MIX, "CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);", "CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY + 4);",
      ERR, message="CrossCoreWaitFlag"),
    M("mix-slot-reused-without-wait", *MIX, "                if (!first) {\n                    CrossCoreWaitFlag(FLAG_FREE);",
      "                if (false) {\n                    CrossCoreWaitFlag(FLAG_FREE);", WRONG | ERR, cases=(2,)),
    # Fewer rows per vector core also unbalances the cross-core handshake: wrong rows, or the device's deadlock timeout.
    M("mix-aiv-half-rows", *MIX, "uint32_t half = CeilDiv(mCur, 2);", "uint32_t half = mCur / 4;", WRONG | ERR),
    # --- high-level matmul API ----------------------------------------------------------------------------------
    M("mapi-missing-regist", *MAPI, "    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);\n", "", ERR, message="before Init"),
    M("mapi-b-as-transposed", *MAPI, "mm.SetTensorB(bGm[static_cast<uint64_t>(nIdx) * t.singleCoreN]);",
      "mm.SetTensorB(bGm[static_cast<uint64_t>(nIdx) * t.singleCoreN], true);", WRONG | ERR),
    # --- level 2: high-level APIs and raw intrinsics ------------------------------------------------------------
    M("rms-broadcast-wrong-axis", *RMS, "BroadCast<float, DIM_NUM, 1>(sqx", "BroadCast<float, DIM_NUM, 0>(sqx",
      ERR, message="BroadCast", cases=(0, 1, 2, 3)),
    M("rms-vcadd-wrong-mask", *RMSC, "AscendCUtils::SetMask<float>(ELEM_PER_REP_FP32);  // set mask = 64",
      "AscendCUtils::SetMask<float>(ELEM_PER_REP_FP32 / 2);", WRONG, cases=(0, 1, 2, 3)),
    M("msm-sigmoid-tmp-aliases-src", *MSM, "AscendC::Sigmoid(calBuffer2, calBuffer1, tileLen);",
      "AscendC::Sigmoid(calBuffer2, calBuffer1, calBuffer1.template ReinterpretCast<uint8_t>(), tileLen);",
      ERR, message="sharedTmpBuffer"),
    M("msm-sigmoid-tmp-too-small", *MSM, "AscendC::Sigmoid(calBuffer2, calBuffer1, tileLen);",
      "AscendC::Sigmoid(calBuffer2, calBuffer1, calBuffer2.template ReinterpretCast<uint8_t>()[tileLen * sizeof(T)]"
      ".template ReinterpretCast<T>().template ReinterpretCast<uint8_t>(), 0u + tileLen);", ERR,
      message="sharedTmpBuffer"),
]

"""Seeded-bug suite: one-line patches applied at test time to reference kernels (our built-in suite, the
simulator's own test tasks in tests/sim/data, and the NPUKernelBench sample answers under ../shared, which are never
copied into this repository). Each mutant names the bug class it seeds and the verdicts a faithful simulator must
give. None may pass. Level 1 first, then levels 2 and 3 (cube path, Fixpipe, mixed kernels, high-level APIs)."""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelgen.bench.model import CompileErrorClass as C
from kernelgen.bench.model import Verdict as V

WRONG = {V.VALUE_MISMATCH, V.NAN_MISMATCH}


@dataclass(frozen=True)
class Mutant:
    id: str
    suite: str                 # "fixture" (../shared sample), "dev" (../shared development split), "builtin" or
    #                            "data" (tests/sim/data)
    task: str                  # levelN/Category/Op
    file: str                  # path under answer/0
    old: str                   # exact text to replace (must occur)
    new: str
    expect: frozenset          # acceptable verdicts for the first non-OK case
    cases: tuple = (0,)
    error_class: frozenset = field(default_factory=frozenset)   # for compile errors
    message: str = ""          # substring expected in the failing case's message (runtime errors)
    count: int = 1             # occurrences to replace (0 = all)


def M(id, suite, task, file, old, new, expect, **kw):
    kw = dict(kw)
    if "error_class" in kw:
        kw["error_class"] = frozenset(kw["error_class"])
    return Mutant(id, suite, task, file, old, new, frozenset(expect), **kw)


ADD = ("fixture", "level1/Math/AddCustom", "op_kernel/add_custom.cpp")
ADD_HOST = ("fixture", "level1/Math/AddCustom", "op_host/add_custom.cpp")
SQRT = ("fixture", "level1/Math/Sqrt", "op_kernel/sqrt.cpp")
FIN = ("fixture", "level1/Condition/IsFinite", "op_kernel/is_finite.h")
FIN_CPP = ("fixture", "level1/Condition/IsFinite", "op_kernel/is_finite.cpp")
EQ = ("fixture", "level1/Comparison/Equal", "op_kernel/equal.cpp")
CLIP = ("fixture", "level1/Math/ClipByValue", "op_kernel/clip_by_value.cpp")
ARANGE = ("fixture", "level1/TensorCreation/Arange", "op_kernel/arange.cpp")
ABS = ("builtin", "level1/Math/Absolute", "op_kernel/absolute.cpp")
MUL = ("builtin", "level1/Math/Mul", "op_kernel/mul.cpp")
MUL_HOST = ("builtin", "level1/Math/Mul", "op_host/mul.cpp")
WHERE = ("builtin", "level1/Condition/Where", "op_kernel/where.cpp")
GREATER = ("builtin", "level1/Comparison/Greater", "op_kernel/greater.cpp")
L1LOSS = ("builtin", "level2/Loss/SmoothL1Loss", "op_kernel/smooth_l1_loss.cpp")
RSUM = ("builtin", "level2/Reduce/ReduceSumLastDim", "op_kernel/reduce_sum_last_dim.cpp")
TOPK = ("builtin", "level3/Sort/TopK", "op_kernel/top_k.cpp")
FABS = ("fixture", "level2/Foreach/ForeachAbs", "op_kernel/kernel_foreach_unary.h")
ICAMAX = ("dev", "level1/Math/Icamax", "op_kernel/icamax_aiv.h")
ISAMIN = ("dev", "level1/Math/Isamin", "op_kernel/isamin_aiv.h")
ERR = {V.RUNTIME_ERROR}

MUTANTS = [
    # tails, off-by-one, missing tail handling
    M("tail-off-by-one-loop", *ADD, "int32_t loopCount = this->tileNum * BUFFER_NUM;",
      "int32_t loopCount = this->tileNum * BUFFER_NUM - 1;", WRONG),
    M("missing-tail-datacopy-truncation", *ABS, "DataCopyPad(yGm_[start], y, copyParams);",
      "DataCopy(yGm_[start], y, count);", WRONG | {V.RUNTIME_ERROR}, cases=(0, 1, 2, 3)),
    M("tail-count-off-by-one", *ABS, "uint32_t count = (i + 1 == tiles) ? length_ - i * tileLength_ : tileLength_;",
      "uint32_t count = (i + 1 == tiles) ? length_ - i * tileLength_ - 1 : tileLength_;", WRONG, cases=(0, 1, 2, 3)),
    # data-movement units
    M("datacopypad-blocklen-elements-not-bytes", *FIN, "copyParams.blockLen = calCount * sizeof(uint16_t);",
      "copyParams.blockLen = calCount;", WRONG),
    M("datacopy-count-in-bytes", *ADD, "AscendC::DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);",
      "AscendC::DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength * sizeof(DTYPE_Z));",
      {V.RUNTIME_ERROR} | WRONG),
    # Inside the device segment a read past the tensor does not fault (torch_npu's allocator): the last tile reads
    # the next tensor, so the bug shows as wrong values, as on the device.
    M("gm-read-past-end", *ADD, "AscendC::DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);",
      "AscendC::DataCopy(xLocal, xGm[(progress + 1) * this->tileLength], this->tileLength);", WRONG),
    M("misaligned-gm-address", *ADD, "xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + ",
      "xGm.SetGlobalBuffer((__gm__ DTYPE_X *)(x + 1) + ", {V.RUNTIME_ERROR}, message="not aligned"),
    M("misaligned-ub-operand", *ARANGE, "AscendC::DataCopy(outGm[iter*this->unitNum], outLocal, copy_num);",
      "AscendC::DataCopy(outGm[iter*this->unitNum], outLocal[1], copy_num);", {V.RUNTIME_ERROR},
      cases=(1,), message="not aligned", count=0),
    # UB capacity and queue discipline
    M("ub-overflow", *ADD, "pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(DTYPE_X));",
      "pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(DTYPE_X) * 16);", {V.RUNTIME_ERROR},
      message="ub address out of bounds"),
    M("missing-freetensor", *ADD, "inQueueX.FreeTensor(xLocal);", "", {V.RUNTIME_ERROR}, message="in use"),
    M("missing-enque", *ADD, "inQueueY.EnQue(yLocal);", "", {V.RUNTIME_ERROR}, message="DeQue"),
    M("double-free", *CLIP, "Q_x.FreeTensor(x);", "Q_x.FreeTensor(x); Q_x.FreeTensor(x);", {V.RUNTIME_ERROR},
      message="double FreeTensor"),
    # Cast round modes and dtype support
    M("wrong-cast-mode-bf16", *SQRT, "AscendC::Cast(yLocal, p1, AscendC::RoundMode::CAST_RINT, this->processDataNum);",
      "AscendC::Cast(yLocal, p1, AscendC::RoundMode::CAST_NONE, this->processDataNum);", {V.RUNTIME_ERROR},
      cases=(3,), message="CAST_NONE"),
    M("wrong-cast-mode-odd", *EQ, "Cast(y_local, y_compute, RoundMode::CAST_NONE, this->tile_cache);",
      "Cast(y_local, y_compute, RoundMode::CAST_ODD, this->tile_cache);", {V.RUNTIME_ERROR}, message="CAST_ODD"),
    M("cast-unsupported-pair", *SQRT, "AscendC::LocalTensor<float> p1 = tmp1.Get<float>();",
      "AscendC::LocalTensor<int8_t> p1 = tmp1.Get<int8_t>();", {V.COMPILE_ERROR}, error_class={C.DATA_TYPE}),
    M("unsupported-dtype-bf16-add", *ADD, "AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);",
      "AscendC::Add(zLocal.ReinterpretCast<bfloat16_t>(), xLocal.ReinterpretCast<bfloat16_t>(), "
      "yLocal.ReinterpretCast<bfloat16_t>(), this->tileLength);", {V.COMPILE_ERROR}, error_class={C.DATA_TYPE}),
    M("scalar-type-mismatch", *CLIP, "Mins(x, x, this->clip_value_max, length);", "Mins(x, x, 1.0, length);",
      {V.COMPILE_ERROR}, error_class={C.API_SIGNATURE, C.DATA_TYPE}),
    # wrong API use / arguments
    M("wrong-argument-count", *ADD, "AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);",
      "AscendC::Add(zLocal, xLocal, this->tileLength);", {V.COMPILE_ERROR}, error_class={C.API_SIGNATURE}),
    M("undeclared-identifier", *ADD, "GET_TILING_DATA(tiling_data, tiling);", "GET_TILING_DATA(tiling_data, tilingGm);",
      {V.COMPILE_ERROR}, error_class={C.SCOPE, C.MACRO}),
    M("swapped-min-max", *CLIP, "Mins(x, x, this->clip_value_max, length);", "Mins(x, x, this->clip_value_min, length);",
      WRONG),
    M("wrong-op", *ADD, "AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);",
      "AscendC::Sub(zLocal, xLocal, yLocal, this->tileLength);", WRONG),
    M("maxs-instead-of-mins", *FIN, "Maxs(srcTensor, srcTensor, (int16_t)-1, calCount);",
      "Mins(srcTensor, srcTensor, (int16_t)-1, calCount);", WRONG),
    M("compare-mode-flipped", *GREATER, "CMPMODE::GT", "CMPMODE::GE", WRONG, cases=(0, 1, 2)),
    M("select-operands-swapped", *WHERE, "Select(out, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, lanes);",
      "Select(out, mask, y, x, SELMODE::VSEL_TENSOR_TENSOR_MODE, lanes);", WRONG),
    # tiling / launch contract
    M("tiling-key-without-branch", *FIN_CPP, "if (TILING_KEY_IS(1)) {", "if (TILING_KEY_IS(4)) {", {V.RUNTIME_ERROR},
      message="tiling key"),
    M("block-dim-zero", *ADD_HOST, "context->SetBlockDim(BLOCK_DIM);", "context->SetBlockDim(0);", {V.RUNTIME_ERROR},
      message="blockDim"),
    M("block-dim-too-small", *MUL_HOST, "context->SetBlockDim(usedCores);", "context->SetBlockDim(1);", WRONG,
      cases=(0, 1, 2)),
    M("missing-syncall", *L1LOSS, "        SyncAll();\n", "", WRONG, cases=(0, 1, 2)),
    M("uninitialised-ub-read", *MUL, "Mul(y, x1, x2, count);", "Mul(y, x1, y, count);", WRONG, cases=(0, 1, 2)),
    # --- issue 14: device fidelity classes. GM follows torch_npu's allocator: a write that reaches another
    # allocation is an error naming both; a read far outside the segment faults; writing a result into an input
    # the reference leaves alone is input_mutation.
    # the values row copied out with the input row's length: it runs over into the indices output (a write past
    # the last output only into free memory or the workspace is harmless on the device and only warns)
    M("gm-write-into-next-allocation", *TOPK,
      "DataCopyPad(valuesGm_[offset], values, DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(T)), 0, 0, 0});",
      "DataCopyPad(valuesGm_[offset], values, DataCopyExtParams{1, static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0});",
      ERR, cases=(0, 1, 2, 3), message="corrupts another allocation"),
    M("gm-tensor-list-write-into-next-element", *FABS,
      "DataCopyPad(outTensorsGM[index * Base::maxDataCount], outLocal, copyParams);",
      "copyParams.blockLen += 2048; DataCopyPad(outTensorsGM[index * Base::maxDataCount], outLocal, copyParams);", ERR,
      message="corrupts another allocation"),
    M("gm-read-beyond-segment", *ADD, "AscendC::DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);",
      "AscendC::DataCopy(xLocal, xGm[progress * this->tileLength + (1u << 26)], this->tileLength);", ERR,
      message="out of range"),
    M("result-written-into-input", *ADD, "AscendC::DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);",
      "AscendC::DataCopy(xGm[progress * this->tileLength], zLocal, this->tileLength);", {V.INPUT_MUTATION}),
    M("raw-pointer-write-into-input", *ADD, "    op.Process();\n}",
      "    op.Process();\n    *((__gm__ DTYPE_Y *)y + 7) = (DTYPE_Y)(1000.0f);\n}", {V.INPUT_MUTATION}),
    # cross-core exchange through GM: overlapping per-core slots, a missing barrier, an idle core skipping SyncAll
    M("per-core-slot-overlap", *L1LOSS, "DataCopyPad(partialGm_[GetBlockIdx()], buf, DataCopyExtParams{1, sizeof(float), 0, 0, 0});",
      "DataCopyPad(partialGm_[GetBlockIdx()], buf, DataCopyExtParams{1, 8 * sizeof(float), 0, 0, 0});", WRONG | ERR,
      cases=(0, 1, 2)),
    M("missing-syncall-before-core0-merge", *ICAMAX, "        CopyTmpRstToWkGM();\n        SyncAll();\n",
      "        CopyTmpRstToWkGM();\n", WRONG | ERR, cases=(0, 1)),
    M("idle-core-skips-syncall", *ICAMAX, "    if (this->blockIdx + 1 > this->needVecCoreNum) {\n        SyncAll();\n        return;",
      "    if (this->blockIdx + 1 > this->needVecCoreNum) {\n        return;", ERR, cases=(1,), message="SyncAll"),
    # reductions: the value/index register, calIndex, counter-mode masks, pair sums, the count
    M("reduce-index-not-read", *ICAMAX, "GetReduceMaxMinCount<T>(val, idx);", "GetReduceMaxMinCount<T>(val);", WRONG,
      cases=(0, 1, 4)),
    M("reducemax-without-calindex", *ICAMAX, "mask, 2, 8, true);", "mask, 2, 8, false);", WRONG, cases=(0,)),
    M("counter-mask-one-element", *ICAMAX, "AscendC::SetVectorMask<T, MaskMode::COUNTER>(0, ReduceMaxCount);",
      "AscendC::SetVectorMask<T, MaskMode::COUNTER>(0, 1);", WRONG, cases=(0, 1, 4)),
    M("pair-reduce-tail-skipped", *ICAMAX,
      "            PairReduceSum(srcLocal[offset / 2], srcLocal[offset], 1, totalRepeatCntRemainder, 1, 1, 8);\n", "",
      WRONG, cases=(0, 1, 2, 3, 4, 5)),
    M("reducemin-as-reducemax", *ISAMIN, "ReduceMin(this->coresRstReduceTmp, srcLocal, this->coresRstReduceTmp, mask, 2, 8, true);",
      "ReduceMax(this->coresRstReduceTmp, srcLocal, this->coresRstReduceTmp, mask, 2, 8, true);", WRONG, cases=(0, 2)),
    M("reducesum-count-short", *RSUM, "ReduceSum(result, src, tmp, static_cast<int32_t>(count));",
      "ReduceSum(result, src, tmp, static_cast<int32_t>(count) - 1);", WRONG, cases=(0, 2)),
]

# ---------------------------------------------------------------------------------------------- levels 2 and 3 --
MM = ("builtin", "level3/GMM/MatmulHalf", "op_kernel/matmul_half.cpp")
BM = ("fixture", "level3/GMM/BasicMatmul", "op_kernel/basic_matmul.cpp")
RMS = ("fixture", "level2/Norm/RmsNorm", "op_kernel/rms_norm_merge_n.h")
RMSC = ("fixture", "level2/Norm/RmsNorm", "op_kernel/reduce_common.h")
MIX = ("data", "level3/Mix/MatmulRelu", "op_kernel/matmul_relu.cpp")
MAPI = ("data", "level3/Mix/MatmulApi", "op_kernel/matmul_api.cpp")
INT4 = ("data", "level1/Quant/Int4Quant", "op_kernel/int4_quant.cpp")
MSM = ("fixture", "level2/Reduce/MulSigmoidMulAddCustom", "op_kernel/mul_sigmoid_mul_add_custom.cpp")

MUTANTS += [
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
    # the cube reads its A tile from far past the device segment: the row-wise bounds check must still catch it
    M("mapi-a-beyond-segment", *MAPI, "mm.SetTensorA(aGm[static_cast<uint64_t>(mIdx) * t.singleCoreM * t.Ka]);",
      "mm.SetTensorA(aGm[static_cast<uint64_t>(mIdx) * t.singleCoreM * t.Ka + (1u << 26)]);", ERR,
      message="out of range"),
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
    # --- int4b_t: sizes in nibbles, offsets in elements, whole bytes ---------------------------------------------
    M("int4-copy-counts-bytes", *INT4, "DataCopy(yGm, qL, n);", "DataCopy(yGm, qL, n / 2);", WRONG),
    M("int4-gm-offset-in-bytes", *INT4, "GlobalTensor<int4b_t> yGm = yAll[first];",
      "GlobalTensor<int4b_t> yGm = yAll[first / 2];", WRONG, cases=(1,)),
    M("int4-cast-splits-a-byte", *INT4, "Cast(qL, xL, RoundMode::CAST_RINT, n);", "Cast(qL, xL, RoundMode::CAST_RINT, n - 1);",
      ERR, message="even count"),
]

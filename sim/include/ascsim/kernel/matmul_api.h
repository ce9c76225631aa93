// ascsim: the high-level matmul API (matmul::Matmul, MatmulType, REGIST_MATMUL_OBJ), modelled functionally.
// On the device the AIV-side object messages a matmul server on the AIC (through the system workspace); here the
// AIV computes the product itself (float accumulation, int32 for int8 inputs, one conversion to the C type) and the
// AIC of such a kernel idles (the build registers an idle AIC, see jobs/kernelgen/bench/backends/sim_cube.py).
// Layouts: A is row-major [M, Ka] (transposed: [Ka, M]), B is [Kb, N] (transposed: [N, Kb]), C and bias row-major
// with row stride N (org shapes from the tiling or SetOrgShape). The tiling argument is the kernel-side struct the
// build generates from optiling::TCubeTiling (ascsim/host/matmul_tiling.h).
// Variants: IterateBatch (LayoutMode::NORMAL; the other layouts and IterateNBatch/GetBatchTensorC are refused),
// SetQuantScalar/SetQuantVector (the Fixpipe quant conversion of cube_api.h), SetHF32 (float A / B rounded to HF32 as
// Mmad does with SetHF32Mode). Also reachable as
// AscendC::Matmul / AscendC::MatmulType.
#ifndef ASCSIM_KERNEL_MATMUL_API_H_
#define ASCSIM_KERNEL_MATMUL_API_H_
#include <string>
#include <vector>
#include <type_traits>
#include "cube_api.h"
#include "datacopy.h"

namespace matmul {
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode : int32_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchOutMode : int32_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
template <AscendC::TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static AscendC::TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
    bool isMsgReuse = true;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enUnitFlag = true;
    bool enableMixDualMaster = false;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool isBiasBatch = true;   // IterateBatch: one bias row per batch (false: all batches share one)
};
constexpr MatmulConfig CFG_NORM = {};
constexpr MatmulConfig CFG_MDL = {false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM = {};
constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false, const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true, const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, const bool enUnitFlag = true,
                                       const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c{};
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.isMsgReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}
// The documented MDL-template parameters; the simulated Matmul keeps the ones its model reads (the rest are load and
// buffer-reuse knobs of the device's pipeline with no effect on results).
constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false, bool isPerTensor = false,
                                    bool hasAntiQuantOffset = false, const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false, const bool enableKdimReorderLoad = false) {
    (void)isPerTensor; (void)hasAntiQuantOffset; (void)enableUBReuse; (void)enableL1CacheUB; (void)enableKdimReorderLoad;
    MatmulConfig c = CFG_MDL;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.enUnitFlag = enUnitFlag;
    c.isMsgReuse = isMsgReuse;
    c.enableMixDualMaster = enableMixDualMaster;
    return c;
}

namespace ascsim_mm {
template <class A, class C> constexpr bool types_ok() {
    if constexpr (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>)
        return std::is_same_v<C, float> || std::is_same_v<C, half> || std::is_same_v<C, bfloat16_t> || std::is_same_v<C, int8_t>;
    else if constexpr (std::is_same_v<A, float>)
        return std::is_same_v<C, float>;
    else if constexpr (std::is_same_v<A, int8_t>)
        return std::is_same_v<C, int32_t> || std::is_same_v<C, half> || std::is_same_v<C, int8_t> || std::is_same_v<C, uint8_t>;
    else
        return false;
}
// Optional tiling fields (the build's kernel struct has them; hand-written tiling structs may not).
#define ASCSIM_MM_FIELD(name)                                                                              \
    template <class T> auto field_##name(const T* t, int) -> decltype(int32_t(t->name)) { return int32_t(t->name); } \
    template <class T> int32_t field_##name(const T*, long) { return 0; }
ASCSIM_MM_FIELD(BatchNum)
ASCSIM_MM_FIELD(ALayoutInfoB)
ASCSIM_MM_FIELD(BLayoutInfoB)
#undef ASCSIM_MM_FIELD
inline const char* layout_name(LayoutMode l) {
    switch (l) {
        case LayoutMode::NONE: return "NONE";
        case LayoutMode::BSNGD: return "BSNGD";
        case LayoutMode::SBNGD: return "SBNGD";
        case LayoutMode::BNGS1S2: return "BNGS1S2";
        default: return "NORMAL";
    }
}
}  // namespace ascsim_mm

// A: row-major [M, Ka] (transposed [Ka, M]); B: [Kb, N] (transposed [N, Kb]); C/bias row stride N (GM) or the block
// width (UB). Accumulation: float for half/bf16/float inputs, int32 (exact) for int8; one conversion to C at the end:
// a plain cast, or the Fixpipe quant conversion (scale_of / saturate_to of cube_api.h) after SetQuantScalar /
// SetQuantVector (DEQF16 / VDEQF16 / REQ8 / VREQ8 for int8 inputs, QF322B8_PRE / VQF322B8_PRE for half/bf16 -> int8).
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig& MM_CFG = CFG_NORM,
          class MM_CB = void, class MM_POLICY = void>
class Matmul {
    using AT = typename A_TYPE::T;
    using BT = typename B_TYPE::T;
    using CT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    static constexpr bool kInt = std::is_same_v<AT, int8_t>;
    using Acc = std::conditional_t<kInt, int32_t, float>;
    static_assert(!::ascsim::is_int4_v<AT> && !::ascsim::is_int4_v<BT>,
                  "ascsim: Matmul on int4b_t inputs (documented for Atlas A2) is not simulated");
    static_assert(std::is_same_v<AT, BT>, "Matmul: A and B must have the same data type (half/bfloat16_t/float/int8_t)");
    static_assert(ascsim_mm::types_ok<AT, CT>(),
                  "Failed to check dtype in Matmul, current api support dtype combination is A/B -> C: half|bfloat16_t -> "
                  "float|half|bfloat16_t|int8_t(quant), float -> float, int8_t -> int32_t|half(dequant)|int8_t|uint8_t(requant)");

public:
    using DstT = CT;
    template <class Tiling> void Init(const Tiling* tiling, AscendC::TPipe* tpipe = nullptr) {
        (void)tpipe;
        if (!tiling) return;
        M_ = tiling->M; N_ = tiling->N; Ka_ = tiling->Ka; Kb_ = tiling->Kb; Kc_ = 0;
        sm_ = tiling->singleCoreM; sn_ = tiling->singleCoreN; sk_ = tiling->singleCoreK;
        bm_ = tiling->baseM; bn_ = tiling->baseN;
        bias_ = tiling->isBias != 0;
        batchNum_ = ascsim_mm::field_BatchNum(tiling, 0);
        batchA_ = ascsim_mm::field_ALayoutInfoB(tiling, 0);
        batchB_ = ascsim_mm::field_BLayoutInfoB(tiling, 0);
        inited_ = true;
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    // orgKc: the row stride of C in GM (0: orgN)
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) { M_ = orgM; N_ = orgN; Ka_ = orgKa; Kb_ = orgKb; Kc_ = orgKc; }
    void SetSingleShape(int m, int n, int k) { sm_ = m; sn_ = n; sk_ = k; }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) sm_ = tailM;
        if (tailN > 0) sn_ = tailN;
        if (tailK > 0) sk_ = tailK;
    }
    void SetTensorA(const AscendC::GlobalTensor<AT>& gm, bool isTransposeA = false) { a_ = gm.addr_; aUb_ = false; transA_ = isTransposeA || A_TYPE::isTrans; }
    void SetTensorA(const AscendC::LocalTensor<AT>& t, bool isTransposeA = false) { a_ = t.addr_; aUb_ = true; transA_ = isTransposeA || A_TYPE::isTrans; }
    void SetTensorB(const AscendC::GlobalTensor<BT>& gm, bool isTransposeB = false) { b_ = gm.addr_; bUb_ = false; transB_ = isTransposeB || B_TYPE::isTrans; }
    void SetTensorB(const AscendC::LocalTensor<BT>& t, bool isTransposeB = false) { b_ = t.addr_; bUb_ = true; transB_ = isTransposeB || B_TYPE::isTrans; }
    void SetBias(const AscendC::GlobalTensor<BiasT>& gm) { biasPtr_ = gm.addr_; bias_ = true; bUbBias_ = false; }
    void SetBias(const AscendC::LocalTensor<BiasT>& t) { biasPtr_ = t.addr_; bias_ = true; bUbBias_ = true; }
    void DisableBias() { bias_ = false; }
    void ClearBias() { bias_ = false; }
    void SetWorkspace(GM_ADDR, int = 0) {}
    template <class T> void SetWorkspace(const AscendC::GlobalTensor<T>&) {}
    void SetLocalWorkspace(const AscendC::LocalTensor<uint8_t>&) {}
    // float A / B rounded to HF32 before the product, as Mmad does with SetHF32Mode (cube_api.h's hf32_round)
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
        if (transMode != 0 && transMode != 1)
            ::ascsim::fail("Matmul::SetHF32", "Failed to check transMode",
                           "transMode " + std::to_string(transMode) + " (0: ties to even, 1: ties away from zero)");
        hf32_ = enableHF32;
        hf32Trans_ = uint8_t(transMode);
    }
    // Quantisation of the output (the conversion Fixpipe applies on the way out of L0C).
    void SetQuantScalar(const uint64_t quantScalar) {
        quant_ = QuantFor("Matmul::SetQuantScalar", false);
        quantScalar_ = quantScalar;
        quantVec_ = nullptr;
    }
    void SetQuantVector(const AscendC::GlobalTensor<uint64_t>& quantTensor) {
        quant_ = QuantFor("Matmul::SetQuantVector", true);
        quantVec_ = quantTensor.addr_;
    }
    void SetQuantVector(const AscendC::LocalTensor<uint64_t>&) {
        ::ascsim::fail("Matmul::SetQuantVector", "quant vector in L1 is not simulated",
                       "ascsim runs the matmul object on the AIV, which has no L1; pass the vector as a GlobalTensor");
    }
    // Kernel-side batch counts for the pure-cube IterateBatch form.
    void SetBatchNum(int32_t batchA, int32_t batchB) { batchA_ = batchA; batchB_ = batchB; }

    template <bool sync = true>
    void IterateAll(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false) {
        (void)enSequentialWrite; (void)waitIterateAll; (void)fakeMsg;
        Compute("Matmul::IterateAll", gm.addr_, false, 0, 0, sm_, sn_, ldc_gm(), enAtomic);
    }
    template <bool sync = true> void IterateAll(const AscendC::LocalTensor<CT>& ub, uint8_t enAtomic = 0) {
        Compute("Matmul::IterateAll", ub.addr_, true, 0, 0, sm_, sn_, sn_, enAtomic);
    }
    // Iterate walks baseM x baseN blocks of the single-core block, M first; GetTensorC writes the current one.
    template <bool sync = true> bool Iterate(bool enPartialSum = false) {
        (void)enPartialSum;
        int mb = (sm_ + bm_ - 1) / bm_, nb = (sn_ + bn_ - 1) / bn_;
        if (++iter_ >= mb * nb) { iter_ = -1; return false; }
        return true;
    }
    template <bool sync = true> void GetTensorC(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        int i0, j0, m, n;
        Block(i0, j0, m, n);
        if (enSequentialWrite) Compute("Matmul::GetTensorC", gm.addr_, false, i0, j0, m, n, n, enAtomic);
        else Compute("Matmul::GetTensorC", gm.addr_ + int64_t(i0) * ldc_gm() + j0, false, i0, j0, m, n, ldc_gm(), enAtomic);
    }
    template <bool sync = true> void GetTensorC(const AscendC::LocalTensor<CT>& ub, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        (void)enSequentialWrite;
        int i0, j0, m, n;
        Block(i0, j0, m, n);
        Compute("Matmul::GetTensorC", ub.addr_, true, i0, j0, m, n, bn_, enAtomic);
    }

    // Batch matmul (LayoutMode::NORMAL, i.e. [batch, M, K] x [batch, K, N] -> [batch, M, N]). C batch c uses A batch
    // c / (batchC / batchA) and B batch c / (batchC / batchB), batchC = max(batchA, batchB) (broadcast of the smaller).
    // Per batch: the single-core block [singleCoreM, singleCoreN] with K = singleCoreK; A/B batches start
    // matrixStrideA/B elements apart (0: the org matrix size M*Ka / Kb*N). C: GM non-sequential batch c at c*M*N
    // (row stride N); GM sequential at c*sm*sn (row stride sn); UB at c*sm*ldc, ldc = sn (ND) or sn rounded up to 32 B
    // (ND_ALIGN). Bias: row c*N when MatmulConfig::isBiasBatch (default), else one shared row.
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const AscendC::GlobalTensor<CT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        (void)matrixStrideC;
        Batch("Matmul::IterateBatch", gm.addr_, false, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
              enPartialSum, enAtomic);
    }
    template <bool sync = true>
    void IterateBatch(const AscendC::LocalTensor<CT>& ubCmatrix, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        (void)matrixStrideC;
        if (!sync)
            ::ascsim::fail("Matmul::IterateBatch", "asynchronous IterateBatch into the Unified Buffer is not supported",
                           "the API documents async mode for GM output only");
        Batch("Matmul::IterateBatch", ubCmatrix.addr_, true, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
              enPartialSum, enAtomic);
    }
#ifdef ASCENDC_CUBE_ONLY
    // pure-cube form: batch counts from SetBatchNum (or the tiling's layout info). Chosen only for a bool second
    // argument, so IterateBatch(gm, 2, 2, false) keeps meaning batchA/batchB.
    template <class P, std::enable_if_t<std::is_same_v<P, bool>, int> = 0>
    void IterateBatch(const AscendC::GlobalTensor<CT>& gm, P enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        (void)matrixStrideC;
        Batch("Matmul::IterateBatch", gm.addr_, false, uint32_t(batchA_), uint32_t(batchB_), enSequentialWrite,
              matrixStrideA, matrixStrideB, enPartialSum, enAtomic);
    }
#endif
    template <bool sync = true, bool waitIterateBatch = false, class... Args> void IterateNBatch(Args&&...) {
        static_assert(sync && !sync, "ascsim: Matmul::IterateNBatch / GetBatchTensorC (multi-batch loops with cached C "
                                     "slices) are not simulated; use IterateBatch per batch group");
    }
    template <bool sync = true, class... Args> void GetBatchTensorC(Args&&...) {
        static_assert(sync && !sync, "ascsim: Matmul::GetBatchTensorC (used with IterateNBatch) is not simulated; use IterateBatch");
    }
    void WaitIterateAll() {}
    void WaitIterateBatch() {}
    void WaitGetTensorC() {}
    void End() {}

private:
    QuantMode_t QuantFor(const char* api, bool vec) const {
        using Dst = CT;
        QuantMode_t q = AscendC::ascsim_cube_detail::expected_quant<Dst, Acc>(vec);
        if (q == QuantMode_t::NoQuant || int(q) == 255)
            ::ascsim::fail(api, "Matmul quantisation does not apply to these data types",
                           "no (de)quantisation converts the accumulator of these A/B inputs into this C type (supported: "
                           "int8_t -> half / int8_t / uint8_t, half|bfloat16_t -> int8_t)");
        return q;
    }
    void Block(int& i0, int& j0, int& m, int& n) const {
        int mb = (sm_ + bm_ - 1) / bm_;
        int it = iter_ < 0 ? 0 : iter_;
        i0 = (it % mb) * bm_;
        j0 = (it / mb) * bn_;
        m = std::min(bm_, sm_ - i0);
        n = std::min(bn_, sn_ - j0);
    }
    void Batch(const char* api, CT* c, bool cUb, uint32_t batchA, uint32_t batchB, bool seq, uint32_t strideA,
               uint32_t strideB, bool partialSum, uint8_t atomic) {
        constexpr auto la = A_TYPE::layout, lb = B_TYPE::layout, lc = C_TYPE::layout;
        if (la != LayoutMode::NORMAL || lb != LayoutMode::NORMAL || lc != LayoutMode::NORMAL) {
            bool other = la != LayoutMode::NONE && la != LayoutMode::NORMAL;
            ::ascsim::fail(api, other ? "batch layout not simulated" : "IterateBatch needs a batch layout",
                           std::string("MatmulType layouts A/B/C are ") + ascsim_mm::layout_name(la) + "/" + ascsim_mm::layout_name(lb) +
                               "/" + ascsim_mm::layout_name(lc) +
                               (other ? "; ascsim models LayoutMode::NORMAL only (BSNGD/SBNGD/BNGS1S2 are not simulated)"
                                      : "; declare LayoutMode::NORMAL in all three MatmulTypes"));
        }
        if (quant_ != QuantMode_t::NoQuant)
            ::ascsim::fail(api, "IterateBatch does not support quantisation", "SetQuantScalar / SetQuantVector cannot be combined with IterateBatch");
        if (partialSum) ::ascsim::fail(api, "enPartialSum is not simulated", "accumulating into the previous L0C result is not modelled");
        if (batchA == 0 || batchB == 0 || std::max(batchA, batchB) % std::min(batchA, batchB))
            ::ascsim::fail(api, "Failed to check batch numbers",
                           "batchA " + std::to_string(batchA) + " and batchB " + std::to_string(batchB) + " must be positive and one a multiple of the other");
        if (batchNum_ > 0 && int32_t(std::max(batchA, batchB)) > batchNum_)
            ::ascsim::fail(api, "Failed to check batch numbers",
                           "max(batchA, batchB) = " + std::to_string(std::max(batchA, batchB)) + " exceeds the tiling's BatchNum " + std::to_string(batchNum_));
        uint32_t batchC = std::max(batchA, batchB);
        int ldc = N_;
        int64_t cStride = int64_t(M_) * N_;
        if (cUb) {
            constexpr int c0 = int(32 / sizeof(CT));
            ldc = sn_;
            if (sn_ % c0) {
                if (C_TYPE::format != CubeFormat::ND_ALIGN)
                    ::ascsim::fail(api, "C matrix in the Unified Buffer needs ND_ALIGN",
                                   "singleCoreN " + std::to_string(sn_) + " is not 32-byte aligned; declare C with CubeFormat::ND_ALIGN");
                ldc = (sn_ + c0 - 1) / c0 * c0;
            }
            cStride = int64_t(sm_) * ldc;
        } else if (seq) {
            ldc = sn_;
            cStride = int64_t(sm_) * sn_;
        }
        int64_t aStride = strideA ? int64_t(strideA) : int64_t(M_) * Ka_;
        int64_t bStride = strideB ? int64_t(strideB) : int64_t(Kb_) * N_;
        const AT* a0 = a_;
        const BT* b0 = b_;
        const BiasT* bias0 = biasPtr_;
        for (uint32_t bc = 0; bc < batchC; ++bc) {
            a_ = a0 ? a0 + int64_t(bc / (batchC / batchA)) * aStride : nullptr;
            b_ = b0 ? b0 + int64_t(bc / (batchC / batchB)) * bStride : nullptr;
            if (bias0 && MM_CFG.isBiasBatch) biasPtr_ = bias0 + int64_t(bc) * N_;
            try {
                Compute(api, c + int64_t(bc) * cStride, cUb, 0, 0, sm_, sn_, ldc, atomic);
            } catch (...) {
                a_ = a0; b_ = b0; biasPtr_ = bias0;
                throw;
            }
        }
        a_ = a0; b_ = b0; biasPtr_ = bias0;
    }
    void Compute(const char* api, CT* c, bool cUb, int i0, int j0, int m, int n, int ldc, uint8_t atomic) {
        if (!inited_) ::ascsim::fail(api, "matmul object used before Init", "REGIST_MATMUL_OBJ / Init with a TCubeTiling is missing");
        if (!a_ || !b_) ::ascsim::fail(api, "matmul input not set", "SetTensorA and SetTensorB must come before IterateAll");
        if (bias_ && !biasPtr_) ::ascsim::fail(api, "matmul bias not set", "the tiling has isBias but SetBias was not called");
        constexpr bool needQuant = (kInt && !std::is_same_v<CT, int32_t>) || (!kInt && (std::is_same_v<CT, int8_t> || std::is_same_v<CT, uint8_t>));
        if (needQuant && quant_ == QuantMode_t::NoQuant)
            ::ascsim::fail(api, "Matmul quant parameters not set",
                           "this A/B -> C type pair is a (de)quantising matmul: call SetQuantScalar or SetQuantVector before computing");
        if (atomic > 3) ::ascsim::fail(api, "Failed to check enAtomic", "enAtomic " + std::to_string(atomic) + " (0 none, 1 add, 2 max, 3 min)");
        int K = sk_;
        const bool vq = quant_ == QuantMode_t::VDEQF16 || quant_ == QuantMode_t::VQF322B8_PRE || quant_ == QuantMode_t::VREQ8;
        const float scalar = AscendC::ascsim_cube_detail::scale_of(quantScalar_);
        // the cube reads its whole A, B (and bias, quant) tiles: their bounds are checked once, row by row, so the
        // multiply-accumulate below reads plain memory (an element-wise check cost ~80 % of a matmul-heavy kernel)
        if (m > 0 && n > 0 && K > 0) {
            if (transA_) for (int k = 0; k < K; ++k) CheckRun(a_, int64_t(k) * M_ + i0, m, aUb_);
            else for (int i = 0; i < m; ++i) CheckRun(a_, int64_t(i0 + i) * Ka_, K, aUb_);
            if (transB_) for (int j = 0; j < n; ++j) CheckRun(b_, int64_t(j0 + j) * Kb_, K, bUb_);
            else for (int k = 0; k < K; ++k) CheckRun(b_, int64_t(k) * N_ + j0, n, bUb_);
        }
        if (bias_ && m > 0) CheckRun(biasPtr_, j0, n, bUbBias_);
        if (needQuant && vq && m > 0) CheckRun(quantVec_, j0, n, false);
        std::vector<Acc> row(size_t(std::max(n, 0)));
        std::vector<CT> out(size_t(std::max(n, 0)));
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) row[j] = bias_ ? Acc(biasPtr_[j0 + j]) : Acc(0);
            for (int k = 0; k < K; ++k) {
                int64_t ai = transA_ ? int64_t(k) * M_ + (i0 + i) : int64_t(i0 + i) * Ka_ + k;
                Acc av = Acc(a_[ai]);
                if constexpr (std::is_same_v<AT, float>) if (hf32_) av = AscendC::ascsim_cube_detail::hf32_round(av, hf32Trans_);
                if (av == Acc(0)) continue;
                for (int j = 0; j < n; ++j) {
                    int64_t bi = transB_ ? int64_t(j0 + j) * Kb_ + k : int64_t(k) * N_ + (j0 + j);
                    if constexpr (kInt) row[j] = int32_t(uint32_t(row[j]) + uint32_t(av * int32_t(b_[bi])));
                    else if constexpr (std::is_same_v<AT, float>)
                        row[j] += av * (hf32_ ? AscendC::ascsim_cube_detail::hf32_round(float(b_[bi]), hf32Trans_) : float(b_[bi]));
                    else row[j] += av * float(b_[bi]);
                }
            }
            for (int j = 0; j < n; ++j) {
                if constexpr (needQuant) {
                    float sc = vq ? AscendC::ascsim_cube_detail::scale_of(quantVec_[j0 + j]) : scalar;
                    out[j] = AscendC::ascsim_cube_detail::saturate_to<CT>(float(row[j]) * sc);
                } else {
                    out[j] = CT(row[j]);
                }
            }
            CT* dst = c + int64_t(i) * ldc;
            if (cUb) ::ascsim::check_ub(api, dst, size_t(n) * sizeof(CT));
            else ::ascsim::check_gm(dst, size_t(n) * sizeof(CT), true, api);
            for (int j = 0; j < n; ++j) {
                if (atomic == 0) { dst[j] = out[j]; continue; }
                double x = double(::ascsim::up(dst[j])), y = double(::ascsim::up(out[j]));
                if (atomic == 1) dst[j] = CT(std::is_integral_v<CT> ? x + y : float(x + y));
                else if (atomic == 2) dst[j] = x > y ? dst[j] : out[j];
                else dst[j] = x < y ? dst[j] : out[j];
            }
        }
    }
    template <class T> void CheckRun(const T* p, int64_t first, int count, bool ub) const {
        if (count <= 0) return;
        if (ub) ::ascsim::check_ub("Matmul", p + first, size_t(count) * sizeof(T));
        else ::ascsim::check_gm(p + first, size_t(count) * sizeof(T), false, "Matmul");
    }
    int ldc_gm() const { return Kc_ > 0 ? Kc_ : N_; }
    int M_ = 0, N_ = 0, Ka_ = 0, Kb_ = 0, Kc_ = 0, sm_ = 0, sn_ = 0, sk_ = 0, bm_ = 128, bn_ = 128, iter_ = -1;
    int32_t batchNum_ = 0, batchA_ = 0, batchB_ = 0;
    bool bias_ = false, transA_ = false, transB_ = false, aUb_ = false, bUb_ = false, bUbBias_ = false, inited_ = false;
    bool hf32_ = false;          // SetHF32
    uint8_t hf32Trans_ = 0;
    QuantMode_t quant_ = QuantMode_t::NoQuant;
    uint64_t quantScalar_ = 0;
    const uint64_t* quantVec_ = nullptr;
    const AT* a_ = nullptr;
    const BT* b_ = nullptr;
    const BiasT* biasPtr_ = nullptr;
};
}  // namespace matmul

// The toolkit's matmul configuration headers (lib/matmul/tiling.h and the one it includes) declare MatmulConfig, its
// enums (CubeFormat, LayoutMode among them), the CFG_* constants and the Get*Config helpers at global scope: kernels
// name them unqualified (same entities).
using matmul::BatchMode;
using matmul::BatchOutMode;
using matmul::CFG_IBSHARE_NORM;
using matmul::CFG_MDL;
using matmul::CFG_NORM;
using matmul::CubeFormat;
using matmul::GetMDLConfig;
using matmul::GetNormalConfig;
using matmul::IterateOrder;
using matmul::LayoutMode;
using matmul::MatmulConfig;
using matmul::ScheduleType;

// Newer code names the matmul types through AscendC:: (same entities).
namespace AscendC {
using matmul::BatchMode;
using matmul::BatchOutMode;
using matmul::CubeFormat;
using matmul::GetMDLConfig;
using matmul::GetNormalConfig;
using matmul::IterateOrder;
using matmul::LayoutMode;
using matmul::Matmul;
using matmul::MatmulConfig;
using matmul::MatmulType;
using matmul::ScheduleType;
}  // namespace AscendC

namespace ascsim {
inline void regist_matmul_pairs() {}
template <class MM, class Tiling, class... Rest> inline void regist_matmul_pairs(MM& mm, const Tiling* tiling, Rest&&... rest) {
    mm.Init(tiling);
    regist_matmul_pairs(rest...);
}
template <class MM> inline void regist_matmul_pairs(MM& mm) { (void)mm; }
template <class... A> inline void regist_matmul(AscendC::TPipe* pipe, GM_ADDR workspace, A&&... a) {
    (void)pipe; (void)workspace;
    regist_matmul_pairs(a...);
}
}  // namespace ascsim
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) ::ascsim::regist_matmul(tpipe, workspace, __VA_ARGS__)
#endif  // ASCSIM_KERNEL_MATMUL_API_H_

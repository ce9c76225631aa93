// ascsim host side: the matmul API tiling (optiling::TCubeTiling, matmul_tiling::MatmulApiTiling /
// MultiCoreMatmulTiling). The split is the simulator's own: cores take an mBlocks x nBlocks grid of 16-aligned
// single-core blocks (the grid that minimises the largest block), K is not split, base blocks are <= 128 x 128 x 64.
#ifndef ASCSIM_HOST_MATMUL_TILING_H_
#define ASCSIM_HOST_MATMUL_TILING_H_
#include <algorithm>
#include <array>
#include <cstdint>
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "hl_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
    TILING_DATA_FIELD_DEF(int32_t, usedCoreNum);
    TILING_DATA_FIELD_DEF(int32_t, M);
    TILING_DATA_FIELD_DEF(int32_t, N);
    TILING_DATA_FIELD_DEF(int32_t, Ka);
    TILING_DATA_FIELD_DEF(int32_t, Kb);
    TILING_DATA_FIELD_DEF(int32_t, singleCoreM);
    TILING_DATA_FIELD_DEF(int32_t, singleCoreN);
    TILING_DATA_FIELD_DEF(int32_t, singleCoreK);
    TILING_DATA_FIELD_DEF(int32_t, baseM);
    TILING_DATA_FIELD_DEF(int32_t, baseN);
    TILING_DATA_FIELD_DEF(int32_t, baseK);
    TILING_DATA_FIELD_DEF(int32_t, depthA1);
    TILING_DATA_FIELD_DEF(int32_t, depthB1);
    TILING_DATA_FIELD_DEF(int32_t, stepM);
    TILING_DATA_FIELD_DEF(int32_t, stepN);
    TILING_DATA_FIELD_DEF(int32_t, isBias);
    TILING_DATA_FIELD_DEF(int32_t, transLength);
    TILING_DATA_FIELD_DEF(int32_t, iterateOrder);
    TILING_DATA_FIELD_DEF(int32_t, shareMode);
    TILING_DATA_FIELD_DEF(int32_t, shareL1Size);
    TILING_DATA_FIELD_DEF(int32_t, shareL0CSize);
    TILING_DATA_FIELD_DEF(int32_t, shareUbSize);
    TILING_DATA_FIELD_DEF(int32_t, batchM);
    TILING_DATA_FIELD_DEF(int32_t, batchN);
    TILING_DATA_FIELD_DEF(int32_t, singleBatchM);
    TILING_DATA_FIELD_DEF(int32_t, singleBatchN);
    TILING_DATA_FIELD_DEF(int32_t, stepKa);
    TILING_DATA_FIELD_DEF(int32_t, stepKb);
    TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB);
    TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB);
    TILING_DATA_FIELD_DEF(int32_t, dbL0A);
    TILING_DATA_FIELD_DEF(int32_t, dbL0B);
    TILING_DATA_FIELD_DEF(int32_t, dbL0C);
    TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB);
    TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS);
    TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN);
    TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG);
    TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD);
    TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB);
    TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS);
    TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN);
    TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG);
    TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD);
    TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB);
    TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1);
    TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN);
    TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG);
    TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2);
    TILING_DATA_FIELD_DEF(int32_t, BatchNum);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace matmul_tiling {
enum class TPosition : int32_t { GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class DataType : int32_t { DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
                                DT_BF16 = 27, DT_INT4 = 29 };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC&) {}
    int32_t SetAType(TPosition, CubeFormat, DataType, bool isTrans = false) { transA_ = isTrans; return 0; }
    int32_t SetBType(TPosition, CubeFormat, DataType, bool isTrans = false) { transB_ = isTrans; return 0; }
    int32_t SetCType(TPosition, CubeFormat, DataType) { return 0; }
    int32_t SetBiasType(TPosition, CubeFormat, DataType) { return 0; }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) { m_ = m; n_ = n; k_ = k; if (!orgSet_) { om_ = m; on_ = n; oka_ = okb_ = k; } return 0; }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb, int32_t = 0) { om_ = m; on_ = n; oka_ = ka; okb_ = kb; orgSet_ = true; return 0; }
    int32_t SetBias(bool bias = true) { bias_ = bias; return 0; }
    int32_t EnableBias(bool bias = true) { return SetBias(bias); }
    int32_t SetBufferSpace(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) { fbm_ = baseM; fbn_ = baseN; fbk_ = baseK; return 0; }
    int32_t SetTraverse(MatrixTraverse) { return 0; }
    int32_t SetDequantType(int32_t) { return 0; }
    // Batch matmul. NORMAL layout: per-batch [m, k] x [k, n]; written to the layout fields as A (batchA, m, 1, 1, k),
    // B (batchB, k, 1, 1, n), C (max batch, m, 1, 1, n). BSNGD/SBNGD/BNGS1S2: SetA/B/CLayout (b, s, n, g, d) verbatim
    // (the kernel side simulates NORMAL only and rejects the others).
    int32_t SetBatchNum(int32_t batch) { if (batch < 1) return -1; batchNum_ = batch; return 0; }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        if (batchA < 1 || batchB < 1 || m < 1 || n < 1 || k < 1) return -1;
        if (std::max(batchA, batchB) % std::min(batchA, batchB)) return -1;
        int32_t bc = std::max(batchA, batchB);
        la_ = {batchA, m, 1, 1, k}; lb_ = {batchB, k, 1, 1, n}; lc_ = {bc, m, 1, 1, n};
        bm_ = m; bn_ = n; bk_ = k;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { la_ = {b, s, n, g, d}; return 0; }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { lb_ = {b, s, n, g, d}; return 0; }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) { lc_ = {b, s1, n, g, s2}; return 0; }
    int32_t SetMatmulConfigParams(int32_t = 1, bool = false, int32_t = 0, int32_t = 0, int32_t = 0) { return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
    int64_t GetTiling(optiling::TCubeTiling& t) {
        if (m_ <= 0 && bm_ > 0) SetShape(bm_, bn_, bk_);   // NORMAL batch info alone gives the per-batch shape
        // The original K sizes are not checked against the single-core K: real host code passes a row stride there
        // (flash attention's B operand: orgKb = the hidden size, singleK = a block of the sequence), and the
        // toolkit's GetTiling accepts it; only the addressing of a transposed operand uses them.
        if (m_ <= 0 || n_ <= 0 || k_ <= 0 || om_ < m_ || on_ < n_) return -1;
        int32_t dim = dim_ > 0 ? dim_ : 1;
        int32_t bestM = 1, bestN = 1;
        int64_t best = -1;
        for (int32_t mb = 1; mb <= dim; ++mb) {
            int32_t nb = dim / mb;
            int64_t sm = align16((m_ + mb - 1) / mb), sn = align16((n_ + nb - 1) / nb);
            int64_t cost = sm * sn;
            if (best < 0 || cost < best) { best = cost; bestM = mb; bestN = nb; }
        }
        int32_t sm = int32_t(std::min<int64_t>(align16((m_ + bestM - 1) / bestM), m_));
        int32_t sn = int32_t(std::min<int64_t>(align16((n_ + bestN - 1) / bestN), n_));
        sm_ = sm; sn_ = sn;
        int32_t used = ((m_ + sm - 1) / sm) * ((n_ + sn - 1) / sn);
        t.set_usedCoreNum(used); t.set_M(om_); t.set_N(on_); t.set_Ka(oka_); t.set_Kb(okb_);
        t.set_singleCoreM(sm); t.set_singleCoreN(sn); t.set_singleCoreK(k_);
        int32_t bm = fbm_ > 0 ? fbm_ : int32_t(std::min<int64_t>(128, align16(sm)));
        int32_t bn = fbn_ > 0 ? fbn_ : int32_t(std::min<int64_t>(128, align16(sn)));
        int32_t bk = fbk_ > 0 ? fbk_ : int32_t(std::min<int64_t>(64, align16(k_)));
        t.set_baseM(bm); t.set_baseN(bn); t.set_baseK(bk);
        t.set_depthA1(1); t.set_depthB1(1); t.set_stepM(1); t.set_stepN(1); t.set_stepKa(1); t.set_stepKb(1);
        t.set_isBias(bias_ ? 1 : 0); t.set_iterateOrder(0); t.set_dbL0A(2); t.set_dbL0B(2); t.set_dbL0C(1);
        t.set_batchM(1); t.set_batchN(1); t.set_singleBatchM(1); t.set_singleBatchN(1);
        t.set_depthAL1CacheUB(0); t.set_depthBL1CacheUB(0);
        t.set_ALayoutInfoB(la_[0]); t.set_ALayoutInfoS(la_[1]); t.set_ALayoutInfoN(la_[2]); t.set_ALayoutInfoG(la_[3]); t.set_ALayoutInfoD(la_[4]);
        t.set_BLayoutInfoB(lb_[0]); t.set_BLayoutInfoS(lb_[1]); t.set_BLayoutInfoN(lb_[2]); t.set_BLayoutInfoG(lb_[3]); t.set_BLayoutInfoD(lb_[4]);
        t.set_CLayoutInfoB(lc_[0]); t.set_CLayoutInfoS1(lc_[1]); t.set_CLayoutInfoN(lc_[2]); t.set_CLayoutInfoG(lc_[3]); t.set_CLayoutInfoS2(lc_[4]);
        t.set_BatchNum(batchNum_ > 0 ? batchNum_ : std::max(la_[0], lb_[0]));
        return 0;
    }
    int32_t GetBaseM() const { return fbm_; }
    int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const { m = sm_; n = sn_; k = k_; return 0; }

protected:
    static int64_t align16(int64_t v) { return (v + 15) / 16 * 16; }
    int32_t m_ = 0, n_ = 0, k_ = 0, om_ = 0, on_ = 0, oka_ = 0, okb_ = 0, dim_ = 1, sm_ = 0, sn_ = 0;
    int32_t fbm_ = -1, fbn_ = -1, fbk_ = -1;
    bool transA_ = false, transB_ = false, bias_ = false, orgSet_ = false;
    int32_t batchNum_ = 0, bm_ = 0, bn_ = 0, bk_ = 0;
    std::array<int32_t, 5> la_{}, lb_{}, lc_{};
};

class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
};
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int32_t SetDim(int32_t dim) { dim_ = dim; return 0; }
    int32_t SetSingleShape(int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
};
class BatchMatmulTiling : public MultiCoreMatmulTiling {
public:
    using MultiCoreMatmulTiling::MultiCoreMatmulTiling;
};
}  // namespace matmul_tiling
#endif  // ASCSIM_HOST_MATMUL_TILING_H_

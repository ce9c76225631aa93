// ascsim host side: SoftMax tiling (optiling::SoftMaxTiling, SoftMaxTilingFunc, Get{Max,Min}TmpSize,
// IsBasicBlockInSoftMax) and SoftmaxFlashV2's (SoftMaxFlashV2TilingFunc, GetSoftMaxFlashV2{Max,Min}TmpSize).
// Kernels nest it with TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...); the build then generates the kernel-side
// struct from these fields. SoftMax temp model: two float rows of srcK at minimum, two float copies of the whole
// [srcM, srcK] tile at most; SoftmaxFlashV2: ascsim_softmax::flashv2_tmp below (kernel side: ascsim/kernel/hl_softmax.h).
#ifndef ASCSIM_HOST_SOFTMAX_TILING_H_
#define ASCSIM_HOST_SOFTMAX_TILING_H_
#include "register/tilingdata_base.h"
#include "hl_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcM);
    TILING_DATA_FIELD_DEF(uint32_t, srcK);
    TILING_DATA_FIELD_DEF(uint32_t, srcSize);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
    TILING_DATA_FIELD_DEF(uint32_t, splitM);
    TILING_DATA_FIELD_DEF(uint32_t, splitK);
    TILING_DATA_FIELD_DEF(uint32_t, splitSize);
    TILING_DATA_FIELD_DEF(uint32_t, reduceM);
    TILING_DATA_FIELD_DEF(uint32_t, reduceK);
    TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
    TILING_DATA_FIELD_DEF(uint32_t, rangeM);
    TILING_DATA_FIELD_DEF(uint32_t, tailM);
    TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
    TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
}  // namespace optiling

// --- shared with ascsim/host/softmax_tiling.h (identical text in both headers, one definition per TU): the
// kernel-side AscendC::tiling::SoftMaxTiling and the SoftmaxFlashV2 temporary-buffer model. Keep the copies equal.
#ifndef ASCSIM_SOFTMAX_SHARED_MODEL_DEFINED
#define ASCSIM_SOFTMAX_SHARED_MODEL_DEFINED
#include <cstdint>
#include <type_traits>
#include <utility>
namespace AscendC {
namespace tiling {
// Plain-struct SoftMaxTiling, as the kernel-side tiling calculation returns it. It converts to the struct the build
// generates from optiling::SoftMaxTiling (same field names), so `tilingData.sm = SoftMaxFlashV2TilingFunc(...)` works.
struct SoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0, splitM = 0, splitK = 0,
             splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0, rangeM = 0, tailM = 0, tailSplitSize = 0,
             tailReduceSize = 0;
    template <class S, class = std::enable_if_t<!std::is_same_v<S, SoftMaxTiling> &&
                                                std::is_same_v<decltype(std::declval<S&>().tailReduceSize), uint32_t>>>
    constexpr operator S() const {
        S s{};
        s.srcM = srcM; s.srcK = srcK; s.srcSize = srcSize; s.outMaxM = outMaxM; s.outMaxK = outMaxK;
        s.outMaxSize = outMaxSize; s.splitM = splitM; s.splitK = splitK; s.splitSize = splitSize; s.reduceM = reduceM;
        s.reduceK = reduceK; s.reduceSize = reduceSize; s.rangeM = rangeM; s.tailM = tailM;
        s.tailSplitSize = tailSplitSize; s.tailReduceSize = tailReduceSize;
        return s;
    }
};
}  // namespace tiling
}  // namespace AscendC
namespace ascsim_softmax {
// SoftmaxFlashV2 temp model (ND, Atlas A2), in float elements: a fixed reserve for the reductions plus, per row,
// the float statistics blocks (stats of dataTypeSize2) and, for half sources, the float copy of the row. Rows are
// processed in groups (8 for basic blocks, one datablock of rows when the outputs are not broadcast).
// min = one group; max = every row; SoftMaxFlashV2TilingFunc's splitM = rows that fit in localWorkSpaceSize.
struct FlashV2Tmp { uint32_t group = 1, per_row = 0, reserve = 0; };
constexpr FlashV2Tmp flashv2_tmp(uint32_t m, uint32_t k, uint32_t dts1, uint32_t dts2, bool basic, bool brc) {
    FlashV2Tmp t;
    const uint32_t blk2 = 32u / (dts2 ? dts2 : 4u);
    const bool bb = basic && k % 64u == 0;
    const uint32_t rv = (bb && k == 1024u) ? 128u : 64u;
    t.per_row = dts1 == 2 ? (bb ? blk2 + k : 2u * blk2 + k) : blk2;
    t.group = bb ? 8u : 1u;
    if (brc) {
        uint32_t r = 32u / (dts1 ? dts1 : 4u);
        t.group = m && m < r ? m : r;
    }
    t.reserve = t.group * rv;
    return t;
}
constexpr uint32_t flashv2_bytes(const FlashV2Tmp& t, uint32_t rows) {
    uint64_t r = (uint64_t(rows) + t.group - 1) / t.group * t.group;
    return uint32_t((r * t.per_row + t.reserve) * 4u);
}
// rows of [m, k] that fit in `bytes` of temporary buffer (a multiple of the group, at most m; 0 if below min)
constexpr uint32_t flashv2_rows(const FlashV2Tmp& t, uint32_t m, uint32_t bytes) {
    uint32_t fl = bytes / 4u;
    if (fl < t.reserve + t.group * t.per_row) return 0;
    uint64_t rows = t.per_row ? (fl - t.reserve) / t.per_row : m;
    rows = rows / t.group * t.group;
    return uint32_t(rows > m ? m : rows);
}
constexpr AscendC::tiling::SoftMaxTiling flashv2_tiling(uint32_t m, uint32_t k, uint32_t dts1, uint32_t dts2, uint32_t ws,
                                                        bool basic, bool brc) {
    AscendC::tiling::SoftMaxTiling s;
    const FlashV2Tmp t = flashv2_tmp(m, k, dts1, dts2, basic, brc);
    const uint32_t rows = flashv2_rows(t, m, ws);
    const uint32_t blk = brc ? 1u : 32u / (dts2 ? dts2 : 4u);
    s.srcM = m; s.srcK = k; s.srcSize = m * k;
    s.outMaxM = m; s.outMaxK = blk; s.outMaxSize = m * blk;
    s.splitM = rows; s.splitK = k; s.splitSize = rows * k;
    s.reduceM = rows; s.reduceK = blk; s.reduceSize = rows * blk;
    s.rangeM = rows ? m / rows : 0;
    s.tailM = rows ? m % rows : m;
    s.tailSplitSize = s.tailM * k; s.tailReduceSize = s.tailM * blk;
    return s;
}
}  // namespace ascsim_softmax
#endif  // ASCSIM_SOFTMAX_SHARED_MODEL_DEFINED
// --- end of the shared block

namespace AscendC {
namespace ascsim_hl {
inline void softmax_mk(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    k = s.GetDimNum() ? uint32_t(s.GetDim(s.GetDimNum() - 1)) : 0;
    m = k ? uint32_t(s.GetShapeSize() / k) : 0;
}
}  // namespace ascsim_hl
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * ((k * 4u + 31u) / 32u * 32u);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * m * ((k * 4u + 31u) / 32u * 32u);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& t) {
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    uint32_t row = 2u * ((k * 4u + 31u) / 32u * 32u);
    uint32_t rows = row ? localWorkSpaceSize / row : 0;
    if (rows > m) rows = m;
    uint32_t blk = 32u / (dataTypeSize ? dataTypeSize : 2);
    t.set_srcM(m); t.set_srcK(k); t.set_srcSize(m * k);
    t.set_outMaxM(m); t.set_outMaxK(blk); t.set_outMaxSize(m * blk);
    t.set_splitM(rows); t.set_splitK(k); t.set_splitSize(rows * k);
    t.set_reduceM(rows); t.set_reduceK(blk); t.set_reduceSize(rows * blk);
    t.set_rangeM(rows ? m / rows : 0); t.set_tailM(rows ? m % rows : m);
    t.set_tailSplitSize((rows ? m % rows : m) * k); t.set_tailReduceSize((rows ? m % rows : m) * blk);
}
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& t, const uint32_t dataTypeSize = 2) {
    (void)dataTypeSize;
    return t.get_srcK() % 64 == 0 && t.get_srcK() <= 2048 && t.get_splitM() % 8 == 0;
}
// SoftmaxFlashV2 (kernel side: ascsim/kernel/hl_softmax.h). dataTypeSize1: src/dst; dataTypeSize2: max/sum.
// Sizes follow ascsim_softmax::flashv2_tmp above; 0 for an empty shape or a data type size other than 2 or 4.
namespace ascsim_hl {
inline bool flashv2_args(const ge::Shape& s, uint32_t dts1, uint32_t dts2, uint32_t& m, uint32_t& k) {
    softmax_mk(s, m, k);
    return m && k && (dts1 == 2 || dts1 == 4) && (dts2 == 2 || dts2 == 4);
}
}  // namespace ascsim_hl
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    if (!ascsim_hl::flashv2_args(srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
    return ascsim_softmax::flashv2_bytes(ascsim_softmax::flashv2_tmp(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc), 1);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    if (!ascsim_hl::flashv2_args(srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
    return ascsim_softmax::flashv2_bytes(ascsim_softmax::flashv2_tmp(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc), m);
}
// Fills the tiling for [srcM, srcK]; splitM = the rows whose temporaries fit in localWorkSpaceSize (0 when it is
// below GetSoftMaxFlashV2MinTmpSize: the kernel then reports the buffer as too small).
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    softmaxFlashTiling = ascsim_softmax::flashv2_tiling(m, k, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isBasicBlock,
                                                        isFlashOutputBrc);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    tiling::SoftMaxTiling s;
    SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, s, isUpdate, isBasicBlock, isFlashOutputBrc);
    optiling::SoftMaxTiling& t = softmaxFlashTiling;
    t.set_srcM(s.srcM); t.set_srcK(s.srcK); t.set_srcSize(s.srcSize);
    t.set_outMaxM(s.outMaxM); t.set_outMaxK(s.outMaxK); t.set_outMaxSize(s.outMaxSize);
    t.set_splitM(s.splitM); t.set_splitK(s.splitK); t.set_splitSize(s.splitSize);
    t.set_reduceM(s.reduceM); t.set_reduceK(s.reduceK); t.set_reduceSize(s.reduceSize);
    t.set_rangeM(s.rangeM); t.set_tailM(s.tailM); t.set_tailSplitSize(s.tailSplitSize); t.set_tailReduceSize(s.tailReduceSize);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_SOFTMAX_TILING_H_

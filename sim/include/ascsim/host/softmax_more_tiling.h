// ascsim host side of SoftmaxFlash, SoftmaxGrad / SoftmaxGradFront and SoftmaxFlashV3 (kernel side:
// ascsim/kernel/hl_softmax_more.h), with the documented signatures:
//   GetSoftMaxFlashMaxTmpSize / GetSoftMaxFlashMinTmpSize / SoftMaxFlashTilingFunc
//   GetSoftMaxGradMaxTmpSize / GetSoftMaxGradMinTmpSize / SoftMaxGradTilingFunc
//   GetSoftMaxFlashV3MaxMinTmpSize / SoftMaxFlashV3TilingFunc
// Sizes follow ascsim_softmax_more (ascsim/softmax_more_common.h), the same model the kernel checks. The tiling
// functions fill SoftMaxTiling like SoftMaxTilingFunc: splitM = the rows whose temporaries fit in
// localWorkSpaceSize (0 when it is below the minimum). Unsupported data type sizes give 0 sizes / an all-zero tiling.
#ifndef ASCSIM_HOST_SOFTMAX_MORE_TILING_H_
#define ASCSIM_HOST_SOFTMAX_MORE_TILING_H_
#include <cstdint>
#include "softmax_tiling.h"
#include "../softmax_more_common.h"

namespace AscendC {
namespace ascsim_hl {
// rows of [m, k] fitting in ws bytes at row_bytes per row, rounded down to a multiple of group
inline tiling::SoftMaxTiling softmax_more_fill(uint32_t m, uint32_t k, uint32_t blk, uint32_t rows) {
    tiling::SoftMaxTiling s;
    if (rows > m) rows = m;
    s.srcM = m; s.srcK = k; s.srcSize = m * k;
    s.outMaxM = m; s.outMaxK = blk; s.outMaxSize = m * blk;
    s.splitM = rows; s.splitK = k; s.splitSize = rows * k;
    s.reduceM = rows; s.reduceK = blk; s.reduceSize = rows * blk;
    s.rangeM = rows ? m / rows : 0;
    s.tailM = rows ? m % rows : m;
    s.tailSplitSize = s.tailM * k; s.tailReduceSize = s.tailM * blk;
    return s;
}
inline void softmax_more_copy(const tiling::SoftMaxTiling& s, optiling::SoftMaxTiling& t) {
    t.set_srcM(s.srcM); t.set_srcK(s.srcK); t.set_srcSize(s.srcSize);
    t.set_outMaxM(s.outMaxM); t.set_outMaxK(s.outMaxK); t.set_outMaxSize(s.outMaxSize);
    t.set_splitM(s.splitM); t.set_splitK(s.splitK); t.set_splitSize(s.splitSize);
    t.set_reduceM(s.reduceM); t.set_reduceK(s.reduceK); t.set_reduceSize(s.reduceSize);
    t.set_rangeM(s.rangeM); t.set_tailM(s.tailM); t.set_tailSplitSize(s.tailSplitSize); t.set_tailReduceSize(s.tailReduceSize);
}
inline bool dts_ok(uint32_t d) { return d == 2 || d == 4; }
}  // namespace ascsim_hl

// ---- SoftmaxFlash (dataTypeSize: that of sum/max) ----
inline uint32_t GetSoftMaxFlashMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return ascsim_hl::dts_ok(dataTypeSize) ? ascsim_softmax_more::flash_max(m, k) : 0u;
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isUpdate; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return ascsim_hl::dts_ok(dataTypeSize) ? ascsim_softmax_more::flash_min(m, k) : 0u;
}
inline void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                   tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate = false) {
    (void)isUpdate;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    if (!ascsim_hl::dts_ok(dataTypeSize) || !m || !k) { softmaxFlashTiling = tiling::SoftMaxTiling{}; return; }
    const uint32_t row = ascsim_softmax_more::two_rows(k);
    softmaxFlashTiling = ascsim_hl::softmax_more_fill(m, k, 32u / dataTypeSize, localWorkSpaceSize / row);
}
inline void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                   optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate = false) {
    tiling::SoftMaxTiling s;
    SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, s, isUpdate);
    ascsim_hl::softmax_more_copy(s, softmaxFlashTiling);
}

// ---- SoftmaxGrad / SoftmaxGradFront (isFront = true for SoftmaxGradFront) ----
inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return ascsim_hl::dts_ok(dataTypeSize) ? ascsim_softmax_more::grad_max(m, k) : 0u;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return ascsim_hl::dts_ok(dataTypeSize) ? ascsim_softmax_more::grad_min(m, k) : 0u;
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  tiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    (void)isFront;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    if (!ascsim_hl::dts_ok(dataTypeSize) || !m || !k) { softmaxGradTiling = tiling::SoftMaxTiling{}; return; }
    const uint32_t row = ascsim_softmax_more::two_rows(k);
    softmaxGradTiling = ascsim_hl::softmax_more_fill(m, k, 32u / dataTypeSize, localWorkSpaceSize / row);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    tiling::SoftMaxTiling s;
    SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, s, isFront);
    ascsim_hl::softmax_more_copy(s, softmaxGradTiling);
}

// ---- SoftmaxFlashV3 (Atlas A2: dataTypeSize1 = 2 (half data), dataTypeSize2 = 4 (float statistics);
//      isBasicBlock is reserved and must be false) ----
inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                           uint32_t& maxValue, uint32_t& minValue, const bool isUpdate,
                                           const bool isBasicBlock = false) {
    (void)isUpdate;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    maxValue = minValue = 0;
    if (dataTypeSize1 != 2 || dataTypeSize2 != 4 || isBasicBlock) return;
    maxValue = ascsim_softmax_more::v3_max(m, k);
    minValue = ascsim_softmax_more::v3_min(m, k);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    if (dataTypeSize1 != 2 || dataTypeSize2 != 4 || isBasicBlock || !m || !k) {
        softmaxFlashV3Tiling = tiling::SoftMaxTiling{};
        return;
    }
    const uint32_t row = ascsim_softmax_more::v3_row(k);
    const uint32_t rows = localWorkSpaceSize / row / 8u * 8u;
    softmaxFlashV3Tiling = ascsim_hl::softmax_more_fill(m, k, 32u / dataTypeSize2, rows);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
    tiling::SoftMaxTiling s;
    SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, s, isUpdate, isBasicBlock);
    ascsim_hl::softmax_more_copy(s, softmaxFlashV3Tiling);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_SOFTMAX_MORE_TILING_H_

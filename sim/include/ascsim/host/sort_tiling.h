// ascsim host side: temporary-buffer sizes of the high-level sort APIs (Concat / Sort) for an Atlas A2 part.
// On this part Concat moves no data (0 B) and a full Sort merges through tmp: 8 B per element (one (score, index)
// record), i.e. elemCount * (8 / sizeof(T)) elements of T times sizeof(T).
// TopK: optiling::TopkTiling (nest it with TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, ...)), TopKTilingFunc and
// GetTopKMaxMinTmpSize. The simulated kernel-side TopK reads its shape from TopKInfo, not from this tiling; the
// tiling carries the temp size, the data sizes, the sort repeats and the k alignments, the other fields stay 0.
#ifndef ASCSIM_HOST_SORT_TILING_H_
#define ASCSIM_HOST_SORT_TILING_H_
#include <cstdint>
#include "register/tilingdata_base.h"
#include "platform.h"
#include "../sort_common.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
    TILING_DATA_FIELD_DEF(int32_t, tmpLocalSize);
    TILING_DATA_FIELD_DEF(int32_t, allDataSize);
    TILING_DATA_FIELD_DEF(int32_t, innerDataSize);
    TILING_DATA_FIELD_DEF(uint32_t, sortRepeat);
    TILING_DATA_FIELD_DEF(int32_t, mrgSortRepeat);
    TILING_DATA_FIELD_DEF(int32_t, kAlignFourBytes);
    TILING_DATA_FIELD_DEF(int32_t, kAlignTwoBytes);
    TILING_DATA_FIELD_DEF(int32_t, maskOffset);
    TILING_DATA_FIELD_DEF(int32_t, maskVreducev2FourBytes);
    TILING_DATA_FIELD_DEF(int32_t, maskVreducev2TwoBytes);
    TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc1offset);
    TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc2offset);
    TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc3offset);
    TILING_DATA_FIELD_DEF(int32_t, mrgSortTwoQueueSrc1Offset);
    TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara1);
    TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara2);
    TILING_DATA_FIELD_DEF(int32_t, srcIndexOffset);
    TILING_DATA_FIELD_DEF(uint32_t, copyUbToUbBlockCount);
    TILING_DATA_FIELD_DEF(int32_t, topkMrgSrc1MaskSizeOffset);
    TILING_DATA_FIELD_DEF(int32_t, topkNSmallSrcIndexOffset);
    TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask0);
    TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask1);
    TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask0);
    TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask1);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask0);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask1);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask2);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask3);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask4);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask5);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask6);
    TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask7);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B) return 0;
    return elemCount * 8u * dataTypeSize;   // region-proposal parts: one 8-element proposal per element
}
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    if (ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B)
        return elemCount * (dataTypeSize == 4u ? 2u : 4u) * dataTypeSize;   // elements of T per record * sizeof(T)
    return elemCount * 8u * dataTypeSize;
}

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                                 const bool isReuseSource, const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                                 const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource; (void)isLargest;
    if (inner <= 0 || inner % 32 != 0 || outter <= 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
    if (mode == TopKMode::TOPK_NSMALL ? inner != 32 : inner > 4096) return false;
    minValue = maxValue = ::ascsim_sort::topk_tmp_bytes(inner, outter, isInitIndex, mode == TopKMode::TOPK_NSMALL);
    return true;
}

namespace ascsim_topk {
template <class Set>
inline bool fill(const int32_t inner, const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                 TopKMode mode, Set&& set) {
    if (inner <= 0 || inner % 32 != 0 || outter <= 0 || k <= 0 || k > inner || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
    bool small = mode == TopKMode::TOPK_NSMALL;
    if (small ? inner != 32 : inner > 4096) return false;
    set(int32_t(::ascsim_sort::topk_tmp_bytes(inner, outter, isInitIndex, small)), outter * inner, inner, uint32_t(inner / 32),
        (k + 7) / 8 * 8, (k + 15) / 16 * 16);
    return true;
}
}  // namespace ascsim_topk

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, optiling::TopkTiling& topKTiling) {
    (void)ascendcPlatform; (void)isLargest;
    return ascsim_topk::fill(inner, outter, k, dataTypeSize, isInitIndex, mode,
                             [&](int32_t tmp, int32_t all, int32_t in, uint32_t reps, int32_t k4, int32_t k2) {
                                 topKTiling.set_tmpLocalSize(tmp); topKTiling.set_allDataSize(all);
                                 topKTiling.set_innerDataSize(in); topKTiling.set_sortRepeat(reps);
                                 topKTiling.set_kAlignFourBytes(k4); topKTiling.set_kAlignTwoBytes(k2);
                             });
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, AscendC::tiling::TopkTiling& topKTiling) {
    (void)ascendcPlatform; (void)isLargest;
    return ascsim_topk::fill(inner, outter, k, dataTypeSize, isInitIndex, mode,
                             [&](int32_t tmp, int32_t all, int32_t in, uint32_t reps, int32_t k4, int32_t k2) {
                                 topKTiling.tmpLocalSize = tmp; topKTiling.allDataSize = all; topKTiling.innerDataSize = in;
                                 topKTiling.sortRepeat = reps; topKTiling.kAlignFourBytes = k4; topKTiling.kAlignTwoBytes = k2;
                             });
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_SORT_TILING_H_

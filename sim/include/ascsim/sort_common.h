// ascsim: definitions the kernel-side sort family (kernel/vec_sort.h) and its host helpers (host/sort_tiling.h) share:
// TopK's mode/config enums, the plain AscendC::tiling::TopkTiling and the TopK temporary-buffer model. Included by
// both, defined once per translation unit.
#ifndef ASCSIM_ASCSIM_SORT_COMMON_H_
#define ASCSIM_ASCSIM_SORT_COMMON_H_
#include <cstdint>

namespace AscendC {
enum class TopKMode { TOPK_NORMAL = 0, TOPK_NSMALL = 1 };
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
inline constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

namespace tiling {
// Field list of the TopK tiling (the simulated TopK reads only the shape it is given in TopKInfo; see sort_tiling.h).
struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0;
    uint16_t vreducehalfValMask1 = 0;
    uint16_t vreducehalfValMask2 = 0;
    uint16_t vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0;
    uint16_t vreducehalfValMask5 = 0;
    uint16_t vreducehalfValMask6 = 0;
    uint16_t vreducehalfValMask7 = 0;
};
}  // namespace tiling
}  // namespace AscendC

namespace ascsim_sort {
// ascsim's TopK temporary-buffer model (MERGE_SORT on Atlas A2; the vendor pages give no figures): Normal mode sorts
// one row at a time and needs the row's sorted region plus a merge buffer (2 x inner x 8 B) and, without
// isInitIndex, the generated 0..inner-1 indices (inner x 4 B, 32 B aligned); Small mode sorts every row at once
// (outter x 32 x 8 B, plus outter x 32 x 4 B of indices without isInitIndex). min = max = that amount.
constexpr uint32_t topk_tmp_bytes(int32_t inner, int32_t outter, bool isInitIndex, bool small) {
    if (inner <= 0 || outter <= 0) return 0;
    uint32_t in = uint32_t(inner), out = uint32_t(outter);
    if (small) return out * 32u * 8u + (isInitIndex ? 0u : out * 32u * 4u);
    return 2u * in * 8u + (isInitIndex ? 0u : (in * 4u + 31u) / 32u * 32u);
}
}  // namespace ascsim_sort
#endif  // ASCSIM_ASCSIM_SORT_COMMON_H_

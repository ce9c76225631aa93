// ascsim: what the kernel-side SoftmaxFlashV2 (kernel/hl_softmax.h) and its host tiling (host/softmax_tiling.h)
// share: the plain-struct AscendC::tiling::SoftMaxTiling and the SoftmaxFlashV2 temporary-buffer model, so host and
// kernel always agree. Included by both, defined once per translation unit.
#ifndef ASCSIM_ASCSIM_SOFTMAX_COMMON_H_
#define ASCSIM_ASCSIM_SOFTMAX_COMMON_H_
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
#endif  // ASCSIM_ASCSIM_SOFTMAX_COMMON_H_

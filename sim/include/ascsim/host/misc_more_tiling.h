// ascsim host side for kernel/hl_misc_more.h: GetReduceXorSumMaxMinTmpSize (max == min, as documented), following
// the simulator's temp model in that header. typeSize must be 2 (int16_t) and the shape non-empty; otherwise 0.
#ifndef ASCSIM_HOST_MISC_MORE_TILING_H_
#define ASCSIM_HOST_MISC_MORE_TILING_H_
#include "hl_tiling.h"
#include "../kernel/hl_misc_more.h"

namespace AscendC {
inline void GetReduceXorSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    if (typeSize != 2 || srcShape.GetShapeSize() <= 0) return;
    const uint64_t b = ascsim_misc_more::xor_sum_bytes(uint64_t(srcShape.GetShapeSize()), isReuseSource);
    minValue = maxValue = b > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(b);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_MISC_MORE_TILING_H_

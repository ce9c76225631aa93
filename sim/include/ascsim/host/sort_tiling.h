// ascsim host side: temporary-buffer sizes of the high-level sort APIs (Concat / Sort) for an Atlas A2 part.
// On this part Concat moves no data (0 B) and a full Sort merges through tmp: 8 B per element (one (score, index)
// record), i.e. elemCount * (8 / sizeof(T)) elements of T times sizeof(T).
#ifndef ASCSIM_HOST_SORT_TILING_H_
#define ASCSIM_HOST_SORT_TILING_H_
#include <cstdint>
#include "platform.h"

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
}  // namespace AscendC
#endif  // ASCSIM_HOST_SORT_TILING_H_

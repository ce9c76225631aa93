#ifndef ABSOLUTE_TILING_H
#define ABSOLUTE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Flat element-wise split: every core gets a run of whole 32-byte blocks; the first bigCoreNum cores take one
// block more than the others, and the last used core clips its run at totalLength.
BEGIN_TILING_DATA_DEF(AbsoluteTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockElems);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Absolute, AbsoluteTilingData)
} // namespace optiling
#endif // ABSOLUTE_TILING_H

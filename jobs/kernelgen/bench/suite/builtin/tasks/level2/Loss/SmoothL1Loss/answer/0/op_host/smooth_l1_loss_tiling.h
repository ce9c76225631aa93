#ifndef SMOOTH_L1_LOSS_TILING_H
#define SMOOTH_L1_LOSS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Flat split in whole 32-byte blocks (first bigCoreNum cores take one block more). For 'sum' and 'mean'
// every core leaves its float32 partial sum in the user workspace; after SyncAll core 0 adds them up.
BEGIN_TILING_DATA_DEF(SmoothL1LossTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreLength);
    TILING_DATA_FIELD_DEF(uint32_t, blockElems);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, reduction);   // 0 none, 1 sum, 2 mean
    TILING_DATA_FIELD_DEF(float, beta);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmoothL1Loss, SmoothL1LossTilingData)
} // namespace optiling
#endif // SMOOTH_L1_LOSS_TILING_H

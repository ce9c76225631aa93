#ifndef LAYER_NORM_TILING_H
#define LAYER_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Rows split over cores (first bigCoreNum cores take one more); rowsPerTile rows per transfer, each row on a
// 32-byte boundary in UB. gamma and beta are widened to float32 once per core.
BEGIN_TILING_DATA_DEF(LayerNormTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, alignedCols);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNorm, LayerNormTilingData)
} // namespace optiling
#endif // LAYER_NORM_TILING_H

#ifndef REDUCE_SUM_LAST_DIM_TILING_H
#define REDUCE_SUM_LAST_DIM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Rows split over cores (first bigCoreNum cores take one more). Short rows (cols <= tileLength) travel
// rowsPerTile at a time, each on a 32-byte boundary in UB; long rows are summed chunk by chunk (tileLength
// elements per chunk) into a float32 accumulator. Sums of up to outBatch rows are stored with one transfer.
BEGIN_TILING_DATA_DEF(ReduceSumLastDimTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, alignedCols);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(uint32_t, outBatch);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumLastDim, ReduceSumLastDimTilingData)
} // namespace optiling
#endif // REDUCE_SUM_LAST_DIM_TILING_H

#ifndef TRIU_TILING_H
#define TRIU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// All matrix rows of all batches form one row list split over cores (first bigCoreNum cores take one more).
// Rows travel rowsPerTile at a time (each on a 32-byte boundary in UB), or in colTile-element chunks when a
// single row does not fit one buffer.
BEGIN_TILING_DATA_DEF(TriuTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalRows);
    TILING_DATA_FIELD_DEF(uint32_t, matrixRows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, alignedCols);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(uint32_t, colTile);
    TILING_DATA_FIELD_DEF(int64_t, diagonal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Triu, TriuTilingData)
} // namespace optiling
#endif // TRIU_TILING_H

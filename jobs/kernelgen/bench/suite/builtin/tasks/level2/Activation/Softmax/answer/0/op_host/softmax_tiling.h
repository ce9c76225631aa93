#ifndef SOFTMAX_TILING_H
#define SOFTMAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Rows (all leading dimensions flattened) are split over cores, the first bigCoreNum cores taking one row more.
// A core moves rowsPerTile rows per DataCopyPad; in UB every row starts on a 32-byte boundary (alignedCols).
BEGIN_TILING_DATA_DEF(SoftmaxTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, alignedCols);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Softmax, SoftmaxTilingData)
} // namespace optiling
#endif // SOFTMAX_TILING_H

#ifndef TOP_K_TILING_H
#define TOP_K_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Rows (leading dimensions flattened) split over cores, the first bigCoreNum cores taking one row more.
BEGIN_TILING_DATA_DEF(TopKTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TopK, TopKTilingData)
} // namespace optiling
#endif // TOP_K_TILING_H

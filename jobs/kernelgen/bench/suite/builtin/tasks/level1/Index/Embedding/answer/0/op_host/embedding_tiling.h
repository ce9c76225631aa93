#ifndef EMBEDDING_TILING_H
#define EMBEDDING_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Output rows are split over cores (the first bigCoreNum cores take one row more); each row is moved in chunks
// of at most tileLength elements, so rows longer than a UB tile are fine.
BEGIN_TILING_DATA_DEF(EmbeddingTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numIndices);
    TILING_DATA_FIELD_DEF(uint32_t, embeddingDim);
    TILING_DATA_FIELD_DEF(uint32_t, numEmbeddings);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Embedding, EmbeddingTilingData)
} // namespace optiling
#endif // EMBEDDING_TILING_H

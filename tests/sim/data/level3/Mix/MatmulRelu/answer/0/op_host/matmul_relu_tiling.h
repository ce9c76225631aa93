#ifndef MATMUL_RELU_TILING_H
#define MATMUL_RELU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// C is cut into baseM x baseN output tiles; tile t goes to AI Core t % blockDim. Each tile walks K in
// baseK steps, accumulating in L0C.
BEGIN_TILING_DATA_DEF(MatmulReluTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, baseM);
    TILING_DATA_FIELD_DEF(uint32_t, baseN);
    TILING_DATA_FIELD_DEF(uint32_t, baseK);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulRelu, MatmulReluTilingData)
} // namespace optiling
#endif // MATMUL_RELU_TILING_H

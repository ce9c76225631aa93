// ascsim host side: tiling of the LayerNorm backward APIs (kernel side: ascsim/kernel/hl_norm_grad.h). The optiling
// classes LayerNormGradTiling and LayerNormGradBetaTiling carry the documented fields in documented order, so kernels
// nest them with TILING_DATA_FIELD_DEF_STRUCT. Sizes follow the simulator's temp model (ascsim/norm_grad_common.h).
// srcShape is {B, S, storageHLength, originHLength} (a 3-dim {B, S, H} means originH = H). Invalid arguments leave
// the sizes / tiling at 0 (the functions are void in the docs); the kernel then reports the problem.
#ifndef ASCSIM_HOST_NORM_GRAD_TILING_H_
#define ASCSIM_HOST_NORM_GRAD_TILING_H_
#include "norm_tiling.h"
#include "../norm_grad_common.h"

#define ASCSIM_NORMGRAD_TDF(type, name) TILING_DATA_FIELD_DEF(type, name);
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
    ASCSIM_LAYERNORMGRAD_TILING_FIELDS(ASCSIM_NORMGRAD_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
    ASCSIM_LAYERNORMGRADBETA_TILING_FIELDS(ASCSIM_NORMGRAD_TDF)
END_TILING_DATA_DEF;
}  // namespace optiling
#undef ASCSIM_NORMGRAD_TDF

namespace AscendC {
namespace ascsim_hl {
#define ASCSIM_NORMGRAD_SET(type, name) o.set_##name(p.name);
#define ASCSIM_NORMGRAD_GET(type, name) p.name = o.get_##name();
#define ASCSIM_NORMGRAD_CONVERT(NAME, FIELDS)                                                                          \
    inline void norm_to_host(const tiling::NAME& p, optiling::NAME& o) { FIELDS(ASCSIM_NORMGRAD_SET) }                 \
    inline tiling::NAME norm_from_host(const optiling::NAME& o) { tiling::NAME p{}; FIELDS(ASCSIM_NORMGRAD_GET) return p; }
ASCSIM_NORMGRAD_CONVERT(LayerNormGradTiling, ASCSIM_LAYERNORMGRAD_TILING_FIELDS)
ASCSIM_NORMGRAD_CONVERT(LayerNormGradBetaTiling, ASCSIM_LAYERNORMGRADBETA_TILING_FIELDS)
#undef ASCSIM_NORMGRAD_CONVERT
#undef ASCSIM_NORMGRAD_SET
#undef ASCSIM_NORMGRAD_GET
// isReuseSource is documented for float only
inline bool lng_args(const TensorShape& s, uint32_t ts, bool reuse, uint32_t& b, uint32_t& sl, uint32_t& h,
                     uint32_t& oh) {
    return ln_shape(s, ts, b, sl, h, oh) && !(reuse && ts == 2);
}
}  // namespace ascsim_hl

// ---- LayerNormGrad ----
inline void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    uint32_t b, s, h, oh;
    if (!ascsim_hl::lng_args(srcShape, typeSize, isReuseSource, b, s, h, oh)) return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::lng_bytes(typeSize, isReuseSource, h, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::lng_bytes(typeSize, isReuseSource, h, uint64_t(b) * s));
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         tiling::LayerNormGradTiling& tiling) {
    uint32_t b = 0, s = 0, h = 0, oh = 0;
    tiling = tiling::LayerNormGradTiling{};
    if (!ascsim_hl::lng_args(srcShape, typeSize, isReuseSource, b, s, h, oh)) return;
    tiling = ascsim_norm::lng_tiling(b, s, h, oh, typeSize, isReuseSource, stackBufferSize);
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
    tiling::LayerNormGradTiling p;
    GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, p);
    ascsim_hl::norm_to_host(p, tiling);
}

// ---- LayerNormGradBeta ----
inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    uint32_t b, s, h, oh;
    if (!ascsim_hl::lng_args(srcShape, typeSize, isReuseSource, b, s, h, oh)) return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::lngb_bytes(typeSize, isReuseSource, h, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::lngb_bytes(typeSize, isReuseSource, h, uint64_t(b) * s));
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             tiling::LayerNormGradBetaTiling& tiling) {
    uint32_t b = 0, s = 0, h = 0, oh = 0;
    tiling = tiling::LayerNormGradBetaTiling{};
    if (!ascsim_hl::lng_args(srcShape, typeSize, isReuseSource, b, s, h, oh)) return;
    tiling = ascsim_norm::lngb_tiling(b, s, h, oh, typeSize, isReuseSource, stackBufferSize);
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    tiling::LayerNormGradBetaTiling p;
    GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, p);
    ascsim_hl::norm_to_host(p, tiling);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_NORM_GRAD_TILING_H_

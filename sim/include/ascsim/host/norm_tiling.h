// ascsim host side: tiling of the normalization APIs (kernel side: ascsim/kernel/hl_norm.h). The optiling classes
// (LayerNormTiling, LayerNormSeparateTiling, RmsNormTiling, GroupNormTiling, BatchNormTiling, DeepNormTiling) carry
// the documented fields in documented order, so kernels nest them with TILING_DATA_FIELD_DEF_STRUCT and the build
// generates the kernel-side struct from them. The size queries and tiling functions follow the simulator's temp model
// (ascsim/norm_common.h); the tiling records how many rows fit in the given buffer size, which the kernel then checks.
// Invalid arguments leave sizes at 0 (void functions) or return false (bool functions), as the toolkit does after
// logging; the kernel then reports the problem.
#ifndef ASCSIM_HOST_NORM_TILING_H_
#define ASCSIM_HOST_NORM_TILING_H_
#include "register/tilingdata_base.h"
#include "hl_tiling.h"
#include "../norm_common.h"

#define ASCSIM_NORM_TDF(type, name) TILING_DATA_FIELD_DEF(type, name);
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
    ASCSIM_LAYERNORM_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
    ASCSIM_LAYERNORM_SEPARATE_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(RmsNormTiling)
    ASCSIM_RMSNORM_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(GroupNormTiling)
    ASCSIM_GROUPNORM_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(BatchNormTiling)
    ASCSIM_BATCHNORM_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(DeepNormTiling)
    ASCSIM_DEEPNORM_TILING_FIELDS(ASCSIM_NORM_TDF)
END_TILING_DATA_DEF;
}  // namespace optiling
#undef ASCSIM_NORM_TDF

namespace AscendC {
namespace ascsim_hl {
// plain struct <-> optiling class, field by field
#define ASCSIM_NORM_SET(type, name) o.set_##name(p.name);
#define ASCSIM_NORM_GET(type, name) p.name = o.get_##name();
#define ASCSIM_NORM_CONVERT(NAME, FIELDS)                                                                              \
    inline void norm_to_host(const tiling::NAME& p, optiling::NAME& o) { FIELDS(ASCSIM_NORM_SET) }                     \
    inline tiling::NAME norm_from_host(const optiling::NAME& o) { tiling::NAME p{}; FIELDS(ASCSIM_NORM_GET) return p; }
ASCSIM_NORM_CONVERT(LayerNormTiling, ASCSIM_LAYERNORM_TILING_FIELDS)
ASCSIM_NORM_CONVERT(LayerNormSeparateTiling, ASCSIM_LAYERNORM_SEPARATE_TILING_FIELDS)
ASCSIM_NORM_CONVERT(RmsNormTiling, ASCSIM_RMSNORM_TILING_FIELDS)
ASCSIM_NORM_CONVERT(GroupNormTiling, ASCSIM_GROUPNORM_TILING_FIELDS)
ASCSIM_NORM_CONVERT(BatchNormTiling, ASCSIM_BATCHNORM_TILING_FIELDS)
ASCSIM_NORM_CONVERT(DeepNormTiling, ASCSIM_DEEPNORM_TILING_FIELDS)
#undef ASCSIM_NORM_CONVERT
#undef ASCSIM_NORM_SET
#undef ASCSIM_NORM_GET

inline bool norm_ts(uint32_t ts) { return ts == 2 || ts == 4; }
inline uint32_t norm_dim(const ge::Shape& s, size_t i) { return s.GetDim(i) > 0 ? uint32_t(s.GetDim(i)) : 0; }
inline uint32_t norm_clamp32(uint64_t v) { return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(v); }
// LayerNorm [B, S, storageH, originH] (a 3-dim shape means originH = storageH); false for anything unusable
inline bool ln_shape(const ge::Shape& s, uint32_t ts, uint32_t& b, uint32_t& sl, uint32_t& h, uint32_t& oh) {
    if (!norm_ts(ts) || (s.GetDimNum() != 3 && s.GetDimNum() != 4)) return false;
    b = norm_dim(s, 0); sl = norm_dim(s, 1); h = norm_dim(s, 2); oh = s.GetDimNum() == 4 ? norm_dim(s, 3) : h;
    return b && sl && h && oh;
}
// LayerNorm / Normalize [A, R]
inline bool ar_shape(const ge::Shape& s, uint32_t& a, uint32_t& r) {
    if (s.GetDimNum() != 2) return false;
    a = norm_dim(s, 0); r = norm_dim(s, 1);
    return a && r;
}
// RmsNorm / DeepNorm [B, S, H] with [B, S, originH]: same B and S, originH in (0, H], H 32-byte aligned
inline bool bsh_pair(const ge::Shape& s, const ge::Shape& o, uint32_t ts, uint32_t& b, uint32_t& sl, uint32_t& h,
                     uint32_t& oh) {
    if (!norm_ts(ts) || s.GetDimNum() != 3 || o.GetDimNum() != 3) return false;
    b = norm_dim(s, 0); sl = norm_dim(s, 1); h = norm_dim(s, 2); oh = norm_dim(o, 2);
    return b && sl && h && oh && norm_dim(o, 0) == b && norm_dim(o, 1) == sl && oh <= h && uint64_t(h) * ts % 32 == 0;
}
}  // namespace ascsim_hl

// ---- LayerNorm ----
// [B, S, H] form: srcShape {B, S, storageHLength, originHLength}.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    uint32_t b, s, h, oh;
    if (!ascsim_hl::ln_shape(srcShape, typeSize, b, s, h, oh)) return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::ln_bytes(typeSize, isReuseSource, 0, h, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::ln_bytes(typeSize, isReuseSource, 0, h, uint64_t(b) * s));
}
// [A, R] form (mean and rstd): isComputeRstd must be true and isOnlyOutput false on Atlas A2.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    uint32_t a, r;
    if (!isComputeRstd || isOnlyOutput || !ascsim_hl::norm_ts(typeSize) || !ascsim_hl::ar_shape(srcShape, a, r)) return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::sep_bytes(typeSize, r, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::sep_bytes(typeSize, r, a));
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, tiling::LayerNormTiling& tiling) {
    uint32_t b = 0, s = 0, h = 0, oh = 0;
    tiling = tiling::LayerNormTiling{};
    if (!ascsim_hl::ln_shape(srcShape, typeSize, b, s, h, oh)) return;
    tiling = ascsim_norm::ln_tiling<tiling::LayerNormTiling>(b, s, h, oh, typeSize, isReuseSource, 0, stackBufferSize);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
    tiling::LayerNormTiling p;
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, p);
    ascsim_hl::norm_to_host(p, tiling);
}
// the deprecated spelling (optiling only)
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     tiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    uint32_t a = 0, r = 0;
    tiling = tiling::LayerNormSeparateTiling{};
    if (!isComputeRstd || !ascsim_hl::norm_ts(typeSize) || !ascsim_hl::ar_shape(srcShape, a, r)) return;
    tiling = ascsim_norm::sep_tiling(a, r, typeSize, stackBufferSize);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    tiling::LayerNormSeparateTiling p;
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, p);
    ascsim_hl::norm_to_host(p, tiling);
}

// ---- Normalize (no tiling struct) ----
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    uint32_t a, r;
    if (!isComputeRstd || isOnlyOutput || !ascsim_hl::norm_ts(typeSizeU) || !ascsim_hl::norm_ts(typeSizeT) ||
        typeSizeU < typeSizeT || !ascsim_hl::ar_shape(srcShape, a, r))
        return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::normalize_bytes(typeSizeU, typeSizeT, r, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::normalize_bytes(typeSizeU, typeSizeT, r, a));
}

// ---- RmsNorm ----
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    maxValue = minValue = 0;
    uint32_t b, s, h, oh;
    if (!ascsim_hl::bsh_pair(srcShape, srcShape, typeSize, b, s, h, oh)) return false;
    const uint64_t rows = uint64_t(b) * s;
    if (isBasicBlock && !(h % 64 == 0 && h < 2048 && rows % 8 == 0)) return false;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::rms_bytes(typeSize, h, isBasicBlock ? 8 : 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::rms_bytes(typeSize, h, rows));
    return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    uint32_t b, s, h, oh;
    tiling = tiling::RmsNormTiling{};
    if (!ascsim_hl::bsh_pair(srcShape, originSrcShape, typeSize, b, s, h, oh)) return false;
    if (isBasicBlock && !(h % 64 == 0 && h < 2048 && uint64_t(b) * s % 8 == 0 && uint64_t(oh) * typeSize % 32 == 0))
        return false;
    tiling = ascsim_norm::rms_tiling(b, s, h, oh, typeSize, isBasicBlock, stackBufferByteSize);
    return tiling.mainBsLength != 0;   // false: the buffer is below the minimum
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    tiling::RmsNormTiling p;
    const bool ok = GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, p, isBasicBlock);
    ascsim_hl::norm_to_host(p, tiling);
    return ok;
}

// ---- GroupNorm: srcShape {N, C, H, W} ----
namespace ascsim_hl {
inline bool gn_shape(const ge::Shape& s, uint32_t ts, uint32_t g, uint32_t& n, uint32_t& c, uint32_t& hw) {
    if (!norm_ts(ts) || s.GetDimNum() != 4 || g == 0) return false;
    n = norm_dim(s, 0); c = norm_dim(s, 1); hw = norm_dim(s, 2) * norm_dim(s, 3);
    return n && c && hw && c % g == 0;
}
}  // namespace ascsim_hl
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    uint32_t n, c, hw;
    if (!ascsim_hl::gn_shape(srcShape, typeSize, groupNum, n, c, hw)) return;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::gn_bytes(typeSize, isReuseSource, c / groupNum, hw, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::gn_bytes(typeSize, isReuseSource, c / groupNum, hw,
                                                        uint64_t(n) * groupNum));
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum,
                                     tiling::GroupNormTiling& tiling) {
    uint32_t n, c, hw;
    tiling = tiling::GroupNormTiling{};
    if (!ascsim_hl::gn_shape(srcShape, typeSize, groupNum, n, c, hw)) return;
    tiling = ascsim_norm::gn_tiling(n, c, hw, groupNum, typeSize, isReuseSource, stackBufferSize);
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum,
                                     optiling::GroupNormTiling& tiling) {
    tiling::GroupNormTiling p;
    GetGroupNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, groupNum, p);
    ascsim_hl::norm_to_host(p, tiling);
}

// ---- BatchNorm: srcShape {B, S, H} (S*H 32-byte aligned), originSrcShape {originB, originS, originH} ----
namespace ascsim_hl {
inline bool bn_shape(const ge::Shape& s, const ge::Shape& o, uint32_t ts, bool basic, uint32_t& ob, uint32_t& sh) {
    if (!norm_ts(ts) || s.GetDimNum() != 3 || o.GetDimNum() != 3) return false;
    ob = norm_dim(o, 0);
    const uint64_t shv = uint64_t(norm_dim(s, 1)) * norm_dim(s, 2);
    sh = norm_clamp32(shv);
    if (!ob || !shv || ob > norm_dim(s, 0) || shv * ts % 32) return false;
    return !basic || (ob % 8 == 0 && shv % 64 == 0 && shv < 2048);
}
}  // namespace ascsim_hl
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                      const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue, const bool isBasicBlock = false) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    uint32_t ob, sh;
    if (!ascsim_hl::bn_shape(srcShape, originSrcShape, typeSize, isBasicBlock, ob, sh)) return false;
    const uint64_t step = isBasicBlock ? 64 : 32 / typeSize;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::bn_bytes(ob, step < sh ? step : sh));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::bn_bytes(ob, sh));
    return true;
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, tiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    (void)isReuseSource;
    uint32_t ob, sh;
    tilling = tiling::BatchNormTiling{};
    if (!ascsim_hl::bn_shape(srcShape, originSrcShape, typeSize, isBasicBlock, ob, sh)) return false;
    tilling = ascsim_norm::bn_tiling(ob, sh, typeSize, isBasicBlock, stackBufferByteSize);
    return tilling.shCurLength != 0;
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    tiling::BatchNormTiling p;
    const bool ok = GetBatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, p,
                                             isBasicBlock);
    ascsim_hl::norm_to_host(p, tilling);
    return ok;
}

// ---- DeepNorm: srcShape {B, S, H}, originSrcShape {B, S, originH}; H at most 2040 ----
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    uint32_t b, s, h, oh;
    if (!ascsim_hl::bsh_pair(srcShape, srcShape, typeSize, b, s, h, oh) || h > 2040) return false;
    const uint64_t rows = uint64_t(b) * s;
    if (isBasicBlock && !(h % 64 == 0 && rows % 8 == 0)) return false;
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::ln_bytes(typeSize, isReuseSource, 1, h, 1));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::ln_bytes(typeSize, isReuseSource, 1, h, rows));
    return true;
}
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, tiling::DeepNormTiling& tiling) {
    uint32_t b, s, h, oh;
    tiling = tiling::DeepNormTiling{};
    if (!ascsim_hl::bsh_pair(srcShape, originSrcShape, typeSize, b, s, h, oh) || h > 2040) return false;
    if (isBasicBlock && !(h % 64 == 0 && uint64_t(b) * s % 8 == 0 && oh == h)) return false;
    tiling = ascsim_norm::ln_tiling<tiling::DeepNormTiling>(b, s, h, oh, typeSize, isReuseSource, 1, stackBufferSize);
    return tiling.bsCurLength != 0;
}
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
    tiling::DeepNormTiling p;
    const bool ok = GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
                                          isBasicBlock, p);
    ascsim_hl::norm_to_host(p, tiling);
    return ok;
}

// ---- Welford (no tiling struct): WelfordUpdate srcShape {rnLength, abLength}, WelfordFinalize {abLength} ----
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)isInplace;
    maxValue = minValue = 0;
    if (!ascsim_hl::norm_ts(typeSizeT) || typeSizeU != 4 || srcShape.GetDimNum() != 2 || srcShape.GetDim(0) != 1 ||
        srcShape.GetDim(1) <= 0)
        return;
    const uint32_t live = ascsim_norm::welford_live(true, typeSizeT, isReuseSource);
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::welford_min(live, uint64_t(srcShape.GetDim(1))));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::welford_max(live, uint64_t(srcShape.GetDim(1))));
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    if (typeSize != 4 || srcShape.GetDimNum() != 1 || srcShape.GetDim(0) <= 0) return;
    const uint32_t live = ascsim_norm::welford_live(false, 4, false);
    minValue = ascsim_hl::norm_clamp32(ascsim_norm::welford_min(live, uint64_t(srcShape.GetDim(0))));
    maxValue = ascsim_hl::norm_clamp32(ascsim_norm::welford_max(live, uint64_t(srcShape.GetDim(0))));
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_NORM_TILING_H_

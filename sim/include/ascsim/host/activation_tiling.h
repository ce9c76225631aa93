// ascsim host side: the temporary-buffer queries and tiling of the activation APIs in kernel/hl_activation.h
// (Gelu/FasterGelu/FasterGeluV2, Silu, Swish, SwiGLU, GeGLU, ReGlu, LogSoftMax), with the documented signatures.
// Sizes follow the kernel's temp model: `live` float vectors, min = live * 256 B, max = live * align32(count * 4) B
// (ascsim_hl::max_min of hl_tiling.h); the live counts below must equal ascsim::kActLive* of the kernel header (the
// driver test checks that the kernel accepts the host's minimum and rejects 32 B less). Silu and Swish use no
// temporary buffer: 0 / 0. LogSoftMax follows SoftMax (softmax_tiling.h): two float rows of srcK at least, two float
// copies of the whole tile at most.
#ifndef ASCSIM_HOST_ACTIVATION_TILING_H_
#define ASCSIM_HOST_ACTIVATION_TILING_H_
#include <cstdint>
#include "register/tilingdata_base.h"
#include "hl_tiling.h"
#include "softmax_tiling.h"

namespace AscendC {
namespace ascsim_act {
inline constexpr uint32_t kLiveGelu = 3, kLiveSwiGLU = 3, kLiveGeGLU = 3, kLiveReGlu = 2;
// the factor form of the same model: maxTmp <= maxLiveNodeCount * count * typeSize + extra
inline void factor(uint32_t live, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extra) {
    maxLiveNodeCount = live * 4u / (typeSize ? typeSize : 4u);
    extra = live * 256u;
}
}  // namespace ascsim_act

// Gelu, FasterGelu and FasterGeluV2 share these.
inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)typeSize;
    ascsim_hl::max_min(srcShape, ascsim_act::kLiveGelu, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    uint32_t mx = 0, mn = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
    return mx;
}
inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    uint32_t mx = 0, mn = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
    return mn;
}

inline void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape; (void)typeSize; (void)isReuseSource;
    maxValue = minValue = 0;
}
inline void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape; (void)typeSize; (void)isReuseSource;
    maxValue = minValue = 0;
}

// SwiGLU's documented order puts isReuseSource last.
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    (void)typeSize; (void)isReuseSource;
    ascsim_hl::max_min(srcShape, ascsim_act::kLiveSwiGLU, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    ascsim_act::factor(ascsim_act::kLiveSwiGLU, typeSize, maxLiveNodeCount, extraBuffer);
}

inline void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    ascsim_hl::max_min(srcShape, ascsim_act::kLiveGeGLU, maxValue, minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascsim_act::factor(ascsim_act::kLiveGeGLU, typeSize, maxLiveNodeCount, extraBuf);
}

inline void GetReGluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    ascsim_hl::max_min(srcShape, ascsim_act::kLiveReGlu, maxValue, minValue);
}
}  // namespace AscendC

// LogSoftMax tiling. The docs name the struct and some of its fields (reduceSize, splitSize) but not the full list:
// it carries SoftMaxTiling's fields (same names), which is all the kernel reads (srcM / srcK when no
// SoftMaxShapeInfo is given). Kernels nest it with TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, ...).
namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcM);
    TILING_DATA_FIELD_DEF(uint32_t, srcK);
    TILING_DATA_FIELD_DEF(uint32_t, srcSize);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
    TILING_DATA_FIELD_DEF(uint32_t, splitM);
    TILING_DATA_FIELD_DEF(uint32_t, splitK);
    TILING_DATA_FIELD_DEF(uint32_t, splitSize);
    TILING_DATA_FIELD_DEF(uint32_t, reduceM);
    TILING_DATA_FIELD_DEF(uint32_t, reduceK);
    TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
    TILING_DATA_FIELD_DEF(uint32_t, rangeM);
    TILING_DATA_FIELD_DEF(uint32_t, tailM);
    TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
    TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace tiling {
// The plain-struct form the docs' host example fills (AscendC::tiling::LogSoftMaxTiling).
struct LogSoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0, splitM = 0, splitK = 0,
             splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0, rangeM = 0, tailM = 0, tailSplitSize = 0,
             tailReduceSize = 0;
};
}  // namespace tiling

inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * ((k * 4u + 31u) / 32u * 32u);
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * m * ((k * 4u + 31u) / 32u * 32u);
}
// Rows are processed in groups of splitM: as many as two float rows each fit in localWorkSpaceSize (at most srcM;
// 0 when even one row does not fit); rangeM full groups and a tail of tailM rows. The stats are one 32 B block/row.
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, tiling::LogSoftMaxTiling& softmaxTiling) {
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    const uint32_t row = 2u * ((k * 4u + 31u) / 32u * 32u);
    uint32_t rows = row ? localWorkSpaceSize / row : 0;
    if (rows > m) rows = m;
    const uint32_t blk = 32u / (dataTypeSize ? dataTypeSize : 4u), tail = rows ? m % rows : m;
    tiling::LogSoftMaxTiling& t = softmaxTiling;
    t.srcM = m; t.srcK = k; t.srcSize = m * k;
    t.outMaxM = m; t.outMaxK = blk; t.outMaxSize = m * blk;
    t.splitM = rows; t.splitK = k; t.splitSize = rows * k;
    t.reduceM = rows; t.reduceK = blk; t.reduceSize = rows * blk;
    t.rangeM = rows ? m / rows : 0; t.tailM = tail; t.tailSplitSize = tail * k; t.tailReduceSize = tail * blk;
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling) {
    tiling::LogSoftMaxTiling s;
    LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, s);
    optiling::LogSoftMaxTiling& t = softmaxTiling;
    t.set_srcM(s.srcM); t.set_srcK(s.srcK); t.set_srcSize(s.srcSize);
    t.set_outMaxM(s.outMaxM); t.set_outMaxK(s.outMaxK); t.set_outMaxSize(s.outMaxSize);
    t.set_splitM(s.splitM); t.set_splitK(s.splitK); t.set_splitSize(s.splitSize);
    t.set_reduceM(s.reduceM); t.set_reduceK(s.reduceK); t.set_reduceSize(s.reduceSize);
    t.set_rangeM(s.rangeM); t.set_tailM(s.tailM);
    t.set_tailSplitSize(s.tailSplitSize); t.set_tailReduceSize(s.tailReduceSize);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_ACTIVATION_TILING_H_

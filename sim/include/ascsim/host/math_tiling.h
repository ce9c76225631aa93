// ascsim host side: the temporary-buffer size functions of the math APIs in kernel/hl_rounding_math.h (Floor, Ceil,
// Round, Trunc, Acosh, Asinh, Atanh, Clamp (for ClampMax / ClampMin), Xor, Lgamma, Digamma, Exp, Axpy), plus the
// documented Power overloads that name both operand shapes. Signatures as documented; the sizes follow the
// simulator's temp model (hl_tiling.h): `live` float vectors, min = live * 256 B, max = live * align32(count * 4) B,
// maxLiveNodeCount = live * 4 / typeSize, extraBuf = live * 256 B. The live counts must match the kernel header's.
#ifndef ASCSIM_HOST_MATH_TILING_H_
#define ASCSIM_HOST_MATH_TILING_H_
#include <algorithm>
#include <cstdint>
#include "hl_tiling.h"

namespace AscendC {
namespace ascsim_math {
inline void factor(uint32_t live, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = live * 4 / (typeSize ? typeSize : 4);
    extraBuf = live * 256u;
}
// Lgamma, Digamma and Exp keep one vector in the source when isReuseSource is set on float (typeSize 4).
inline uint32_t live_with_reuse(uint32_t live, uint32_t typeSize, bool isReuseSource) {
    return isReuseSource && typeSize == 4 ? live - 1 : live;
}
}  // namespace ascsim_math

#define ASCSIM_MATH_TMP(NAME, LIVE, REUSE)                                                                             \
    inline void Get##NAME##MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,                         \
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {         \
        const uint32_t live = REUSE ? ascsim_math::live_with_reuse(LIVE, typeSize, isReuseSource) : LIVE;            \
        ascsim_hl::max_min(srcShape, live, maxValue, minValue);                                                      \
    }                                                                                                                \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,                  \
                                               uint32_t& extraBuf) {                                                 \
        ascsim_math::factor(LIVE, typeSize, maxLiveNodeCount, extraBuf);                                             \
    }
ASCSIM_MATH_TMP(Floor, 1, false) ASCSIM_MATH_TMP(Ceil, 1, false) ASCSIM_MATH_TMP(Trunc, 1, false)
ASCSIM_MATH_TMP(Acosh, 2, false) ASCSIM_MATH_TMP(Asinh, 2, false) ASCSIM_MATH_TMP(Atanh, 2, false)
ASCSIM_MATH_TMP(Clamp, 1, false) ASCSIM_MATH_TMP(Xor, 1, false) ASCSIM_MATH_TMP(Lgamma, 4, true)
ASCSIM_MATH_TMP(Digamma, 4, true) ASCSIM_MATH_TMP(Axpy, 1, false)
#undef ASCSIM_MATH_TMP

// Round's pair also takes the platform (the simulator models Atlas A2 only, so it does not change the sizes).
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)typeSize; (void)isReuseSource;
    ascsim_hl::max_min(srcShape, 1, maxValue, minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)ascendcPlatform;
    ascsim_math::factor(1, typeSize, maxLiveNodeCount, extraBuf);
}

// Exp's size function answers whether it could size the buffer: an empty shape or a type other than half / float
// (typeSize 2 / 4) leaves 0 / 0 and returns false.
inline bool GetExpMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    if ((typeSize != 2 && typeSize != 4) || srcShape.GetShapeSize() <= 0) return false;
    ascsim_hl::max_min(srcShape, ascsim_math::live_with_reuse(3, typeSize, isReuseSource), maxValue, minValue);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    ascsim_math::factor(3, typeSize, maxLiveNodeCount, extraBuffer);
}

// Power's documented pair names both operands (a scalar operand's shape is {1}) and whether the type is int32_t;
// the kernel Power (hl_math.h) keeps 4 live vectors of the larger operand whatever the operand kinds.
inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)typeIsInt; (void)typeSize; (void)isReuseSource;
    const bool firstLarger = srcShape1.GetShapeSize() >= srcShape2.GetShapeSize();
    ascsim_hl::max_min(firstLarger ? srcShape1 : srcShape2, 4, maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)baseIsTensor; (void)expIsTensor; (void)typeIsInt;
    ascsim_math::factor(4, typeSize, maxLiveNodeCount, extraBuffer);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_MATH_TILING_H_

// ascsim host side: temporary-buffer size helpers of the high-level APIs (GetXxxMaxMinTmpSize,
// GetXxxTmpBufferFactorSize) and ge::Shape. The sizes follow the simulator's temp model (kernel/hl_math.h): an
// API keeps `live` float vectors; min = live * 256 B, max = live * align32(count * 4) B.
#ifndef ASCSIM_HOST_HL_TILING_H_
#define ASCSIM_HOST_HL_TILING_H_
#include <cstdint>
#include <initializer_list>
#include <vector>
#include "ge_types.h"
#include "../hl_common.h"
#include "platform.h"

namespace ge {
#ifndef ASCSIM_GE_SHAPE_DEFINED
#define ASCSIM_GE_SHAPE_DEFINED
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (auto d : dims_) n *= d;
        return dims_.empty() ? 0 : n;
    }
private:
    std::vector<int64_t> dims_;
};
#endif
}  // namespace ge

namespace AscendC {
namespace ascsim_hl {
inline void max_min(const ge::Shape& s, uint32_t live, uint32_t& maxValue, uint32_t& minValue) {
    uint64_t bytes = uint64_t(s.GetShapeSize()) * 4;
    minValue = live * 256u;
    uint64_t mx = uint64_t(live) * ((bytes + 31) / 32 * 32);
    maxValue = uint32_t(mx < minValue ? minValue : mx);
}
}  // namespace ascsim_hl

#define ASCSIM_HL_TMP(NAME, LIVE)                                                                                   \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                         uint32_t& maxValue, uint32_t& minValue) {                                   \
        (void)typeSize; (void)isReuseSource;                                                                        \
        ascsim_hl::max_min(srcShape, LIVE, maxValue, minValue);                                                     \
    }                                                                                                               \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) { \
        maxLiveNodeCount = LIVE * 4 / (typeSize ? typeSize : 4);                                                    \
        extraBuffer = LIVE * 256u;                                                                                  \
    }
ASCSIM_HL_TMP(Sigmoid, 2) ASCSIM_HL_TMP(Tanh, 2) ASCSIM_HL_TMP(Erf, 3) ASCSIM_HL_TMP(Erfc, 3) ASCSIM_HL_TMP(Sin, 3)
ASCSIM_HL_TMP(Cos, 3) ASCSIM_HL_TMP(Tan, 3) ASCSIM_HL_TMP(Asin, 3) ASCSIM_HL_TMP(Acos, 3) ASCSIM_HL_TMP(Atan, 3)
ASCSIM_HL_TMP(Sinh, 2) ASCSIM_HL_TMP(Cosh, 2) ASCSIM_HL_TMP(Log, 1) ASCSIM_HL_TMP(Log2, 1) ASCSIM_HL_TMP(Log10, 1)
ASCSIM_HL_TMP(Sign, 1) ASCSIM_HL_TMP(Frac, 1) ASCSIM_HL_TMP(Power, 4) ASCSIM_HL_TMP(Sum, 2) ASCSIM_HL_TMP(Mean, 2)
ASCSIM_HL_TMP(BroadCast, 1)
#undef ASCSIM_HL_TMP

// The documented host types of the high-level tiling functions.
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;

// The pattern reductions (kernel/hl_reduce.h): Atlas A2 supports AR and RA with padded rows (isSrcInnerPad true). min == max. Unsupported arguments leave both at 0, as the toolkit's
// checks do after logging, so a kernel that relies on them fails at its tmp-size check.
// ReducePattern (hl_common.h) names the pattern on the tiling side.
namespace ascsim_hl {
inline void reduce_max_min(::ascsim::HlReduce op, const ge::Shape& s, ge::DataType dt, ReducePattern pattern, bool innerPad,
                           bool reuse, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
    const bool f32 = dt == ge::DT_FLOAT, f16 = dt == ge::DT_FLOAT16, u8 = dt == ge::DT_UINT8;
    bool dtype_ok = false;
    switch (op) {
        case ::ascsim::HlReduce::MAX: case ::ascsim::HlReduce::MIN: dtype_ok = f32 || f16; break;
        case ::ascsim::HlReduce::ANY: case ::ascsim::HlReduce::ALL: dtype_ok = f32 || u8; break;
        default: dtype_ok = f32;
    }
    if (!dtype_ok || !innerPad || s.GetDimNum() != 2 || (pattern != ReducePattern::AR && pattern != ReducePattern::RA) ||
        s.GetDim(0) <= 0 || s.GetDim(1) <= 0)
        return;
    minValue = maxValue = ::ascsim::hl_reduce_min_tmp(op, f32 ? 4u : (f16 ? 2u : 1u), pattern == ReducePattern::AR,
                                                      uint32_t(s.GetDim(0)), uint32_t(s.GetDim(1)), reuse);
}
}  // namespace ascsim_hl
#define ASCSIM_REDUCE_TMP(NAME, OP)                                                                                    \
    inline void Get##NAME##MaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType, ReducePattern pattern, \
                                         bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
        ascsim_hl::reduce_max_min(OP, srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue); \
    }
ASCSIM_REDUCE_TMP(ReduceSum, ::ascsim::HlReduce::SUM) ASCSIM_REDUCE_TMP(ReduceMean, ::ascsim::HlReduce::MEAN)
ASCSIM_REDUCE_TMP(ReduceMax, ::ascsim::HlReduce::MAX) ASCSIM_REDUCE_TMP(ReduceMin, ::ascsim::HlReduce::MIN)
ASCSIM_REDUCE_TMP(ReduceProd, ::ascsim::HlReduce::PROD) ASCSIM_REDUCE_TMP(ReduceAny, ::ascsim::HlReduce::ANY)
ASCSIM_REDUCE_TMP(ReduceAll, ::ascsim::HlReduce::ALL)
#undef ASCSIM_REDUCE_TMP

// CumSum over a 2-D [outter, inner] shape (inner * typeSize a multiple of 32 bytes); anything else leaves 0 / 0.
inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    maxValue = minValue = 0;
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4) || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0 ||
        (uint64_t(srcShape.GetDim(1)) * typeSize) % 32)
        return;
    const uint32_t rows = uint32_t(srcShape.GetDim(0)), inner = uint32_t(srcShape.GetDim(1));
    minValue = ::ascsim::cumsum_min_tmp(typeSize, isLastAxis, rows, inner);
    maxValue = ::ascsim::cumsum_min_tmp(typeSize, isLastAxis, rows, inner, true);
}

// Broadcast (the documented form: the platform, both shapes). 1 or 2 dims, equal in number, every source dim equal to
// the result's or 1, typeSize 1, 2 or 4; with 2 dims and the row broadcast (axis 0) the row must be 32-byte aligned.
// Anything else leaves 0 / 0.
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const TensorShape& srcShape,
                                      const TensorShape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource;
    maxValue = minValue = 0;
    const size_t dims = srcShape.GetDimNum();
    if ((typeSize != 1 && typeSize != 2 && typeSize != 4) || (dims != 1 && dims != 2) || dstShape.GetDimNum() != dims ||
        srcShape.GetShapeSize() <= 0)
        return;
    for (size_t i = 0; i < dims; ++i)
        if (srcShape.GetDim(i) != dstShape.GetDim(i) && srcShape.GetDim(i) != 1) return;
    const uint32_t m = dims == 2 ? uint32_t(dstShape.GetDim(0)) : 1, k = uint32_t(dstShape.GetDim(dims - 1));
    const int axis = dims == 2 && srcShape.GetDim(1) == 1 ? 1 : 0;
    if (dims == 2 && axis == 0 && (uint64_t(k) * typeSize) % 32) return;
    const uint64_t src = uint64_t(srcShape.GetShapeSize());
    minValue = ::ascsim::broadcast_min_tmp(typeSize, m, k, src, axis);
    maxValue = ::ascsim::broadcast_min_tmp(typeSize, m, k, src, axis, true);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_HL_TILING_H_
#include "softmax_tiling.h"   // after the guard: it includes this header
#include "matmul_tiling.h"

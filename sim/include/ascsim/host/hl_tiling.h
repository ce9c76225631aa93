// ascsim host side: temporary-buffer size helpers of the high-level APIs (GetXxxMaxMinTmpSize,
// GetXxxTmpBufferFactorSize) and ge::Shape. The sizes follow the simulator's temp model (kernel/hl_math.h): an
// API keeps `live` float vectors; min = live * 256 B, max = live * align32(count * 4) B.
#ifndef ASCSIM_HOST_HL_TILING_H_
#define ASCSIM_HOST_HL_TILING_H_
#include <cstdint>
#include <initializer_list>
#include <vector>

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
}  // namespace AscendC
#endif  // ASCSIM_HOST_HL_TILING_H_
#include "softmax_tiling.h"   // after the guard: it includes this header
#include "matmul_tiling.h"

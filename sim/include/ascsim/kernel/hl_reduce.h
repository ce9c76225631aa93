// ascsim: high-level row reductions Sum / Mean (reference §2.9). src is outter rows of `inner` elements (inner =
// n padded to 32 bytes); row i's first n elements reduce into dst[i]. Accumulation in float, rounded to T once.
// Temp model as in hl_math.h (2 live float vectors).
#ifndef ASCSIM_KERNEL_HL_REDUCE_H_
#define ASCSIM_KERNEL_HL_REDUCE_H_
#include <string>
#include "hl_math.h"

namespace AscendC {
struct SumParams { uint32_t outter = 1; uint32_t inner = 0; uint32_t n = 0; };
struct MeanParams { uint32_t outter = 1; uint32_t inner = 0; uint32_t n = 0; };
}  // namespace AscendC

namespace ascsim {
template <class T, class Acc, class P>
inline void hl_row_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<uint8_t>* tmp, const P& p, bool mean) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum/Mean support half and float");
    if (p.outter == 0 || p.n == 0) return;
    uint32_t want = (p.n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    if (p.inner != want)
        fail(api, "Failed to check params", "inner must be n padded to 32 bytes: n " + std::to_string(p.n) + " -> inner " +
                                               std::to_string(want) + ", got " + std::to_string(p.inner));
    const uint32_t n = p.outter * p.inner;
    check_src(api, src, n);          // read only (no write-after-read against another pipe reading it)
    check_dst(api, dst, p.outter);
    hl_check_tmp(api, tmp, n, 2, {{src.addr_, size_t(n) * sizeof(T)}});
    std::vector<T> out(p.outter);
    for (uint32_t r = 0; r < p.outter; ++r) {
        Acc s = 0;
        for (uint32_t i = 0; i < p.n; ++i) s += Acc(float(src.addr_[size_t(r) * p.inner + i]));
        out[r] = T(float(mean ? s / Acc(p.n) : s));
    }
    std::memcpy(static_cast<void*>(dst.addr_), out.data(), out.size() * sizeof(T));
}
}  // namespace ascsim

namespace AscendC {
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SumParams& sumParams) {
    ::ascsim::hl_row_reduce<T, float>("Sum", dstTensor, srcTensor, &sharedTmpBuffer, sumParams, false);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
    ::ascsim::hl_row_reduce<T, float>("Sum", dstTensor, srcTensor, nullptr, sumParams, false);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const MeanParams& meanParams) {
    ::ascsim::hl_row_reduce<T, float>("Mean", dstTensor, srcTensor, &sharedTmpBuffer, meanParams, true);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) {
    ::ascsim::hl_row_reduce<T, float>("Mean", dstTensor, srcTensor, nullptr, meanParams, true);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_REDUCE_H_

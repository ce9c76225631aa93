// ascsim: more high-level APIs for Atlas A2. Present: ReduceXorSum (归约操作/ReduceXorSum接口).
// Not here: Fma, Hypot, Rint (their pages list Atlas A2 as unsupported); Fmod (hl_fmod.h); ConfusionTranspose (no page in
// the docs this simulator follows).
//
// ReduceXorSum (ReduceXorSum.md): dst[0] = sum over i < calCount of (src0[i] ^ src1[i]), each xor taken as an int16_t
// value, the sum saturated to [-32768, 32767] (documented note). The sum is exact here (the doc only says the 310P AI
// Core keeps intermediates in half; nothing is said about A2's precision, so the simulator does not round).
// Rules: T int16_t only; sources and destination must not overlap; sharedTmpBuffer must not overlap them; calCount
// within both sources' element counts. Temp model (simulator's own; the doc says max == min):
//   bytes = align32(calCount * 2) (the xor result; 0 with isReuseSource, built in src0) + align32(calCount * 4)
//           (the float sums) + 32
#ifndef ASCSIM_KERNEL_HL_MISC_MORE_H_
#define ASCSIM_KERNEL_HL_MISC_MORE_H_
#include <cstdint>
#include <string>
#include "hl_math.h"

namespace ascsim_misc_more {
constexpr uint64_t a32(uint64_t b) { return (b + 31) / 32 * 32; }
constexpr uint64_t xor_sum_bytes(uint64_t n, bool reuse) { return (reuse ? 0 : a32(n * 2)) + a32(n * 4) + 32; }
}  // namespace ascsim_misc_more

namespace ascsim {
namespace misc_more {
inline bool span_overlap(const void* a, size_t na, const void* b, size_t nb) {
    const uint8_t *x = static_cast<const uint8_t*>(a), *y = static_cast<const uint8_t*>(b);
    return na && nb && x < y + nb && y < x + na;
}
template <class T, bool reuse>
void reduce_xor_sum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& s0,
                    const AscendC::LocalTensor<T>& s1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n) {
    static_assert(std::is_same_v<T, int16_t>, "ReduceXorSum supports int16_t only on Atlas A2");
    const char* api = "ReduceXorSum";
    if (n == 0) fail(api, "Failed to check params", "calCount must be larger than 0");
    if (n > s0.GetSize() || n > s1.GetSize())
        fail(api, "Failed to check params",
             "calCount (" + std::to_string(n) + ") must not exceed the element count of src0Tensor (" +
                 std::to_string(s0.GetSize()) + ") or src1Tensor (" + std::to_string(s1.GetSize()) + ")");
    check_src(api, s0, n); check_src(api, s1, n); check_dst(api, dst, 1);
    const size_t nb = size_t(n) * 2;
    if (span_overlap(dst.addr_, 2, s0.addr_, nb) || span_overlap(dst.addr_, 2, s1.addr_, nb))
        fail(api, "Failed to check params", "dstTensor must not overlap src0Tensor or src1Tensor");
    const uint64_t need = ascsim_misc_more::xor_sum_bytes(n, reuse);
    hl_check_tmp_bytes(api, tmp, need, need, {{dst.addr_, 2}, {s0.addr_, nb}, {s1.addr_, nb}},
                       "GetReduceXorSumMaxMinTmpSize");
    int64_t s = 0;
    for (uint32_t i = 0; i < n; ++i) s += int16_t(uint16_t(s0.addr_[i]) ^ uint16_t(s1.addr_[i]));
    dst.addr_[0] = int16_t(s < -32768 ? -32768 : (s > 32767 ? 32767 : s));
}
}  // namespace misc_more
}  // namespace ascsim

namespace AscendC {
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const uint32_t calCount) {
    ::ascsim::misc_more::reduce_xor_sum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer,
                                                          calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    ::ascsim::misc_more::reduce_xor_sum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_MISC_MORE_H_

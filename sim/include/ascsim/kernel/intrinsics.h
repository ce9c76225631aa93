// ascsim: raw bisheng vector intrinsics that AscendC kernels mix in (reference §2.10). They take `__ubuf__ T*`
// pointers (plain host addresses here, from LocalTensor::GetPhyAddr()) and use the core's mask register, like the
// hardware. pipe_barrier / set_flag / wait_flag / set_vector_mask / set_mask_* live in sys.h.
// Signatures follow the call sites in real kernels (they are not in the AscendC docs).
#ifndef ASCSIM_KERNEL_INTRINSICS_H_
#define ASCSIM_KERNEL_INTRINSICS_H_
#include <string>
#include "engine.h"

namespace ascsim {
// The effective mask of a raw intrinsic: always the mask register (normal or counter mode).
template <class T> inline Mask raw_mask() { return mask_from(uint64_t(0), int(256 / sizeof(T)), false); }
template <class T> inline double up_raw(T v) { return double(float(v)); }

// The accumulator read by get_acc_val(): convertible to the integer/float types kernels assign it to.
struct AccValue {
    double v;
    operator float() const { return float(v); }
    operator double() const { return v; }
    operator half() const { return half(float(v)); }
    operator int64_t() const { return int64_t(v); }
    operator uint64_t() const { return uint64_t(v); }
    operator int32_t() const { return int32_t(v); }
};
}  // namespace ascsim

// vcadd: per repeat, the sum of the active elements -> dst[r * dstRepStride] (dstRepStride in result elements);
// accMode: everything is summed into the accumulator register (get_acc_val) and dst may be null.
template <typename T>
__aicore__ inline void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                             uint16_t srcRepStride, bool accMode = false) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "vcadd supports half and float");
    using namespace ascsim;
    constexpr uint32_t epr = 256 / sizeof(T);
    Mask m = raw_mask<T>();
    Opnd s{reinterpret_cast<uint8_t*>(src), uint32_t(sizeof(T)), srcBlkStride, srcRepStride};
    const Opnd ops[1] = {s};
    uint32_t reps = prepare_repeats("vcadd", m, repeat, epr, ops);
    double acc = 0;
    for (uint32_t r = 0; r < reps; ++r) {
        float sum = 0;
        uint32_t n = m.counter ? uint32_t(std::min<uint64_t>(m.total - uint64_t(r) * epr, epr)) : epr;
        for (uint32_t i = 0; i < n; ++i)
            if (m.counter || bit(m, i)) sum += float(*reinterpret_cast<T*>(s.at(r, i)));
        if (accMode) { acc += sum; continue; }
        T* d = dst + size_t(r) * dstRepStride;
        check_ub("vcadd", d, sizeof(T));
        *d = T(sum);
    }
    if (accMode) core().acc_val = acc;
}
__aicore__ inline ascsim::AccValue get_acc_val() { return ascsim::AccValue{::ascsim::core().acc_val}; }

// vector_dup: scalar broadcast through the repeat engine (dst only).
template <typename T, typename S>
__aicore__ inline void vector_dup(T* dst, S value, uint8_t repeat, uint16_t dstBlkStride, uint16_t srcBlkStride,
                                  uint8_t dstRepStride, uint8_t srcRepStride) {
    using namespace ascsim;
    (void)srcBlkStride; (void)srcRepStride;
    constexpr uint32_t epr = 256 / sizeof(T);
    Mask m = raw_mask<T>();
    const Opnd ops[1] = {Opnd{reinterpret_cast<uint8_t*>(dst), uint32_t(sizeof(T)), dstBlkStride, dstRepStride}};
    T v = T(value);
    for_each_active("vector_dup", m, repeat, epr, ops, [&](uint32_t r, uint32_t i) { *reinterpret_cast<T*>(ops[0].at(r, i)) = v; });
}

// vor: bitwise OR of 16-bit lanes.
template <typename T>
__aicore__ inline void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride,
                           uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride) {
    static_assert(sizeof(T) == 2, "vor operates on 16-bit lanes");
    using namespace ascsim;
    constexpr uint32_t epr = 128;
    Mask m = raw_mask<T>();
    const Opnd ops[3] = {Opnd{reinterpret_cast<uint8_t*>(dst), 2, dstBlkStride, dstRepStride},
                         Opnd{reinterpret_cast<uint8_t*>(src0), 2, src0BlkStride, src0RepStride},
                         Opnd{reinterpret_cast<uint8_t*>(src1), 2, src1BlkStride, src1RepStride}};
    for_each_active("vor", m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        uint16_t a, b;
        std::memcpy(&a, ops[1].at(r, i), 2);
        std::memcpy(&b, ops[2].at(r, i), 2);
        uint16_t c = uint16_t(a | b);
        std::memcpy(ops[0].at(r, i), &c, 2);
    });
}

// vtranspose: one 16x16 matrix of 16-bit elements (512 B), dst = src^T.
template <typename T> __aicore__ inline void vtranspose(T* dst, T* src) {
    static_assert(sizeof(T) == 2, "vtranspose transposes 16x16 matrices of 16-bit elements");
    ascsim::check_ub_aligned("vtranspose", dst);
    ascsim::check_ub_aligned("vtranspose", src);
    ascsim::check_ub("vtranspose", dst, 512);
    ascsim::check_ub("vtranspose", src, 512);
    uint16_t tmp[256];
    std::memcpy(tmp, src, 512);
    uint16_t out[256];
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) out[c * 16 + r] = tmp[r * 16 + c];
    std::memcpy(dst, out, 512);
}

// copy_ubuf_to_ubuf: nBurst bursts of lenBurst 32-byte blocks, gaps in 32-byte blocks.
__aicore__ inline void copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                                         uint16_t srcGap, uint16_t dstGap) {
    (void)sid;
    auto* d = static_cast<uint8_t*>(dst);
    auto* s = static_cast<uint8_t*>(src);
    ascsim::check_ub_aligned("copy_ubuf_to_ubuf", d);
    ascsim::check_ub_aligned("copy_ubuf_to_ubuf", s);
    for (uint32_t b = 0; b < nBurst; ++b) {
        uint8_t* db = d + size_t(b) * (lenBurst + dstGap) * 32;
        uint8_t* sb = s + size_t(b) * (lenBurst + srcGap) * 32;
        ascsim::check_ub("copy_ubuf_to_ubuf", db, size_t(lenBurst) * 32);
        ascsim::check_ub("copy_ubuf_to_ubuf", sb, size_t(lenBurst) * 32);
        std::memmove(db, sb, size_t(lenBurst) * 32);
    }
}

// scatter_vnchwconv_b16 (address-list transposes) is not modelled: kernels that use it fail to compile with this message.
template <typename... A> inline void scatter_vnchwconv_b16(A...) {
    static_assert(sizeof...(A) < 0, "ascsim: scatter_vnchwconv_b16 is not simulated");
}

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif

namespace AscendC {
template <typename T, typename U> struct IsSame { static constexpr bool value = false; };
template <typename T> struct IsSame<T, T> { static constexpr bool value = true; };
template <typename T, typename U> __aicore__ inline constexpr auto AlignUp(T a, U b) -> decltype(a + b) {
    return b == 0 ? a : (a + b - 1) / b * b;
}
template <typename T, typename U> __aicore__ inline constexpr auto CeilDivision(T a, U b) -> decltype(a + b) {
    return b == 0 ? a : (a + b - 1) / b;
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_INTRINSICS_H_

// ascsim kernel side: Gather (byte offsets) and GatherMask (pattern compaction).
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_GATHER_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_GATHER_H_
#include "dtype_check.h"
#include "engine.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                              const uint32_t srcBaseOffset, const uint32_t count) {
    ASCSIM_DTYPE_CHECK("Gather", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    if (!::ascsim::check_dst("Gather", dst, count)) return;
    ::ascsim::check_src("Gather", srcOffset, count);
    const uint8_t* base = (const uint8_t*)src.addr_ + srcBaseOffset;
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* p = base + srcOffset.addr_[i];
        ::ascsim::check_ub("Gather", p, sizeof(T));
        ::ascsim::sync_v_read("Gather", p, sizeof(T));
        if ((p - ::ascsim::core().ub) % sizeof(T))
            ::ascsim::fail("Gather", "The UB address accessed by the VEC instruction is not aligned.",
                           "gather offset " + std::to_string(srcOffset.addr_[i]) + " is not a multiple of sizeof(T)");
        std::memcpy(&dst.addr_[i], p, sizeof(T));
    }
}

namespace detail_gm {
template <class T> inline bool builtin_bit(uint8_t pattern, uint32_t i) {
    switch (pattern) {
        case 1: return i % 2 == 0;
        case 2: return i % 2 == 1;
        case 3: return i % 4 == 0;
        case 4: return i % 4 == 1;
        case 5: return i % 4 == 2;
        case 6: return i % 4 == 3;
        case 7: return true;
        default: ::ascsim::fail("GatherMask", "Failed to check src1Pattern value in GatherMask",
                                "built-in pattern " + std::to_string(pattern) + " is outside 1..7");
    }
}
template <class T, class Bit>
inline void gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduceMode, uint32_t mask,
                        const GatherMaskParams& p, uint64_t& rsvdCnt, Bit&& bitf) {
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::check_ub_aligned("GatherMask", dst.addr_);
    ::ascsim::check_ub_aligned("GatherMask", src0.addr_);
    ::ascsim::Opnd o{(uint8_t*)src0.addr_, sizeof(T), p.src0BlockStride, p.src0RepeatStride};
    uint64_t out = 0;
    if (reduceMode) {
        for (uint32_t e = 0; e < mask; ++e) {
            uint32_t r = e / epr, i = e % epr;
            if (!bitf(r, i)) continue;
            T* s = (T*)o.at(r, i);
            ::ascsim::check_ub("GatherMask", s, sizeof(T));
            ::ascsim::check_ub("GatherMask", dst.addr_ + out, sizeof(T));
            ::ascsim::sync_v_read("GatherMask", s, sizeof(T));
            ::ascsim::sync_v_write("GatherMask", dst.addr_ + out, sizeof(T));
            dst.addr_[out++] = *s;
        }
    } else {
        for (uint32_t r = 0; r < p.repeatTimes; ++r)
            for (uint32_t i = 0; i < epr; ++i) {
                if (!bitf(r, i)) continue;
                T* s = (T*)o.at(r, i);
                ::ascsim::check_ub("GatherMask", s, sizeof(T));
                ::ascsim::check_ub("GatherMask", dst.addr_ + out, sizeof(T));
                ::ascsim::sync_v_read("GatherMask", s, sizeof(T));
                ::ascsim::sync_v_write("GatherMask", dst.addr_ + out, sizeof(T));
                dst.addr_[out++] = *s;
            }
    }
    rsvdCnt = out;
    auto& c = ::ascsim::core();
    c.counter_mode = false;   // GatherMask leaves the mask in normal mode
    c.mask[0] = c.mask[1] = ~0ull;
}
}  // namespace detail_gm

template <typename T, typename U, GatherMaskMode mode = GatherMaskMode::VERSION_V1>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
    ASCSIM_DTYPE_CHECK("GatherMask", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    static_assert(sizeof(U) == sizeof(T) || (sizeof(T) == 4 && sizeof(U) == 4),
                  "Failed to check dtype in GatherMask, src1Pattern must be uint16_t for 16-bit and uint32_t for 32-bit types.");
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    const uint8_t* pat = (const uint8_t*)src1Pattern.addr_;
    uint32_t rstride = gatherMaskParams.src1RepeatStride;
    detail_gm::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt, [&](uint32_t r, uint32_t i) {
        const uint8_t* base = reduceMode ? pat + size_t(r) * epr / 8 : pat + size_t(r) * rstride * 32;
        return ::ascsim::get_bit(base, i);
    });
}
template <typename T, GatherMaskMode mode = GatherMaskMode::VERSION_V1>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
    ASCSIM_DTYPE_CHECK("GatherMask", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    detail_gm::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                           [&](uint32_t, uint32_t i) { return detail_gm::builtin_bit<T>(src1Pattern, i); });
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_GATHER_H_

// ascsim kernel side: Cast with the Atlas A2 (src, dst, round mode) table. Unsupported pairs fail to compile;
// a supported pair with an unsupported round mode issues no instruction on hardware (dst keeps stale data),
// which the simulator reports as a runtime error.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_
#include "dtype_check.h"
#include "engine.h"

namespace ascsim {
enum : uint32_t { M_N = 1u << 0, M_R = 1u << 1, M_F = 1u << 2, M_C = 1u << 3, M_RO = 1u << 4, M_T = 1u << 5, M_O = 1u << 6,
                  M_RFCRT = M_R | M_F | M_C | M_RO | M_T, M_ANY = 0xffu };
template <class S, class D> constexpr uint32_t cast_modes() {
    using std::is_same_v;
    if constexpr (is_same_v<S, int8_t> && is_same_v<D, half>) return M_N;
    else if constexpr (is_same_v<S, uint8_t> && is_same_v<D, half>) return M_N;
    else if constexpr (is_same_v<S, int16_t> && is_same_v<D, half>) return M_RFCRT | M_N;
    else if constexpr (is_same_v<S, int16_t> && is_same_v<D, float>) return M_N;
    else if constexpr (is_same_v<S, half> && (is_same_v<D, int8_t> || is_same_v<D, uint8_t>)) return M_RFCRT | M_N;
    else if constexpr (is_same_v<S, half> && (is_same_v<D, int16_t> || is_same_v<D, int32_t>)) return M_RFCRT;
    else if constexpr (is_same_v<S, half> && is_same_v<D, float>) return M_N;
    else if constexpr (is_same_v<S, bfloat16_t> && is_same_v<D, int32_t>) return M_RFCRT;
    else if constexpr (is_same_v<S, bfloat16_t> && is_same_v<D, float>) return M_N;
    else if constexpr (is_same_v<S, int32_t> && is_same_v<D, int16_t>) return M_N;
    else if constexpr (is_same_v<S, int32_t> && is_same_v<D, half>) return M_ANY;
    else if constexpr (is_same_v<S, int32_t> && is_same_v<D, float>) return M_RFCRT | M_N;
    else if constexpr (is_same_v<S, int32_t> && is_same_v<D, int64_t>) return M_N;
    else if constexpr (is_same_v<S, float> && is_same_v<D, int16_t>) return M_RFCRT;
    else if constexpr (is_same_v<S, float> && is_same_v<D, half>) return M_RFCRT | M_O | M_N;
    else if constexpr (is_same_v<S, float> && is_same_v<D, bfloat16_t>) return M_RFCRT;
    else if constexpr (is_same_v<S, float> && (is_same_v<D, int32_t> || is_same_v<D, float> || is_same_v<D, int64_t>)) return M_RFCRT;
    else if constexpr (is_same_v<S, int64_t> && is_same_v<D, int32_t>) return M_N;
    else if constexpr (is_same_v<S, int64_t> && is_same_v<D, float>) return M_RFCRT;
    else return 0;
}
template <class T> const char* type_name();
const char* round_mode_name(int mode);

template <class D, class S> inline D cast_one(S v, int mode) {
    if constexpr (std::is_same_v<S, int32_t> && std::is_same_v<D, half>) return half(float(v) * core().deq_scale);
    else return convert<D, S>(v, mode);
}
// Element loops with the round mode as a template argument: the per-element mode switch folds away.
template <int M, class D, class S> inline void cast_run_m(D* d, const S* s, uint32_t n, bool backwards) {
    if (backwards) { for (int64_t i = int64_t(n) - 1; i >= 0; --i) d[i] = cast_one<D>(s[i], M); }
    else { for (uint32_t i = 0; i < n; ++i) d[i] = cast_one<D>(s[i], M); }
}
template <class D, class S> inline void cast_run(D* d, const S* s, uint32_t n, int mode, bool backwards) {
    switch (mode) {
        case R_NONE: cast_run_m<R_NONE>(d, s, n, backwards); break;
        case R_RINT: cast_run_m<R_RINT>(d, s, n, backwards); break;
        case R_FLOOR: cast_run_m<R_FLOOR>(d, s, n, backwards); break;
        case R_CEIL: cast_run_m<R_CEIL>(d, s, n, backwards); break;
        case R_ROUND: cast_run_m<R_ROUND>(d, s, n, backwards); break;
        case R_TRUNC: cast_run_m<R_TRUNC>(d, s, n, backwards); break;
        default: for (uint32_t i = 0; i < n; ++i) { uint32_t k = backwards ? n - 1 - i : i; d[k] = cast_one<D>(s[k], mode); }
    }
}
template <class D, class S> inline void check_cast_mode(AscendC::RoundMode mode) {
    if (!(cast_modes<S, D>() & (1u << uint32_t(mode))))
        fail("Cast", "the hardware issues no instruction for this round mode; dst keeps stale data",
             std::string("round mode ") + round_mode_name(int(mode)) + " is not supported for Cast from " + type_name<S>() +
                 " to " + type_name<D>() + " on Atlas A2");
}
}  // namespace ascsim

#define ASCSIM_CAST_CHECK(T, U)                                                                                      \
    static_assert(::ascsim::cast_modes<U, T>() != 0,                                                                 \
                  "no matching function for call to 'CastIntrinsicsImpl': Failed to check dtype in Cast, this (src, dst) " \
                  "dtype combination is not supported on Atlas A2")

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint32_t count) {
    ASCSIM_CAST_CHECK(T, U);
    if (count == 0) return;
    ::ascsim::check_cast_mode<T, U>(round_mode);
    if (!::ascsim::check_dst("Cast", dst, count)) return;
    ::ascsim::check_src("Cast", src, count);
    int mode = int(round_mode);
    // Fast paths for the common float <-> half/bf16 casts (bit-identical to cast_one), when dst and src do not overlap.
    const uint8_t *d0 = (const uint8_t*)dst.addr_, *s0 = (const uint8_t*)src.addr_;
    bool disjoint = d0 + size_t(count) * sizeof(T) <= s0 || s0 + size_t(count) * sizeof(U) <= d0;
    if constexpr (std::is_same_v<T, float> && std::is_same_v<U, half>) {
        if (disjoint) { ::ascsim::half_bits_to_float_n((const uint16_t*)src.addr_, dst.addr_, count); return; }
    } else if constexpr (std::is_same_v<T, half> && std::is_same_v<U, float>) {
        if (disjoint && (round_mode == RoundMode::CAST_RINT || round_mode == RoundMode::CAST_NONE)) {
            ::ascsim::float_to_half_bits_n(src.addr_, (uint16_t*)dst.addr_, count);
            return;
        }
    } else if constexpr (std::is_same_v<T, float> && std::is_same_v<U, bfloat16_t>) {
        if (disjoint) { for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = float(src.addr_[i]); return; }
    } else if constexpr (std::is_same_v<T, bfloat16_t> && std::is_same_v<U, float>) {
        if (disjoint && round_mode == RoundMode::CAST_RINT) {
            for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = bfloat16_t(src.addr_[i]);
            return;
        }
    }
    // Read all of src first: in-place narrowing/widening casts (dst aliasing src) are legal per repeat.
    // in place and widening: back to front, so no source element is overwritten before it is read
    bool backwards = (void*)dst.addr_ == (void*)src.addr_ && sizeof(T) > sizeof(U);
    ::ascsim::cast_run(dst.addr_, src.addr_, count, mode, backwards);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint64_t mask[],
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    ASCSIM_CAST_CHECK(T, U);
    ::ascsim::check_cast_mode<T, U>(round_mode);
    constexpr uint32_t epr = 256u / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)dst.addr_, sizeof(T), repeatParams.dstBlkStride, repeatParams.dstRepStride},
                             {(uint8_t*)src.addr_, sizeof(U), repeatParams.srcBlkStride, repeatParams.srcRepStride}};
    int mode = int(round_mode);
    ::ascsim::for_each_active("Cast", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        *(T*)ops[0].at(r, i) = ::ascsim::cast_one<T>(*(U*)ops[1].at(r, i), mode);
    });
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    ASCSIM_CAST_CHECK(T, U);
    ::ascsim::check_cast_mode<T, U>(round_mode);
    constexpr uint32_t epr = 256u / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)dst.addr_, sizeof(T), repeatParams.dstBlkStride, repeatParams.dstRepStride},
                             {(uint8_t*)src.addr_, sizeof(U), repeatParams.srcBlkStride, repeatParams.srcRepStride}};
    int mode = int(round_mode);
    ::ascsim::for_each_active("Cast", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        *(T*)ops[0].at(r, i) = ::ascsim::cast_one<T>(*(U*)ops[1].at(r, i), mode);
    });
}

inline void SetDeqScale(half scale) { ::ascsim::core().deq_scale = float(scale); }
inline void SetDeqScale(float scale, int16_t offset, bool signMode) { ::ascsim::core().deq_scale = scale; (void)offset; (void)signMode; }

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_

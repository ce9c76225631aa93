// ascsim kernel side: Cast with the Atlas A2 (src, dst, round mode) table. Unsupported pairs fail to compile;
// a supported pair with an unsupported round mode issues no instruction on hardware (dst keeps stale data),
// which the simulator reports as a runtime error.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_
#include "dtype_check.h"
#include <vector>
#include "engine.h"

namespace ascsim {
enum : uint32_t { M_N = 1u << 0, M_R = 1u << 1, M_F = 1u << 2, M_C = 1u << 3, M_RO = 1u << 4, M_T = 1u << 5, M_O = 1u << 6,
                  M_RFCRT = M_R | M_F | M_C | M_RO | M_T, M_ANY = 0xffu };
template <class S, class D> constexpr uint32_t cast_modes() {
    using std::is_same_v;
    if constexpr (is_same_v<S, int8_t> && is_same_v<D, half>) return M_N;
    else if constexpr (is_same_v<S, AscendC::int4b_t> && is_same_v<D, half>) return M_N;
    else if constexpr (is_same_v<S, half> && is_same_v<D, AscendC::int4b_t>) return M_RFCRT | M_N;
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
template <> inline const char* type_name<AscendC::int4b_t>() { return "int4b_t"; }
const char* round_mode_name(int mode);

template <class D, class S> inline D cast_one(S v, int mode) {
    if constexpr (std::is_same_v<S, int32_t> && std::is_same_v<D, half>) return half(float(v) * core().deq_scale);
    // int4b_t saturates like the other integer targets: round, then clamp to -8..7 (NaN -> 0)
    else if constexpr (is_int4_v<D>) return D(int(convert<int8_t, S>(v, mode)));
    else if constexpr (is_int4_v<S>) return D(float(int(v)));
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
// The level-0 forms: the wider type decides the elements per repeat; an int4b_t operand has 64 elements per block.
template <class D, class S>
inline void cast_repeats(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, const Mask& m,
                         uint8_t repeatTime, const AscendC::UnaryRepeatParams& p, int mode) {
    constexpr uint32_t epr = 256u / (sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S));
    Opnd ops[2] = {{(uint8_t*)dst.addr_, uint32_t(sizeof(D)), p.dstBlkStride, p.dstRepStride, is_int4_v<D>},
                   {(uint8_t*)src.addr_, uint32_t(sizeof(S)), p.srcBlkStride, p.srcRepStride, is_int4_v<S>}};
    if constexpr (is_int4_v<D> || is_int4_v<S>) {
        // two int4b_t elements share a byte: the mask selects whole bytes (an even count, equal bits in each pair)
        bool pairs = m.counter ? m.total % 2 == 0 : true;
        for (uint32_t i = 0; !m.counter && i < epr; i += 2) pairs = pairs && bit(m, i) == bit(m, i + 1);
        if (!pairs)
            fail("Cast", "an int4b_t Cast needs a mask of whole bytes",
                 "the mask (or the counter-mode count) selects half of a byte: the continuous mask must be even and "
                 "the bitwise mask's bits 2k and 2k+1 equal");
    }
    for_each_active("Cast", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        S v;
        if constexpr (is_int4_v<S>) v = S(nibble_get(ops[1].at(r, i), i & 1u));
        else v = *(const S*)ops[1].at(r, i);
        if constexpr (is_int4_v<D>) nibble_set(ops[0].at(r, i), i & 1u, int(cast_one<D>(v, mode)));
        else *(D*)ops[0].at(r, i) = cast_one<D>(v, mode);
    });
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
    if constexpr (::ascsim::is_int4_v<T> || ::ascsim::is_int4_v<U>) {
        if (count % 2)
            ::ascsim::fail("Cast", "an int4b_t Cast needs an even count",
                           "count " + std::to_string(count) + " is odd (two int4b_t elements share one byte)");
        std::vector<U> v(count);   // every source element is read before any is written: any overlap is safe
        for (uint32_t i = 0; i < count; ++i) {
            if constexpr (::ascsim::is_int4_v<U>) v[i] = U(::ascsim::nibble_get(src.addr_, i));
            else v[i] = src.addr_[i];
        }
        for (uint32_t i = 0; i < count; ++i) {
            if constexpr (::ascsim::is_int4_v<T>) ::ascsim::nibble_set(dst.addr_, i, int(::ascsim::cast_one<T>(v[i], mode)));
            else dst.addr_[i] = ::ascsim::cast_one<T>(v[i], mode);
        }
        return;
    }
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
    ::ascsim::cast_repeats<T, U>(dst, src, m, repeatTime, repeatParams, int(round_mode));
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    ASCSIM_CAST_CHECK(T, U);
    ::ascsim::check_cast_mode<T, U>(round_mode);
    constexpr uint32_t epr = 256u / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::cast_repeats<T, U>(dst, src, m, repeatTime, repeatParams, int(round_mode));
}

inline void SetDeqScale(half scale) { ::ascsim::core().deq_scale = float(scale); }
inline void SetDeqScale(float scale, int16_t offset, bool signMode) { ::ascsim::core().deq_scale = scale; (void)offset; (void)signMode; }

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_CAST_H_

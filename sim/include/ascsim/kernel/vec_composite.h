// ascsim kernel side: the composite (fused) vector APIs of Atlas A2 — AddReluCast, SubReluCast, MulCast (an
// element-wise add / subtract / multiply whose result is converted to a narrower dst type) and MulAddRelu
// (dst = max(0, src0 * dst + src1)). Each has the count form and the two level-0 forms (mask[] bitwise, mask
// continuous) with BinaryRepeatParams.
//
// Numerics (what the model computes, per element):
//   * the arithmetic result is first rounded to the source type U (half: round to nearest even; int16_t: wraps
//     like the simulator's other int16_t arithmetic), then Relu (a NaN becomes 0), then converted to T with the
//     conversion table's default (CAST_NONE: round to nearest even when inexact, saturate on overflow). The doc
//     examples pin the rounding: 1 + 0.5 = 1.5 becomes 2 in int8_t.
//   * MulAddRelu rounds twice for half: the product src0 * dst is rounded to half, then the sum with src1 is rounded
//     to half. The documentation's 256-element half example matches this exactly (one rounding of the exact value
//     misses 38 of its 256 outputs); float also rounds after the product and after the add.
//   * level-0 forms: a conversion's elements per repeat follow the wider of T and U (half -> int8_t: 128 per repeat,
//     so dst fills 4 DataBlocks per repeat and the usual contiguous dstRepStride is 4).
// A dtype combination outside the Atlas A2 table is a compile error; count == 0 or repeatTime == 0 does nothing.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_COMPOSITE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_COMPOSITE_H_
#include <cmath>
#include "dtype_check.h"
#include "engine.h"
#include "vec_cast.h"

namespace ascsim {
enum CompositeKind { COMP_ADD_RELU, COMP_SUB_RELU, COMP_MUL };

// The arithmetic part of a composite API, rounded to the source type U, with Relu where the API has one.
template <int K, class U> inline U composite_arith(U a, U b) {
    if constexpr (std::is_same_v<U, int16_t>) {
        int32_t r = K == COMP_ADD_RELU ? int32_t(a) + int32_t(b) : K == COMP_SUB_RELU ? int32_t(a) - int32_t(b) : int32_t(a) * int32_t(b);
        int16_t w = int16_t(uint16_t(uint32_t(r)));   // two's-complement wrap to 16 bits
        if constexpr (K == COMP_MUL) return w;
        else return w > 0 ? w : int16_t(0);
    } else {
        float r = K == COMP_ADD_RELU ? float(a) + float(b) : K == COMP_SUB_RELU ? float(a) - float(b) : float(a) * float(b);
        U u = U(r);   // half: one rounding to nearest even; float: already float
        if constexpr (K == COMP_MUL) return u;
        else return float(u) > 0.0f ? u : U(0.0f);
    }
}
template <int K, class T, class U> inline T composite_one(U a, U b) {
    return cast_one<T>(composite_arith<K>(a, b), R_NONE);
}
// MulCast to uint8_t: the conversion table calls a negative input an exception; the model writes 0 and says so
// (once per call).
template <int K, class T, class U> inline bool composite_negative(U a, U b) {
    if constexpr (K == COMP_MUL && std::is_same_v<T, uint8_t>) return float(composite_arith<K>(a, b)) < 0.0f;
    else return false;
}
inline void composite_warn_negative(const char* api) {
    warn(api, "a negative product converted to uint8_t: the conversion table treats a negative input as an exception "
              "(undefined result); the simulator writes 0");
}

template <int K, class T, class U>
inline void composite_count(const char* api, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<U>& a,
                            const AscendC::LocalTensor<U>& b, int64_t count) {
    if (!check_dst(api, d, count)) return;
    check_src(api, a, count);
    check_src(api, b, count);
    bool negative = false;
    for (int64_t i = 0; i < count; ++i) {
        U x = a.addr_[i], y = b.addr_[i];
        negative |= composite_negative<K, T>(x, y);
        d.addr_[i] = composite_one<K, T>(x, y);
    }
    if (negative) composite_warn_negative(api);
}
template <int K, class T, class U, class M>
inline void composite_rep(const char* api, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<U>& a,
                          const AscendC::LocalTensor<U>& b, M mask, bool isSetMask, uint8_t repeat,
                          const AscendC::BinaryRepeatParams& p) {
    constexpr uint32_t epr = 256u / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[3] = {{(uint8_t*)d.addr_, uint32_t(sizeof(T)), p.dstBlkStride, p.dstRepStride},
                   {(uint8_t*)a.addr_, uint32_t(sizeof(U)), p.src0BlkStride, p.src0RepStride},
                   {(uint8_t*)b.addr_, uint32_t(sizeof(U)), p.src1BlkStride, p.src1RepStride}};
    bool negative = false;
    for_each_active(api, m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        U x = *(const U*)ops[1].at(r, i), y = *(const U*)ops[2].at(r, i);
        negative |= composite_negative<K, T>(x, y);
        *(T*)ops[0].at(r, i) = composite_one<K, T>(x, y);
    });
    if (negative) composite_warn_negative(api);
}

// MulAddRelu: dst = Relu(src0 * dst + src1), rounded after the product and after the add.
template <class T> inline T mul_add_relu_one(T s0, T d, T s1) {
    T prod = T(float(s0) * float(d));
    T sum = T(float(prod) + float(s1));
    return float(sum) > 0.0f ? sum : T(0.0f);
}
template <class T, class M>
inline void mul_add_relu_rep(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                             const AscendC::LocalTensor<T>& src1, M mask, bool isSetMask, uint8_t repeat,
                             const AscendC::BinaryRepeatParams& p) {
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[3] = {{(uint8_t*)dst.addr_, sizeof(T), p.dstBlkStride, p.dstRepStride},
                   {(uint8_t*)src0.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride},
                   {(uint8_t*)src1.addr_, sizeof(T), p.src1BlkStride, p.src1RepStride}};
    for_each_active("MulAddRelu", kDstUnknown, m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        T* pd = (T*)ops[0].at(r, i);
        *pd = mul_add_relu_one(*(const T*)ops[1].at(r, i), *pd, *(const T*)ops[2].at(r, i));
    });
}
}  // namespace ascsim

// The (src, dst) tables of Atlas A2.
#define ASCSIM_RELU_CAST_CHECK(NAME, T, U)                                                                            \
    static_assert((std::is_same_v<U, half> && std::is_same_v<T, int8_t>) ||                                          \
                      (std::is_same_v<U, int16_t> && std::is_same_v<T, int8_t>) ||                                    \
                      (std::is_same_v<U, float> && std::is_same_v<T, half>),                                          \
                  "Failed to check dtype in " NAME ", current api support dtype combination is src: half, dst: int8_t / " \
                  "src: int16_t, dst: int8_t / src: float, dst: half.")
#define ASCSIM_MUL_CAST_CHECK(T, U)                                                                                   \
    static_assert(std::is_same_v<U, half> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>),              \
                  "Failed to check dtype in MulCast, current api support dtype combination is src: half, dst: int8_t / " \
                  "src: half, dst: uint8_t.")

// Count form + bitwise-mask form + continuous-mask form of one converting composite API.
#define ASCSIM_COMPOSITE_CAST_API(NAME, KIND, CHECK)                                                                  \
    template <typename T, typename U>                                                                                 \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,    \
                                const uint32_t count) {                                                               \
        CHECK;                                                                                                        \
        ::ascsim::composite_count<KIND>(#NAME, dst, src0, src1, int64_t(count));                                      \
    }                                                                                                                 \
    template <typename T, typename U, bool isSetMask = true>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,    \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {  \
        CHECK;                                                                                                        \
        ::ascsim::composite_rep<KIND>(#NAME, dst, src0, src1, (const uint64_t*)mask, isSetMask, repeatTime,           \
                                      repeatParams);                                                                  \
    }                                                                                                                 \
    template <typename T, typename U, bool isSetMask = true>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,    \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {    \
        CHECK;                                                                                                        \
        ::ascsim::composite_rep<KIND>(#NAME, dst, src0, src1, mask, isSetMask, repeatTime, repeatParams);             \
    }

namespace AscendC {

ASCSIM_COMPOSITE_CAST_API(AddReluCast, ::ascsim::COMP_ADD_RELU, ASCSIM_RELU_CAST_CHECK("AddReluCast", T, U))
ASCSIM_COMPOSITE_CAST_API(SubReluCast, ::ascsim::COMP_SUB_RELU, ASCSIM_RELU_CAST_CHECK("SubReluCast", T, U))
ASCSIM_COMPOSITE_CAST_API(MulCast, ::ascsim::COMP_MUL, ASCSIM_MUL_CAST_CHECK(T, U))

// MulAddRelu reads dst as well as writing it: dst has the unknown role for the missing-sync detector (checked as a
// read, recorded as a write).
template <typename T>
__aicore__ inline void MulAddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                  const int32_t& count) {
    ASCSIM_DTYPE_CHECK("MulAddRelu", T, "half / float", half, float);
    if (!::ascsim::check_count("MulAddRelu", dst, count)) return;
    ::ascsim::check_src("MulAddRelu", src0, count);
    ::ascsim::check_src("MulAddRelu", src1, count);
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = ::ascsim::mul_add_relu_one(src0.addr_[i], dst.addr_[i], src1.addr_[i]);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void MulAddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                  uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    ASCSIM_DTYPE_CHECK("MulAddRelu", T, "half / float", half, float);
    ::ascsim::mul_add_relu_rep(dst, src0, src1, (const uint64_t*)mask, isSetMask, repeatTime, repeatParams);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void MulAddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                  uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    ASCSIM_DTYPE_CHECK("MulAddRelu", T, "half / float", half, float);
    ::ascsim::mul_add_relu_rep(dst, src0, src1, mask, isSetMask, repeatTime, repeatParams);
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_COMPOSITE_H_

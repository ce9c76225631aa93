// ascsim kernel side: Compare / CompareScalar (bit-mask output, LSB first) and Select.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_COMPARE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_COMPARE_H_
#include "dtype_check.h"
#include "engine.h"

namespace ascsim {
template <class C> inline bool cmp(C a, C b, AscendC::CMPMODE m) {
    switch (m) {
        case AscendC::CMPMODE::LT: return a < b;
        case AscendC::CMPMODE::GT: return a > b;
        case AscendC::CMPMODE::EQ: return a == b;
        case AscendC::CMPMODE::LE: return a <= b;
        case AscendC::CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}
inline void set_bit(uint8_t* base, uint64_t i, bool v) {
    uint8_t& b = base[i >> 3];
    b = v ? uint8_t(b | (1u << (i & 7))) : uint8_t(b & ~(1u << (i & 7)));
}
inline bool get_bit(const uint8_t* base, uint64_t i) { return (base[i >> 3] >> (i & 7)) & 1u; }
// Count-form compare into a bit mask: the mode is a template argument and whole bytes are assembled at once, so the
// element loop has no branches (same bits as cmp/set_bit element by element).
template <AscendC::CMPMODE M, class T, class B> inline void cmp_bits_m(uint8_t* out, uint32_t count, const T* a, B b) {
    uint32_t full = count / 8;
    for (uint32_t k = 0; k < full; ++k) {
        uint32_t byte = 0;
        for (uint32_t j = 0; j < 8; ++j) byte |= uint32_t(cmp(up(a[k * 8 + j]), b(k * 8 + j), M)) << j;
        out[k] = uint8_t(byte);
    }
    for (uint32_t i = full * 8; i < count; ++i) set_bit(out, i, cmp(up(a[i]), b(i), M));
}
template <class T, class B> inline void cmp_bits(uint8_t* out, uint32_t count, const T* a, B b, AscendC::CMPMODE m) {
    using AscendC::CMPMODE;
    switch (m) {
        case CMPMODE::LT: cmp_bits_m<CMPMODE::LT>(out, count, a, b); break;
        case CMPMODE::GT: cmp_bits_m<CMPMODE::GT>(out, count, a, b); break;
        case CMPMODE::EQ: cmp_bits_m<CMPMODE::EQ>(out, count, a, b); break;
        case CMPMODE::LE: cmp_bits_m<CMPMODE::LE>(out, count, a, b); break;
        case CMPMODE::GE: cmp_bits_m<CMPMODE::GE>(out, count, a, b); break;
        default: cmp_bits_m<CMPMODE::NE>(out, count, a, b); break;
    }
}
template <class T> inline void check_cmp_type(AscendC::CMPMODE m) {
    if constexpr (std::is_same_v<T, int32_t>)
        if (m != AscendC::CMPMODE::EQ) fail("Compare", "Failed to check cmpMode", "int32_t Compare supports only CMPMODE::EQ on Atlas A2");
}
}  // namespace ascsim

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               uint32_t count) {
    ASCSIM_DTYPE_CHECK("Compare", T, "half / float / int32_t", half, float, int32_t);
    static_assert(::ascsim::one_of_v<U, uint8_t, int8_t>, "Failed to check dtype in Compare, dst must be uint8_t / int8_t.");
    ::ascsim::check_cmp_type<T>(cmpMode);
    if (count == 0) return;
    if ((uint64_t(count) * sizeof(T)) % 256)
        ::ascsim::warn("Compare", "count * sizeof(T) = " + std::to_string(uint64_t(count) * sizeof(T)) +
                                      " B is not a multiple of 256 B; the hardware processes whole repeats");
    ::ascsim::check_src("Compare", src0, count);
    ::ascsim::check_src("Compare", src1, count);
    ::ascsim::check_ub_aligned("Compare", dst.addr_);
    ::ascsim::check_ub("Compare", dst.addr_, (count + 7) / 8);
    ::ascsim::sync_v_write("Compare", dst.addr_, (count + 7) / 8);
    uint8_t* out = (uint8_t*)dst.addr_;
    const T* b = src1.addr_;
    ::ascsim::cmp_bits(out, count, src0.addr_, [b](uint32_t i) { return ::ascsim::up(b[i]); }, cmpMode);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p) {
    ASCSIM_DTYPE_CHECK("Compare", T, "half / float / int32_t", half, float, int32_t);
    ::ascsim::check_cmp_type<T>(cmpMode);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)src0.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride},
                             {(uint8_t*)src1.addr_, sizeof(T), p.src1BlkStride, p.src1RepStride}};
    uint8_t* out = (uint8_t*)dst.addr_;
    ::ascsim::check_ub("Compare", out, size_t(repeatTime) * epr / 8);
    ::ascsim::sync_v_write("Compare", out, size_t(repeatTime) * epr / 8);
    ::ascsim::for_each_active("Compare", 0u, m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        ::ascsim::set_bit(out, uint64_t(r) * epr + i, ::ascsim::cmp(::ascsim::up(*(T*)ops[0].at(r, i)), ::ascsim::up(*(T*)ops[1].at(r, i)), cmpMode));
    });
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& p) {
    ASCSIM_DTYPE_CHECK("Compare", T, "half / float / int32_t", half, float, int32_t);
    ::ascsim::check_cmp_type<T>(cmpMode);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)src0.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride},
                             {(uint8_t*)src1.addr_, sizeof(T), p.src1BlkStride, p.src1RepStride}};
    uint8_t* out = (uint8_t*)dst.addr_;
    ::ascsim::check_ub("Compare", out, size_t(repeatTime) * epr / 8);
    ::ascsim::sync_v_write("Compare", out, size_t(repeatTime) * epr / 8);
    ::ascsim::for_each_active("Compare", 0u, m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        ::ascsim::set_bit(out, uint64_t(r) * epr + i, ::ascsim::cmp(::ascsim::up(*(T*)ops[0].at(r, i)), ::ascsim::up(*(T*)ops[1].at(r, i)), cmpMode));
    });
}

template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                                     uint32_t count) {
    ASCSIM_DTYPE_CHECK("CompareScalar", T, "half / float / int32_t", half, float, int32_t);
    ::ascsim::check_cmp_type<T>(cmpMode);
    if (count == 0) return;
    ::ascsim::check_src("CompareScalar", src0, count);
    ::ascsim::check_ub_aligned("CompareScalar", dst.addr_);
    ::ascsim::check_ub("CompareScalar", dst.addr_, (count + 7) / 8);
    ::ascsim::sync_v_write("CompareScalar", dst.addr_, (count + 7) / 8);
    uint8_t* out = (uint8_t*)dst.addr_;
    auto s = ::ascsim::up(src1Scalar);
    ::ascsim::cmp_bits(out, count, src0.addr_, [s](uint32_t) { return s; }, cmpMode);
}
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint32_t count) {
    CompareScalar(dst, src0, src1Scalar, cmpMode, count);
}
// The level-0 forms (repeatTime repeats of 256 bytes, UnaryRepeatParams strides; result bits packed per repeat). On
// Atlas A2 the mask argument is reserved and has no effect (docs): every lane of every repeat is compared.
}  // namespace AscendC
namespace ascsim {
template <class T, class U>
inline void compare_scalar_repeats(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0, T scalar,
                                   AscendC::CMPMODE cmpMode, uint8_t repeatTime, const AscendC::UnaryRepeatParams& p) {
    ASCSIM_DTYPE_CHECK("CompareScalar", T, "half / float / int32_t", half, float, int32_t);
    check_cmp_type<T>(cmpMode);
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask all = mask_from(uint64_t(epr), epr, true);
    Opnd ops[1] = {{(uint8_t*)src0.addr_, sizeof(T), p.srcBlkStride, p.srcRepStride}};
    uint8_t* out = (uint8_t*)dst.addr_;
    check_ub_aligned("CompareScalar", out);
    check_ub("CompareScalar", out, size_t(repeatTime) * epr / 8);
    sync_v_write("CompareScalar", out, size_t(repeatTime) * epr / 8);
    const auto s = up(scalar);
    for_each_active("CompareScalar", 0u, all, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        set_bit(out, uint64_t(r) * epr + i, cmp(up(*(T*)ops[0].at(r, i)), s, cmpMode));
    });
}
}  // namespace ascsim
namespace AscendC {
// Bitwise (uint64_t[2]) or continuous (uint64_t) mask alike; Compares is the documented second name.
template <typename T, typename U, bool isSetMask = true, typename MaskT>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                                     const MaskT& mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    (void)mask;
    ::ascsim::compare_scalar_repeats(dst, src0, src1Scalar, cmpMode, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true, typename MaskT>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                                const MaskT& mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}

// Select: bit i of selMask = 1 picks src0[i], 0 picks src1[i] (or the scalar).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
    ASCSIM_DTYPE_CHECK("Select", T, "half / float", half, float);
    if (count == 0) return;
    ::ascsim::check_dst("Select", dst, count);
    ::ascsim::check_src("Select", src0, count);
    ::ascsim::check_src("Select", src1, count);
    ::ascsim::sync_v_read("Select", selMask.addr_, (count + 7) / 8);
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = ::ascsim::get_bit(bits, i % epr) ? src0.addr_[i] : src1.addr_[i];
        return;
    }
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = ::ascsim::get_bit(bits, i) ? src0.addr_[i] : src1.addr_[i];
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                              SELMODE selMode, uint32_t count) {
    ASCSIM_DTYPE_CHECK("Select", T, "half / float", half, float);
    if (count == 0) return;
    ::ascsim::check_dst("Select", dst, count);
    ::ascsim::check_src("Select", src0, count);
    ::ascsim::sync_v_read("Select", selMask.addr_, (count + 7) / 8);
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t bi = selMode == SELMODE::VSEL_CMPMASK_SPR ? (i % epr) : i;
        dst.addr_[i] = ::ascsim::get_bit(bits, bi) ? src0.addr_[i] : src1;
    }
}
// The level-0 tensor-scalar form (src1 a scalar; the mask continuous or bitwise, repeats with BinaryRepeatParams,
// whose src1 strides the scalar does not use).
template <typename T, typename U, class M>
__aicore__ inline void ascsim_select_scalar_repeats(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                                                    T src1, SELMODE selMode, M mask, uint8_t repeatTime, bool isSetMask,
                                                    const BinaryRepeatParams& p) {
    ASCSIM_DTYPE_CHECK("Select", T, "half / float", half, float);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)dst.addr_, sizeof(T), p.dstBlkStride, p.dstRepStride},
                             {(uint8_t*)src0.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride}};
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    ::ascsim::sync_v_read("Select", bits, selMode == SELMODE::VSEL_CMPMASK_SPR ? epr / 8 : size_t(repeatTime) * epr / 8);
    ::ascsim::for_each_active("Select", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        uint64_t bi = selMode == SELMODE::VSEL_CMPMASK_SPR ? i : uint64_t(r) * epr + i;
        *(T*)ops[0].at(r, i) = ::ascsim::get_bit(bits, bi) ? *(T*)ops[1].at(r, i) : src1;
    });
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                              SELMODE selMode, uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    ascsim_select_scalar_repeats(dst, selMask, src0, src1, selMode, static_cast<const uint64_t*>(mask), repeatTime, isSetMask,
                                 repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                              SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    ascsim_select_scalar_repeats(dst, selMask, src0, src1, selMode, mask, repeatTime, isSetMask, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& p) {
    ASCSIM_DTYPE_CHECK("Select", T, "half / float", half, float);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[3] = {{(uint8_t*)dst.addr_, sizeof(T), p.dstBlkStride, p.dstRepStride},
                             {(uint8_t*)src0.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride},
                             {(uint8_t*)src1.addr_, sizeof(T), p.src1BlkStride, p.src1RepStride}};
    const uint8_t* bits = (const uint8_t*)selMask.addr_;
    ::ascsim::sync_v_read("Select", bits, selMode == SELMODE::VSEL_CMPMASK_SPR ? epr / 8 : size_t(repeatTime) * epr / 8);
    ::ascsim::for_each_active("Select", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) {
        uint64_t bi = selMode == SELMODE::VSEL_CMPMASK_SPR ? i : uint64_t(r) * epr + i;
        *(T*)ops[0].at(r, i) = ::ascsim::get_bit(bits, bi) ? *(T*)ops[1].at(r, i) : *(T*)ops[2].at(r, i);
    });
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_COMPARE_H_

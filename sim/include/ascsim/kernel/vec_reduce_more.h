// ascsim kernel side: the ReduceType-templated level-0 reductions of Atlas A2 — ReduceDataBlock (one result per
// 32-byte DataBlock), ReducePairElem (one sum per adjacent pair) and ReduceRepeat (one result per repeat, MAX/MIN
// with their index in the order ReduceOrder asks for). Each has a bitwise mask[] form and a continuous mask form;
// dst and src share one type, half or float.
//
// What the model does, per the pages:
//   * sums run a binary tree in the element type (adjacent lanes first, then adjacent partial sums); lanes outside
//     the mask count as 0. The overflow rule is vec_reduce.h's reduce_add, shared with the older sum reductions:
//     half partial sums overflow to inf in the default (non-saturating) mode; with CTRL[48] cleared (SetCtrlSpr /
//     SetSaturationFlag: saturation on) a half partial sum is clamped to +-65504 and a NaN becomes 0. float only
//     has the non-saturating mode.
//   * MAX/MIN follow vec_reduce.h's rule, shared with the older max/min reductions: extreme_beats picks (a NaN
//     among the active lanes makes the result NaN, its index the first NaN's lane; the smallest index on ties) and
//     reduce_saturate writes (half in saturation mode: NaN 0, +-inf +-65504); the index is the lane within the repeat.
//   * nothing is written for a DataBlock (ReduceDataBlock) or a pair (ReducePairElem) whose lanes are all masked off;
//     mask 0 or repeatTime 0 is a no-op.
//   * dstRepStride units and dst alignment: ReduceDataBlock 8 elements (half 16 B, float 32 B); ReducePairElem
//     128 B (dst 32 B aligned); ReduceRepeat sizeof(T) for SUM and ORDER_ONLY_VALUE, 2 * sizeof(T) for
//     ORDER_VALUE_INDEX / ORDER_INDEX_VALUE, 4 B for ORDER_ONLY_INDEX (the index as uint32_t, also for half).
//   * ReduceRepeat<MAX/MIN> also leaves the extreme of the whole call (and its position counted from the first
//     element) where GetReduceMaxMinCount reads it, as WholeReduceMax/Min do: the same pick among the per-repeat
//     results as written.
//   * repeatTime outside 0 ~ 255 (normal mask mode; counter mode ignores it) and a stride outside 0 ~ 65535 are
//     runtime errors.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_MORE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_MORE_H_
#include <cmath>
#include <string>
#include "dtype_check.h"
#include "engine.h"
#include "vec_reduce.h"

namespace AscendC {
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };
}  // namespace AscendC

namespace ascsim {
inline bool lane_on(const Mask& m, uint32_t r, uint32_t i, uint32_t epr) {
    if (m.counter) return uint64_t(r) * epr + i < m.total;
    return bit(m, i);
}
// Reduces lanes [lo, hi) of repeat r of `o`; false when none of them is active. idx: the lane of the extreme.
template <class T>
inline bool reduce_lanes(AscendC::ReduceType k, const Mask& m, const Opnd& o, uint32_t r, uint32_t epr, uint32_t lo,
                         uint32_t hi, bool sat, T& val, uint32_t& idx) {
    T buf[128];
    bool any = false;
    for (uint32_t i = lo; i < hi; ++i) {
        bool on = lane_on(m, r, i, epr);
        T v = on ? *(const T*)o.at(r, i) : T(0.0f);
        if (k == AscendC::ReduceType::SUM) { buf[i - lo] = v; any |= on; continue; }
        if (!on) continue;
        if (!any || extreme_beats(k == AscendC::ReduceType::MAX, v, val)) { val = v; idx = i; }
        any = true;
    }
    if (k == AscendC::ReduceType::SUM && any) val = lane_tree(buf, hi - lo, sat);
    return any;
}
inline void check_stride_range(const char* api, const char* name, int32_t v) {
    if (v < 0 || v > 65535)
        fail(api, std::string("Failed to check ") + name + " value",
             std::string(name) + " " + std::to_string(v) + " is outside the valid range 0 ~ 65535");
}
inline void check_strides(const char* api, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    check_stride_range(api, "dstRepStride", dstRep);
    check_stride_range(api, "srcBlkStride", srcBlk);
    check_stride_range(api, "srcRepStride", srcRep);
}

template <AscendC::ReduceType K, class T, class M>
inline void reduce_data_block(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask, bool isSetMask,
                              int32_t repeat, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    const char* api = "ReduceDataBlock";
    constexpr uint32_t epr = elems_per_repeat<T>(), epb = 32 / sizeof(T);
    check_strides(api, dstRep, srcBlk, srcRep);
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    if (!reps) return;
    check_ub_aligned(api, dst.addr_, 8 * sizeof(T));   // half: 16 B, float: 32 B
    bool sat = half_saturating();
    for (uint32_t r = 0; r < reps; ++r) {   // dstRepStride counts one repeat's 8 results
        T* out = dst.addr_ + size_t(r) * uint32_t(dstRep) * 8;
        check_ub(api, out, 8 * sizeof(T));
        sync_v_write(api, out, 8 * sizeof(T));
        for (uint32_t b = 0; b < 8; ++b) {
            T val{};
            uint32_t idx = 0;
            if (reduce_lanes(K, m, ops[0], r, epr, b * epb, (b + 1) * epb, sat, val, idx))
                out[b] = K == AscendC::ReduceType::SUM ? val : reduce_saturate(val, sat);
        }
    }
}

template <class T, class M>
inline void reduce_pair_elem(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask, bool isSetMask,
                             int32_t repeat, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    const char* api = "ReducePairElem";
    constexpr uint32_t epr = elems_per_repeat<T>();
    check_strides(api, dstRep, srcBlk, srcRep);
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    if (!reps) return;
    check_ub_aligned(api, dst.addr_);
    bool sat = half_saturating();
    for (uint32_t r = 0; r < reps; ++r) {   // dstRepStride counts one repeat's results: 128 B
        T* out = (T*)((uint8_t*)dst.addr_ + size_t(r) * uint32_t(dstRep) * 128);
        check_ub(api, out, 128);
        sync_v_write(api, out, 128);
        for (uint32_t p = 0; p < epr / 2; ++p) {
            T val{};
            uint32_t idx = 0;
            if (reduce_lanes(AscendC::ReduceType::SUM, m, ops[0], r, epr, 2 * p, 2 * p + 2, sat, val, idx)) out[p] = val;
        }
    }
}

template <AscendC::ReduceType K, class T, class M>
inline void reduce_repeat_api(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask, bool isSetMask,
                              int32_t repeat, int32_t dstRep, int32_t srcBlk, int32_t srcRep, AscendC::ReduceOrder order) {
    using AscendC::ReduceOrder;
    const char* api = "ReduceRepeat";
    constexpr uint32_t epr = elems_per_repeat<T>();
    check_strides(api, dstRep, srcBlk, srcRep);
    if (uint32_t(order) > uint32_t(ReduceOrder::ORDER_ONLY_INDEX))
        fail(api, "Failed to check order value", "ReduceOrder " + std::to_string(int(order)) + " is not one of the four orders");
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    if (!reps) return;
    // bytes one repeat writes, which is also the dstRepStride unit and the dst alignment
    const uint32_t unit = repeat_result_bytes<T>(K == AscendC::ReduceType::SUM, order);
    check_ub_aligned(api, dst.addr_, unit);
    bool sat = half_saturating();
    bool have = false;
    T best{};
    uint32_t best_idx = 0;
    for (uint32_t r = 0; r < reps; ++r) {
        uint8_t* out = (uint8_t*)dst.addr_ + size_t(r) * uint32_t(dstRep) * unit;
        check_ub(api, out, unit);
        sync_v_write(api, out, unit);
        T val{};
        uint32_t idx = 0;
        reduce_lanes(K, m, ops[0], r, epr, 0, epr, sat, val, idx);   // every repeat has an active lane here
        if (K == AscendC::ReduceType::SUM) { std::memcpy(out, &val, sizeof(T)); continue; }
        val = reduce_saturate(val, sat);
        T slots[2];
        store_value_index(slots, val, idx, order);
        std::memcpy(out, slots, unit);
        if (!have || extreme_beats(K == AscendC::ReduceType::MAX, val, best)) {
            best = val;
            best_idx = r * epr + idx;
            have = true;
        }
    }
    if (K != AscendC::ReduceType::SUM && have) {
        core().reduce_value = double(float(best));
        core().reduce_index = best_idx;
    }
}
}  // namespace ascsim

#define ASCSIM_REDUCE_MORE_CHECK(NAME, T, U)                                                                          \
    static_assert(std::is_same_v<T, U>, "Failed to check dtype in " NAME ", dst and src must have the same data type."); \
    ASCSIM_DTYPE_CHECK(NAME, T, "half / float", half, float)

namespace AscendC {

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                       const int32_t srcRepStride) {
    ASCSIM_REDUCE_MORE_CHECK("ReduceDataBlock", T, U);
    ::ascsim::reduce_data_block<reduceType>(dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                       const int32_t srcRepStride) {
    ASCSIM_REDUCE_MORE_CHECK("ReduceDataBlock", T, U);
    ::ascsim::reduce_data_block<reduceType>(dst, src, uint64_t(uint32_t(mask)), isSetMask, repeatTime, dstRepStride,
                                            srcBlkStride, srcRepStride);
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
    ASCSIM_REDUCE_MORE_CHECK("ReducePairElem", T, U);
    static_assert(reduceType == ReduceType::SUM, "Failed to check reduceType in ReducePairElem, only ReduceType::SUM is supported.");
    ::ascsim::reduce_pair_elem(dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride) {
    ASCSIM_REDUCE_MORE_CHECK("ReducePairElem", T, U);
    static_assert(reduceType == ReduceType::SUM, "Failed to check reduceType in ReducePairElem, only ReduceType::SUM is supported.");
    ::ascsim::reduce_pair_elem(dst, src, uint64_t(uint32_t(mask)), isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
    ASCSIM_REDUCE_MORE_CHECK("ReduceRepeat", T, U);
    ::ascsim::reduce_repeat_api<reduceType>(dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
    ASCSIM_REDUCE_MORE_CHECK("ReduceRepeat", T, U);
    ::ascsim::reduce_repeat_api<reduceType>(dst, src, uint64_t(uint32_t(mask)), isSetMask, repeatTime, dstRepStride,
                                            srcBlkStride, srcRepStride, order);
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_MORE_H_

// ascsim kernel side: reductions. Old (CANN 8.x) names with their argument orders:
//   WholeReduce*(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)
//   BlockReduce*/PairReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)
// Sums use a pairwise tree in the element type, like the hardware's vcadd.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_
#include <vector>
#include "dtype_check.h"
#include "engine.h"

namespace ascsim {
template <class T> inline T tree_sum(T* v, uint32_t n) {
    if (n == 0) return T(0.0f);
    while (n > 1) {
        uint32_t h = (n + 1) / 2;
        for (uint32_t i = 0; i + h < n; ++i) v[i] = T(up(v[i]) + up(v[i + h]));
        n = h;
    }
    return v[0];
}
enum RedKind { RED_SUM, RED_MAX, RED_MIN };
// Reduce the active elements of one repeat; returns value and index (position within the repeat).
template <class T, size_t N>
inline bool reduce_repeat(const Mask& m, uint32_t r, uint32_t epr, const Opnd (&ops)[N], RedKind k, T& val, uint32_t& idx,
                          uint32_t lo = 0, uint32_t hi = ~0u) {
    T buf[128];
    uint32_t n = 0, first = 0;
    bool any = false;
    uint32_t cnt = epr;
    if (m.counter) cnt = uint32_t(std::min<uint64_t>(m.total - uint64_t(r) * epr, epr));
    hi = std::min(hi, cnt);
    for (uint32_t i = lo; i < hi; ++i) {
        if (!m.counter && !bit(m, i)) continue;
        T v = *(T*)ops[0].at(r, i);
        if (k == RED_SUM) { buf[n++] = v; any = true; continue; }
        if (!any || (k == RED_MAX ? up(v) > up(val) : up(v) < up(val))) { val = v; first = i; }
        any = true;
    }
    if (k == RED_SUM) val = tree_sum(buf, n);
    idx = first;
    return any;
}
template <class T> inline void store_value_index(T* out, T val, uint32_t idx, AscendC::ReduceOrder order) {
    T idxbits;
    if constexpr (sizeof(T) == 2) { uint16_t b = uint16_t(idx); std::memcpy(&idxbits, &b, 2); }
    else { uint32_t b = idx; std::memcpy(&idxbits, &b, 4); }
    switch (order) {
        case AscendC::ReduceOrder::ORDER_VALUE_INDEX: out[0] = val; out[1] = idxbits; break;
        case AscendC::ReduceOrder::ORDER_INDEX_VALUE: out[0] = idxbits; out[1] = val; break;
        case AscendC::ReduceOrder::ORDER_ONLY_VALUE: out[0] = val; break;
        default: { uint32_t b = idx; std::memcpy(out, &b, 4); } break;
    }
}
template <class T, class M>
inline void whole_reduce(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask,
                         bool isSetMask, int32_t repeat, int32_t dstRep, int32_t srcBlk, int32_t srcRep, AscendC::ReduceOrder order) {
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    uint32_t per = (k == RED_SUM || order == AscendC::ReduceOrder::ORDER_ONLY_VALUE || order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) ? 1 : 2;
    if (reps) check_ub(api, dst.addr_, (size_t(reps - 1) * dstRep * per + per) * sizeof(T));
    if (reps) sync_v_write(api, dst.addr_, (size_t(reps - 1) * dstRep * per + per) * sizeof(T));
    for (uint32_t r = 0; r < reps; ++r) {
        T val{}; uint32_t idx = 0;
        reduce_repeat(m, r, epr, ops, k, val, idx);
        T* out = dst.addr_ + size_t(r) * dstRep * per;
        if (k == RED_SUM) *out = val; else store_value_index(out, val, idx, order);
        core().reduce_value = double(up(val));   // what GetReduceMaxMinCount reads back
        core().reduce_index = idx;
    }
}
template <class T, class M>
inline void block_reduce(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t repeat,
                         M mask, bool isSetMask, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    constexpr uint32_t epr = elems_per_repeat<T>(), epb = 32 / sizeof(T);
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    for (uint32_t r = 0; r < reps; ++r) {
        T* out = (T*)((uint8_t*)dst.addr_ + size_t(r) * dstRep * 32);
        check_ub(api, out, 8 * sizeof(T));
        sync_v_write(api, out, 8 * sizeof(T));
        for (uint32_t b = 0; b < 8; ++b) {
            T val{}; uint32_t idx = 0;
            if (reduce_repeat(m, r, epr, ops, k, val, idx, b * epb, (b + 1) * epb)) out[b] = val;
        }
    }
}
template <class T, class M>
inline void pair_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t repeat,
                        M mask, bool isSetMask, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    for (uint32_t r = 0; r < reps; ++r) {
        T* out = (T*)((uint8_t*)dst.addr_ + size_t(r) * dstRep * 32);
        check_ub(api, out, epr / 2 * sizeof(T));
        sync_v_write(api, out, epr / 2 * sizeof(T));
        for (uint32_t p = 0; p < epr / 2; ++p) {
            T val{}; uint32_t idx = 0;
            if (reduce_repeat(m, r, epr, ops, RED_SUM, val, idx, 2 * p, 2 * p + 2)) out[p] = val;
        }
    }
}
// Whole-tensor reduction (count form): per-repeat results, then reduce those again, like the vendor's two-level scheme.
template <class T>
inline void reduce_all(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t count,
                       bool calIndex) {
    if (!check_src(api, src, count)) return;
    check_ub_aligned(api, dst.addr_);
    check_ub(api, dst.addr_, (calIndex ? 2 : 1) * sizeof(T));
    sync_v_write(api, dst.addr_, (calIndex ? 2 : 1) * sizeof(T));
    constexpr uint32_t epr = elems_per_repeat<T>();
    std::vector<T> vals;
    std::vector<uint32_t> idxs;
    for (uint32_t base = 0; base < uint32_t(count); base += epr) {
        uint32_t n = std::min<uint32_t>(epr, uint32_t(count) - base);
        T buf[128];
        std::memcpy(buf, src.addr_ + base, n * sizeof(T));
        if (k == RED_SUM) { vals.push_back(tree_sum(buf, n)); continue; }
        uint32_t bi = 0;
        for (uint32_t i = 1; i < n; ++i)
            if (k == RED_MAX ? up(buf[i]) > up(buf[bi]) : up(buf[i]) < up(buf[bi])) bi = i;
        vals.push_back(buf[bi]);
        idxs.push_back(base + bi);
    }
    T val;
    uint32_t idx = 0;
    if (k == RED_SUM) {
        while (vals.size() > 1) {
            std::vector<T> next;
            for (size_t b = 0; b < vals.size(); b += epr) {
                uint32_t n = uint32_t(std::min<size_t>(epr, vals.size() - b));
                next.push_back(tree_sum(vals.data() + b, n));
            }
            vals.swap(next);
        }
        val = vals[0];
        core().acc_val = double(up(val));
    } else {
        size_t bi = 0;
        for (size_t i = 1; i < vals.size(); ++i)
            if (k == RED_MAX ? up(vals[i]) > up(vals[bi]) : up(vals[i]) < up(vals[bi])) bi = i;
        val = vals[bi];
        idx = idxs[bi];
        core().reduce_value = double(up(val));
        core().reduce_index = idx;
    }
    dst.addr_[0] = val;
    if (calIndex) store_value_index(dst.addr_, val, idx, AscendC::ReduceOrder::ORDER_VALUE_INDEX);
}
}  // namespace ascsim

#define ASCSIM_RED_TYPES half, float
namespace AscendC {

#define ASCSIM_WHOLE_REDUCE(NAME, KIND, ORDER_PARAM, ORDER_ARG)                                                        \
    template <typename T, bool isSetMask = true>                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,             \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                                const int32_t srcRepStride ORDER_PARAM) {                                             \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        ::ascsim::whole_reduce(#NAME, KIND, dst, src, uint64_t(mask), isSetMask, repeatTime, dstRepStride, srcBlkStride, \
                               srcRepStride, ORDER_ARG);                                                              \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true>                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                                const int32_t srcRepStride ORDER_PARAM) {                                             \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        ::ascsim::whole_reduce(#NAME, KIND, dst, src, mask, isSetMask, repeatTime, dstRepStride, srcBlkStride,        \
                               srcRepStride, ORDER_ARG);                                                              \
    }
#define ASCSIM_COMMA ,
ASCSIM_WHOLE_REDUCE(WholeReduceSum, ::ascsim::RED_SUM, , ReduceOrder::ORDER_ONLY_VALUE)
ASCSIM_WHOLE_REDUCE(WholeReduceMax, ::ascsim::RED_MAX, ASCSIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
ASCSIM_WHOLE_REDUCE(WholeReduceMin, ::ascsim::RED_MIN, ASCSIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)

#define ASCSIM_BLOCK_REDUCE(NAME, CALL)                                                                                \
    template <typename T, bool isSetMask = true>                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,       \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,           \
                                const int32_t srcRepStride) {                                                         \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        CALL(uint64_t(mask));                                                                                          \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true>                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,       \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,        \
                                const int32_t srcRepStride) {                                                         \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        CALL(mask);                                                                                                    \
    }
#define ASCSIM_BR_SUM(M) ::ascsim::block_reduce("BlockReduceSum", ::ascsim::RED_SUM, dst, src, repeatTime, M, isSetMask, dstRepStride, srcBlkStride, srcRepStride)
#define ASCSIM_BR_MAX(M) ::ascsim::block_reduce("BlockReduceMax", ::ascsim::RED_MAX, dst, src, repeatTime, M, isSetMask, dstRepStride, srcBlkStride, srcRepStride)
#define ASCSIM_BR_MIN(M) ::ascsim::block_reduce("BlockReduceMin", ::ascsim::RED_MIN, dst, src, repeatTime, M, isSetMask, dstRepStride, srcBlkStride, srcRepStride)
#define ASCSIM_PR_SUM(M) ::ascsim::pair_reduce("PairReduceSum", dst, src, repeatTime, M, isSetMask, dstRepStride, srcBlkStride, srcRepStride)
ASCSIM_BLOCK_REDUCE(BlockReduceSum, ASCSIM_BR_SUM)
ASCSIM_BLOCK_REDUCE(BlockReduceMax, ASCSIM_BR_MAX)
ASCSIM_BLOCK_REDUCE(BlockReduceMin, ASCSIM_BR_MIN)
ASCSIM_BLOCK_REDUCE(PairReduceSum, ASCSIM_PR_SUM)

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                                 const int32_t count) {
    ASCSIM_DTYPE_CHECK("ReduceSum", T, "half / float", ASCSIM_RED_TYPES);
    (void)sharedTmpBuffer;
    ::ascsim::reduce_all("ReduceSum", ::ascsim::RED_SUM, dst, src, count, false);
}
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                                 const int32_t count, bool calIndex = false) {
    ASCSIM_DTYPE_CHECK("ReduceMax", T, "half / float", ASCSIM_RED_TYPES);
    (void)sharedTmpBuffer;
    ::ascsim::reduce_all("ReduceMax", ::ascsim::RED_MAX, dst, src, count, calIndex);
}
template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                                 const int32_t count, bool calIndex = false) {
    ASCSIM_DTYPE_CHECK("ReduceMin", T, "half / float", ASCSIM_RED_TYPES);
    (void)sharedTmpBuffer;
    ::ascsim::reduce_all("ReduceMin", ::ascsim::RED_MIN, dst, src, count, calIndex);
}
template <typename T> __aicore__ inline void GetReduceMaxMinCount(T& maxMinValue) { maxMinValue = T(::ascsim::core().reduce_value); }
template <typename T> __aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
    maxMinValue = T(::ascsim::core().reduce_value);
    maxMinIndex = T(::ascsim::core().reduce_index);
}
template <typename T> __aicore__ inline T GetAccVal() { return T(::ascsim::core().acc_val); }
inline int64_t GetAccVal() { return int64_t(::ascsim::core().acc_val); }

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_

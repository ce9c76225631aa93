// ascsim kernel side: reductions. Old (CANN 8.x) names with their argument orders:
//   WholeReduce*(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)
//   BlockReduce*/PairReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)
// Sums use a pairwise tree in the element type, like the hardware's vcadd; the overflow rule of a partial sum
// (reduce_add below) is shared by every sum reduction, vec_reduce_more.h's ReduceRepeat / ReduceDataBlock /
// ReducePairElem included. Likewise every MAX / MIN reduction (these, vec_reduce_more.h's, the pattern ReduceMax /
// ReduceMin of hl_reduce.h) picks its extreme with extreme_beats and writes it through reduce_saturate, below.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>
#include "dtype_check.h"
#include "engine.h"

namespace ascsim {
// The saturation mode of half arithmetic: CTRL[48] == 0 (AscendC::SetCtrlSpr / SetSaturationFlag in sys.h). The
// register reads 1 at launch, the non-saturating (inf/NaN) mode.
inline bool half_saturating() { return ((core().ctrl >> 48) & 1ull) == 0; }
// A half result as the reduce unit writes it (the appendix's overview of the two modes): with saturation mode on
// (`sat`) +-inf is written as +-65504 and NaN as 0; otherwise, and always for float (which has only the inf/NaN
// mode), the value is kept.
template <class T> inline T reduce_saturate(T r, bool sat) {
    if constexpr (std::is_same_v<T, half>) {
        if (sat) {
            float f = float(r);
            if (std::isnan(f)) return T(0.0f);
            if (std::isinf(f)) return T(f > 0 ? 65504.0f : -65504.0f);
        }
    }
    return r;
}
// One partial sum of the reduce unit, rounded to T (nearest even; the float sum of two halves rounded to half is the
// correctly rounded half sum). Every partial sum is a T: a half sum is rounded to half at each step of the tree.
// The overflow rule of the sum reductions (boundary-value appendix, ReduceSum / ReduceRepeat / ReduceDataBlock
// tables; ReduceDataBlock page): by default a half partial sum past the half range is +-inf and inf/NaN inputs
// propagate (IEEE 754); with saturation mode on (`sat`), a half partial sum that comes out +-inf is kept as +-65504
// and one that comes out NaN as 0, and the next level adds that value. float always keeps inf/NaN.
template <class T> inline T reduce_add(T a, T b, bool sat) { return reduce_saturate(T(up(a) + up(b)), sat); }
template <class T> inline T reduce_add(T a, T b) { return reduce_add(a, b, half_saturating()); }
// The MAX / MIN rule of every max/min reduction (boundary-value appendix: the ReduceDataBlock<MAX/MIN>,
// ReduceRepeat<MAX/MIN>, ReduceMax and ReduceMin tables, which also stand for BlockReduceMax/Min and
// WholeReduceMax/Min, their older names). In the inf/NaN mode a NaN among the elements makes the result NaN
// wherever it sits, and +-inf order as numbers (max of inf and -inf is inf). Elements are scanned in index order and
// `cand` takes the place of the extreme held so far (`cur`) when it beats it: a NaN beats any number, nothing beats a
// NaN already held, otherwise only a strictly larger (is_max) / smaller value does, so ties keep the smallest index
// as the pages say. The docs give no index for a NaN result; the one kept here is the first NaN's.
// Saturation mode (half only) does not change the pick: each instruction's result is then written through
// reduce_saturate (NaN 0, +-inf +-65504), and ReduceMax / ReduceMin compare the per-repeat results of their first
// pass as written, i.e. saturated (the tables' half rows: a NaN in one repeat is 0 against the other repeat's 1.0).
template <class T> inline bool extreme_beats(bool is_max, T cand, T cur) {
    const float c = float(cand), b = float(cur);
    if (std::isnan(b)) return false;
    if (std::isnan(c)) return true;
    return is_max ? c > b : c < b;
}
// The reduce unit's binary tree over `n` lanes (n a power of two), in place: adjacent pairs first (lane 0+1, 2+3,
// ...), then pairs of those, as the ReduceSum/WholeReduceSum/ReduceDataBlock docs describe it. Masked-off lanes hold 0.
template <class T> inline T lane_tree(T* v, uint32_t n, bool sat) {
    while (n > 1) {
        n /= 2;
        for (uint32_t i = 0; i < n; ++i) v[i] = reduce_add(v[2 * i], v[2 * i + 1], sat);
    }
    return v[0];
}
template <class T> inline T lane_tree(T* v, uint32_t n) { return lane_tree(v, n, half_saturating()); }
// Sum of n values by the same tree over the next power of two lanes (zeros beyond n).
template <class T> inline T tree_sum(const T* v, uint32_t n) {
    if (n == 0) return T(0.0f);
    uint32_t lanes = 1;
    while (lanes < n) lanes *= 2;
    std::vector<T> buf(lanes, T(0.0f));
    std::copy(v, v + n, buf.begin());
    return lane_tree(buf.data(), lanes);
}
enum RedKind { RED_SUM, RED_MAX, RED_MIN };
// The normal-mode mask an API with its own `mask` count argument sets (whatever mode the register was in).
inline Mask mask_bits_from_count(uint64_t n, uint32_t epr) {
    Mask k;
    n = std::min<uint64_t>(n, epr);
    k.bits[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    k.bits[1] = n > 64 ? (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1)) : 0;
    return k;
}
// Reduce the active elements of lanes [lo, hi) of one repeat; returns value and index (position within the
// repeat; extreme_beats' rule, before any saturation). Sums run the lane tree over hi - lo lanes with inactive lanes
// as 0.
template <class T, size_t N>
inline bool reduce_repeat(const Mask& m, uint32_t r, uint32_t epr, const Opnd (&ops)[N], RedKind k, T& val, uint32_t& idx,
                          uint32_t lo = 0, uint32_t hi = ~0u) {
    T buf[128];
    uint32_t first = 0;
    bool any = false;
    uint32_t cnt = epr;
    if (m.counter) cnt = uint32_t(std::min<uint64_t>(m.total - uint64_t(r) * epr, epr));
    hi = std::min(hi, epr);
    for (uint32_t i = lo; i < hi; ++i) {
        bool on = i < cnt && (m.counter || bit(m, i));
        if (k == RED_SUM) { buf[i - lo] = on ? *(T*)ops[0].at(r, i) : T(0.0f); any |= on; continue; }
        if (!on) continue;
        T v = *(T*)ops[0].at(r, i);
        if (!any || extreme_beats(k == RED_MAX, v, val)) { val = v; first = i; }
        any = true;
    }
    if (k == RED_SUM) val = lane_tree(buf, hi - lo);
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
// Bytes one repeat's result takes in dst, which is also the dstRepStride unit (WholeReduceSum/Max/Min and
// ReduceRepeat pages): a sum or ORDER_ONLY_VALUE one T, value and index two T, ORDER_ONLY_INDEX a uint32_t whatever
// T is (also for half: the index is 4 bytes and is read back as uint32_t on A2).
template <class T> inline uint32_t repeat_result_bytes(bool sum, AscendC::ReduceOrder order) {
    if (sum || order == AscendC::ReduceOrder::ORDER_ONLY_VALUE) return sizeof(T);
    if (order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) return 4;
    return 2 * sizeof(T);
}
template <class T, class M>
inline void whole_reduce(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask,
                         bool isSetMask, int32_t repeat, int32_t dstRep, int32_t srcBlk, int32_t srcRep, AscendC::ReduceOrder order) {
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    const uint32_t unit = repeat_result_bytes<T>(k == RED_SUM, order);
    uint8_t* base = (uint8_t*)dst.addr_;
    if (reps) check_ub(api, base, size_t(reps - 1) * dstRep * unit + unit);
    if (reps) sync_v_write(api, base, size_t(reps - 1) * dstRep * unit + unit);
    // GetReduceMaxMinCount reads the extreme of the whole call (every repeat; in counter mode the "consecutive"
    // case of the docs) with its position counted from the first element (repeat * elements per repeat + lane),
    // picked among the per-repeat results as written (saturated in saturation mode, like ReduceMax's second pass).
    const bool sat = half_saturating();
    bool have = false;
    T best{};
    uint32_t best_idx = 0;
    for (uint32_t r = 0; r < reps; ++r) {
        T val{}; uint32_t idx = 0;
        bool any = reduce_repeat(m, r, epr, ops, k, val, idx);
        uint8_t* out = base + size_t(r) * dstRep * unit;
        if (k == RED_SUM) { std::memcpy(out, &val, sizeof(T)); continue; }
        val = reduce_saturate(val, sat);
        T slots[2];
        store_value_index(slots, val, idx, order);
        std::memcpy(out, slots, unit);
        if (any && (!have || extreme_beats(k == RED_MAX, val, best))) {
            best = val; best_idx = r * epr + idx; have = true;
        }
    }
    if (k != RED_SUM && have) {
        core().reduce_value = double(up(best));
        core().reduce_index = best_idx;
    }
}
template <class T, class M>
inline void block_reduce(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t repeat,
                         M mask, bool isSetMask, int32_t dstRep, int32_t srcBlk, int32_t srcRep) {
    constexpr uint32_t epr = elems_per_repeat<T>(), epb = 32 / sizeof(T);
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), uint32_t(srcBlk), uint32_t(srcRep)}};
    uint32_t reps = prepare_repeats(api, m, uint32_t(repeat), epr, ops, 0);
    const bool sat = half_saturating();
    for (uint32_t r = 0; r < reps; ++r) {   // dstRepStride counts one repeat's results: 8 elements
        T* out = (T*)((uint8_t*)dst.addr_ + size_t(r) * dstRep * 8 * sizeof(T));
        check_ub(api, out, 8 * sizeof(T));
        sync_v_write(api, out, 8 * sizeof(T));
        for (uint32_t b = 0; b < 8; ++b) {
            T val{}; uint32_t idx = 0;
            if (reduce_repeat(m, r, epr, ops, k, val, idx, b * epb, (b + 1) * epb)) out[b] = k == RED_SUM ? val : reduce_saturate(val, sat);
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
    for (uint32_t r = 0; r < reps; ++r) {   // dstRepStride counts one repeat's results: half a repeat, 128 B
        T* out = (T*)((uint8_t*)dst.addr_ + size_t(r) * dstRep * 128);
        check_ub(api, out, epr / 2 * sizeof(T));
        sync_v_write(api, out, epr / 2 * sizeof(T));
        for (uint32_t p = 0; p < epr / 2; ++p) {
            T val{}; uint32_t idx = 0;
            if (reduce_repeat(m, r, epr, ops, RED_SUM, val, idx, 2 * p, 2 * p + 2)) out[p] = val;
        }
    }
}
// The accumulator register holds a sum as the bits of its element type T (zero-extended to 64 bits), not as a
// number: kernels read it back with the untyped GetAccVal() / get_acc_val() and reinterpret the low bytes as T
// (`uint64_t v = GetAccVal(); float s = *reinterpret_cast<float*>(&v);`), the typed GetAccVal<T>() reads it as T.
template <class T> inline void set_acc(T v) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "the accumulator register is 64 bits");
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    core().acc_bits = bits;
}
template <class T> inline T acc_as() {
    static_assert(sizeof(T) <= sizeof(uint64_t), "the accumulator register is 64 bits");
    T v;
    uint64_t bits = core().acc_bits;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
// ReduceSum/ReduceMax/ReduceMin over a whole tensor. The count form reads `count` contiguous elements; the
// level-0 form (`level0`) reads `repeat` repeats under `m` with srcRepStride `srcRep` (blocks of 32 B). Per repeat
// the reduce unit's tree (sums) or first extreme (max/min); then, per the ReduceSum doc for A2, the count form adds
// the per-repeat sums in order while the level-0 form reduces them again by the same tree, epr at a time. Max/min
// follow extreme_beats, the first pass's results saturated in saturation mode (half).
// dst = [value] or [value, index bits] (index: the element's offset from src, stored in a T slot as an integer).
template <class T>
inline void reduce_whole(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<T>& work, const Mask& m, uint32_t repeat, uint32_t srcRep, bool level0,
                         bool calIndex) {
    constexpr uint32_t epr = elems_per_repeat<T>(), epb = 32 / sizeof(T);
    Opnd ops[1] = {{(uint8_t*)src.addr_, sizeof(T), 1u, level0 ? srcRep : 8u}};
    uint32_t reps;
    if (level0) {
        if (repeat == 0) return;
        Mask lm = m;
        reps = repeat;
        // repeatTimes may exceed 255 here (the API splits it): check the footprint in chunks of 255
        for (uint32_t r0 = 0; r0 < repeat; r0 += 255) {
            Opnd o[1] = {{ops[0].base + size_t(r0) * srcRep * 32, sizeof(T), 1u, srcRep}};
            prepare_repeats(api, lm, std::min<uint32_t>(255, repeat - r0), epr, o, 0);
        }
    } else {
        reps = prepare_repeats(api, m, 0, epr, ops, 0);
    }
    if (!reps) return;
    uint32_t per = k == RED_SUM ? 1 : 2;
    check_ub_aligned(api, dst.addr_, per * sizeof(T));
    check_ub(api, dst.addr_, (calIndex ? 2 : 1) * sizeof(T));
    sync_v_write(api, dst.addr_, (calIndex ? 2 : 1) * sizeof(T));
    if (work.addr_ && work.addr_ != dst.addr_) {   // the docs' minimum: the first round's results, 32 B aligned
        size_t need = (size_t(reps) * per + epb - 1) / epb * epb * sizeof(T);
        check_ub_aligned(api, work.addr_);
        check_ub(api, work.addr_, need);
        sync_v_write(api, work.addr_, need);
    }
    std::vector<T> vals(reps);
    std::vector<uint32_t> idxs(reps);
    const bool sat = half_saturating();
    for (uint32_t r = 0; r < reps; ++r) {
        uint32_t i = 0;
        if (!reduce_repeat(m, r, epr, ops, k, vals[r], i)) {
            if (k != RED_SUM) vals[r] = T(k == RED_MAX ? -INFINITY : INFINITY);
        } else if (k != RED_SUM) {
            vals[r] = reduce_saturate(vals[r], sat);   // the first pass's result as it lands in the work buffer
        }
        idxs[r] = uint32_t(size_t(ops[0].at(r, i) - ops[0].base) / sizeof(T));
    }
    T val = vals[0];
    uint32_t idx = idxs[0];
    if (k == RED_SUM) {
        if (!level0) {
            for (uint32_t r = 1; r < reps; ++r) val = reduce_add(val, vals[r]);
        } else {
            while (vals.size() > 1) {
                std::vector<T> next;
                for (size_t b = 0; b < vals.size(); b += epr) next.push_back(tree_sum(vals.data() + b, uint32_t(std::min<size_t>(epr, vals.size() - b))));
                vals.swap(next);
            }
            val = vals[0];
        }
        set_acc(val);
    } else {
        // the later passes pick among the first pass's results by the same rule; picking in one scan gives what
        // the passes give (ties and NaNs keep the earliest repeat either way)
        for (uint32_t r = 1; r < reps; ++r)
            if (extreme_beats(k == RED_MAX, vals[r], val)) { val = vals[r]; idx = idxs[r]; }
        core().reduce_value = double(up(val));
        core().reduce_index = idx;
    }
    dst.addr_[0] = val;
    if (calIndex) store_value_index(dst.addr_, val, idx, AscendC::ReduceOrder::ORDER_VALUE_INDEX);
}
// Count form: `count` elements in counter mode (the whole repeats plus the tail).
template <class T>
inline void reduce_all(const char* api, RedKind k, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<T>& work, int32_t count, bool calIndex) {
    if (count <= 0) return;
    Mask m;
    m.counter = true;
    m.total = uint64_t(count);
    reduce_whole(api, k, dst, src, work, m, 0, 8, false, calIndex);
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

// RepeatReduceSum: WholeReduceSum with a continuous mask (elemsInOneRepeat); dstBlkStride has no effect and
// dstRepStride counts result elements.
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t elemsInOneRepeat, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride) {
    ASCSIM_DTYPE_CHECK("RepeatReduceSum", T, "half / float", ASCSIM_RED_TYPES);
    (void)dstBlkStride;
    ::ascsim::whole_reduce("RepeatReduceSum", ::ascsim::RED_SUM, dst, src, uint64_t(elemsInOneRepeat), isSetMask, repeatTime,
                           dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}

// ReduceSum / ReduceMax / ReduceMin: the count form and the level-0 form (mask, repeatTimes, srcRepStride; the
// mask register is set by the API). repeatTimes may exceed 255 for these APIs.
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                                 const int32_t count) {
    ASCSIM_DTYPE_CHECK("ReduceSum", T, "half / float", ASCSIM_RED_TYPES);
    ::ascsim::reduce_all("ReduceSum", ::ascsim::RED_SUM, dst, src, workLocal, count, false);
}
#define ASCSIM_REDUCE_LEVEL0(NAME, KIND, IDX_PARAM, IDX_ARG)                                                          \
    template <typename T>                                                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, \
                                const uint64_t mask[], const int32_t repeatTimes, const int32_t srcRepStride IDX_PARAM) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        ::ascsim::Mask m;                                                                                              \
        m.bits[0] = mask[0];                                                                                           \
        m.bits[1] = ::ascsim::elems_per_repeat<T>() > 64 ? mask[1] : 0;                                                \
        ::ascsim::reduce_whole(#NAME, KIND, dst, src, workLocal, m, uint32_t(repeatTimes), uint32_t(srcRepStride), true, IDX_ARG); \
    }                                                                                                                  \
    template <typename T>                                                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal, \
                                const int32_t mask, const int32_t repeatTimes, const int32_t srcRepStride IDX_PARAM) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, "half / float", ASCSIM_RED_TYPES);                                                \
        ::ascsim::Mask m = ::ascsim::mask_bits_from_count(uint64_t(mask), ::ascsim::elems_per_repeat<T>());            \
        ::ascsim::reduce_whole(#NAME, KIND, dst, src, workLocal, m, uint32_t(repeatTimes), uint32_t(srcRepStride), true, IDX_ARG); \
    }
ASCSIM_REDUCE_LEVEL0(ReduceSum, ::ascsim::RED_SUM, , false)
ASCSIM_REDUCE_LEVEL0(ReduceMax, ::ascsim::RED_MAX, ASCSIM_COMMA bool calIndex = 0, calIndex)
ASCSIM_REDUCE_LEVEL0(ReduceMin, ::ascsim::RED_MIN, ASCSIM_COMMA bool calIndex = 0, calIndex)
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                                 const int32_t count, bool calIndex = 0) {
    ASCSIM_DTYPE_CHECK("ReduceMax", T, "half / float", ASCSIM_RED_TYPES);
    ::ascsim::reduce_all("ReduceMax", ::ascsim::RED_MAX, dst, src, workLocal, count, calIndex);
}
template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                                 const int32_t count, bool calIndex = 0) {
    ASCSIM_DTYPE_CHECK("ReduceMin", T, "half / float", ASCSIM_RED_TYPES);
    ::ascsim::reduce_all("ReduceMin", ::ascsim::RED_MIN, dst, src, workLocal, count, calIndex);
}
template <typename T> __aicore__ inline void GetReduceMaxMinCount(T& maxMinValue) { maxMinValue = T(::ascsim::core().reduce_value); }
// The index comes back as integer bits in a T slot (the docs: read as T it is meaningless; reinterpret it).
template <typename T> __aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
    maxMinValue = T(::ascsim::core().reduce_value);
    uint32_t idx = uint32_t(::ascsim::core().reduce_index);
    if constexpr (sizeof(T) == 2) { uint16_t b = uint16_t(idx); std::memcpy(&maxMinIndex, &b, 2); }
    else if constexpr (sizeof(T) == 4) std::memcpy(&maxMinIndex, &idx, 4);
    else maxMinIndex = T(idx);
}
// GetAccVal<T>: the ReduceSum result as T (the documented form, T = the ReduceSum's half/float); the untyped form
// answers the raw register, which kernels reinterpret (see ascsim::set_acc).
template <typename T> __aicore__ inline T GetAccVal() { return ::ascsim::acc_as<T>(); }
inline int64_t GetAccVal() { return int64_t(::ascsim::core().acc_bits); }

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_REDUCE_H_

// ascsim kernel side: the sort family.
//
// Atlas A2 (arch 2201) layout ("sorted region"): one sorted element is an 8-byte record; bytes [0, sizeof(T)) hold the
// score (half or float), bytes [4, 8) the uint32 index; for half, bytes [2, 4) are reserved (ascsim writes 0 there).
// Order: descending by score; on equal scores the element that came first (lower position in the input, or lower
// queue number in a merge, then lower position in that queue) comes first. NaN order is not documented: ascsim
// places NaN before every number (keeps the comparison a strict weak order).
//   Sort32<T>(dst, src0, src1, repeatTime)                  32 (score, index) pairs per repeat, repeats independent
//   MrgSort<T>(dst, MrgSortSrcList<T>, MrgSort4Info)        merge 2..4 sorted queues (validBit 3/7/15)
//   GetMrgSortResult(n1, n2, n3, n4)                        elements consumed per queue by the last merge
//   Sort<T, isFullSort>(dst, concat, index, tmp, repeat)    high-level: Sort32 per repeat, or one full sort of
//                                                           32 * repeat elements (tmp >= 8 B per element)
//   MrgSort<T, isExhaustedSuspension>(dst, list, elementCountList, sortedNum, validBit, repeatTime)   high-level
//   Concat<T>(concat, src, tmp, repeat)                     A2: no data movement, concat becomes a view of src
//                                                           (GetConcatTmpSize is 0 on this part)
//   Extract<T>(dstValue, dstIndex, sorted, repeat)          32 records per repeat back into scores + indices
//   GetSortLen<T>(n) / GetSortOffset<T>(n)                  n records expressed in elements of T (n * 8 / sizeof(T));
//                                                           the pages say "bytes" but every use indexes a
//                                                           LocalTensor<T> with the result
// Region-proposal APIs (documented as NOT supported on Atlas A2; emulated with their documented semantics, one warning
// per API): a proposal is 8 elements of T [x1, y1, x2, y2, score, label, reserved, reserved], score = element 4.
//   RpSort16<T>(dst, src, repeat)  ProposalConcat/ProposalExtract<T>(dst, src, repeat, modeNumber)  MrgSort4<T>(...)
// High-level TopK (MERGE_SORT, Normal and Small modes): per row the k largest (isLargest) or smallest values and their
// indices, ties to the lower position, NaN first either way; outputs padded per row to 32 B (Normal) or packed
// (Small); temporary buffer per ascsim_sort::topk_tmp_bytes (GetTopKMaxMinTmpSize reports the same).
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_SORT_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_SORT_H_
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include "../sort_common.h"
#include "dtype_check.h"
#include "engine.h"
#include "tpipe.h"

namespace AscendC {

struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
                            const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(uint8_t(repeatTimesIn)) {
        for (int q = 0; q < 4; ++q) elementLengths[q] = elementLengthsIn[q];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T> struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                              const LocalTensor<T>& src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

}  // namespace AscendC

namespace ascsim {
namespace sortd {

// Elements each queue contributed to the last MrgSort/MrgSort4 of this core (GetMrgSortResult). Cores run on
// threads of their own, so a thread_local is per core.
inline thread_local uint16_t g_mrg_result[4] = {0, 0, 0, 0};

// Sort key: descending score, NaN first.
struct Key {
    bool nan;
    float v;
};
inline bool before(const Key& a, const Key& b) {   // a strictly precedes b
    if (a.nan != b.nan) return a.nan;
    return !a.nan && a.v > b.v;
}
template <class T> inline Key key_of(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    float f = float(v);
    return Key{std::isnan(f), f};
}

inline std::string num(uint64_t v) { return std::to_string(v); }

// Operand placement: start alignment, bytes inside the UB; beyond the LocalTensor's own size only warns (as the
// count-form check_count does: only CPU-debug knows LocalTensor sizes). `role` (kRead / kWrite) is the operand's
// access by PIPE_V for the missing-sync detector: every sort instruction runs on the vector pipe.
template <class T>
inline void check_span(const char* api, const AscendC::LocalTensor<T>& t, uint64_t bytes, uint32_t align, const char* what, int role) {
    check_ub_aligned(api, t.addr_, align);
    if (bytes == 0) return;
    check_ub(api, t.addr_, bytes);
    if (bytes > uint64_t(t.size_) * sizeof(T))
        warn(api, std::string("tensor size overflow: ") + what + " needs " + num(bytes) + " B but its LocalTensor holds " +
                      num(uint64_t(t.size_) * sizeof(T)) + " B (CPU-debug would reject this)");
    sync_ub(kPipeV, api, t.addr_, size_t(bytes), role);
}

inline void check_repeat(const char* api, int64_t repeat, const char* name = "repeatTime") {
    if (repeat < 0 || repeat > 255)
        fail(api, std::string("Failed to check ") + name + " value", std::string(name) + " " + std::to_string(repeat) +
                                                                        " outside the valid range 0 ~ 255");
}

inline bool overlaps(const void* a, uint64_t na, const void* b, uint64_t nb) {
    auto pa = static_cast<const uint8_t*>(a);
    auto pb = static_cast<const uint8_t*>(b);
    return na && nb && pa < pb + nb && pb < pa + na;
}

// Writes one A2 record (score, index) at p.
template <class T> inline void put_record(uint8_t* p, T score, uint32_t index) {
    std::memset(p, 0, 8);
    std::memcpy(p, &score, sizeof(T));
    std::memcpy(p + 4, &index, 4);
}

// Sorts `n` (score, index) pairs descending (stable) into A2 records at out.
template <class T> inline void sort_pairs(uint8_t* out, const T* score, const uint32_t* index, uint32_t n) {
    std::vector<uint32_t> ord(n);
    std::vector<Key> keys(n);
    for (uint32_t i = 0; i < n; ++i) {
        ord[i] = i;
        keys[i] = key_of<T>(reinterpret_cast<const uint8_t*>(score + i));
    }
    std::stable_sort(ord.begin(), ord.end(), [&](uint32_t a, uint32_t b) { return before(keys[a], keys[b]); });
    for (uint32_t i = 0; i < n; ++i) put_record<T>(out + size_t(i) * 8, score[ord[i]], index[ord[i]]);
}

// Sort32 / Sort: `groups` independent groups of `per` elements (per = 32 * repeat for the full sort).
template <class T>
inline void sort_region(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                        const AscendC::LocalTensor<uint32_t>& src1, uint32_t repeat, bool full) {
    uint32_t n = 32u * repeat;
    check_span(api, src0, uint64_t(n) * sizeof(T), 32, "src0 (score)", kRead);
    check_span(api, src1, uint64_t(n) * 4, 32, "src1 (index)", kRead);
    check_span(api, dst, uint64_t(n) * 8, 32, "dst", kWrite);
    // sources are read completely before dst is written (overlap behaves like the staged device instruction)
    std::vector<T> s(src0.addr_, src0.addr_ + n);
    std::vector<uint32_t> ix(src1.addr_, src1.addr_ + n);
    std::vector<uint8_t> out(size_t(n) * 8);
    uint32_t per = full ? n : 32u;
    for (uint32_t g = 0; g < n / per; ++g) sort_pairs<T>(out.data() + size_t(g) * per * 8, s.data() + g * per, ix.data() + g * per, per);
    std::memcpy(dst.addr_, out.data(), out.size());
}

// k-way merge of sorted queues of `rec`-byte records whose score (type T) sits at byte `so`.
// Ties: the lower queue wins. exhaust: stop as soon as one queue is empty. Returns the records written.
template <class T>
inline uint32_t merge_queues(uint8_t* dst, const uint8_t* const* src, const uint32_t* len, int nq, bool exhaust, uint32_t rec,
                             uint32_t so, uint32_t* consumed) {
    std::vector<std::vector<uint8_t>> q(nq);   // copies: sources are read before dst is written
    for (int i = 0; i < nq; ++i) {
        q[i].assign(src[i], src[i] + size_t(len[i]) * rec);
        consumed[i] = 0;
    }
    std::vector<uint8_t> out;
    for (;;) {
        int best = -1;
        bool any_empty = false;
        for (int i = 0; i < nq; ++i) {
            if (consumed[i] >= len[i]) { any_empty = true; continue; }
            if (best < 0 || before(key_of<T>(&q[i][size_t(consumed[i]) * rec + so]), key_of<T>(&q[best][size_t(consumed[best]) * rec + so])))
                best = i;
        }
        if (best < 0 || (exhaust && any_empty)) break;
        const uint8_t* r = &q[best][size_t(consumed[best]) * rec];
        out.insert(out.end(), r, r + rec);
        ++consumed[best];
    }
    if (!out.empty()) std::memcpy(dst, out.data(), out.size());
    return uint32_t(out.size() / rec);
}

// Shared driver of MrgSort (A2 records), the high-level MrgSort and MrgSort4 (proposals).
template <class T>
inline void mrg_sort(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& list,
                     const uint16_t* lens, uint16_t validBit, bool exhaust, int64_t repeat, uint32_t rec, uint32_t so,
                     uint32_t srcAlign, uint32_t dstAlign, uint32_t* sortedNum) {
    check_repeat(api, repeat, "repeatTimes");
    if (validBit != 3 && validBit != 7 && validBit != 15)
        fail(api, "Failed to check validBit value in MrgSort",
             "validBit " + num(validBit) + " is not one of 3 (2 queues), 7 (3 queues), 15 (4 queues)");
    int nq = validBit == 3 ? 2 : validBit == 7 ? 3 : 4;
    const AscendC::LocalTensor<T>* s[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
    uint32_t len[4] = {0, 0, 0, 0};
    for (int i = 0; i < nq; ++i) {
        if (lens[i] > 4095)
            fail(api, "Failed to check elementLengths value in MrgSort",
                 "queue " + num(i + 1) + " length " + num(lens[i]) + " outside the valid range 0 ~ 4095");
        len[i] = lens[i];
    }
    if (repeat == 0) {   // NOP on A2: nothing is read or written
        for (int i = 0; i < 4; ++i) g_mrg_result[i] = 0;
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < nq; ++i) total += len[i];
    if (repeat > 1) {
        bool ok = nq == 4 && !exhaust;
        for (int i = 1; ok && i < 4; ++i)
            ok = len[i] == len[0] && reinterpret_cast<const uint8_t*>(s[i]->addr_) ==
                                         reinterpret_cast<const uint8_t*>(s[0]->addr_) + uint64_t(i) * len[0] * rec;
        if (!ok)
            fail(api, "Failed to check repeatTimes value in MrgSort",
                 "repeatTimes " + num(uint64_t(repeat)) + " > 1 needs 4 valid queues (validBit 15) of equal length stored "
                 "back to back and no exhausted suspension");
    }
    check_span(api, dst, total * rec * uint64_t(repeat), dstAlign, "dst", kWrite);
    for (int i = 0; i < nq; ++i) {
        uint64_t span = repeat > 1 ? total * rec * uint64_t(repeat) - uint64_t(i) * len[0] * rec : uint64_t(len[i]) * rec;
        check_span(api, *s[i], span, srcAlign, i == 0 ? "src1" : i == 1 ? "src2" : i == 2 ? "src3" : "src4", kRead);
        if (overlaps(dst.addr_, total * rec * uint64_t(repeat), s[i]->addr_, span))
            fail(api, "MrgSort does not support address overlap between src and dst",
                 "dst overlaps queue " + num(i + 1) + " (use a separate destination buffer)");
    }
    uint32_t consumed[4] = {0, 0, 0, 0};
    for (int64_t r = 0; r < repeat; ++r) {
        const uint8_t* src[4];
        for (int i = 0; i < nq; ++i) src[i] = reinterpret_cast<const uint8_t*>(s[i]->addr_) + uint64_t(r) * total * rec;
        merge_queues<T>(reinterpret_cast<uint8_t*>(dst.addr_) + uint64_t(r) * total * rec, src, len, nq, exhaust, rec, so, consumed);
    }
    for (int i = 0; i < 4; ++i) {
        uint32_t c = i < nq ? consumed[i] : 0;
        g_mrg_result[i] = uint16_t(c);
        if (sortedNum) sortedNum[i] = c;
    }
}

// Region-proposal APIs: documented unsupported on Atlas A2; the message is constant so a launch reports it once.
inline void proposal_warning(const char* api) {
    warn(api, "documented as not supported on Atlas A2 (arch 2201); ascsim emulates the documented Region Proposal "
              "semantics (Atlas training/inference parts), a real A2 build would not run it");
}

inline void check_mode(const char* api, int32_t mode) {
    if (mode < 0 || mode > 5)
        fail(api, "Failed to check modeNumber value", "modeNumber " + std::to_string(mode) + " outside the valid range 0 ~ 5");
}

}  // namespace sortd
}  // namespace ascsim

namespace AscendC {

// ------------------------------------------------------------------------------------------------ Atlas A2 sort
template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("Sort32", T, "half / float", half, float);
    ::ascsim::sortd::check_repeat("Sort32", repeatTime);
    if (repeatTime == 0) return;   // NOP on A2
    ::ascsim::sortd::sort_region<T>("Sort32", dst, src0, src1, uint32_t(repeatTime), false);
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    ASCSIM_DTYPE_CHECK("MrgSort", T, "half / float", half, float);
    ::ascsim::sortd::mrg_sort<T>("MrgSort", dst, src, params.elementLengths, params.validBit, params.ifExhaustedSuspension,
                                 params.repeatTimes, 8, 0, 8, 32, nullptr);
}

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                               uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("MrgSort", T, "half / float", half, float);
    ::ascsim::sortd::mrg_sort<T>("MrgSort", dst, sortList, elementCountList, validBit, isExhaustedSuspension, repeatTime, 8, 0,
                                 8, 32, sortedNum);
}

__aicore__ inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                                        uint16_t& mrgSortList4) {
    mrgSortList1 = ::ascsim::sortd::g_mrg_result[0];
    mrgSortList2 = ::ascsim::sortd::g_mrg_result[1];
    mrgSortList3 = ::ascsim::sortd::g_mrg_result[2];
    mrgSortList4 = ::ascsim::sortd::g_mrg_result[3];
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("Sort", T, "half / float", half, float);
    ::ascsim::sortd::check_repeat("Sort", repeatTime);
    if (repeatTime == 0) return;
    uint64_t bytes = uint64_t(repeatTime) * 32 * 8;
    if (isFullSort && repeatTime > 1) {
        // the full sort merges through tmp: GetSortTmpSize = 8 B per element on this part
        ::ascsim::check_ub_aligned("Sort", tmp.addr_);
        if (uint64_t(tmp.GetSize()) * sizeof(T) < bytes)
            ::ascsim::fail("Sort", "tmp buffer is too small",
                           "a full sort of " + std::to_string(repeatTime * 32) + " elements needs " + std::to_string(bytes) +
                               " B of tmp (GetSortTmpSize / GetSortLen<T>) but the tmp LocalTensor holds " +
                               std::to_string(uint64_t(tmp.GetSize()) * sizeof(T)) + " B");
        ::ascsim::check_ub("Sort", tmp.addr_, bytes);
        ::ascsim::sync_v_write("Sort", tmp.addr_, bytes);   // the merge passes' scratch
        if (::ascsim::sortd::overlaps(tmp.addr_, bytes, dst.addr_, bytes))
            ::ascsim::fail("Sort", "tmp buffer overlaps dst", "the full sort ping-pongs between dst and tmp; they must not share UB");
    }
    ::ascsim::sortd::sort_region<T>("Sort", dst, concat, index, uint32_t(repeatTime), isFullSort);
    // the merge passes leave sorted data in tmp: clobber it like the device does
    if (isFullSort && repeatTime > 1) std::memcpy(tmp.addr_, dst.addr_, bytes);
}

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("Concat", T, "half / float", half, float);
    (void)tmp;
    ::ascsim::sortd::check_repeat("Concat", repeatTime);
    if (repeatTime > 0) ::ascsim::sortd::check_span("Concat", src, uint64_t(repeatTime) * 16 * sizeof(T), 32, "src", ::ascsim::kRead);
    concat = src;   // A2: Sort reads plain scores, so the "concatenated" data is the source itself
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                               const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("Extract", T, "half / float", half, float);
    ::ascsim::sortd::check_repeat("Extract", repeatTime);
    if (repeatTime == 0) return;
    uint32_t n = uint32_t(repeatTime) * 32;
    ::ascsim::sortd::check_span("Extract", sorted, uint64_t(n) * 8, 32, "sorted", ::ascsim::kRead);
    ::ascsim::sortd::check_span("Extract", dstValue, uint64_t(n) * sizeof(T), 32, "dstValue", ::ascsim::kWrite);
    ::ascsim::sortd::check_span("Extract", dstIndex, uint64_t(n) * 4, 32, "dstIndex", ::ascsim::kWrite);
    std::vector<uint8_t> rec(reinterpret_cast<const uint8_t*>(sorted.addr_), reinterpret_cast<const uint8_t*>(sorted.addr_) + size_t(n) * 8);
    for (uint32_t i = 0; i < n; ++i) {
        std::memcpy(&dstValue.addr_[i], &rec[size_t(i) * 8], sizeof(T));
        std::memcpy(&dstIndex.addr_[i], &rec[size_t(i) * 8 + 4], 4);
    }
}

template <typename T> __aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
    ASCSIM_DTYPE_CHECK("GetSortLen", T, "half / float", half, float);
    return elemCount * uint32_t(8 / sizeof(T));
}
template <typename T> __aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    ASCSIM_DTYPE_CHECK("GetSortOffset", T, "half / float", half, float);
    return elemOffset * uint32_t(8 / sizeof(T));
}

// ------------------------------------------------------------------ Region-proposal APIs (not supported on A2)
template <typename T>
__aicore__ inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime) {
    ASCSIM_DTYPE_CHECK("RpSort16", T, "half / float", half, float);
    ::ascsim::sortd::proposal_warning("RpSort16");
    ::ascsim::sortd::check_repeat("RpSort16", repeatTime);
    if (repeatTime == 0) return;
    constexpr uint32_t rec = 8 * sizeof(T);
    uint64_t bytes = uint64_t(repeatTime) * 16 * rec;
    ::ascsim::sortd::check_span("RpSort16", src, bytes, 32, "src", ::ascsim::kRead);
    ::ascsim::sortd::check_span("RpSort16", dst, bytes, 32, "dst", ::ascsim::kWrite);
    std::vector<uint8_t> in(reinterpret_cast<const uint8_t*>(src.addr_), reinterpret_cast<const uint8_t*>(src.addr_) + bytes);
    std::vector<uint8_t> out(bytes);
    for (int32_t r = 0; r < repeatTime; ++r) {
        const uint8_t* g = in.data() + size_t(r) * 16 * rec;
        uint32_t ord[16];
        for (uint32_t i = 0; i < 16; ++i) ord[i] = i;
        std::stable_sort(ord, ord + 16, [&](uint32_t a, uint32_t b) {
            return ::ascsim::sortd::before(::ascsim::sortd::key_of<T>(g + a * rec + 4 * sizeof(T)),
                                           ::ascsim::sortd::key_of<T>(g + b * rec + 4 * sizeof(T)));
        });
        for (uint32_t i = 0; i < 16; ++i) std::memcpy(out.data() + size_t(r) * 16 * rec + i * rec, g + ord[i] * rec, rec);
    }
    std::memcpy(dst.addr_, out.data(), bytes);
}

template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    ASCSIM_DTYPE_CHECK("MrgSort4", T, "half / float", half, float);
    ::ascsim::sortd::proposal_warning("MrgSort4");
    constexpr uint32_t align = sizeof(T) == 2 ? 16 : 32;
    ::ascsim::sortd::mrg_sort<T>("MrgSort4", dst, src, params.elementLengths, params.validBit, params.ifExhaustedSuspension,
                                 params.repeatTimes, 8 * sizeof(T), 4 * sizeof(T), align, align, nullptr);
}

template <typename T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                      const int32_t modeNumber) {
    ASCSIM_DTYPE_CHECK("ProposalConcat", T, "half / float", half, float);
    ::ascsim::sortd::proposal_warning("ProposalConcat");
    ::ascsim::sortd::check_repeat("ProposalConcat", repeatTime);
    ::ascsim::sortd::check_mode("ProposalConcat", modeNumber);
    if (repeatTime == 0) return;
    uint32_t n = uint32_t(repeatTime) * 16;
    ::ascsim::sortd::check_span("ProposalConcat", src, uint64_t(n) * sizeof(T), 32, "src", ::ascsim::kRead);
    // only field modeNumber of each proposal is written (the others keep their values): a write all the same
    ::ascsim::sortd::check_span("ProposalConcat", dst, uint64_t(n) * 8 * sizeof(T), 32, "dst", ::ascsim::kWrite);
    std::vector<T> in(src.addr_, src.addr_ + n);
    for (uint32_t i = 0; i < n; ++i) dst.addr_[size_t(i) * 8 + uint32_t(modeNumber)] = in[i];   // other fields untouched
}

template <typename T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t modeNumber) {
    ASCSIM_DTYPE_CHECK("ProposalExtract", T, "half / float", half, float);
    ::ascsim::sortd::proposal_warning("ProposalExtract");
    ::ascsim::sortd::check_repeat("ProposalExtract", repeatTime);
    ::ascsim::sortd::check_mode("ProposalExtract", modeNumber);
    if (repeatTime == 0) return;
    uint32_t n = uint32_t(repeatTime) * 16;
    ::ascsim::sortd::check_span("ProposalExtract", src, uint64_t(n) * 8 * sizeof(T), 32, "src", ::ascsim::kRead);
    ::ascsim::sortd::check_span("ProposalExtract", dst, uint64_t(n) * sizeof(T), 32, "dst", ::ascsim::kWrite);
    std::vector<T> out(n);
    for (uint32_t i = 0; i < n; ++i) out[i] = src.addr_[size_t(i) * 8 + uint32_t(modeNumber)];
    std::memcpy(dst.addr_, out.data(), size_t(n) * sizeof(T));
}


// ------------------------------------------------------------------------------------------- high-level TopK
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};

}  // namespace AscendC

namespace ascsim {
namespace sortd {
template <class T, bool isInitIndex, bool isHasfinish, bool small>
inline void topk(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
                 const AscendC::LocalTensor<bool>& finish, const AscendC::LocalTensor<uint8_t>* tmp, int32_t k,
                 const AscendC::TopKInfo& info, bool isLargest) {
    const char* api = "TopK";
    const int32_t outter = info.outter, inner = info.inner, n = info.n;
    if (outter < 1 || inner < 32 || inner % 32 != 0)
        fail(api, "Failed to check topKInfo value in TopK",
             "topKInfo outter " + std::to_string(outter) + " / inner " + std::to_string(inner) +
                 ": outter must be >= 1 and inner a positive multiple of 32");
    if (small ? inner != 32 : inner > 4096)
        fail(api, "Failed to check topKInfo value in TopK",
             small ? "TOPK_NSMALL needs topKInfo.inner == 32 (got " + std::to_string(inner) + ")"
                   : "TOPK_NORMAL supports topKInfo.inner up to 4096 (got " + std::to_string(inner) + ")");
    if (n < 1 || n > inner)
        fail(api, "Failed to check topKInfo value in TopK",
             "topKInfo.n " + std::to_string(n) + " outside 1 ~ inner (" + std::to_string(inner) + ")");
    if (k < 1 || k > n)
        fail(api, "Failed to check k value in TopK", "k " + std::to_string(k) + " outside 1 ~ n (" + std::to_string(n) + ")");
    const uint32_t kv = small ? uint32_t(k) : (uint32_t(k) + 32u / sizeof(T) - 1) / (32u / sizeof(T)) * (32u / sizeof(T));
    const uint32_t ki = small ? uint32_t(k) : (uint32_t(k) + 7u) / 8u * 8u;
    const uint64_t rows = uint64_t(outter), srcBytes = rows * uint64_t(inner) * sizeof(T);
    check_span(api, src, srcBytes, 32, "srcLocal", kRead);
    if (isInitIndex) check_span(api, srcIndex, (small ? rows : 1u) * uint64_t(inner) * 4u, 32, "srcIndexLocal", kRead);
    if (isHasfinish) check_span(api, finish, rows, 32, "finishLocal", kRead);
    uint64_t vBytes = small ? rows * uint64_t(k) * sizeof(T) : rows * kv * sizeof(T), iBytes = rows * ki * 4u;
    check_span(api, dstValue, vBytes, 32, "dstValueLocal", kWrite);
    check_span(api, dstIndex, iBytes, 32, "dstIndexLocal", kWrite);
    if (overlaps(dstValue.addr_, vBytes, src.addr_, srcBytes) || overlaps(dstIndex.addr_, iBytes, src.addr_, srcBytes) ||
        overlaps(dstValue.addr_, vBytes, dstIndex.addr_, iBytes))
        fail(api, "TopK does not support address overlap between src and dst", "srcLocal, dstValueLocal and dstIndexLocal must not share UB");
    const uint32_t need = ::ascsim_sort::topk_tmp_bytes(inner, outter, isInitIndex, small);
    if (tmp) {
        check_ub_aligned(api, tmp->addr_);
        if (tmp->GetSize() < need)
            fail(api, "tmpLocal is too small",
                 "TopK needs " + std::to_string(need) + " B of temporary buffer (GetTopKMaxMinTmpSize minValue) but got " +
                     std::to_string(tmp->GetSize()) + " B");
        check_ub(api, tmp->addr_, need);
        sync_v_write(api, tmp->addr_, need);   // scratch of PIPE_V
        if (overlaps(tmp->addr_, need, src.addr_, srcBytes) || overlaps(tmp->addr_, need, dstValue.addr_, vBytes) ||
            overlaps(tmp->addr_, need, dstIndex.addr_, iBytes))
            fail(api, "tmpLocal overlaps an operand", "the temporary buffer must not share UB with src/dst");
    } else {
        auto* pipe = AscendC::GetTPipePtr();
        uint32_t used = pipe ? pipe->UsedBytes() : 0;
        if (core().ub_size < used + need)
            fail(api, "no UB left for the API's temporary buffer",
                 "without tmpLocal TopK uses the UB after the last InitBuffer (" +
                     std::to_string(core().ub_size - std::min(used, core().ub_size)) + " B free) but needs " +
                     std::to_string(need) + " B; leave room or pass a tmpLocal");
    }
    std::vector<uint32_t> ord(static_cast<size_t>(inner));
    std::vector<Key> keys(static_cast<size_t>(inner));
    for (int32_t r = 0; r < outter; ++r) {
        const T* row = src.addr_ + size_t(r) * size_t(inner);
        for (int32_t p = 0; p < inner; ++p) {
            ord[p] = uint32_t(p);
            keys[p] = key_of<T>(reinterpret_cast<const uint8_t*>(row + p));
            if (!isLargest) keys[p].v = -keys[p].v;   // ascending = descending of -x (NaN stays first)
        }
        std::stable_sort(ord.begin(), ord.end(), [&](uint32_t a, uint32_t b) { return before(keys[a], keys[b]); });
        bool done = isHasfinish && finish.addr_[r];
        for (int32_t j = 0; j < k; ++j) {
            uint32_t p = ord[j];
            dstValue.addr_[size_t(r) * kv + j] = row[p];
            int32_t ix = int32_t(p);
            if (isInitIndex) ix = srcIndex.addr_[(small ? size_t(r) * size_t(inner) : 0) + p];
            dstIndex.addr_[size_t(r) * ki + j] = done ? n : ix;
        }
    }
}
}  // namespace sortd
}  // namespace ascsim

namespace AscendC {
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig, typename Tiling>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                            const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal,
                            const LocalTensor<uint8_t>& tmpLocal, const int32_t k, const Tiling& tilling, const TopKInfo& topKInfo,
                            const bool isLargest = true) {
    ASCSIM_DTYPE_CHECK("TopK", T, "half / float", half, float);
    static_assert(config.algo == TopKAlgo::MERGE_SORT, "TopK: the RADIX_SELECT algorithm is only supported on Ascend 950PR/950DT");
    static_assert(!(topkMode == TopKMode::TOPK_NSMALL && isHasfinish), "TopK: TOPK_NSMALL supports only isHasfinish = false");
    (void)tilling;
    ::ascsim::sortd::topk<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, &tmpLocal, k, topKInfo, isLargest);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig, typename Tiling>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                            const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal, const int32_t k,
                            const Tiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
    ASCSIM_DTYPE_CHECK("TopK", T, "half / float", half, float);
    static_assert(config.algo == TopKAlgo::MERGE_SORT, "TopK: the RADIX_SELECT algorithm is only supported on Ascend 950PR/950DT");
    static_assert(!(topkMode == TopKMode::TOPK_NSMALL && isHasfinish), "TopK: TOPK_NSMALL supports only isHasfinish = false");
    (void)tilling;
    ::ascsim::sortd::topk<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, nullptr, k, topKInfo, isLargest);
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_SORT_H_

// Unit tests of ascsim's sort family (sim/include/ascsim/kernel/vec_sort.h) on one simulated core bound to the test
// thread: Sort32, Sort (per-repeat and full), Concat/Extract, MrgSort (both shapes, 2/3/4 queues, repeats, exhausted
// suspension + GetMrgSortResult), GetSortLen/GetSortOffset, the host tmp-size helpers, the region-proposal APIs, and
// their strict checks. Every result is compared with a reference built here with std::sort (score descending, then
// input position / queue number ascending), independent of the simulator's code path.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

#include "../../sim/cpp/check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;

template <class T> static LocalTensor<T> at(uint32_t byteOff, uint32_t elems) {
    return LocalTensor<T>(reinterpret_cast<T*>(g_ub + byteOff), elems, TPosition::VECCALC);
}

// Reference record: (score as float, index, tie key)
struct Ref { float s; uint32_t idx; uint64_t tie; };
static void ref_sort(std::vector<Ref>& v) {
    std::sort(v.begin(), v.end(), [](const Ref& a, const Ref& b) { return a.s != b.s ? a.s > b.s : a.tie < b.tie; });
}

// Reads A2 record i of a region: score (T at byte 0), reserved bytes, index (uint32 at byte 4).
template <class T> static std::tuple<float, uint32_t, uint16_t> rec(const uint8_t* base, uint32_t i) {
    T s; uint32_t ix; uint16_t rsv = 0;
    std::memcpy(&s, base + i * 8, sizeof(T));
    std::memcpy(&ix, base + i * 8 + 4, 4);
    if (sizeof(T) == 2) std::memcpy(&rsv, base + i * 8 + 2, 2);
    return {float(s), ix, rsv};
}

template <class T> static bool region_equals(const uint8_t* base, const std::vector<Ref>& want) {
    for (uint32_t i = 0; i < want.size(); ++i) {
        auto [s, ix, rsv] = rec<T>(base, i);
        if (s != want[i].s || ix != want[i].idx || rsv != 0) {
            std::printf("  record %u: got (%g, %u, rsv %u) want (%g, %u)\n", i, s, ix, rsv, want[i].s, want[i].idx);
            return false;
        }
    }
    return true;
}

static std::mt19937 rng(11);
// Scores from a small set so that ties are frequent; exactly representable in half.
static float tie_score() { return float(int(rng() % 21) - 10) * 0.5f; }

template <class T> static void test_sort32_and_sort(const char* name) {
    const uint32_t reps = 5, n = 32 * reps;
    auto score = at<T>(0, n);
    auto index = at<uint32_t>(4096, n);
    auto dst = at<T>(8192, n * 8 / sizeof(T));
    auto tmp = at<T>(16384, n * 8 / sizeof(T));
    std::vector<Ref> all(n);
    for (uint32_t i = 0; i < n; ++i) {
        float s = tie_score();
        score.addr_[i] = T(s);
        index.addr_[i] = 1000 + i * 3;   // indices are carried, not generated
        all[i] = Ref{float(T(s)), 1000 + i * 3, i};
    }
    // Sort32: each group of 32 sorted on its own
    std::memset(dst.addr_, 0xAB, n * 8);
    Sort32<T>(dst, score, index, int32_t(reps));
    bool ok = true;
    for (uint32_t g = 0; g < reps; ++g) {
        std::vector<Ref> grp(all.begin() + g * 32, all.begin() + g * 32 + 32);
        ref_sort(grp);
        ok = ok && region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_) + g * 256, grp);
    }
    CHECK(ok);
    // Sort<T, false> equals Sort32
    std::vector<uint8_t> s32(reinterpret_cast<uint8_t*>(dst.addr_), reinterpret_cast<uint8_t*>(dst.addr_) + n * 8);
    std::memset(dst.addr_, 0, n * 8);
    Sort<T, false>(dst, score, index, tmp, int32_t(reps));
    CHECK(std::memcmp(s32.data(), dst.addr_, n * 8) == 0);
    // Sort<T, true>: one descending order over all 160 elements, ties keep input order
    Sort<T, true>(dst, score, index, tmp, int32_t(reps));
    std::vector<Ref> full = all;
    ref_sort(full);
    CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_), full));
    // Extract: back to scores + indices
    auto val = at<T>(32768, n);
    auto idx = at<uint32_t>(36864, n);
    Extract(val, idx, dst, int32_t(reps));
    ok = true;
    for (uint32_t i = 0; i < n; ++i) ok = ok && float(val.addr_[i]) == full[i].s && idx.addr_[i] == full[i].idx;
    CHECK(ok);
    // repeatTime 0 is a NOP
    std::memset(dst.addr_, 0x5A, 64);
    Sort32<T>(dst, score, index, 0);
    CHECK(reinterpret_cast<uint8_t*>(dst.addr_)[0] == 0x5A && reinterpret_cast<uint8_t*>(dst.addr_)[63] == 0x5A);
    std::printf("%s sort32/sort/extract done\n", name);
}

// Writes a sorted queue (from `v`, already in reference order) as A2 records at byte offset off.
template <class T> static LocalTensor<T> put_queue(uint32_t off, const std::vector<Ref>& v) {
    uint8_t* p = g_ub + off;
    for (uint32_t i = 0; i < v.size(); ++i) ascsim::sortd::put_record<T>(p + i * 8, T(v[i].s), v[i].idx);
    return at<T>(off, uint32_t(v.size() * 8 / sizeof(T)));
}

template <class T> static void test_mrgsort(const char* name) {
    // 2, 3 and 4 queues of different lengths, ties across queues (lower queue first)
    for (int nq = 2; nq <= 4; ++nq) {
        uint16_t lens[4] = {0, 0, 0, 0};
        std::vector<Ref> qs[4], want;
        LocalTensor<T> src[4];
        uint32_t off = 0;
        for (int q = 0; q < nq; ++q) {
            lens[q] = uint16_t(5 + 7 * q + nq);
            for (uint32_t i = 0; i < lens[q]; ++i) {
                float s = float(T(tie_score()));
                qs[q].push_back(Ref{s, uint32_t(q * 100 + i), uint64_t(q) * 1000});
            }
            std::stable_sort(qs[q].begin(), qs[q].end(), [](const Ref& a, const Ref& b) { return a.s > b.s; });
            for (uint32_t i = 0; i < lens[q]; ++i) qs[q][i].tie = uint64_t(q) * 1000 + i;
            src[q] = put_queue<T>(off, qs[q]);
            off += (lens[q] * 8 + 8);   // queues need only 8-byte alignment: leave odd gaps
            want.insert(want.end(), qs[q].begin(), qs[q].end());
        }
        ref_sort(want);
        uint16_t vb = nq == 2 ? 3 : nq == 3 ? 7 : 15;
        MrgSortSrcList<T> list(src[0], src[1], src[2], src[3]);
        auto dst = at<T>(65536, uint32_t(want.size() * 8 / sizeof(T)));
        MrgSort4Info info(lens, false, vb, 1);
        MrgSort<T>(dst, list, info);
        CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_), want));
        uint16_t r[4];
        GetMrgSortResult(r[0], r[1], r[2], r[3]);
        CHECK(r[0] == lens[0] && r[1] == lens[1] && (nq < 3 || r[2] == lens[2]) && (nq == 4 || r[3] == 0));
        // high-level shape, same answer
        std::memset(dst.addr_, 0, want.size() * 8);
        uint32_t sortedNum[4] = {9, 9, 9, 9};
        MrgSort<T, false>(dst, list, lens, sortedNum, vb, 1);
        CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_), want));
        CHECK(sortedNum[0] == lens[0] && sortedNum[1] == lens[1]);
    }
    // exhausted suspension (hand-computed): q1 = 10 8 6, q2 = 9 1, q3 = 7 5 4 3 -> 10 9 8 7 6, then q1 is empty
    {
        std::vector<Ref> q1 = {{10, 1, 0}, {8, 2, 0}, {6, 3, 0}}, q2 = {{9, 11, 0}, {1, 12, 0}},
                         q3 = {{7, 21, 0}, {5, 22, 0}, {4, 23, 0}, {3, 24, 0}};
        auto a = put_queue<T>(0, q1), b = put_queue<T>(256, q2), c = put_queue<T>(512, q3);
        auto dst = at<T>(65536, 9 * 8 / sizeof(T));
        std::memset(dst.addr_, 0x77, 9 * 8);
        MrgSortSrcList<T> list(a, b, c, LocalTensor<T>());
        uint16_t lens[4] = {3, 2, 4, 0};
        uint32_t sortedNum[4] = {0, 0, 0, 0};
        MrgSort<T, true>(dst, list, lens, sortedNum, 7, 1);
        std::vector<Ref> want = {{10, 1, 0}, {9, 11, 0}, {8, 2, 0}, {7, 21, 0}, {6, 3, 0}};
        CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_), want));
        CHECK(reinterpret_cast<uint8_t*>(dst.addr_)[5 * 8] == 0x77);   // nothing written past the stop
        CHECK(sortedNum[0] == 3 && sortedNum[1] == 1 && sortedNum[2] == 1 && sortedNum[3] == 0);
        uint16_t r[4];
        MrgSort4Info info(lens, true, 7, 1);
        MrgSort<T>(dst, list, info);
        GetMrgSortResult(r[0], r[1], r[2], r[3]);
        CHECK(r[0] == 3 && r[1] == 1 && r[2] == 1 && r[3] == 0);
        // without suspension everything is merged
        MrgSort<T, false>(dst, list, lens, sortedNum, 7, 1);
        CHECK(sortedNum[2] == 4);
        auto [s8, i8, rsv] = rec<T>(reinterpret_cast<uint8_t*>(dst.addr_), 8);
        CHECK(s8 == 1 && i8 == 12);
    }
    // repeatTimes 2: two independent 4-way merges of back-to-back queues (Sort32 output feeding MrgSort)
    {
        const uint32_t n = 256;
        auto score = at<T>(0, n);
        auto index = at<uint32_t>(2048, n);
        auto sorted = at<T>(4096, n * 8 / sizeof(T));
        std::vector<Ref> all(n);
        for (uint32_t i = 0; i < n; ++i) {
            float s = tie_score();
            score.addr_[i] = T(s);
            index.addr_[i] = i;
            all[i] = Ref{float(T(s)), i, i};
        }
        Sort32<T>(sorted, score, index, 8);
        uint32_t q = GetSortOffset<T>(32);
        MrgSortSrcList<T> list(sorted[0], sorted[q], sorted[2 * q], sorted[3 * q]);
        uint16_t lens[4] = {32, 32, 32, 32};
        auto dst = at<T>(65536, n * 8 / sizeof(T));
        MrgSort<T>(dst, list, MrgSort4Info(lens, false, 15, 2));
        std::vector<Ref> h0(all.begin(), all.begin() + 128), h1(all.begin() + 128, all.end());
        ref_sort(h0);
        ref_sort(h1);
        CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_), h0));
        CHECK(region_equals<T>(reinterpret_cast<uint8_t*>(dst.addr_) + 128 * 8, h1));
    }
    std::printf("%s mrgsort done\n", name);
}

template <class T> static void test_proposals(const char* name) {
    const uint32_t reps = 4, n = 16 * reps;   // 4 groups of 16 proposals
    auto src = at<T>(0, n);
    auto prop = at<T>(4096, n * 8);
    for (uint32_t i = 0; i < n * 8; ++i) prop.addr_[i] = T(float(-1000));   // sentinel in every field
    std::vector<Ref> all(n);
    for (uint32_t i = 0; i < n; ++i) {
        float s = tie_score();
        src.addr_[i] = T(s);
        all[i] = Ref{float(T(s)), i, i};
    }
    ProposalConcat(prop, src, int32_t(reps), 4);
    // put the position into x1 (mode 0) so the sort can be traced
    auto pos = at<T>(2048, n);
    for (uint32_t i = 0; i < n; ++i) pos.addr_[i] = T(float(i));
    ProposalConcat(prop, pos, int32_t(reps), 0);
    bool ok = true;
    for (uint32_t i = 0; i < n; ++i)
        ok = ok && float(prop.addr_[i * 8 + 4]) == all[i].s && float(prop.addr_[i * 8]) == float(i) &&
             float(prop.addr_[i * 8 + 5]) == -1000.0f && float(prop.addr_[i * 8 + 1]) == -1000.0f;
    CHECK(ok);
    RpSort16(prop, prop, int32_t(reps));   // in place, as the documented example does
    ok = true;
    for (uint32_t g = 0; g < reps; ++g) {
        std::vector<Ref> grp(all.begin() + g * 16, all.begin() + g * 16 + 16);
        ref_sort(grp);
        for (uint32_t i = 0; i < 16; ++i) {
            const T* p = prop.addr_ + (g * 16 + i) * 8;
            ok = ok && float(p[4]) == grp[i].s && float(p[0]) == float(grp[i].idx) && float(p[5]) == -1000.0f;
        }
    }
    CHECK(ok);
    // MrgSort4 of the four sorted groups
    uint16_t lens[4] = {16, 16, 16, 16};
    MrgSortSrcList<T> list(prop[0], prop[128], prop[256], prop[384]);
    auto merged = at<T>(16384, n * 8);
    MrgSort4(merged, list, MrgSort4Info(lens, false, 15, 1));
    std::vector<Ref> want = all;
    ref_sort(want);
    auto ex = at<T>(32768, n);
    ProposalExtract(ex, merged, int32_t(reps), 4);
    auto ex0 = at<T>(33792, n);
    ProposalExtract(ex0, merged, int32_t(reps), 0);
    ok = true;
    for (uint32_t i = 0; i < n; ++i) ok = ok && float(ex.addr_[i]) == want[i].s && float(ex0.addr_[i]) == float(want[i].idx);
    CHECK(ok);
    std::printf("%s proposals done\n", name);
}

// TopK reference: positions ordered by value (descending if largest, else ascending), ties to the lower position.
template <class T> static std::vector<uint32_t> topk_ref(const T* row, int inner, bool largest) {
    std::vector<uint32_t> p(inner);
    for (int i = 0; i < inner; ++i) p[i] = i;
    std::sort(p.begin(), p.end(), [&](uint32_t a, uint32_t b) {
        float x = float(row[a]), y = float(row[b]);
        if (x != y) return largest ? x > y : x < y;
        return a < b;
    });
    return p;
}

template <class T> static void test_topk(const char* name) {
    tiling::TopkTiling tt;
    // Normal mode, no srcIndex (positions), finish on row 1, rows padded from n = 60 to inner = 64 with -inf
    {
        const int outter = 3, inner = 64, n = 60, k = 5;
        const uint32_t kv = (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)), ki = 8;
        auto src = at<T>(0, outter * inner);
        auto dv = at<T>(4096, outter * kv);
        auto di = at<int32_t>(8192, outter * ki);
        auto fin = at<bool>(12288, 32);
        auto tmp = at<uint8_t>(16384, 8192);
        for (int i = 0; i < outter * inner; ++i) src.addr_[i] = T(i % inner < n ? tie_score() : -INFINITY);
        for (uint32_t i = 0; i < outter * kv; ++i) dv.addr_[i] = T(77.0f);
        for (uint32_t i = 0; i < outter * ki; ++i) di.addr_[i] = -7;
        fin.addr_[0] = false; fin.addr_[1] = true; fin.addr_[2] = false;
        TopKInfo info{outter, inner, n};
        TopK<T, false, true>(dv, di, src, LocalTensor<int32_t>(), fin, tmp, k, tt, info, true);
        bool ok = true;
        for (int r = 0; r < outter; ++r) {
            auto p = topk_ref(src.addr_ + r * inner, inner, true);
            for (int j = 0; j < k; ++j)
                ok = ok && float(dv.addr_[r * kv + j]) == float(src.addr_[r * inner + p[j]]) &&
                     di.addr_[r * ki + j] == (r == 1 ? n : int32_t(p[j]));
            ok = ok && float(dv.addr_[r * kv + k]) == 77.0f && di.addr_[r * ki + k] == -7;   // padding untouched
        }
        CHECK(ok);
        // the same through the UB-tail overload, smallest values
        TopK<T>(dv, di, src, LocalTensor<int32_t>(), fin, k, tt, info, false);
        ok = true;
        for (int r = 0; r < outter; ++r) {
            auto p = topk_ref(src.addr_ + r * inner, inner, false);
            for (int j = 0; j < k; ++j)
                ok = ok && float(dv.addr_[r * kv + j]) == float(src.addr_[r * inner + p[j]]) && di.addr_[r * ki + j] == int32_t(p[j]);
        }
        CHECK(ok);
        CHECK(has(throws([&] { TopK<T>(dv, di, src, LocalTensor<int32_t>(), fin, tmp[7168], k, tt, info); }), "too small"));
        CHECK(has(throws([&] { TopK<T>(dv, di, src, LocalTensor<int32_t>(), fin, tmp, 61, tt, info); }), "k value"));
        CHECK(has(throws([&] { TopK<T>(dv, di, src, LocalTensor<int32_t>(), fin, tmp, k, tt, TopKInfo{outter, 48, 40}); }), "inner"));
        CHECK(has(throws([&] { TopK<T>(dv, di, src, LocalTensor<int32_t>(), fin, at<uint8_t>(4096, 8192), k, tt, info); }),
                  "overlaps"));
    }
    // Normal mode with srcIndex (shared by the rows), smallest, k = 9
    {
        const int outter = 2, inner = 32, n = 32, k = 9;
        const uint32_t kv = (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)), ki = 16;
        auto src = at<T>(0, outter * inner);
        auto six = at<int32_t>(1024, inner);
        auto dv = at<T>(4096, outter * kv);
        auto di = at<int32_t>(8192, outter * ki);
        auto tmp = at<uint8_t>(16384, 8192);
        for (int i = 0; i < outter * inner; ++i) src.addr_[i] = T(tie_score());
        for (int i = 0; i < inner; ++i) six.addr_[i] = 100 + 3 * i;
        TopK<T, true>(dv, di, src, six, LocalTensor<bool>(), tmp, k, tt, TopKInfo{outter, inner, n}, false);
        bool ok = true;
        for (int r = 0; r < outter; ++r) {
            auto p = topk_ref(src.addr_ + r * inner, inner, false);
            for (int j = 0; j < k; ++j)
                ok = ok && float(dv.addr_[r * kv + j]) == float(src.addr_[r * inner + p[j]]) && di.addr_[r * ki + j] == 100 + 3 * int32_t(p[j]);
        }
        CHECK(ok);
    }
    // Small mode: inner 32, per-row srcIndex, packed outputs of k per row
    {
        const int outter = 4, inner = 32, n = 17, k = 8;
        auto src = at<T>(0, outter * inner);
        auto six = at<int32_t>(1024, outter * inner);
        auto dv = at<T>(4096, outter * k);
        auto di = at<int32_t>(8192, outter * k);
        auto tmp = at<uint8_t>(16384, 8192);
        for (int i = 0; i < outter * inner; ++i) {
            src.addr_[i] = T(i % inner < n ? tie_score() : -INFINITY);
            six.addr_[i] = (i / inner) * 1000 + i % inner;
        }
        TopK<T, true, false, false, TopKMode::TOPK_NSMALL>(dv, di, src, six, LocalTensor<bool>(), tmp, k, tt, TopKInfo{outter, inner, n});
        bool ok = true;
        for (int r = 0; r < outter; ++r) {
            auto p = topk_ref(src.addr_ + r * inner, inner, true);
            for (int j = 0; j < k; ++j)
                ok = ok && float(dv.addr_[r * k + j]) == float(src.addr_[r * inner + p[j]]) && di.addr_[r * k + j] == r * 1000 + int32_t(p[j]);
        }
        CHECK(ok);
        CHECK(has(throws([&] { TopK<T, true, false, false, TopKMode::TOPK_NSMALL>(dv, di, src, six, LocalTensor<bool>(), tmp, k, tt,
                                                                                  TopKInfo{2, 64, 64}); }), "TOPK_NSMALL"));
    }
    std::printf("%s topk done\n", name);
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    g_ctx.ub = g_ub;
    g_ctx.core_type = 2;

    test_sort32_and_sort<float>("float");
    test_sort32_and_sort<half>("half");
    test_mrgsort<float>("float");
    test_mrgsort<half>("half");
    test_proposals<float>("float");
    test_proposals<half>("half");
    test_topk<float>("float");
    test_topk<half>("half");
    {   // host TopK tiling: temp size as the kernel checks it, k alignments
        platform_ascendc::PlatformAscendC plat;
        uint32_t mx = 0, mn = 0;
        CHECK(GetTopKMaxMinTmpSize(plat, 64, 3, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn) && mn == 2 * 64 * 8 + 256 && mx == mn);
        CHECK(GetTopKMaxMinTmpSize(plat, 32, 4, false, true, TopKMode::TOPK_NSMALL, true, 2, mx, mn) && mn == 4 * 32 * 8);
        CHECK(!GetTopKMaxMinTmpSize(plat, 64, 4, false, true, TopKMode::TOPK_NSMALL, true, 2, mx, mn));
        tiling::TopkTiling t;
        CHECK(TopKTilingFunc(plat, 64, 3, 5, 2, false, TopKMode::TOPK_NORMAL, true, t) && t.kAlignFourBytes == 8 &&
              t.kAlignTwoBytes == 16 && t.tmpLocalSize == int32_t(mn == 0 ? 0 : 2 * 64 * 8 + 256) && t.sortRepeat == 2);
        optiling::TopkTiling ot;
        CHECK(TopKTilingFunc(plat, 32, 4, 8, 4, true, TopKMode::TOPK_NSMALL, true, ot) && ot.get_tmpLocalSize() == 4 * 32 * 8 &&
              ot.get_allDataSize() == 128);
    }

    // --- layout helpers (elements of T per record: 2 for float, 4 for half) and host tmp sizes ---
    CHECK(GetSortLen<float>(128) == 256 && GetSortLen<half>(128) == 512);
    CHECK(GetSortOffset<float>(32) == 64 && GetSortOffset<half>(32) == 128);
    {
        platform_ascendc::PlatformAscendC plat;
        CHECK(GetConcatTmpSize(plat, 128, 2) == 0);
        CHECK(GetSortTmpSize(plat, 128, 4) == 1024 && GetSortTmpSize(plat, 128, 2) == 1024);
    }
    // --- Concat on A2 moves nothing: the concat tensor becomes a view of src ---
    {
        auto src = at<float>(0, 64);
        auto tmp = at<float>(1024, 64);
        LocalTensor<float> concat;
        Concat(concat, src, tmp, 4);
        CHECK(concat.addr_ == src.addr_ && concat.GetSize() == 64);
    }
    // --- half records: scores at byte 0, 2 reserved bytes, index at byte 4 ---
    {
        auto sc = at<half>(0, 32);
        auto ix = at<uint32_t>(1024, 32);
        auto d = at<half>(2048, 128);
        for (int i = 0; i < 32; ++i) { sc.addr_[i] = half(float(i)); ix.addr_[i] = 0xC0DE0000u + i; }
        Sort32(d, sc, ix, 1);
        uint32_t first;
        std::memcpy(&first, g_ub + 2048 + 4, 4);
        CHECK(float(d.addr_[0]) == 31.0f && float(d.addr_[1]) == 0.0f && first == 0xC0DE001Fu);
    }

    // --- strict checks ---
    {
        auto sc = at<float>(0, 64);
        auto ix = at<uint32_t>(1024, 64);
        auto d = at<float>(2048, 128);
        auto tmp = at<float>(4096, 128);
        CHECK(has(throws([&] { Sort32(d, sc, ix, 256); }), "repeatTime"));
        CHECK(has(throws([&] { Sort32(d, sc, ix, -1); }), "repeatTime"));
        CHECK(has(throws([&] { Sort32(at<float>(2048 + 8, 128), sc, ix, 1); }), "not aligned"));
        CHECK(has(throws([&] { Sort32(at<float>(ascsim::kUbBytes - 128, 32), sc, ix, 1); }), "out of bounds"));
        // full sort of 64 elements needs 512 B of tmp; 256 B is too small, and tmp must not be dst
        LocalTensor<float> small = at<float>(4096, 64);
        CHECK(has(throws([&] { Sort<float, true>(d, sc, ix, small, 2); }), "too small"));
        LocalTensor<float> same = d;
        CHECK(has(throws([&] { Sort<float, true>(d, sc, ix, same, 2); }), "overlaps"));
        CHECK(throws([&] { Sort<float, true>(d, sc, ix, tmp, 2); }).empty());
        CHECK(throws([&] { Sort<float, true>(d, sc, ix, small, 1); }).empty());   // one repeat: no merge pass
        // MrgSort: validBit, lengths, overlap, repeat preconditions
        uint16_t lens[4] = {4, 4, 4, 4};
        MrgSortSrcList<float> list(d[0], d[8], d[16], d[24]);
        auto out = at<float>(8192, 256);
        CHECK(has(throws([&] { MrgSort(out, list, MrgSort4Info(lens, false, 5, 1)); }), "validBit"));
        uint16_t big[4] = {4096, 4, 4, 4};
        CHECK(has(throws([&] { MrgSort(out, list, MrgSort4Info(big, false, 15, 1)); }), "elementLengths"));
        CHECK(has(throws([&] { MrgSort(d[8], list, MrgSort4Info(lens, false, 15, 1)); }), "overlap"));
        uint32_t sn[4];
        CHECK(has(throws([&] { MrgSort<float, true>(out, list, lens, sn, 15, 2); }), "repeatTimes"));
        MrgSortSrcList<float> gap(d[0], d[8], d[16], d[40]);   // not back to back
        CHECK(has(throws([&] { MrgSort(out, gap, MrgSort4Info(lens, false, 15, 2)); }), "repeatTimes"));
        CHECK(throws([&] { MrgSort(out, list, MrgSort4Info(lens, false, 15, 2)); }).empty());
        CHECK(has(throws([&] { MrgSort(at<float>(8192 + 8, 64), list, MrgSort4Info(lens, false, 15, 1)); }), "not aligned"));
        // proposal APIs
        CHECK(has(throws([&] { ProposalConcat(out, sc, 1, 6); }), "modeNumber"));
        CHECK(has(throws([&] { ProposalExtract(sc, out, 1, -1); }), "modeNumber"));
        CHECK(has(throws([&] { RpSort16(out, out, 300); }), "repeatTime"));
        CHECK(has(throws([&] { Extract(sc, ix, at<float>(ascsim::kUbBytes - 256, 64), 2); }), "out of bounds"));
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

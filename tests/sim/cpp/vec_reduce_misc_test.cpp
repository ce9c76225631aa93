// ReduceDataBlock, ReducePairElem, ReduceRepeat, Gatherb, the store-atomic configuration and the APIs without an
// effect on results (SetNextTaskStart, WaitPreTaskEnd, DataCachePreload, PrintTimeStamp, TRACE_START / TRACE_STOP,
// CheckLocalMemoryIA, SetKernelMode) against references written from their documentation: the pages' worked
// examples, random data for half and float in both mask forms (plus counter mode and a mask set outside the call)
// with block and repeat strides, the binary-tree sums and the half overflow in both saturation modes, the older
// APIs (WholeReduce*, BlockReduce*, PairReduceSum) giving the same bytes as these successors, MAX / MIN with
// inf / NaN data in both saturation modes (the boundary-value tables' rule), the documented
// parameter ranges and alignments, and a DataCopy to GM accumulating under SetStoreAtomicConfig.
#define ASCENDC_TIME_STAMP_ON
#define ASCENDC_TRACE_ON
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "ascsim/kernel/vec_reduce_more.h"
#include "ascsim/kernel/vec_misc_more.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

static std::mt19937 rng(7);
static float frand(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
template <class T> static uint32_t bits_of(T v) { uint32_t b = 0; std::memcpy(&b, &v, sizeof(T)); return b; }
template <class T> static bool same(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

constexpr uint32_t kS = 0, kD = 65536, kRegion = 65536;

// --- references, written from the pages ---
// The binary tree of the sums: the two halves of the lanes summed alike, then added (adjacent lanes pair first).
static bool g_sat = false;   // CTRL[48] cleared: half partial sums clamp to +-65504
template <class T> static T tree(const T* v, uint32_t n) {
    if (n == 1) return v[0];
    float s = float(tree(v, n / 2)) + float(tree(v + n / 2, n / 2));
    T r = T(s);
    if (std::is_same_v<T, half> && g_sat && std::isinf(float(r))) r = T(s > 0 ? 65504.f : -65504.f);
    return r;
}
enum Kind { K_SUM, K_MAX, K_MIN };
// MAX / MIN, read from the boundary-value tables (ReduceDataBlock / ReduceRepeat <MAX/MIN>): a NaN among the active
// lanes makes the result NaN (the index reported is the first NaN's lane: the docs give none, the simulator's
// choice), +-inf order as numbers, ties keep the smallest lane; with saturation on (g_sat) a half result is written
// NaN -> 0 and +-inf -> +-65504. g_nan_picks counts the NaN results the reference produced (to show that data with
// NaNs really reached the comparison).
static int g_nan_picks = 0;
template <class T> static bool beats(Kind k, T cand, T cur) {
    if (std::isnan(float(cur))) return false;
    if (std::isnan(float(cand))) return true;
    return k == K_MAX ? float(cand) > float(cur) : float(cand) < float(cur);
}
template <class T> static T written(T v) {
    if (!std::is_same_v<T, half> || !g_sat) return v;
    if (std::isnan(float(v))) return T(0.f);
    if (std::isinf(float(v))) return T(float(v) > 0 ? 65504.f : -65504.f);
    return v;
}
template <class T> struct Lanes { T v[128]; bool on[128]; };
// The lanes of repeat r: mode 0 continuous (m0 lanes), 1 bitwise {m0, m1}, 2 counter (m0 elements in all).
template <class T> static Lanes<T> lanes(const T* src, int mode, uint64_t m0, uint64_t m1, uint32_t r, int blk, int rep) {
    constexpr uint32_t epr = 256 / sizeof(T), epb = 32 / sizeof(T);
    Lanes<T> L;
    for (uint32_t i = 0; i < epr; ++i) {
        L.on[i] = mode == 0 ? i < m0 : mode == 2 ? uint64_t(r) * epr + i < m0 : ((i < 64 ? m0 >> i : m1 >> (i - 64)) & 1);
        L.v[i] = src[(size_t(r) * rep + i / epb * blk) * epb + i % epb];
    }
    return L;
}
// Reduces lanes [lo, hi): false when none is active.
template <class T> static bool red(const Lanes<T>& L, Kind k, uint32_t lo, uint32_t hi, T& val, uint32_t& idx) {
    T buf[128];
    bool any = false;
    for (uint32_t i = lo; i < hi; ++i) {
        buf[i - lo] = L.on[i] ? L.v[i] : T(0.f);
        if (!L.on[i]) continue;
        if (k != K_SUM && (!any || beats(k, L.v[i], val))) { val = L.v[i]; idx = i; }
        any = true;
    }
    if (k == K_SUM) val = tree(buf, hi - lo);
    else if (any) {
        g_nan_picks += std::isnan(float(val));
        val = written(val);
    }
    return any;
}
static bool g_specials = false;   // fill also puts inf, -inf and NaN (for the MAX / MIN sweeps)
template <class T> static void fill(T* p, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        p[i] = T(std::round(frand(-50.f, 50.f) * 64) / 64);
        if (!g_specials) continue;
        uint32_t r = uint32_t(rng() % 512);
        if (r < 2) p[i] = T(NAN);
        else if (r < 5) p[i] = T(INFINITY);
        else if (r < 8) p[i] = T(-INFINITY);
    }
}

// One random case. api 0 ReduceDataBlock, 1 ReducePairElem, 2 ReduceRepeat (order `ord`); mode 0 continuous,
// 1 bitwise, 2 counter, 3 mask set outside (SetVectorMask, isSetMask = false) as bits {m0, m1}.
template <class T, ReduceType RT>
static bool rcase(Fixture& fx, int api, int mode, uint64_t m0, uint64_t m1, int repeat, int dstRep, int srcBlk, int srcRep,
                  ReduceOrder ord = ReduceOrder::ORDER_VALUE_INDEX) {
    constexpr uint32_t epr = 256 / sizeof(T), epb = 32 / sizeof(T);
    constexpr Kind k = RT == ReduceType::SUM ? K_SUM : RT == ReduceType::MAX ? K_MAX : K_MIN;
    auto s = fx.at<T>(kS, kRegion / sizeof(T));
    auto d = fx.at<T>(kD, kRegion / sizeof(T));
    fill(s.addr_, kRegion / sizeof(T));
    std::memset(d.addr_, 0x5A, kRegion);
    std::vector<uint8_t> want(kRegion, 0x5A);
    uint32_t reps = mode == 2 ? uint32_t((m0 + epr - 1) / epr) : uint32_t(repeat);
    int lmode = mode == 3 ? 1 : mode;
    for (uint32_t r = 0; r < reps; ++r) {
        Lanes<T> L = lanes(s.addr_, lmode, m0, m1, r, srcBlk, srcRep);
        T val{};
        uint32_t idx = 0;
        if (api == 0) {
            for (uint32_t b = 0; b < 8; ++b)
                if (red(L, k, b * epb, (b + 1) * epb, val, idx)) std::memcpy(&want[(size_t(r) * dstRep * 8 + b) * sizeof(T)], &val, sizeof(T));
        } else if (api == 1) {
            for (uint32_t p = 0; p < epr / 2; ++p)
                if (red(L, K_SUM, 2 * p, 2 * p + 2, val, idx)) std::memcpy(&want[size_t(r) * dstRep * 128 + p * sizeof(T)], &val, sizeof(T));
        } else {
            red(L, k, 0, epr, val, idx);
            uint32_t unit = sizeof(T);
            uint8_t rec[8];
            std::memcpy(rec, &val, sizeof(T));
            if (k != K_SUM) {
                uint32_t ib = idx;   // the index as an integer in a T slot, or as uint32_t on its own
                if (ord == ReduceOrder::ORDER_VALUE_INDEX) { unit = 2 * sizeof(T); std::memcpy(rec + sizeof(T), &ib, sizeof(T)); }
                else if (ord == ReduceOrder::ORDER_INDEX_VALUE) { unit = 2 * sizeof(T); std::memcpy(rec, &ib, sizeof(T)); std::memcpy(rec + sizeof(T), &val, sizeof(T)); }
                else if (ord == ReduceOrder::ORDER_ONLY_INDEX) { unit = 4; std::memcpy(rec, &ib, 4); }
            }
            std::memcpy(&want[size_t(r) * dstRep * unit], rec, unit);
        }
    }
    uint64_t bits[2] = {m0, m1};
    auto call = [&](auto mask, int rpt) {
        if (api == 0) ReduceDataBlock<RT, T>(d, s, mask, rpt, dstRep, srcBlk, srcRep);
        else if (api == 1) ReducePairElem<ReduceType::SUM, T>(d, s, mask, rpt, dstRep, srcBlk, srcRep);
        else ReduceRepeat<RT, T>(d, s, mask, rpt, dstRep, srcBlk, srcRep, ord);
    };
    if (mode == 0) call(int32_t(m0), repeat);
    else if (mode == 1) call(bits, repeat);
    else if (mode == 2) { SetMaskCount(); call(int32_t(m0), 1); SetMaskNorm(); ResetMask(); }
    else {
        SetVectorMask<T>(m1, m0);
        if (api == 0) ReduceDataBlock<RT, T, T, false>(d, s, MASK_PLACEHOLDER, repeat, dstRep, srcBlk, srcRep);
        else if (api == 1) ReducePairElem<ReduceType::SUM, T, T, false>(d, s, MASK_PLACEHOLDER, repeat, dstRep, srcBlk, srcRep);
        else ReduceRepeat<RT, T, T, false>(d, s, MASK_PLACEHOLDER, repeat, dstRep, srcBlk, srcRep, ord);
        ResetMask();
    }
    if (std::memcmp(want.data(), d.addr_, kRegion) == 0) return true;
    for (uint32_t b = 0; b < kRegion; ++b)
        if (want[b] != ((uint8_t*)d.addr_)[b]) { std::printf("  api %d mode %d: first byte mismatch at %u\n", api, mode, b); break; }
    return false;
}

template <class T, ReduceType RT> static void rsweep(Fixture& fx, int api, const char* what) {
    constexpr uint32_t epr = 256 / sizeof(T);
    const uint64_t hi = epr > 64 ? 0x9000000000000001ull : 0;
    CHECK_MSG((rcase<T, RT>(fx, api, 0, epr, 0, 4, 1, 1, 8)), "%s full mask, contiguous", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 0, epr / 2 + 3, 0, 3, 3, 2, 20)), "%s partial continuous mask, strided", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 0, 5, 0, 2, 1, 1, 8)), "%s continuous mask 5", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 1, 0x00F0000F000000F1ull, hi, 5, 2, 1, 9)), "%s bitwise mask with empty blocks", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 1, 0x5555AAAA0F0FF0F0ull, hi, 3, 0, 3, 30)), "%s bitwise mask, dstRepStride 0", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 2, 3 * epr + 21, 0, 1, 1, 1, 8)), "%s counter mode", what);
    CHECK_MSG((rcase<T, RT>(fx, api, 3, 0xFFFF0000FFFF0000ull, hi, 2, 1, 1, 8)), "%s mask set outside", what);
}
template <class T> static void rsweep_repeat_orders(Fixture& fx, const char* what) {
    constexpr uint32_t epr = 256 / sizeof(T);
    for (ReduceOrder o : {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE, ReduceOrder::ORDER_ONLY_VALUE,
                          ReduceOrder::ORDER_ONLY_INDEX}) {
        CHECK_MSG((rcase<T, ReduceType::MAX>(fx, 2, 0, epr, 0, 4, 1, 1, 8, o)), "%s MAX order %d", what, int(o));
        CHECK_MSG((rcase<T, ReduceType::MIN>(fx, 2, 1, 0xF0F0F0F0F0F0F0F0ull, epr > 64 ? 3 : 0, 3, 2, 2, 17, o)), "%s MIN order %d", what, int(o));
        CHECK_MSG((rcase<T, ReduceType::MAX>(fx, 2, 2, 2 * epr + 7, 0, 1, 3, 1, 8, o)), "%s MAX counter order %d", what, int(o));
    }
}

// Captures what f prints on stdout.
template <class F> static std::string capture_stdout(F f) {
    std::fflush(stdout);
    FILE* tmp = std::tmpfile();
    int saved = dup(fileno(stdout));
    dup2(fileno(tmp), fileno(stdout));
    f();
    std::fflush(stdout);
    dup2(saved, fileno(stdout));
    close(saved);
    std::rewind(tmp);
    std::string out;
    char buf[512];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, tmp)) > 0) out.append(buf, n);
    std::fclose(tmp);
    return out;
}
static bool warned(const ascsim::GmTestLaunch& L, const char* sub) {
    for (auto& w : L.warnings()) if (has(w, sub)) return true;
    return false;
}

int main() {
    Fixture fx;

    // ===================== ReduceDataBlock =====================
    {   // the MAX / MIN / SUM examples: one repeat of 128 halves, dst [2, 3, ..., 4] etc.
        auto s = fx.at<half>(kS, 128), d = fx.at<half>(kD, 16);
        const int pos[8] = {10, 29, 33, 60, 70, 85, 100, 115};
        const float big[8] = {2, 3, 5, 6, 7, 8, 9, 4};
        for (int form = 0; form < 2; ++form) {
            for (int i = 0; i < 128; ++i) s.addr_[i] = half(1.f);
            for (int b = 0; b < 8; ++b) s.addr_[pos[b]] = half(big[b]);
            std::memset(d.addr_, 0, 32);
            uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
            if (form == 0) ReduceDataBlock<ReduceType::MAX, half>(d, s, int32_t(256 / sizeof(half)), 1, 1, 1, 8);
            else ReduceDataBlock<ReduceType::MAX, half>(d, s, mask, 1, 1, 1, 8);
            bool ok = true;
            for (int b = 0; b < 8; ++b) ok &= float(d.addr_[b]) == big[b];
            CHECK_MSG(ok, "ReduceDataBlock MAX example, form %d", form);
            const float small[8] = {2, -3, 5, 1, 0, -7, 9, 4};
            const int mpos[8] = {11, 29, 40, 50, 64, 80, 111, 121};
            for (int i = 0; i < 128; ++i) s.addr_[i] = half(10.f);
            for (int b = 0; b < 8; ++b) s.addr_[mpos[b]] = half(small[b]);
            ReduceDataBlock<ReduceType::MIN, half>(d, s, mask, 1, 1, 1, 8);
            ok = true;
            for (int b = 0; b < 8; ++b) ok &= float(d.addr_[b]) == small[b];
            CHECK_MSG(ok, "ReduceDataBlock MIN example, form %d", form);
            const float v[8] = {1, 2, 5, 6, 7, 8, 9, 3};
            for (int i = 0; i < 128; ++i) s.addr_[i] = half(v[i / 16]);
            ReduceDataBlock<ReduceType::SUM, half>(d, s, mask, 1, 1, 1, 8);
            ok = true;
            for (int b = 0; b < 8; ++b) ok &= float(d.addr_[b]) == 16 * v[b];   // [16, 32, ..., 48]
            CHECK_MSG(ok, "ReduceDataBlock SUM example, form %d", form);
        }
    }
    rsweep<half, ReduceType::SUM>(fx, 0, "ReduceDataBlock half SUM");
    rsweep<half, ReduceType::MAX>(fx, 0, "ReduceDataBlock half MAX");
    rsweep<half, ReduceType::MIN>(fx, 0, "ReduceDataBlock half MIN");
    rsweep<float, ReduceType::SUM>(fx, 0, "ReduceDataBlock float SUM");
    rsweep<float, ReduceType::MAX>(fx, 0, "ReduceDataBlock float MAX");
    rsweep<float, ReduceType::MIN>(fx, 0, "ReduceDataBlock float MIN");
    {   // the half overflow of the SUM page: [60000, 60000, -30000, 100]
        auto s = fx.at<half>(kS, 128), d = fx.at<half>(kD, 16);
        for (int i = 0; i < 128; ++i) s.addr_[i] = half(0.f);
        s.addr_[0] = half(60000.f); s.addr_[1] = half(60000.f); s.addr_[2] = half(-30000.f); s.addr_[3] = half(100.f);
        ReduceDataBlock<ReduceType::SUM, half>(d, s, 128, 1, 1, 1, 8);
        CHECK(std::isinf(float(d.addr_[0])) && float(d.addr_[0]) > 0);   // default: non-saturating, 60000 + 60000 = inf
        SetCtrlSpr<48, 48>(0);   // saturation on: 65504 + (-29900), each partial sum in half (the page's 35604 in
                                 // exact arithmetic; -29900 is -29904 in half and the sum 35600 rounds to even 35584)
        ReduceDataBlock<ReduceType::SUM, half>(d, s, 128, 1, 1, 1, 8);
        CHECK(float(d.addr_[0]) == float(half(65504.f + float(half(-30000.f + 100.f)))) && float(d.addr_[0]) == 35584.f);
        g_sat = true;
        CHECK((rcase<half, ReduceType::SUM>(fx, 0, 0, 128, 0, 2, 1, 1, 8)));
        CHECK((rcase<half, ReduceType::SUM>(fx, 2, 0, 128, 0, 2, 1, 1, 8)));
        g_sat = false;
        SetCtrlSpr<48, 48>(1);
        auto fs = fx.at<float>(kS, 64), fd = fx.at<float>(kD, 8);         // float ignores the mode
        for (int i = 0; i < 64; ++i) fs.addr_[i] = 0.f;
        fs.addr_[0] = 3e38f; fs.addr_[1] = 3e38f;
        SetCtrlSpr<48, 48>(0);
        ReduceDataBlock<ReduceType::SUM, float>(fd, fs, 64, 1, 1, 1, 8);
        SetCtrlSpr<48, 48>(1);
        CHECK(std::isinf(fd.addr_[0]));
    }

    // ===================== ReducePairElem =====================
    {
        auto s = fx.at<half>(kS, 128), d = fx.at<half>(kD, 64);
        const float ex[16] = {1, 1, 1, -1, 2, 2, -1, 2, 3, 3, 3, -1, 4, 4, -2, 4};
        const float want[8] = {2, 0, 4, 1, 6, 2, 8, 2};
        for (int form = 0; form < 2; ++form) {
            fill(s.addr_, 128);
            for (int i = 0; i < 16; ++i) s.addr_[i] = half(ex[i]);
            std::memset(d.addr_, 0, 128);
            uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
            if (form == 0) ReducePairElem<ReduceType::SUM, half>(d, s, int32_t(256 / sizeof(half)), 1, 1, 1, 8);
            else ReducePairElem<ReduceType::SUM, half>(d, s, mask, 1, 1, 1, 8);
            bool ok = true;
            for (int p = 0; p < 8; ++p) ok &= float(d.addr_[p]) == want[p];
            for (int p = 8; p < 64; ++p) ok &= same(d.addr_[p], half(float(s.addr_[2 * p]) + float(s.addr_[2 * p + 1])));
            CHECK_MSG(ok, "ReducePairElem example, form %d", form);
        }
    }
    rsweep<half, ReduceType::SUM>(fx, 1, "ReducePairElem half");
    rsweep<float, ReduceType::SUM>(fx, 1, "ReducePairElem float");

    // ===================== ReduceRepeat =====================
    {   // the MAX / MIN examples: 4 repeats of 128 halves, the extreme at lanes 52, 100, (7), 19
        auto s = fx.at<half>(kS, 512), d = fx.at<half>(kD, 16);
        const float base[4] = {1, 2, 5, 3}, peak[4] = {11, 12, 15, 13};
        const float mbase[4] = {10, 20, 50, 30}, low[4] = {1, 2, 5, 3};
        const uint16_t at[4] = {52, 100, 7, 19};
        auto run = [&](bool isMax, ReduceOrder o, int form) {
            for (int r = 0; r < 4; ++r)
                for (int i = 0; i < 128; ++i) s.addr_[r * 128 + i] = half(i == at[r] ? (isMax ? peak[r] : low[r]) : (isMax ? base[r] : mbase[r]));
            std::memset(d.addr_, 0, 32);
            uint64_t mask[2] = {0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull};
            if (isMax) {
                if (form == 0) ReduceRepeat<ReduceType::MAX, half>(d, s, 128, 4, 1, 1, 8, o);
                else ReduceRepeat<ReduceType::MAX, half>(d, s, mask, 4, 1, 1, 8, o);
            } else {
                ReduceRepeat<ReduceType::MIN, half>(d, s, mask, 4, 1, 1, 8, o);
            }
        };
        for (int form = 0; form < 2; ++form)
            for (int isMax = 1; isMax >= 0; --isMax) {
                const float* val = isMax ? peak : low;
                run(isMax, ReduceOrder::ORDER_VALUE_INDEX, form);   // [11 idx 12 idx ... 13 idx]; 52 = 0x0034 reads 3.09944e-06
                bool ok = true;
                for (int r = 0; r < 4; ++r) ok &= float(d.addr_[2 * r]) == val[r] && d.addr_[2 * r + 1].bits_ == at[r];
                ok &= std::fabs(float(d.addr_[1]) - 3.09944e-06f) < 1e-10f;
                CHECK_MSG(ok, "ReduceRepeat %s VALUE_INDEX example, form %d", isMax ? "MAX" : "MIN", form);
                run(isMax, ReduceOrder::ORDER_INDEX_VALUE, form);
                ok = true;
                for (int r = 0; r < 4; ++r) ok &= d.addr_[2 * r].bits_ == at[r] && float(d.addr_[2 * r + 1]) == val[r];
                CHECK_MSG(ok, "ReduceRepeat %s INDEX_VALUE example, form %d", isMax ? "MAX" : "MIN", form);
                run(isMax, ReduceOrder::ORDER_ONLY_VALUE, form);   // [11 12 ... 13 0 0 0 ...]
                ok = true;
                for (int r = 0; r < 4; ++r) ok &= float(d.addr_[r]) == val[r];
                for (int r = 4; r < 16; ++r) ok &= d.addr_[r].bits_ == 0;
                CHECK_MSG(ok, "ReduceRepeat %s ONLY_VALUE example, form %d", isMax ? "MAX" : "MIN", form);
                run(isMax, ReduceOrder::ORDER_ONLY_INDEX, form);   // [idx 0 idx 0 ...]: the index as uint32_t
                ok = true;
                for (int r = 0; r < 4; ++r) ok &= d.addr_[2 * r].bits_ == at[r] && d.addr_[2 * r + 1].bits_ == 0;
                CHECK_MSG(ok, "ReduceRepeat %s ONLY_INDEX example, form %d", isMax ? "MAX" : "MIN", form);
            }
        run(true, ReduceOrder::ORDER_VALUE_INDEX, 1);   // the whole call's extreme for GetReduceMaxMinCount
        half v, idx;
        GetReduceMaxMinCount(v, idx);
        CHECK(float(v) == 15.f && idx.bits_ == 2 * 128 + 7);
        // SUM: the per-repeat binary tree
        for (int i = 0; i < 512; ++i) s.addr_[i] = half(std::round(frand(-8.f, 8.f) * 256) / 256);
        uint64_t mask[2] = {0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull};
        ReduceRepeat<ReduceType::SUM, half>(d, s, mask, 4, 1, 1, 8);
        bool ok = true;
        for (int r = 0; r < 4; ++r) ok &= same(d.addr_[r], tree(s.addr_ + r * 128, 128));
        CHECK(ok);
        // ties: the smallest index wins
        for (int i = 0; i < 128; ++i) s.addr_[i] = half(i % 3 == 1 ? 9.f : 0.f);
        ReduceRepeat<ReduceType::MAX, half>(d, s, 128, 1, 1, 1, 8);
        CHECK(float(d.addr_[0]) == 9.f && d.addr_[1].bits_ == 1);
    }
    rsweep<half, ReduceType::SUM>(fx, 2, "ReduceRepeat half SUM");
    rsweep<float, ReduceType::SUM>(fx, 2, "ReduceRepeat float SUM");
    rsweep<half, ReduceType::MAX>(fx, 2, "ReduceRepeat half MAX");
    rsweep<float, ReduceType::MIN>(fx, 2, "ReduceRepeat float MIN");
    rsweep_repeat_orders<half>(fx, "ReduceRepeat half");
    rsweep_repeat_orders<float>(fx, "ReduceRepeat float");

    // ===================== MAX / MIN with inf / NaN in the data, both CTRL[48] modes =====================
    // The sweeps above again, the data now holding inf, -inf and NaN (reference: `beats` / `written`).
    g_specials = true;
    for (int sat = 0; sat < 2; ++sat) {
        SetCtrlSpr<48, 48>(sat ? 0 : 1);
        g_sat = sat != 0;
        g_nan_picks = 0;
        rsweep<half, ReduceType::MAX>(fx, 0, sat ? "ReduceDataBlock half MAX specials sat" : "ReduceDataBlock half MAX specials");
        rsweep<half, ReduceType::MIN>(fx, 0, sat ? "ReduceDataBlock half MIN specials sat" : "ReduceDataBlock half MIN specials");
        rsweep<float, ReduceType::MAX>(fx, 0, sat ? "ReduceDataBlock float MAX specials sat" : "ReduceDataBlock float MAX specials");
        rsweep<float, ReduceType::MIN>(fx, 0, sat ? "ReduceDataBlock float MIN specials sat" : "ReduceDataBlock float MIN specials");
        rsweep<half, ReduceType::MAX>(fx, 2, sat ? "ReduceRepeat half MAX specials sat" : "ReduceRepeat half MAX specials");
        rsweep<half, ReduceType::MIN>(fx, 2, sat ? "ReduceRepeat half MIN specials sat" : "ReduceRepeat half MIN specials");
        rsweep<float, ReduceType::MAX>(fx, 2, sat ? "ReduceRepeat float MAX specials sat" : "ReduceRepeat float MAX specials");
        rsweep<float, ReduceType::MIN>(fx, 2, sat ? "ReduceRepeat float MIN specials sat" : "ReduceRepeat float MIN specials");
        rsweep_repeat_orders<half>(fx, sat ? "ReduceRepeat half specials sat" : "ReduceRepeat half specials");
        rsweep_repeat_orders<float>(fx, sat ? "ReduceRepeat float specials sat" : "ReduceRepeat float specials");
        CHECK_MSG(g_nan_picks >= 20, "NaN results in the sweeps: %d, sat %d", g_nan_picks, sat);
    }
    g_specials = false;
    g_sat = false;
    SetCtrlSpr<48, 48>(1);

    // ===================== the older APIs against their successors =====================
    // The API change list maps BlockReduceSum -> ReduceDataBlock<SUM>, WholeReduceSum/Max/Min -> ReduceRepeat,
    // PairReduceSum -> ReducePairElem (argument order aside). Same inputs, same bytes out: in both CTRL[48] modes with
    // half sums that overflow and inf/NaN inputs (one overflow rule for every sum reduction), and for MAX/MIN in every
    // ReduceOrder (ORDER_ONLY_INDEX: a uint32_t index and a 4-byte dstRepStride unit, for half too).
    {
        auto hs = fx.at<half>(kS, 8192), hd1 = fx.at<half>(kD, 8192), hd2 = fx.at<half>(kD + 32768, 8192);
        auto fs = fx.at<float>(kS + 16384, 4096), fd1 = fx.at<float>(kD, 4096), fd2 = fx.at<float>(kD + 32768, 4096);
        auto load = [&](bool specials) {   // large magnitudes so that sums overflow; optionally inf / -inf / NaN
            for (int i = 0; i < 8192; ++i) {
                float v = frand(-65504.f, 65504.f);
                int r = int(rng() % 64);
                if (specials && r == 0) v = INFINITY;
                else if (specials && r == 1) v = -INFINITY;
                else if (specials && r == 2) v = NAN;
                hs.addr_[i] = half(v);
            }
            for (int i = 0; i < 4096; ++i) {
                int r = int(rng() % 64);
                fs.addr_[i] = specials && r == 0 ? INFINITY : specials && r == 1 ? NAN : frand(-3e38f, 3e38f);
            }
        };
        auto same_out = [&](const void* a, const void* b) { return std::memcmp(a, b, 16384) == 0; };
        auto clear = [&] { std::memset(hd1.addr_, 0x5A, 16384); std::memset(hd2.addr_, 0x5A, 16384); };
        uint64_t hbits[2] = {0xF0F0FFFF0000FFFFull, 0x8000000000000001ull}, fbits[2] = {0xFFFF0000FFF0F00Full, 0};
        for (int sat = 0; sat < 2; ++sat) {
            SetCtrlSpr<48, 48>(sat ? 0 : 1);
            for (int specials = 0; specials < 2; ++specials) {
                load(specials != 0);
                for (int form = 0; form < 2; ++form) {
                    clear();
                    if (form == 0) { WholeReduceSum(hd1, hs, 128, 6, 3, 2, 17); ReduceRepeat<ReduceType::SUM, half>(hd2, hs, 128, 6, 3, 2, 17); }
                    else { WholeReduceSum(hd1, hs, hbits, 6, 3, 2, 17); ReduceRepeat<ReduceType::SUM, half>(hd2, hs, hbits, 6, 3, 2, 17); }
                    CHECK_MSG(same_out(hd1.addr_, hd2.addr_), "WholeReduceSum / ReduceRepeat<SUM> half, form %d sat %d specials %d", form, sat, specials);
                    clear();
                    if (form == 0) { BlockReduceSum(hd1, hs, 5, 100, 2, 1, 9); ReduceDataBlock<ReduceType::SUM, half>(hd2, hs, 100, 5, 2, 1, 9); }
                    else { BlockReduceSum(hd1, hs, 5, hbits, 2, 1, 9); ReduceDataBlock<ReduceType::SUM, half>(hd2, hs, hbits, 5, 2, 1, 9); }
                    CHECK_MSG(same_out(hd1.addr_, hd2.addr_), "BlockReduceSum / ReduceDataBlock<SUM> half, form %d sat %d specials %d", form, sat, specials);
                    clear();
                    if (form == 0) { PairReduceSum(hd1, hs, 4, 128, 2, 1, 8); ReducePairElem<ReduceType::SUM, half>(hd2, hs, 128, 4, 2, 1, 8); }
                    else { PairReduceSum(hd1, hs, 4, hbits, 2, 1, 8); ReducePairElem<ReduceType::SUM, half>(hd2, hs, hbits, 4, 2, 1, 8); }
                    CHECK_MSG(same_out(hd1.addr_, hd2.addr_), "PairReduceSum / ReducePairElem half, form %d sat %d specials %d", form, sat, specials);
                    clear();
                    if (form == 0) { WholeReduceSum(fd1, fs, 64, 5, 1, 1, 8); ReduceRepeat<ReduceType::SUM, float>(fd2, fs, 64, 5, 1, 1, 8); }
                    else { WholeReduceSum(fd1, fs, fbits, 5, 1, 1, 8); ReduceRepeat<ReduceType::SUM, float>(fd2, fs, fbits, 5, 1, 1, 8); }
                    CHECK_MSG(same_out(fd1.addr_, fd2.addr_), "WholeReduceSum / ReduceRepeat<SUM> float, form %d sat %d", form, sat);
                    clear();
                    BlockReduceSum(fd1, fs, 3, 64, 1, 2, 16);
                    ReduceDataBlock<ReduceType::SUM, float>(fd2, fs, 64, 3, 1, 2, 16);
                    CHECK_MSG(same_out(fd1.addr_, fd2.addr_), "BlockReduceSum / ReduceDataBlock<SUM> float, sat %d", sat);
                }
            }
        }
        SetCtrlSpr<48, 48>(1);
        // the default mode: such data does overflow (inf, or NaN where +inf and -inf partial sums meet), so the
        // comparison above is not vacuous
        load(false);
        WholeReduceSum(hd1, hs, 128, 8, 1, 1, 8);
        bool any_inf = false;
        for (int r = 0; r < 8; ++r) any_inf |= !std::isfinite(float(hd1.addr_[r]));
        for (int i = 0; i < 128; ++i) hs.addr_[i] = half(i < 2 ? 40000.f : 0.f);
        WholeReduceSum(hd1, hs, 128, 1, 1, 1, 8);
        CHECK(any_inf && std::isinf(float(hd1.addr_[0])));
        // MAX / MIN with inf / NaN data in both modes: the older APIs (and the whole call's extreme that
        // GetReduceMaxMinCount reads) give what their successors give
        for (int sat = 0; sat < 2; ++sat) {
            SetCtrlSpr<48, 48>(sat ? 0 : 1);
            load(true);
            for (int mx = 1; mx >= 0; --mx) {
                half hv1, hi1, hv2, hi2;
                float fv1, fi1, fv2, fi2;
                clear();
                if (mx) { WholeReduceMax(hd1, hs, 128, 7, 1, 1, 8); GetReduceMaxMinCount(hv1, hi1); ReduceRepeat<ReduceType::MAX, half>(hd2, hs, 128, 7, 1, 1, 8); }
                else { WholeReduceMin(hd1, hs, 128, 7, 1, 1, 8); GetReduceMaxMinCount(hv1, hi1); ReduceRepeat<ReduceType::MIN, half>(hd2, hs, 128, 7, 1, 1, 8); }
                GetReduceMaxMinCount(hv2, hi2);
                CHECK_MSG(same_out(hd1.addr_, hd2.addr_) && same(hv1, hv2) && same(hi1, hi2), "WholeReduce / ReduceRepeat half specials, max %d sat %d", mx, sat);
                clear();
                if (mx) { BlockReduceMax(hd1, hs, 6, hbits, 1, 1, 8); ReduceDataBlock<ReduceType::MAX, half>(hd2, hs, hbits, 6, 1, 1, 8); }
                else { BlockReduceMin(hd1, hs, 6, 128, 2, 1, 9); ReduceDataBlock<ReduceType::MIN, half>(hd2, hs, 128, 6, 2, 1, 9); }
                CHECK_MSG(same_out(hd1.addr_, hd2.addr_), "BlockReduce / ReduceDataBlock half specials, max %d sat %d", mx, sat);
                clear();
                if (mx) { WholeReduceMax(fd1, fs, 64, 9, 1, 1, 8); GetReduceMaxMinCount(fv1, fi1); ReduceRepeat<ReduceType::MAX, float>(fd2, fs, 64, 9, 1, 1, 8); }
                else { WholeReduceMin(fd1, fs, 64, 9, 1, 1, 8); GetReduceMaxMinCount(fv1, fi1); ReduceRepeat<ReduceType::MIN, float>(fd2, fs, 64, 9, 1, 1, 8); }
                GetReduceMaxMinCount(fv2, fi2);
                CHECK_MSG(same_out(fd1.addr_, fd2.addr_) && same(fv1, fv2) && same(fi1, fi2), "WholeReduce / ReduceRepeat float specials, max %d sat %d", mx, sat);
                clear();
                if (mx) { BlockReduceMax(fd1, fs, 5, 64, 1, 1, 8); ReduceDataBlock<ReduceType::MAX, float>(fd2, fs, 64, 5, 1, 1, 8); }
                else { BlockReduceMin(fd1, fs, 5, fbits, 1, 1, 8); ReduceDataBlock<ReduceType::MIN, float>(fd2, fs, fbits, 5, 1, 1, 8); }
                CHECK_MSG(same_out(fd1.addr_, fd2.addr_), "BlockReduce / ReduceDataBlock float specials, max %d sat %d", mx, sat);
            }
        }
        SetCtrlSpr<48, 48>(1);
        load(false);
        // MAX / MIN in every order, half and float, strided destinations
        for (ReduceOrder o : {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE, ReduceOrder::ORDER_ONLY_VALUE,
                              ReduceOrder::ORDER_ONLY_INDEX}) {
            for (int dstRep : {1, 2, 5}) {
                clear();
                WholeReduceMax(hd1, hs, 128, 7, dstRep, 1, 8, o);
                half v1, i1, v2, i2;
                GetReduceMaxMinCount(v1, i1);
                ReduceRepeat<ReduceType::MAX, half>(hd2, hs, 128, 7, dstRep, 1, 8, o);
                GetReduceMaxMinCount(v2, i2);
                CHECK_MSG(same_out(hd1.addr_, hd2.addr_) && same(v1, v2) && same(i1, i2), "WholeReduceMax half order %d dstRep %d", int(o), dstRep);
                clear();
                WholeReduceMin(hd1, hs, hbits, 5, dstRep, 2, 16, o);
                ReduceRepeat<ReduceType::MIN, half>(hd2, hs, hbits, 5, dstRep, 2, 16, o);
                CHECK_MSG(same_out(hd1.addr_, hd2.addr_), "WholeReduceMin half order %d dstRep %d", int(o), dstRep);
                clear();
                WholeReduceMax(fd1, fs, fbits, 6, dstRep, 1, 8, o);
                ReduceRepeat<ReduceType::MAX, float>(fd2, fs, fbits, 6, dstRep, 1, 8, o);
                CHECK_MSG(same_out(fd1.addr_, fd2.addr_), "WholeReduceMax float order %d dstRep %d", int(o), dstRep);
                clear();
                WholeReduceMin(fd1, fs, 64, 4, dstRep, 1, 8, o);
                ReduceRepeat<ReduceType::MIN, float>(fd2, fs, 64, 4, dstRep, 1, 8, o);
                CHECK_MSG(same_out(fd1.addr_, fd2.addr_), "WholeReduceMin float order %d dstRep %d", int(o), dstRep);
            }
        }
    }

    // ===================== reductions: strict rules =====================
    {
        auto s = fx.at<half>(kS, 4096), d = fx.at<half>(kD, 4096);
        auto fs = fx.at<float>(kS, 2048);
        fill(s.addr_, 4096);
        CHECK(has(throws([&] { ReduceDataBlock<ReduceType::SUM, half>(d, s, 128, 256, 1, 1, 8); }), "repeatTime"));
        CHECK(has(throws([&] { ReducePairElem<ReduceType::SUM, half>(d, s, 128, -1, 1, 1, 8); }), "repeatTime"));
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::SUM, half>(d, s, 128, 300, 1, 1, 8); }), "repeatTime"));
        CHECK(has(throws([&] { ReduceDataBlock<ReduceType::MAX, half>(d, s, 128, 1, 65536, 1, 8); }), "dstRepStride"));
        CHECK(has(throws([&] { ReducePairElem<ReduceType::SUM, half>(d, s, 128, 1, 1, -1, 8); }), "srcBlkStride"));
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::MIN, half>(d, s, 128, 1, 1, 1, 70000); }), "srcRepStride"));
        CHECK(throws([&] { ReduceDataBlock<ReduceType::MAX, half>(d, s, 128, 255, 0, 0, 0); }).empty());   // the bounds themselves
        // dst alignment: ReduceDataBlock half 16 B, float 32 B
        auto d16 = fx.at<half>(kD + 16, 64), d8 = fx.at<half>(kD + 8, 64);
        CHECK(throws([&] { ReduceDataBlock<ReduceType::SUM, half>(d16, s, 128, 1, 1, 1, 8); }).empty());
        CHECK(has(throws([&] { ReduceDataBlock<ReduceType::SUM, half>(d8, s, 128, 1, 1, 1, 8); }), "16-byte aligned"));
        auto fd16 = fx.at<float>(kD + 16, 64);
        CHECK(has(throws([&] { ReduceDataBlock<ReduceType::MAX, float>(fd16, fs, 64, 1, 1, 1, 8); }), "32-byte aligned"));
        // ReducePairElem: 32 B
        CHECK(has(throws([&] { ReducePairElem<ReduceType::SUM, half>(d16, s, 128, 1, 1, 1, 8); }), "32-byte aligned"));
        // ReduceRepeat: by type and order
        auto d2 = fx.at<half>(kD + 2, 64), d4 = fx.at<half>(kD + 4, 64);
        CHECK(throws([&] { ReduceRepeat<ReduceType::SUM, half>(d2, s, 128, 2, 1, 1, 8); }).empty());
        CHECK(throws([&] { ReduceRepeat<ReduceType::MAX, half>(d2, s, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); }).empty());
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::MAX, half>(d2, s, 128, 2, 1, 1, 8); }), "4-byte aligned"));
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::MIN, half>(d2, s, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX); }), "4-byte aligned"));
        auto fd4 = fx.at<float>(kD + 4, 64);
        CHECK(throws([&] { ReduceRepeat<ReduceType::SUM, float>(fd4, fs, 64, 2, 1, 1, 8); }).empty());
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::MAX, float>(fd4, fs, 64, 2, 1, 1, 8); }), "8-byte aligned"));
        CHECK(throws([&] { ReduceRepeat<ReduceType::MAX, float>(fd4, fs, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX); }).empty());
        (void)d4;
        // src: 32 B aligned and inside the UB
        auto sOdd = fx.at<half>(kS + 16, 256);
        CHECK(has(throws([&] { ReduceRepeat<ReduceType::SUM, half>(d, sOdd, 128, 1, 1, 1, 8); }), "32-byte aligned"));
        auto sFar = fx.at<half>(ascsim::kUbBytes - 256, 256);
        CHECK(has(throws([&] { ReduceDataBlock<ReduceType::SUM, half>(d, sFar, 128, 2, 1, 1, 8); }), "out of bounds"));
        auto dFar = fx.at<half>(ascsim::kUbBytes - 32, 64);
        CHECK(has(throws([&] { ReducePairElem<ReduceType::SUM, half>(dFar, s, 128, 1, 1, 1, 8); }), "out of bounds"));
        // mask 0 and repeatTime 0: nothing written
        std::memset(d.addr_, 0x5A, 1024);
        uint64_t zero[2] = {0, 0};
        ReduceDataBlock<ReduceType::SUM, half>(d, s, 0, 4, 1, 1, 8);
        ReduceDataBlock<ReduceType::MAX, half>(d, s, zero, 4, 1, 1, 8);
        ReducePairElem<ReduceType::SUM, half>(d, s, 128, 0, 1, 1, 8);
        ReduceRepeat<ReduceType::MIN, half>(d, s, zero, 4, 1, 1, 8);
        ReduceRepeat<ReduceType::SUM, half>(d, s, 64, 0, 1, 1, 8);
        bool untouched = true;
        for (int i = 0; i < 1024; ++i) untouched &= ((uint8_t*)d.addr_)[i] == 0x5A;
        CHECK(untouched);
    }

    // ===================== Gatherb =====================
    {   // the example: offsets [224 192 ... 0] reverse the 8 blocks of 0..127
        auto src = fx.at<uint16_t>(kS, 128), dst = fx.at<uint16_t>(kD, 128);
        auto off = fx.at<uint32_t>(kD + 8192, 64);
        for (int i = 0; i < 128; ++i) src.addr_[i] = uint16_t(i);
        for (int j = 0; j < 8; ++j) off.addr_[j] = uint32_t(224 - 32 * j);
        GatherRepeatParams params{1, 8};
        uint8_t repeatTime = 128 * sizeof(uint16_t) / 256;
        Gatherb<uint16_t>(dst, src, off, repeatTime, params);
        bool ok = true;
        for (int i = 0; i < 128; ++i) ok &= dst.addr_[i] == uint16_t((7 - i / 16) * 16 + i % 16);
        CHECK(ok);
    }
    for (int blkStride : {1, 0, 3}) {   // uint32_t, several repeats, random offsets; dstBlkStride 0 acts as 1
        auto src = fx.at<uint32_t>(kS, 8192), dst = fx.at<uint32_t>(kD, 8192);
        auto off = fx.at<uint32_t>(kD + 32768, 64);
        for (int i = 0; i < 8192; ++i) src.addr_[i] = uint32_t(rng());
        std::memset(dst.addr_, 0xA5, 32768);
        const int reps = 3;
        for (int k = 0; k < reps * 8; ++k) off.addr_[k] = uint32_t(std::uniform_int_distribution<int>(0, 1000)(rng)) * 32;
        GatherRepeatParams p(uint8_t(blkStride), 30);
        Gatherb(dst, src, off, reps, p);
        std::vector<uint8_t> want(32768, 0xA5);
        int eff = blkStride == 0 ? 1 : blkStride;
        for (int k = 0; k < reps * 8; ++k)
            std::memcpy(&want[(size_t(k / 8) * 30 + size_t(k % 8) * eff) * 32], (uint8_t*)src.addr_ + off.addr_[k], 32);
        CHECK_MSG(std::memcmp(want.data(), dst.addr_, 32768) == 0, "Gatherb uint32_t, dstBlkStride %d", blkStride);
    }
    {   // strict rules
        auto src = fx.at<uint16_t>(kS, 4096), dst = fx.at<uint16_t>(kD, 4096);
        auto off = fx.at<uint32_t>(kD + 16384, 64);
        for (int k = 0; k < 16; ++k) off.addr_[k] = uint32_t(k * 32);
        GatherRepeatParams p(1, 8);
        CHECK(throws([&] { Gatherb(dst, src, off, 2, p); }).empty());
        off.addr_[3] = 34;   // element aligned, not 32-byte aligned
        CHECK(has(throws([&] { Gatherb(dst, src, off, 2, p); }), "32-byte aligned"));
        off.addr_[3] = 33;   // not even element aligned
        CHECK(has(throws([&] { Gatherb(dst, src, off, 2, p); }), "element size"));
        off.addr_[3] = ascsim::kUbBytes;   // past the UB
        CHECK(has(throws([&] { Gatherb(dst, src, off, 2, p); }), "out of bounds"));
        off.addr_[3] = 96;
        CHECK(has(throws([&] { Gatherb(src, src, off, 2, p); }), "may not share memory"));
        off.addr_[9] = uint32_t(kD + 32 * 5);   // gathers the block dst block 5 is written to
        CHECK(has(throws([&] { Gatherb(dst, src, off, 2, p); }), "may not share memory"));
        off.addr_[9] = 9 * 32;
        auto dOdd = fx.at<uint16_t>(kD + 16, 4096);
        CHECK(has(throws([&] { Gatherb(dOdd, src, off, 2, p); }), "aligned"));
        auto offOdd = fx.at<uint32_t>(kD + 16384 + 4, 64);
        CHECK(has(throws([&] { Gatherb(dst, src, offOdd, 1, p); }), "aligned"));
        auto dFar = fx.at<uint16_t>(ascsim::kUbBytes - 64, 64);
        CHECK(has(throws([&] { Gatherb(dFar, src, off, 1, p); }), "out of bounds"));
        std::memset(dst.addr_, 0x5A, 512);
        Gatherb(dst, src, off, 0, p);   // repeatTime 0: nothing written
        bool untouched = true;
        for (int i = 0; i < 512; ++i) untouched &= ((uint8_t*)dst.addr_)[i] == 0x5A;
        CHECK(untouched);
    }

    // ===================== store-atomic configuration =====================
    {
        ascsim::GmTestLaunch L({{"out", 1024}, {"outh", 1024}});
        GlobalTensor<float> g;
        g.SetGlobalBuffer((__gm__ float*)L.base(0), 256);
        GlobalTensor<half> gh;
        gh.SetGlobalBuffer((__gm__ half*)L.base(1), 512);
        for (int i = 0; i < 64; ++i) g.SetValue(i, float(i));
        auto u = fx.at<float>(kS, 64);
        for (int i = 0; i < 64; ++i) u.addr_[i] = 0.5f;
        uint16_t type = 99, op = 99;
        GetStoreAtomicConfig(type, op);
        CHECK(type == 0 && op == 0);   // off at launch
        SetStoreAtomicConfig<AtomicDtype::ATOMIC_F32, AtomicOp::ATOMIC_SUM>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 1 && op == 0);
        DataCopy(g, u, 64);   // accumulates
        DataCopy(g, u, 64);
        CHECK(g.GetValue(0) == 1.0f && g.GetValue(63) == 64.0f);
        SetStoreAtomicConfig<AtomicDtype::ATOMIC_NONE, AtomicOp::ATOMIC_SUM>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 0 && op == 0);
        DataCopy(g, u, 64);   // plain store again
        CHECK(g.GetValue(0) == 0.5f && g.GetValue(63) == 0.5f);
        auto uh = fx.at<half>(kS, 128);
        for (int i = 0; i < 128; ++i) { uh.addr_[i] = half(0.25f); gh.SetValue(i, half(2.0f)); }
        SetStoreAtomicConfig<AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 2 && op == 0);
        DataCopy(gh, uh, 128);
        CHECK(float(gh.GetValue(0)) == 2.25f && float(gh.GetValue(127)) == 2.25f);
        SetAtomicNone();   // the older API turns the same state off
        GetStoreAtomicConfig(type, op);
        CHECK(type == 0 && op == 0);
        DataCopy(gh, uh, 128);
        CHECK(float(gh.GetValue(5)) == 0.25f);
        SetStoreAtomicConfig<AtomicDtype::ATOMIC_BF16, AtomicOp::ATOMIC_SUM>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 6 && op == 0);
        SetStoreAtomicConfig<AtomicDtype::ATOMIC_S8, AtomicOp::ATOMIC_SUM>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 5 && fx.ctx.atomic_op == 1);
        SetAtomicMax<float>();
        GetStoreAtomicConfig(type, op);
        CHECK(type == 1 && op != 0);   // float, not a sum
        SetAtomicAdd<int16_t>();       // the older API records its type too
        GetStoreAtomicConfig(type, op);
        CHECK(type == 3 && op == 0);
        SetAtomicNone();
        CHECK(L.finish().empty());
    }

    // ===================== the APIs without an effect on results =====================
    {
        auto u = fx.at<uint8_t>(0, 4096);
        for (int i = 0; i < 4096; ++i) u.addr_[i] = uint8_t(i * 7);
        std::vector<uint8_t> before(u.addr_, u.addr_ + 4096);
        ascsim::GmTestLaunch L({{"x", 256}});
        GlobalTensor<uint64_t> g;
        g.SetGlobalBuffer((__gm__ uint64_t*)L.base(0), 32);
        for (int i = 0; i < 32; ++i) g.SetValue(i, uint64_t(i) * 3);
        CHECK(throws([&] {
                  WaitPreTaskEnd();
                  WaitPreTaskEnd<true>();
                  SetNextTaskStart();
                  SetNextTaskStart<PIPE_V, PIPE_M, true>();
                  DataCachePreload(g, int64_t(0));
                  DataCachePreload(g, int16_t(64));
                  SetKernelMode(KernelMode::AIV_MODE);
                  AscendC::SetKernelMode(AscendC::KernelMode::MIX_MODE);
              }).empty());
        bool same_gm = true;
        for (int i = 0; i < 32; ++i) same_gm &= g.GetValue(i) == uint64_t(i) * 3;
        CHECK(same_gm && std::memcmp(before.data(), u.addr_, 4096) == 0);

        // TRACE_START / TRACE_STOP (ASCENDC_TRACE_ON is defined above)
        TRACE_START(0x2);
        TRACE_STOP(0x2);
        TRACE_START(PIPE_V, USER_DEFINE_1);
        TRACE_STOP(PIPE_V, USER_DEFINE_1);
        CHECK(!warned(L, "TRACE"));
        TRACE_STOP(0x3);
        CHECK(warned(L, "without an open TRACE_START"));
        TRACE_START(12);
        CHECK(warned(L, "apid 12"));

        // CheckLocalMemoryIA: enableBit 0 ~ 3; an armed check is accepted with a warning
        CheckLocalMemoryIAParam off{};
        CheckLocalMemoryIA(off);   // disarmed: nothing to say
        CHECK(!warned(L, "CheckLocalMemoryIA"));
        auto t = fx.at<half>(1024, 512);
        CHECK(throws([&] {
                  CheckLocalMemoryIA({0, (uint32_t)(t.GetPhyAddr() / 32), (uint32_t)((t.GetPhyAddr() + 512 * sizeof(half)) / 32),
                                      false, false, false, true, false, false, true});
              }).empty());
        CHECK(warned(L, "not simulated"));
        CHECK(has(throws([&] { CheckLocalMemoryIA({4, 0, 1, false, false, false, true, false, false, true}); }), "enableBit"));
        CHECK(throws([&] { CheckLocalMemoryIA({3, 0, 1, false, false, false, true, false, false, false}); }).empty());
        CHECK(L.finish().empty());
    }
    {   // PrintTimeStamp (ASCENDC_TIME_STAMP_ON is defined above): one record through the printf path
        uint32_t before = fx.ctx.printf_bytes;
        std::string out = capture_stdout([] { PrintTimeStamp(65577); });
        const std::string want = "[AIV Block 0/1] descId is 65577, rsv is 0, timeStamp is 0, pcPtr is 0, entry is 0.\n";
        CHECK_MSG(out == want, "got '%s'", out.c_str());
        CHECK(fx.ctx.printf_bytes == before + want.size());
        fx.ctx.block_idx = 2;
        fx.ctx.block_num = 4;
        out = capture_stdout([] { PrintTimeStamp(11); });
        CHECK(has(out, "[AIV Block 2/4] descId is 11,"));
        fx.ctx.block_idx = 0;
        fx.ctx.block_num = 1;
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

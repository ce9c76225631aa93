// Unit test of ascsim's SoftmaxFlashV2 (kernel API) and its host tiling (SoftMaxFlashV2TilingFunc,
// GetSoftMaxFlashV2Min/MaxTmpSize) on one simulated AIV bound to the test thread. Every number is checked against a
// double-precision reference computed here from the (rounded) inputs: plain mode, a two-step online update over two
// column blocks that must normalise to the full-row softmax, half / float / half data with float statistics, rows
// that are not a multiple of 8, padded columns, the non-broadcast mode, outReduceMax, and the strict checks.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

#include "../../sim/cpp/check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;

// bump allocator over the test UB, 32-byte aligned; every buffer is filled with a NaN-ish poison byte
static uint32_t g_top = 0;
template <class X> static LocalTensor<X> ub_alloc(uint32_t count) {
    uint32_t bytes = (count * uint32_t(sizeof(X)) + 31u) / 32u * 32u;
    if (g_top + bytes > ascsim::kUbBytes) { std::printf("test UB exhausted\n"); std::exit(2); }
    LocalTensor<X> t(reinterpret_cast<X*>(g_ub + g_top), count, TPosition::VECCALC);
    std::memset(g_ub + g_top, 0xFF, bytes);
    g_top += bytes;
    return t;
}

// the kernel-side tiling struct the build generates from optiling::SoftMaxTiling (same field names)
struct GenSoftMaxTiling {
    uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM, reduceK, reduceSize,
        rangeM, tailM, tailSplitSize, tailReduceSize;
};
static GenSoftMaxTiling from_host(const optiling::SoftMaxTiling& t) {
    return {t.get_srcM(), t.get_srcK(), t.get_srcSize(), t.get_outMaxM(), t.get_outMaxK(), t.get_outMaxSize(),
            t.get_splitM(), t.get_splitK(), t.get_splitSize(), t.get_reduceM(), t.get_reduceK(), t.get_reduceSize(),
            t.get_rangeM(), t.get_tailM(), t.get_tailSplitSize(), t.get_tailReduceSize()};
}
// a tiling computed by the host for [m, k] with a generous work space
static GenSoftMaxTiling host_tiling(uint32_t m, uint32_t k, uint32_t dts1, uint32_t dts2) {
    optiling::SoftMaxTiling t;
    SoftMaxFlashV2TilingFunc(ge::Shape({int64_t(m), int64_t(k)}), dts1, dts2, 1u << 20, t, true);
    return from_host(t);
}

static bool close(double got, double want, double rel, double abs_tol = 0) {
    return std::fabs(got - want) <= rel * std::fabs(want) + abs_tol;
}

template <class X> static const char* tname() { return std::is_same_v<X, half> ? "half" : "float"; }

// ---- plain + two-step online update, against double references ----
// T: src/dst, U: max/sum statistics, E: expMax. [m, 2*kb] rows, split into the column blocks A and B.
template <class T, class U, bool alias_stats>
static void online_case(uint32_t m, uint32_t kb, std::mt19937& rng) {
    g_top = 0;
    const uint32_t k = 2 * kb, sbU = 32 / sizeof(U), sbE = 32 / sizeof(T);
    const double rel = std::is_same_v<T, half> ? 4e-3 : 3e-5;
    const double rel_stat = std::is_same_v<U, half> ? 2e-3 : 3e-6;
    std::uniform_real_distribution<float> D(-3, 3);
    // full input rows (rounded to T); every other row has block B's max above block A's and vice versa
    std::vector<T> x(size_t(m) * k);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < k; ++c) {
            float shift = ((c < kb) == (r % 2 == 0)) ? -2.0f : 1.5f;
            x[size_t(r) * k + c] = T(D(rng) + shift);
        }
    auto xa = ub_alloc<T>(m * kb), xb = ub_alloc<T>(m * kb), xf = ub_alloc<T>(m * k);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < k; ++c) {
            T v = x[size_t(r) * k + c];
            xf.addr_[size_t(r) * k + c] = v;
            if (c < kb) xa.addr_[size_t(r) * kb + c] = v; else xb.addr_[size_t(r) * kb + c - kb] = v;
        }
    auto tmp = ub_alloc<uint8_t>(64 * 1024);

    // plain mode on the full rows: dst = exp(x - rowmax), max = rowmax, sum = rowsum(dst); expMax/in* untouched
    {
        auto dst = ub_alloc<T>(m * k);
        auto sum = ub_alloc<U>(m * sbU), mx = ub_alloc<U>(m * sbU), in_s = ub_alloc<U>(m * sbU), in_m = ub_alloc<U>(m * sbU);
        auto em = ub_alloc<T>(m * sbE);
        for (uint32_t i = 0; i < m * sbE; ++i) em.addr_[i] = T(7.0f);
        auto tl = host_tiling(m, k, sizeof(T), sizeof(U));
        SoftmaxFlashV2<T, false>(dst, sum, mx, xf, em, in_s, in_m, tmp, tl, SoftMaxShapeInfo{m, k, m, k});
        int bad = 0;
        for (uint32_t r = 0; r < m; ++r) {
            double rmax = -INFINITY, rs = 0;
            for (uint32_t c = 0; c < k; ++c) rmax = std::max(rmax, double(float(x[size_t(r) * k + c])));
            for (uint32_t c = 0; c < k; ++c) {
                double e = std::exp(double(float(x[size_t(r) * k + c])) - rmax);
                rs += e;
                if (!close(float(dst.addr_[size_t(r) * k + c]), e, rel, 1e-7)) ++bad;
            }
            for (uint32_t j = 0; j < sbU; ++j) {
                if (double(float(mx.addr_[r * sbU + j])) != rmax) ++bad;
                if (!close(float(sum.addr_[r * sbU + j]), rs, rel_stat + rel)) ++bad;
            }
            for (uint32_t j = 0; j < sbE; ++j) if (float(em.addr_[r * sbE + j]) != 7.0f) ++bad;   // not an output
        }
        CHECK_MSG(bad == 0, "plain %s/%s m=%u k=%u: %d mismatches", tname<T>(), tname<U>(), m, k, bad);
    }

    // step 1 (block A, no update), step 2 (block B, update from step 1); dst of A rescaled by expMax, over the sum,
    // must equal softmax of the full row
    auto da = ub_alloc<T>(m * kb), db = ub_alloc<T>(m * kb);
    auto s1 = ub_alloc<U>(m * sbU), m1 = ub_alloc<U>(m * sbU);
    auto em = ub_alloc<T>(m * sbE);
    auto s2 = alias_stats ? s1 : ub_alloc<U>(m * sbU), m2 = alias_stats ? m1 : ub_alloc<U>(m * sbU);
    auto tl = host_tiling(m, kb, sizeof(T), sizeof(U));
    SoftmaxFlashV2<T, false>(da, s1, m1, xa, em, s1, m1, tmp, tl);   // tiling carries [m, kb]; no shape info
    std::vector<double> max1(m), sum1(m);
    for (uint32_t r = 0; r < m; ++r) { max1[r] = float(m1.addr_[r * sbU]); sum1[r] = float(s1.addr_[r * sbU]); }
    SoftmaxFlashV2<T, true>(db, s2, m2, xb, em, s1, m1, tmp, tl, SoftMaxShapeInfo{m, kb, m, kb});
    int bad = 0, bad_final = 0;
    for (uint32_t r = 0; r < m; ++r) {
        double ma = -INFINITY, mb = -INFINITY;
        for (uint32_t c = 0; c < kb; ++c) {
            ma = std::max(ma, double(float(x[size_t(r) * k + c])));
            mb = std::max(mb, double(float(x[size_t(r) * k + kb + c])));
        }
        double nm = std::max(max1[r], mb), want_em = std::exp(max1[r] - nm), sb = 0;
        for (uint32_t c = 0; c < kb; ++c) sb += std::exp(double(float(x[size_t(r) * k + kb + c])) - nm);
        if (max1[r] != ma) ++bad;
        for (uint32_t j = 0; j < sbU; ++j) {
            if (double(float(m2.addr_[r * sbU + j])) != nm) ++bad;
            if (!close(float(s2.addr_[r * sbU + j]), want_em * sum1[r] + sb, rel_stat + rel)) ++bad;
        }
        for (uint32_t j = 0; j < sbE; ++j) if (!close(float(em.addr_[r * sbE + j]), want_em, rel, 1e-7)) ++bad;
        for (uint32_t c = 0; c < kb; ++c)
            if (!close(float(db.addr_[size_t(r) * kb + c]), std::exp(double(float(x[size_t(r) * k + kb + c])) - nm), rel, 1e-7)) ++bad;
        // the final normalised row against a double softmax of the whole row
        double fm = std::max(ma, mb), fs = 0;
        for (uint32_t c = 0; c < k; ++c) fs += std::exp(double(float(x[size_t(r) * k + c])) - fm);
        double total = float(s2.addr_[r * sbU]), e = float(em.addr_[r * sbE]);
        for (uint32_t c = 0; c < k; ++c) {
            double got = c < kb ? float(da.addr_[size_t(r) * kb + c]) * e / total : float(db.addr_[size_t(r) * kb + c - kb]) / total;
            double want = std::exp(double(float(x[size_t(r) * k + c])) - fm) / fs;
            if (!close(got, want, 3 * rel + 2 * rel_stat, 1e-7)) ++bad_final;
        }
    }
    CHECK_MSG(bad == 0, "update %s/%s m=%u kb=%u alias=%d: %d mismatches", tname<T>(), tname<U>(), m, kb, int(alias_stats), bad);
    CHECK_MSG(bad_final == 0, "online result != softmax, %s/%s m=%u kb=%u: %d mismatches", tname<T>(), tname<U>(), m, kb, bad_final);
}

// the online result must depend on the update: a kernel that forgets expMax (or isUpdate) is caught
static void update_matters() {
    g_top = 0;
    const uint32_t m = 3, k = 8;
    auto x = ub_alloc<float>(m * k), d = ub_alloc<float>(m * k);
    auto tmp = ub_alloc<uint8_t>(4096);
    auto s = ub_alloc<float>(m * 8), mx = ub_alloc<float>(m * 8), em = ub_alloc<float>(m * 8);
    for (uint32_t i = 0; i < m * k; ++i) x.addr_[i] = float(i % k) * 0.25f;   // row max 1.75
    for (uint32_t i = 0; i < m * 8; ++i) { s.addr_[i] = 2.0f; mx.addr_[i] = 3.0f; }   // previous block: max 3, sum 2
    auto tl = host_tiling(m, k, 4, 4);
    SoftmaxFlashV2<float, true>(d, s, mx, x, em, s, mx, tmp, tl);   // max/inMax and sum/inExpSum alias
    double want_sum = 2.0 * 1.0;   // expMax = exp(3 - 3) = 1
    for (uint32_t c = 0; c < k; ++c) want_sum += std::exp(c * 0.25 - 3.0);
    CHECK(mx.addr_[0] == 3.0f && mx.addr_[23] == 3.0f && em.addr_[5] == 1.0f);
    CHECK(close(s.addr_[8], want_sum, 1e-6));
    CHECK(close(d.addr_[k + 7], std::exp(1.75 - 3.0), 1e-6));
}

// padded columns (oriSrcK < srcK) are left out of max and sum; config constant shape; non-broadcast statistics
static constexpr SoftmaxConfig kNoBrc = {true, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
static constexpr SoftmaxConfig kConst = {true, 3, 5, SoftmaxMode::SOFTMAX_NORMAL};   // 3 rows of 5
static void shapes_and_modes() {
    g_top = 0;
    const uint32_t m = 4, k = 16;
    auto x = ub_alloc<half>(m * k), d = ub_alloc<half>(m * k);
    auto tmp = ub_alloc<uint8_t>(8192);
    auto s = ub_alloc<half>(m * 16), mx = ub_alloc<half>(m * 16), em = ub_alloc<half>(m * 16);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < k; ++c) x.addr_[r * k + c] = half(c < 5 ? float(c) * 0.5f - float(r) : 100.0f);   // pad = 100
    auto tl = host_tiling(m, k, 2, 2);
    SoftmaxFlashV2<half, false>(d, s, mx, x, em, s, mx, tmp, tl, SoftMaxShapeInfo{m, k, m, 5});
    double want = 0;
    for (int c = 0; c < 5; ++c) want += std::exp(c * 0.5 - 2.0);
    CHECK(float(mx.addr_[0]) == 2.0f && float(mx.addr_[16 * 3]) == -1.0f);
    CHECK(close(float(s.addr_[16 * 2 + 9]), want, 2e-3));
    CHECK(close(float(d.addr_[k + 4]), 1.0, 1e-3));
    // a compile-time constant shape (config.oriSrcM / oriSrcK) wins over softmaxShapeInfo / the tiling
    for (uint32_t i = 0; i < m * 16; ++i) mx.addr_[i] = half(9.0f);
    SoftmaxFlashV2<half, false, false, false, false, kConst>(d, s, mx, x, em, s, mx, tmp, tl);
    CHECK(float(mx.addr_[0]) == 2.0f && float(mx.addr_[16 * 2]) == 0.0f && close(float(s.addr_[16 * 2]), want, 2e-3));
    CHECK(float(mx.addr_[16 * 3]) == 9.0f);   // row 3 is outside the constant shape

    // SOFTMAX_OUTPUT_WITHOUT_BRC: one element per row, rows packed
    auto xf = ub_alloc<float>(m * 8), df = ub_alloc<float>(m * 8);
    auto sf = ub_alloc<float>(8), mf = ub_alloc<float>(8), ef = ub_alloc<float>(8), rmax = ub_alloc<float>(8);
    for (uint32_t i = 0; i < m * 8; ++i) xf.addr_[i] = float(i % 8) - float(i / 8);   // row r max = 7 - r
    for (uint32_t i = 0; i < 8; ++i) { sf.addr_[i] = 1.0f; mf.addr_[i] = 5.5f; ef.addr_[i] = -1.0f; rmax.addr_[i] = -1.0f; }
    auto tlf = host_tiling(m, 8, 4, 4);
    SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(df, rmax, sf, mf, xf, ef, sf, mf, tmp, tlf);
    bool ok = true;
    for (uint32_t r = 0; r < m; ++r) {
        double rm = 7.0 - r, nm = std::max(5.5, rm), e = std::exp(5.5 - nm), sum = e * 1.0;
        for (int c = 0; c < 8; ++c) sum += std::exp(c - double(r) - nm);
        ok = ok && rmax.addr_[r] == float(rm) && mf.addr_[r] == float(nm) && close(ef.addr_[r], e, 1e-6) && close(sf.addr_[r], sum, 1e-6);
    }
    CHECK(ok);
    CHECK(ef.addr_[m] == -1.0f && rmax.addr_[m] == -1.0f && sf.addr_[m] == 1.0f);   // nothing past row m-1
    // the outReduceMax overload with SOFTMAX_NORMAL does nothing (as documented)
    for (uint32_t i = 0; i < 8; ++i) rmax.addr_[i] = -1.0f;
    auto s8 = ub_alloc<float>(m * 8), m8 = ub_alloc<float>(m * 8), e8 = ub_alloc<float>(m * 8), r8 = ub_alloc<float>(m * 8);
    for (uint32_t i = 0; i < m * 8; ++i) { s8.addr_[i] = 1.0f; m8.addr_[i] = 0.0f; r8.addr_[i] = -9.0f; }
    SoftmaxFlashV2<float, true>(df, r8, s8, m8, xf, e8, s8, m8, tmp, tlf);
    CHECK(r8.addr_[0] == -9.0f && m8.addr_[0] == 0.0f && s8.addr_[0] == 1.0f);
    // and the no-tmp / outReduceMax form with the non-broadcast mode
    SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(df, rmax, sf, mf, xf, ef, sf, mf, tlf);
    CHECK(rmax.addr_[1] == 6.0f);
}

// strict checks: temp buffer size / overlap / UB tail, shapes, basic block
static void strict_checks() {
    g_top = 0;
    const uint32_t m = 8, k = 64;
    auto x = ub_alloc<half>(m * k), d = ub_alloc<half>(m * k);
    auto s = ub_alloc<float>(m * 8), mx = ub_alloc<float>(m * 8);
    auto em = ub_alloc<half>(m * 16);
    for (uint32_t i = 0; i < m * k; ++i) x.addr_[i] = half(float(i % 13) * 0.1f);
    for (uint32_t i = 0; i < m * 8; ++i) { s.addr_[i] = 1.0f; mx.addr_[i] = 0.0f; }
    const ge::Shape shape({int64_t(m), int64_t(k)});

    // host min/max sizes for half data with float statistics
    const uint32_t mn = GetSoftMaxFlashV2MinTmpSize(shape, 2, 4, true), mxs = GetSoftMaxFlashV2MaxTmpSize(shape, 2, 4, true);
    CHECK(mn > 0 && mn % 32 == 0 && mxs > mn);
    CHECK(GetSoftMaxFlashV2MinTmpSize(shape, 3, 4, true) == 0 && GetSoftMaxFlashV2MinTmpSize(ge::Shape({0, 64}), 2, 4, true) == 0);

    // tiling for localWorkSpaceSize = min: one row per pass; the kernel accepts exactly min, rejects min - 32
    optiling::SoftMaxTiling ht;
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mn, ht, true);
    CHECK(ht.get_srcM() == m && ht.get_srcK() == k && ht.get_srcSize() == m * k && ht.get_splitM() == 1 && ht.get_splitK() == k &&
          ht.get_outMaxK() == 8 && ht.get_reduceK() == 8 && ht.get_rangeM() == m && ht.get_tailM() == 0);
    GenSoftMaxTiling tl = from_host(ht);
    auto tmp = ub_alloc<uint8_t>(mxs + 64);
    std::string e_ok = throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, tmp[0], tl); });
    CHECK_MSG(e_ok.empty(), "min tmp rejected: %s", e_ok.c_str());
    LocalTensor<uint8_t> small(tmp.addr_, mn - 32, TPosition::VECCALC);
    std::string e_small = throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, small, tl); });
    CHECK_MSG(has(e_small, "too small") && has(e_small, std::to_string(mn).c_str()), "%s", e_small.c_str());
    LocalTensor<uint8_t> exact(tmp.addr_, mn, TPosition::VECCALC);
    CHECK(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, exact, tl); }).empty());
    // a tiling without splitM (any struct with srcM/srcK): the same min applies
    struct Bare { uint32_t srcM, srcK; } bare{m, k};
    CHECK(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, exact, bare); }).empty());
    CHECK(has(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, small, bare); }), "too small"));

    // tiling for localWorkSpaceSize = max: all rows in one pass; a buffer of only min is then too small
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mxs, ht, true);
    CHECK(ht.get_splitM() == m && ht.get_rangeM() == 1 && ht.get_tailM() == 0 && ht.get_splitSize() == m * k);
    tl = from_host(ht);
    LocalTensor<uint8_t> at_max(tmp.addr_, mxs, TPosition::VECCALC), below_max(tmp.addr_, mxs - 32, TPosition::VECCALC);
    CHECK(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, at_max, tl); }).empty());
    std::string e_split = throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, below_max, tl); });
    CHECK_MSG(has(e_split, "too small") && has(e_split, "splitM"), "%s", e_split.c_str());
    // a tail: work space for 3 rows -> splitM 3, rangeM 2, tailM 2
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mn + 2 * (mxs - mn) / (m - 1), ht, true);
    CHECK(ht.get_splitM() == 3 && ht.get_rangeM() == 2 && ht.get_tailM() == 2 && ht.get_tailSplitSize() == 2 * k &&
          ht.get_tailReduceSize() == 16);
    // below min: splitM 0
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mn - 32, ht, true);
    CHECK(ht.get_splitM() == 0);

    // AscendC::tiling::SoftMaxTiling (host) and the constexpr kernel-side tiling calculation agree with optiling's
    tiling::SoftMaxTiling at;
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mxs, at, true);
    constexpr tiling::SoftMaxTiling kt = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{8, 64, 8, 64}, 2, 4, 1u << 16, true);
    static_assert(kt.srcM == 8 && kt.splitM == 8 && kt.outMaxK == 8, "kernel-side tiling is constexpr");
    // the Impl layer below it takes the work space in float elements; both give the host's tiling for the same space
    const tiling::SoftMaxTiling ki = SoftMaxFlashV2TilingFuncImpl(m, k, 2, 4, (mn + 2 * (mxs - mn) / (m - 1)) / 4, true);
    SoftMaxFlashV2TilingFunc(shape, 2, 4, mn + 2 * (mxs - mn) / (m - 1), ht, true);
    CHECK(ki.splitM == ht.get_splitM() && ki.splitM == 3 && ki.tailM == ht.get_tailM());
    GenSoftMaxTiling conv = at;   // converts to the generated struct
    CHECK(at.splitM == m && at.srcK == k && conv.splitM == m && conv.tailReduceSize == at.tailReduceSize && conv.outMaxSize == m * 8);

    // float data: min and the kernel agree too (basic block variant)
    const ge::Shape fshape({8, 128});
    uint32_t fmin = GetSoftMaxFlashV2MinTmpSize(fshape, 4, 4, false, true);
    {
        auto xf = ub_alloc<float>(8 * 128), df = ub_alloc<float>(8 * 128), sf = ub_alloc<float>(64), mf = ub_alloc<float>(64);
        for (uint32_t i = 0; i < 8 * 128; ++i) xf.addr_[i] = float(i % 7);
        optiling::SoftMaxTiling ft;
        SoftMaxFlashV2TilingFunc(fshape, 4, 4, fmin, ft, false, true);
        GenSoftMaxTiling ftl = from_host(ft);
        CHECK(ft.get_splitM() == 8);
        LocalTensor<uint8_t> fexact(tmp.addr_, fmin, TPosition::VECCALC), fsmall(tmp.addr_, fmin - 32, TPosition::VECCALC);
        CHECK(throws([&] { SoftmaxFlashV2<float, false, false, true>(df, sf, mf, xf, sf, sf, mf, fexact, ftl); }).empty());
        CHECK(has(throws([&] { SoftmaxFlashV2<float, false, false, true>(df, sf, mf, xf, sf, sf, mf, fsmall, ftl); }), "too small"));
        CHECK(mf.addr_[9] == 6.0f);
        // isBasicBlock with a shape that is not a basic block
        CHECK(has(throws([&] { SoftmaxFlashV2<float, false, false, true>(df, sf, mf, xf, sf, sf, mf, fexact, ftl,
                                                                          SoftMaxShapeInfo{5, 128, 5, 128}); }), "isBasicBlock"));
    }

    // tmp overlapping an operand, srcK not 32-byte aligned, oriSrcK > srcK
    LocalTensor<uint8_t> over(reinterpret_cast<uint8_t*>(d.addr_), mxs, TPosition::VECCALC);
    CHECK(has(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, over, tl); }), "overlaps"));
    CHECK(has(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, tmp, tl, SoftMaxShapeInfo{8, 60, 8, 60}); }),
              "32-byte aligned"));
    CHECK(has(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, tmp, tl, SoftMaxShapeInfo{8, 64, 8, 65}); }), "oriSrcK"));

    // without sharedTmpBuffer: scratch from the UB after the last InitBuffer
    {
        CHECK(throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, tl); }).empty());
        TPipe pipe;
        TBuf<TPosition::VECCALC> big;
        pipe.InitBuffer(big, ascsim::kUbBytes - 256);
        std::string e = throws([&] { SoftmaxFlashV2<half, true>(d, s, mx, x, em, s, mx, tl); });
        CHECK_MSG(has(e, "no UB left"), "%s", e.c_str());
    }
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    g_ctx.core_type = 2;
    g_ctx.ub = g_ub;
    std::mt19937 rng(11);
    // rows not a multiple of 8 included; column blocks of 32 B multiples
    const uint32_t shapes[][2] = {{5, 16}, {13, 32}, {8, 64}, {1, 48}, {21, 128}};
    for (auto& sh : shapes) {
        online_case<float, float, false>(sh[0], sh[1], rng);
        online_case<float, float, true>(sh[0], sh[1], rng);
        online_case<half, half, false>(sh[0], sh[1], rng);
        online_case<half, half, true>(sh[0], sh[1], rng);
        online_case<half, float, false>(sh[0], sh[1], rng);
        online_case<half, float, true>(sh[0], sh[1], rng);
    }
    update_matters();
    shapes_and_modes();
    strict_checks();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

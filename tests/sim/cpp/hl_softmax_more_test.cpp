// Unit test of ascsim's SoftmaxFlash, SoftmaxGradFront and SoftmaxFlashV3 (kernel/hl_softmax_more.h) and their host
// queries (host/softmax_more_tiling.h) on one simulated AIV bound to the test thread. References are computed here in
// double precision from the documented formulas and the (rounded) inputs. SoftmaxGradFront is also checked against the
// documented [8, 8] example. SoftmaxFlashV3's documented example is NOT used: its alpha and loopCnt are not given and
// its printed values could not be reproduced (see the fact sheet); the check there is the documented math only.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_softmax_more.h"
#include "ascsim/host/softmax_more_tiling.h"

using namespace AscendC;

#include "check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;
static uint32_t g_top = 0;
template <class X> static LocalTensor<X> ub_alloc(uint32_t count) {
    uint32_t bytes = (count * uint32_t(sizeof(X)) + 31u) / 32u * 32u;
    if (g_top + bytes > ascsim::kUbBytes) { std::printf("test UB exhausted\n"); std::exit(2); }
    LocalTensor<X> t(reinterpret_cast<X*>(g_ub + g_top), count, TPosition::VECCALC);
    std::memset(g_ub + g_top, 0xFF, bytes);
    g_top += bytes;
    return t;
}
static bool close(double got, double want, double rel, double abs_tol = 0) {
    return std::fabs(got - want) <= rel * std::fabs(want) + abs_tol;
}
template <class X> static const char* tname() { return std::is_same_v<X, half> ? "half" : "float"; }
static tiling::SoftMaxTiling tl_flash(uint32_t m, uint32_t k, uint32_t dts) {
    tiling::SoftMaxTiling t;
    SoftMaxFlashTilingFunc(ge::Shape({int64_t(m), int64_t(k)}), dts, 1u << 20, t, true);
    return t;
}

// ---------------- SoftmaxGradFront ----------------
static void grad_front_doc_example() {
    g_top = 0;
    const float grad[8][8] = {{-100, -80, -60, -50, -30, -20, -15, -10}, {-9, -8, -7, -6, -5, -4, -3, -2},
                              {-1.5, -1, -0.8, -0.6, -0.5, -0.45, -0.4, -0.35}, {-0.3, -0.25, -0.2, -0.15, -0.1, -0.05, -0.01, -0.001},
                              {0, 0.001, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25}, {0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8, 1},
                              {1.5, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 15, 20, 30, 50, 60, 80}};
    const float want[8] = {-730, -88, -11.2f, -2.122f, 1.522f, 8.8f, 73, 548};
    auto g = ub_alloc<float>(64), s = ub_alloc<float>(64), d = ub_alloc<float>(64);
    auto tmpu = ub_alloc<uint8_t>(4096);
    for (int i = 0; i < 64; ++i) { g.addr_[i] = grad[i / 8][i % 8]; s.addr_[i] = 2.0f; }
    tiling::SoftMaxTiling t;
    SoftMaxGradTilingFunc(ge::Shape({8, 8}), 4, 4096, t, true);
    CHECK(t.srcM == 8 && t.srcK == 8);
    SoftmaxGradFront<float>(d, g, s, tmpu, t, SoftMaxShapeInfo{8, 8, 8, 8});
    int bad = 0;
    for (int r = 0; r < 8; ++r)
        for (int j = 0; j < 8; ++j) if (!close(d.addr_[r * 8 + j], want[r], 1e-5, 1e-5)) ++bad;
    CHECK_MSG(bad == 0, "SoftmaxGradFront doc example: %d mismatches (row0 %g)", bad, d.addr_[0]);
}
template <class T> static void grad_front_random(uint32_t m, uint32_t k, uint32_t ok, bool withTmp, std::mt19937& rng) {
    g_top = 0;
    constexpr uint32_t blk = 32 / sizeof(T);
    std::uniform_real_distribution<float> D(-1, 1);
    auto g = ub_alloc<T>(m * k), s = ub_alloc<T>(m * k), d = ub_alloc<T>(m * blk);
    auto tmp = ub_alloc<uint8_t>(GetSoftMaxGradMaxTmpSize(ge::Shape({int64_t(m), int64_t(k)}), sizeof(T), true, false));
    for (uint32_t i = 0; i < m * k; ++i) { g.addr_[i] = T(D(rng)); s.addr_[i] = T(D(rng) * 0.5f + 0.5f); }
    tiling::SoftMaxTiling t;
    SoftMaxGradTilingFunc(ge::Shape({int64_t(m), int64_t(k)}), sizeof(T), 1u << 20, t, true);
    if (withTmp) SoftmaxGradFront<T>(d, g, s, tmp, t, SoftMaxShapeInfo{m, k, m, ok});
    else SoftmaxGradFront<T>(d, g, s, t, SoftMaxShapeInfo{m, k, m, ok});
    int bad = 0;
    const double rel = std::is_same_v<T, half> ? 2e-3 : 1e-5;
    for (uint32_t r = 0; r < m; ++r) {
        double dot = 0, mag = 0;
        for (uint32_t i = 0; i < ok; ++i) {
            double p = double(float(g.addr_[r * k + i])) * double(float(s.addr_[r * k + i]));
            dot += p; mag += std::fabs(p);
        }
        for (uint32_t j = 0; j < blk; ++j)
            if (!close(float(d.addr_[r * blk + j]), dot, rel, rel * mag * 1e-2 + 1e-6)) ++bad;
    }
    CHECK_MSG(bad == 0, "SoftmaxGradFront %s m=%u k=%u ok=%u tmp=%d: %d mismatches", tname<T>(), m, k, ok, int(withTmp), bad);
}
static void grad_front_strict() {
    g_top = 0;
    const uint32_t m = 8, k = 64;
    auto g = ub_alloc<float>(m * k), s = ub_alloc<float>(m * k), d = ub_alloc<float>(m * 8);
    for (uint32_t i = 0; i < m * k; ++i) { g.addr_[i] = 1; s.addr_[i] = 1; }
    const uint32_t mn = GetSoftMaxGradMinTmpSize(ge::Shape({m, k}), 4, true, false);
    CHECK(mn > 0 && GetSoftMaxGradMaxTmpSize(ge::Shape({m, k}), 4, true, false) >= mn);
    auto exact = ub_alloc<uint8_t>(mn), small = ub_alloc<uint8_t>(mn - 32);
    tiling::SoftMaxTiling t;
    SoftMaxGradTilingFunc(ge::Shape({m, k}), 4, mn, t, true);
    CHECK(throws([&] { SoftmaxGradFront<float>(d, g, s, exact, t); }).empty());
    CHECK(float(d.addr_[5 * 8 + 3]) == 64.0f);
    CHECK(has(throws([&] { SoftmaxGradFront<float>(d, g, s, small, t); }), "too small"));
    auto over = LocalTensor<uint8_t>(reinterpret_cast<uint8_t*>(g.addr_), mn, TPosition::VECCALC);
    CHECK(has(throws([&] { SoftmaxGradFront<float>(d, g, s, over, t); }), "overlaps"));
    // basic block: k = 64 float with m = 8 is fine; m = 4 is not
    CHECK(throws([&] { SoftmaxGradFront<float, true>(d, g, s, exact, t); }).empty());
    CHECK(has(throws([&] { SoftmaxGradFront<float, true>(d, g, s, exact, t, SoftMaxShapeInfo{4, 64, 4, 64}); }), "isBasicBlock"));
    CHECK(has(throws([&] { SoftmaxGradFront<float>(d, g, s, exact, t, SoftMaxShapeInfo{8, 60, 8, 60}); }), "32-byte"));
}

// ---------------- SoftmaxFlash ----------------
// two column blocks A, B of [m, kb]; step 1 on A without update, step 2 on B with update from step 1. Then
// dstA * expMax (A's rescale) and dstB must equal the softmax of the full row.
template <class T, class U> static void flash_case(uint32_t m, uint32_t kb, bool withTmp, std::mt19937& rng) {
    g_top = 0;
    const uint32_t k = 2 * kb, sbU = 32 / sizeof(U), sbT = 32 / sizeof(T);
    const double rel = std::is_same_v<T, half> ? 4e-3 : 3e-5;
    std::uniform_real_distribution<float> D(-3, 3);
    std::vector<T> x(size_t(m) * k);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < k; ++c) x[size_t(r) * k + c] = T(D(rng) + (((c < kb) == (r % 2 == 0)) ? -2.0f : 1.5f));
    auto xa = ub_alloc<T>(m * kb), xb = ub_alloc<T>(m * kb);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < kb; ++c) { xa.addr_[r * kb + c] = x[size_t(r) * k + c]; xb.addr_[r * kb + c] = x[size_t(r) * k + kb + c]; }
    auto da = ub_alloc<T>(m * kb), db = ub_alloc<T>(m * kb);
    auto s1 = ub_alloc<U>(m * sbU), m1 = ub_alloc<U>(m * sbU), s2 = ub_alloc<U>(m * sbU), m2 = ub_alloc<U>(m * sbU);
    auto em = ub_alloc<T>(m * sbT);
    for (uint32_t i = 0; i < m * sbT; ++i) em.addr_[i] = T(7.0f);
    auto tmp = ub_alloc<uint8_t>(GetSoftMaxFlashMaxTmpSize(ge::Shape({int64_t(m), int64_t(kb)}), sizeof(U), true, false));
    auto t = tl_flash(m, kb, sizeof(U));
    if (withTmp) SoftmaxFlash<T, false>(da, s1, m1, xa, em, s1, m1, tmp, t, false);
    else SoftmaxFlash<T, false>(da, s1, m1, xa, em, s1, m1, t, false);
    int bad = 0;
    for (uint32_t i = 0; i < m * sbT; ++i) if (float(em.addr_[i]) != 7.0f) ++bad;   // no update: expMax untouched
    // step 1 against the plain softmax of block A
    for (uint32_t r = 0; r < m; ++r) {
        double mx = -INFINITY, sm = 0;
        for (uint32_t c = 0; c < kb; ++c) mx = std::max(mx, double(float(x[size_t(r) * k + c])));
        for (uint32_t c = 0; c < kb; ++c) sm += std::exp(double(float(x[size_t(r) * k + c])) - mx);
        for (uint32_t j = 0; j < sbU; ++j) {
            if (double(float(m1.addr_[r * sbU + j])) != mx) ++bad;
            if (!close(float(s1.addr_[r * sbU + j]), sm, rel)) ++bad;
        }
        for (uint32_t c = 0; c < kb; ++c)
            if (!close(float(da.addr_[r * kb + c]), std::exp(double(float(x[size_t(r) * k + c])) - mx) / sm, rel, 1e-6)) ++bad;
    }
    CHECK_MSG(bad == 0, "SoftmaxFlash no-update %s/%s m=%u k=%u: %d mismatches", tname<T>(), tname<U>(), m, kb, bad);
    std::vector<double> S1(m), M1(m);
    for (uint32_t r = 0; r < m; ++r) { S1[r] = float(s1.addr_[r * sbU]); M1[r] = float(m1.addr_[r * sbU]); }
    if (withTmp) SoftmaxFlash<T, false>(db, s2, m2, xb, em, s1, m1, tmp, t, true, SoftMaxShapeInfo{m, kb, m, kb});
    else SoftmaxFlash<T, false>(db, s2, m2, xb, em, s1, m1, t, true, SoftMaxShapeInfo{m, kb, m, kb});
    bad = 0;
    int bad_full = 0;
    for (uint32_t r = 0; r < m; ++r) {
        // documented update formula, from the step-1 statistics as stored
        double mb = -INFINITY;
        for (uint32_t c = 0; c < kb; ++c) mb = std::max(mb, double(float(x[size_t(r) * k + kb + c])));
        const double nm = std::max(M1[r], mb), e = std::exp(M1[r] - nm);
        double sb = 0;
        for (uint32_t c = 0; c < kb; ++c) sb += std::exp(double(float(x[size_t(r) * k + kb + c])) - nm);
        const double sum = e * S1[r] + sb, wem = e * S1[r] / sum;
        for (uint32_t j = 0; j < sbU; ++j) {
            if (double(float(m2.addr_[r * sbU + j])) != nm) ++bad;
            if (!close(float(s2.addr_[r * sbU + j]), sum, rel)) ++bad;
        }
        for (uint32_t j = 0; j < sbT; ++j) if (!close(float(em.addr_[r * sbT + j]), wem, rel, 1e-6)) ++bad;
        for (uint32_t c = 0; c < kb; ++c)
            if (!close(float(db.addr_[r * kb + c]), std::exp(double(float(x[size_t(r) * k + kb + c])) - nm) / sum, rel, 1e-6)) ++bad;
        // against the full-row softmax
        double fm = -INFINITY, fs = 0;
        for (uint32_t c = 0; c < k; ++c) fm = std::max(fm, double(float(x[size_t(r) * k + c])));
        for (uint32_t c = 0; c < k; ++c) fs += std::exp(double(float(x[size_t(r) * k + c])) - fm);
        const double emr = float(em.addr_[r * sbT]);
        for (uint32_t c = 0; c < kb; ++c) {
            if (!close(float(da.addr_[r * kb + c]) * emr, std::exp(double(float(x[size_t(r) * k + c])) - fm) / fs, 3 * rel, 1e-5)) ++bad_full;
            if (!close(float(db.addr_[r * kb + c]), std::exp(double(float(x[size_t(r) * k + kb + c])) - fm) / fs, 3 * rel, 1e-5)) ++bad_full;
        }
    }
    CHECK_MSG(bad == 0, "SoftmaxFlash update %s/%s m=%u k=%u: %d mismatches", tname<T>(), tname<U>(), m, kb, bad);
    CHECK_MSG(bad_full == 0, "SoftmaxFlash two steps vs full softmax %s/%s: %d mismatches", tname<T>(), tname<U>(), bad_full);
}
static void flash_strict() {
    g_top = 0;
    const uint32_t m = 8, k = 64;
    auto x = ub_alloc<half>(m * k), d = ub_alloc<half>(m * k), s = ub_alloc<half>(m * 16), mx = ub_alloc<half>(m * 16),
         em = ub_alloc<half>(m * 16);
    for (uint32_t i = 0; i < m * k; ++i) x.addr_[i] = half(float(i % k) / 64.0f);
    const uint32_t mn = GetSoftMaxFlashMinTmpSize(ge::Shape({m, k}), 2, false, false);
    CHECK(mn > 0 && GetSoftMaxFlashMaxTmpSize(ge::Shape({m, k}), 2, false, false) >= mn);
    CHECK(GetSoftMaxFlashMinTmpSize(ge::Shape({m, k}), 3, false, false) == 0);
    auto exact = ub_alloc<uint8_t>(mn), small = ub_alloc<uint8_t>(mn - 32);
    auto t = tl_flash(m, k, 2);
    CHECK(t.srcM == m && t.srcK == k && t.splitM == m);
    CHECK(throws([&] { SoftmaxFlash<half>(d, s, mx, x, em, s, mx, exact, t); }).empty());
    CHECK(has(throws([&] { SoftmaxFlash<half>(d, s, mx, x, em, s, mx, small, t); }), "too small"));
    auto over = LocalTensor<uint8_t>(reinterpret_cast<uint8_t*>(d.addr_), mn, TPosition::VECCALC);
    CHECK(has(throws([&] { SoftmaxFlash<half>(d, s, mx, x, em, s, mx, over, t); }), "overlaps"));
    CHECK(has(throws([&] { SoftmaxFlash<half, false, true>(d, s, mx, x, em, s, mx, exact, t); }), "isBasicBlock"));   // k=64 < 128 for half
    CHECK(has(throws([&] { SoftmaxFlash<half>(d, s, mx, x, em, s, mx, exact, t, false, SoftMaxShapeInfo{8, 72, 8, 72}); }), "32-byte"));
    // src and dst may share UB; padded columns (oriSrcK) are left out of max/sum
    SoftmaxFlash<half>(x, s, mx, x, em, s, mx, exact, t, false, SoftMaxShapeInfo{m, k, m, 60});
    double want = 0;
    for (int c = 0; c < 60; ++c) want += std::exp((c - 59) / 64.0);
    CHECK(close(float(mx.addr_[16 * 3]), 59 / 64.0, 1e-3) && close(float(s.addr_[16 * 3 + 5]), want, 3e-3));
    CHECK(close(float(x.addr_[k * 2 + 59]), 1.0 / want, 3e-3));
    tiling::SoftMaxTiling small_t;
    SoftMaxFlashTilingFunc(ge::Shape({m, k}), 2, mn * 3, small_t, false);
    CHECK(small_t.splitM == 3 && small_t.rangeM == 2 && small_t.tailM == 2);
}

// ---------------- SoftmaxFlashV3 ----------------
struct V3Ref { std::vector<double> dst, mean, sum, max, em; };
// documented math in double; chunks are contiguous pieces of k / 8 columns
static V3Ref v3_ref(const std::vector<half>& x, uint32_t m, uint32_t k, bool upd, double alpha, uint32_t loop,
                    const std::vector<double>& in_mean, const std::vector<double>& in_sum, const std::vector<double>& in_max) {
    V3Ref o;
    o.dst.resize(size_t(m) * k); o.mean.resize(m); o.sum.resize(m); o.max.resize(m); o.em.resize(m);
    const double s = alpha / (1 - alpha);
    const uint32_t bk = k / 8;
    for (uint32_t r = 0; r < m; ++r) {
        double loc[8], tot = 0;
        for (int c = 0; c < 8; ++c) {
            double cs = 0;
            for (uint32_t i = 0; i < bk; ++i) cs += double(float(x[size_t(r) * k + c * bk + i]));
            loc[c] = cs / bk; tot += cs;
        }
        const double a2 = tot / k;
        std::vector<double> xs(k);
        double m1 = -INFINITY;
        for (uint32_t i = 0; i < k; ++i) { xs[i] = double(float(x[size_t(r) * k + i])) - (a2 - loc[i / bk]) * s; m1 = std::max(m1, xs[i]); }
        double a = a2, M = m1, ref = m1, E = 0;
        if (upd) {
            a = (a2 + in_mean[r] * (loop - 1)) / loop;
            const double C = (a2 - a) * s, P = (in_mean[r] - a) * s;
            M = std::max(C + m1, P + in_max[r]);
            ref = M - C;
            E = std::exp(in_max[r] - M + P);
        }
        double sum = 0;
        for (uint32_t i = 0; i < k; ++i) { o.dst[size_t(r) * k + i] = std::exp(xs[i] - ref); sum += o.dst[size_t(r) * k + i]; }
        o.mean[r] = a; o.max[r] = M; o.em[r] = E; o.sum[r] = upd ? sum + E * in_sum[r] : sum;
    }
    return o;
}
static void v3_case(uint32_t m, uint32_t k, double alpha, uint32_t loop, bool upd, bool withTmp, bool alias, std::mt19937& rng) {
    g_top = 0;
    std::uniform_real_distribution<float> D(-2, 2);
    std::vector<half> x(size_t(m) * k);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t i = 0; i < k; ++i) x[size_t(r) * k + i] = half(D(rng) + 0.6f * float((i * 8) / k) - 1.0f + 0.1f * r);
    auto src = ub_alloc<half>(m * k), dst = alias ? src : ub_alloc<half>(m * k);
    for (uint32_t i = 0; i < m * k; ++i) src.addr_[i] = x[i];
    auto im = ub_alloc<float>(m * 8), is = ub_alloc<float>(m * 8), ix = ub_alloc<float>(m * 8);
    auto om = alias ? im : ub_alloc<float>(m * 8), os = alias ? is : ub_alloc<float>(m * 8), ox = alias ? ix : ub_alloc<float>(m * 8);
    auto em = ub_alloc<half>(m * 16);
    for (uint32_t i = 0; i < m * 16; ++i) em.addr_[i] = half(7.0f);
    std::vector<double> in_mean(m), in_sum(m), in_max(m);
    for (uint32_t r = 0; r < m; ++r) {
        in_mean[r] = 0.25 * r - 0.5; in_sum[r] = 100.0 + 30 * r; in_max[r] = (r % 3 == 0) ? 40.0 : 0.5 * r;
        for (int j = 0; j < 8; ++j) { im.addr_[r * 8 + j] = float(in_mean[r]); is.addr_[r * 8 + j] = float(in_sum[r]); ix.addr_[r * 8 + j] = float(in_max[r]); }
    }
    uint32_t mx = 0, mn = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({int64_t(m), int64_t(k)}), 2, 4, mx, mn, upd);
    auto tmp = ub_alloc<uint8_t>(mn);
    tiling::SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(ge::Shape({int64_t(m), int64_t(k)}), 2, 4, mn + 32, t, upd);
    SoftMaxParams p(m, k, m, k, loop, 8, float(alpha));
    const double a32 = double(float(alpha));
    V3Ref ref = v3_ref(x, m, k, upd, a32, loop, in_mean, in_sum, in_max);
    if (upd) {
        if (withTmp) SoftmaxFlashV3<half, float, true>(dst, om, os, ox, src, em, im, is, ix, tmp, t, p);
        else SoftmaxFlashV3<half, float, true>(dst, om, os, ox, src, em, im, is, ix, t, p);
    } else {
        if (withTmp) SoftmaxFlashV3<half, float>(dst, om, os, ox, src, em, im, is, ix, tmp, t, p);
        else SoftmaxFlashV3<half, float>(dst, om, os, ox, src, em, im, is, ix, t, p);
    }
    int bad = 0, ones = 0;
    for (uint32_t r = 0; r < m; ++r) {
        const double scale_mag = std::fabs(ref.max[r]) + 1;   // float rounding of the shifted values
        for (int j = 0; j < 8; ++j) {
            if (!close(om.addr_[r * 8 + j], ref.mean[r], 1e-5, 1e-5)) ++bad;
            if (!close(ox.addr_[r * 8 + j], ref.max[r], 1e-5, 2e-6 * scale_mag * (a32 / (1 - a32) + 1))) ++bad;
            if (!close(os.addr_[r * 8 + j], ref.sum[r], 1e-3)) ++bad;
        }
        for (int j = 0; j < 16; ++j) {
            const float got = float(em.addr_[r * 16 + j]);
            if (upd ? !close(got, ref.em[r], 2e-3, 1e-7) : got != 7.0f) ++bad;
        }
        bool one = false;
        for (uint32_t i = 0; i < k; ++i) {
            const double w = ref.dst[size_t(r) * k + i];
            if (!close(float(dst.addr_[size_t(r) * k + i]), w, 3e-3, 1e-6)) ++bad;
            if (w == 1.0 && float(dst.addr_[size_t(r) * k + i]) == 1.0f) one = true;
        }
        ones += one;
    }
    CHECK_MSG(bad == 0, "SoftmaxFlashV3 m=%u k=%u alpha=%g loop=%u update=%d tmp=%d alias=%d: %d mismatches", m, k, alpha, loop,
              int(upd), int(withTmp), int(alias), bad);
    if (!upd) CHECK_MSG(ones == int(m), "SoftmaxFlashV3 no-update: dst at the row max must be 1 (%d of %u rows)", ones, m);
}
static void v3_alpha0_is_flashv2(std::mt19937& rng) {
    // alpha = 0: no mean shift; the update must then equal SoftmaxFlashV2's update
    g_top = 0;
    const uint32_t m = 8, k = 512;
    std::uniform_real_distribution<float> D(-3, 3);
    auto x = ub_alloc<half>(m * k), d3 = ub_alloc<half>(m * k), d2 = ub_alloc<half>(m * k);
    for (uint32_t i = 0; i < m * k; ++i) x.addr_[i] = half(D(rng));
    auto im = ub_alloc<float>(m * 8), is = ub_alloc<float>(m * 8), ix = ub_alloc<float>(m * 8);
    auto om = ub_alloc<float>(m * 8), os = ub_alloc<float>(m * 8), ox = ub_alloc<float>(m * 8);
    auto os2 = ub_alloc<float>(m * 8), ox2 = ub_alloc<float>(m * 8);
    auto em3 = ub_alloc<half>(m * 16), em2 = ub_alloc<half>(m * 16);
    for (uint32_t i = 0; i < m * 8; ++i) { im.addr_[i] = 0.3f; is.addr_[i] = 50.0f; ix.addr_[i] = float(i / 8) * 0.4f; }
    auto tmp = ub_alloc<uint8_t>(128 * 1024);
    tiling::SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(ge::Shape({m, k}), 2, 4, 128 * 1024, t, true);
    SoftmaxFlashV3<half, float, true>(d3, om, os, ox, x, em3, im, is, ix, tmp, t, SoftMaxParams(m, k, m, k, 3, 8, 0.0f));
    tiling::SoftMaxTiling t2;
    SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), 2, 4, 128 * 1024, t2, true);
    SoftmaxFlashV2<half, true>(d2, os2, ox2, x, em2, is, ix, tmp, t2, SoftMaxShapeInfo{m, k, m, k});
    int bad = 0;
    for (uint32_t i = 0; i < m * k; ++i) if (float(d3.addr_[i]) != float(d2.addr_[i])) ++bad;
    for (uint32_t i = 0; i < m * 8; ++i) {
        if (ox.addr_[i] != ox2.addr_[i] || !close(os.addr_[i], os2.addr_[i], 1e-5)) ++bad;
    }
    for (uint32_t i = 0; i < m * 16; ++i) if (float(em3.addr_[i]) != float(em2.addr_[i])) ++bad;
    CHECK_MSG(bad == 0, "SoftmaxFlashV3 alpha=0 vs SoftmaxFlashV2: %d mismatches", bad);
}
static void v3_strict() {
    g_top = 0;
    const uint32_t m = 8, k = 512;
    auto x = ub_alloc<half>(m * 1024), d = ub_alloc<half>(m * 1024), em = ub_alloc<half>(m * 16);
    for (uint32_t i = 0; i < m * 1024; ++i) x.addr_[i] = half(float(i % 97) / 50.0f);
    auto im = ub_alloc<float>(m * 8), is = ub_alloc<float>(m * 8), ix = ub_alloc<float>(m * 8);
    for (uint32_t i = 0; i < m * 8; ++i) { im.addr_[i] = 0; is.addr_[i] = 1; ix.addr_[i] = 0; }
    uint32_t mx = 0, mn = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({m, k}), 2, 4, mx, mn, true);
    CHECK(mn > 0 && mx >= mn);
    uint32_t bmx = 1, bmn = 1;
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({m, k}), 4, 4, bmx, bmn, true);   // float data: not on Atlas A2
    CHECK(bmx == 0 && bmn == 0);
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({m, k}), 2, 4, bmx, bmn, true, true);   // isBasicBlock reserved
    CHECK(bmx == 0 && bmn == 0);
    auto exact = ub_alloc<uint8_t>(mn), small = ub_alloc<uint8_t>(mn - 32);
    tiling::SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(ge::Shape({m, k}), 2, 4, mn, t, true);
    CHECK(t.srcM == m && t.srcK == k && t.splitM == 8);
    auto P = [&](uint32_t mm, uint32_t kk, uint32_t om, uint32_t ok, uint32_t loop, uint32_t split, float a) {
        return SoftMaxParams(mm, kk, om, ok, loop, split, a);
    };
    auto run = [&](const LocalTensor<uint8_t>& tb, const SoftMaxParams& p) {
        return throws([&] { SoftmaxFlashV3<half, float, true>(d, im, is, ix, x, em, im, is, ix, tb, t, p); });
    };
    CHECK(run(exact, P(8, 512, 8, 512, 2, 8, 0.9375f)).empty());
    CHECK(has(run(small, P(8, 512, 8, 512, 2, 8, 0.9375f)), "too small"));
    CHECK(has(run(exact, P(8, 448, 8, 448, 2, 8, 0.9375f)), "at least 512"));
    CHECK(has(run(exact, P(8, 528, 8, 528, 2, 8, 0.9375f)), "multiple of 64"));
    CHECK(has(run(exact, P(8, 576, 8, 576, 2, 8, 0.9375f)), "too small"));   // 576 needs more temp than the 512 minimum
    CHECK(has(run(exact, P(4, 512, 4, 512, 2, 8, 0.9375f)), "multiple of 8"));
    CHECK(has(run(exact, P(8, 512, 8, 500, 2, 8, 0.9375f)), "oriSrcK"));
    CHECK(has(run(exact, P(8, 512, 6, 512, 2, 8, 0.9375f)), "oriSrcM"));
    CHECK(has(run(exact, P(8, 512, 8, 512, 2, 4, 0.9375f)), "splitMeanCnt"));
    CHECK(has(run(exact, P(8, 512, 8, 512, 0, 8, 0.9375f)), "loopCnt"));
    CHECK(has(run(exact, P(8, 512, 8, 512, 2, 8, 1.0f)), "alpha"));
    auto over = LocalTensor<uint8_t>(reinterpret_cast<uint8_t*>(em.addr_), mn, TPosition::VECCALC);
    CHECK(has(run(over, P(8, 512, 8, 512, 2, 8, 0.9375f)), "overlaps"));
    // 1024 columns with the temp sized for it
    uint32_t mx2 = 0, mn2 = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({m, 1024}), 2, 4, mx2, mn2, false);
    auto t2buf = ub_alloc<uint8_t>(mn2);
    CHECK(mn2 > mn);
    CHECK(throws([&] { SoftmaxFlashV3<half, float>(d, im, is, ix, x, em, im, is, ix, t2buf, t, P(8, 1024, 8, 1024, 1, 8, 0.96889f)); }).empty());
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    g_ctx.core_type = 2;
    g_ctx.ub = g_ub;
    std::mt19937 rng(1234);
    grad_front_doc_example();
    grad_front_random<float>(8, 64, 64, true, rng);
    grad_front_random<half>(16, 128, 128, true, rng);
    grad_front_random<half>(5, 48, 40, false, rng);
    grad_front_random<float>(3, 200, 197, false, rng);
    grad_front_strict();
    flash_case<float, float>(8, 64, true, rng);
    flash_case<half, half>(6, 128, true, rng);
    flash_case<half, float>(8, 96, false, rng);
    flash_case<float, float>(3, 40, false, rng);
    flash_strict();
    v3_case(8, 512, 0.9375, 1, false, true, false, rng);
    v3_case(16, 1024, 0.96889, 1, false, false, false, rng);
    v3_case(8, 512, 0.9375, 3, true, true, false, rng);
    v3_case(8, 640, 0.984497, 2, true, false, true, rng);
    v3_case(8, 1024, 0.96889, 5, true, true, true, rng);
    v3_alpha0_is_flashv2(rng);
    v3_strict();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

// LayerNormGrad / LayerNormGradBeta (kernel/hl_norm_grad.h) and their host tiling (host/norm_grad_tiling.h) against
// references written from the documentation: both docs' worked examples ([1, 8, 8] float; the LayerNormGrad example's
// numbers fit epsilon = 1e-4, which the doc does not state), random half / float cases against the documented formulas
// in double, the formulas themselves against a central finite difference of LayerNorm (y = (x - mean) /
// sqrt(var + eps) * gamma + beta, biased variance, loss sum(dy * y)), aliasing (sources and destinations may share
// memory), the host functions filling the structs the kernel consumes, and the strict checks.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_norm_grad.h"
#include "ascsim/host/norm_grad_tiling.h"

using namespace AscendC;

#include "check.h"

#define EXPECT_FAIL(text, ...) CHECK_MSG(has(throws([&] { __VA_ARGS__; }), text), "expected \"%s\"", text)
#define EXPECT_OK(...) CHECK(throws([&] { __VA_ARGS__; }).empty())

struct Fixture {
    alignas(4096) static inline uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    Fixture() { ctx.ub = ub; std::memset(ub, 0, sizeof ub); ascsim::bind_test_core(&ctx); }
};
static Fixture* g_fx;
static uint32_t g_top = 0;
constexpr uint32_t kTmpOff = 128 * 1024, kTmpBytes = 64 * 1024;
template <class X> static LocalTensor<X> alloc(uint32_t count) {
    const uint32_t bytes = (count * uint32_t(sizeof(X)) + 31u) / 32u * 32u;
    if (g_top + bytes > kTmpOff) { std::printf("test UB exhausted\n"); std::exit(2); }
    LocalTensor<X> t(reinterpret_cast<X*>(g_fx->ub + g_top), count, TPosition::VECCALC);
    std::memset(g_fx->ub + g_top, 0xFF, bytes);
    g_top += bytes;
    return t;
}
// LayerNormGrad documents sharedTmpBuffer as a non-const reference: hand out an lvalue
static LocalTensor<uint8_t>& tmp_buf(uint32_t bytes) {
    static LocalTensor<uint8_t> t;
    t = LocalTensor<uint8_t>(g_fx->ub + kTmpOff, bytes, TPosition::VECCALC);
    return t;
}
template <class X> static void put(const LocalTensor<X>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.addr_[i] = X(float(v[i]));
}
template <class X> static double at(const LocalTensor<X>& t, size_t i) { return double(float(t.addr_[i])); }
template <class X> static std::vector<double> rounded(const std::vector<double>& v) {
    std::vector<double> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) r[i] = double(float(X(float(v[i]))));
    return r;
}
static std::vector<double> rnd(size_t n, std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}
template <class X>
static bool near(const LocalTensor<X>& t, const std::vector<double>& want, double rel, double abs) {
    for (size_t i = 0; i < want.size(); ++i) {
        const double g = at(t, i);
        if (!(std::fabs(g - want[i]) <= rel * std::fabs(want[i]) + abs)) {
            std::printf("  [%zu] = %.9g, want %.9g\n", i, g, want[i]);
            return false;
        }
    }
    return true;
}
static bool near_v(const std::vector<double>& got, const std::vector<double>& want, double rel, double abs) {
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= rel * std::fabs(want[i]) + abs)) {
            std::printf("  [%zu] = %.12g, want %.12g\n", i, got[i], want[i]);
            return false;
        }
    return true;
}
static ge::Shape shp(std::vector<int64_t> d) { return ge::Shape(d); }

// ---- references ----
// The documented LayerNormGrad formulas (caller's mean / variance), in double.
static void ref_grad(const std::vector<double>& dy, const std::vector<double>& x, const std::vector<double>& var,
                     const std::vector<double>& mean, const std::vector<double>& g, size_t rows, size_t h, double eps,
                     std::vector<double>& pdx, std::vector<double>& resg) {
    pdx.assign(rows * h, 0); resg.assign(rows * h, 0);
    for (size_t r = 0; r < rows; ++r) {
        const double rs = std::pow(var[r] + eps, -0.5);
        double pv = 0, pm1 = 0, sd = 0;
        for (size_t j = 0; j < h; ++j) {
            const double pxl = dy[r * h + j] * g[j], d = x[r * h + j] - mean[r];
            pv += -0.5 * pxl * d * std::pow(var[r] + eps, -1.5);
            pm1 += -pxl * rs;
            sd += -2.0 * d;
        }
        const double pm = pm1 + pv * (1.0 / double(h)) * sd;
        for (size_t j = 0; j < h; ++j) {
            const double pxl = dy[r * h + j] * g[j], d = x[r * h + j] - mean[r];
            pdx[r * h + j] = pxl * rs + pv * (2.0 / double(h)) * d + pm * (1.0 / double(h));
            resg[r * h + j] = d * rs;
        }
    }
}
static void ref_stats(const std::vector<double>& x, size_t rows, size_t h, std::vector<double>& mean,
                      std::vector<double>& var) {
    mean.assign(rows, 0); var.assign(rows, 0);
    for (size_t r = 0; r < rows; ++r) {
        double s = 0, q = 0;
        for (size_t j = 0; j < h; ++j) s += x[r * h + j];
        mean[r] = s / double(h);
        for (size_t j = 0; j < h; ++j) q += (x[r * h + j] - mean[r]) * (x[r * h + j] - mean[r]);
        var[r] = q / double(h);
    }
}
// loss = sum(dy * LayerNorm(x)) with statistics from x itself
static double ln_loss(const std::vector<double>& x, const std::vector<double>& dy, const std::vector<double>& g,
                      const std::vector<double>& b, size_t rows, size_t h, double eps) {
    std::vector<double> m, v;
    ref_stats(x, rows, h, m, v);
    double L = 0;
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < h; ++j)
            L += dy[r * h + j] * ((x[r * h + j] - m[r]) / std::sqrt(v[r] + eps) * g[j] + b[j]);
    return L;
}

// ---- the kernel-side structs the build generates from the optiling classes ----
#define GEN_DECL(type, name) type name;
struct alignas(8) GenLayerNormGradTiling { ASCSIM_LAYERNORMGRAD_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenLayerNormGradBetaTiling { ASCSIM_LAYERNORMGRADBETA_TILING_FIELDS(GEN_DECL) };
#undef GEN_DECL

static const double kDocPdX[64] = {
    3.0548172, 0.4362857, -1.3093826, -2.182187, -2.1821284, -1.309207, 0.4365778, 3.0552254, 3.0545845, 0.4361186,
    -1.3094826, -2.1822214, -2.1820965, -1.3091087, 0.4367447, 3.055458, 3.0543518, 0.4359522, -1.3095818, -2.1822548,
    -2.182064, -1.3090096, 0.43690872, 3.055687, 3.054119, 0.43578815, -1.309679, -2.1822853, -2.182026, -1.3089066,
    0.437088, 3.0559235, 3.0538864, 0.43562222, -1.3097801, -2.1823158, -2.1819916, -1.3088074, 0.43724823, 3.05616,
    3.0536423, 0.4354477, -1.3098869, -2.1823578, -2.181961, -1.3087158, 0.43740845, 3.0563965, 3.0534134,
    0.43528175, -1.3099861, -2.1823883, -2.1819305, -1.308609, 0.43756104, 3.0566254, 3.0531921, 0.43511963,
    -1.3100777, -2.1824188, -2.1818848, -1.3085022, 0.43774414, 3.0568542};
static const double kDocRes[8] = {-1.5275106, -1.091079, -0.6546474, -0.21821581,
                                  0.21821581, 0.6546474, 1.091079,   1.5275106};

static void doc_examples() {
    g_top = 0;
    const uint32_t B = 1, S = 8, H = 8, n = B * S * H;
    std::vector<double> xv(n), mv(S), vv(S, 5.25), gv(H);
    for (uint32_t i = 0; i < n; ++i) xv[i] = i;
    for (uint32_t r = 0; r < S; ++r) mv[r] = 3.5 + 8.0 * r;
    for (uint32_t j = 0; j < H; ++j) gv[j] = j;
    auto dy = alloc<float>(n), x = alloc<float>(n), var = alloc<float>(S), mean = alloc<float>(S),
         gamma = alloc<float>(H), pdx = alloc<float>(n), resg = alloc<float>(n);
    put(dy, xv); put(x, xv); put(var, vv); put(mean, mv); put(gamma, gv);
    uint32_t mx = 0, mn = 0;
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H, H}), 4, false, mx, mn);
    CHECK(mn > 0 && mx >= mn);
    optiling::LayerNormGradTiling host;
    GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), mn, 4, false, host);
    CHECK(host.get_nohCalSize() == 1 && host.get_loopNum() == 8 && host.get_hLength() == 8);
    GenLayerNormGradTiling t = ascsim_hl::norm_from_host(host);
    auto tmp = tmp_buf(mn);
    EXPECT_OK(LayerNormGrad<float, false>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-4f, t));
    CHECK(near(pdx, std::vector<double>(kDocPdX, kDocPdX + 64), 0, 2e-5));
    std::vector<double> rr;
    for (uint32_t r = 0; r < S; ++r) rr.insert(rr.end(), kDocRes, kDocRes + 8);
    CHECK(near(resg, rr, 2e-7, 1e-7));
    // the doc's formula in double also reproduces the example (so the reference is the documented one)
    std::vector<double> rp, rg;
    ref_grad(xv, xv, vv, mv, gv, S, H, 1e-4, rp, rg);
    CHECK(near_v(rp, std::vector<double>(kDocPdX, kDocPdX + 64), 0, 2e-5));
    // another epsilon gives other numbers: the check can fail
    EXPECT_OK(LayerNormGrad<float, false>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, t));
    CHECK(!near(pdx, std::vector<double>(kDocPdX, kDocPdX + 64), 0, 2e-5));

    // LayerNormGradBeta example: dy = resForGamma = 0..63 as [1, 8, 8]
    g_top = 0;
    auto bdy = alloc<float>(n), bres = alloc<float>(n), pg = alloc<float>(H), pb = alloc<float>(H);
    put(bdy, xv); put(bres, xv);
    GetLayerNormGradBetaMaxMinTmpSize(shp({B, S, H, H}), 4, false, mx, mn);
    CHECK(mn > 0 && mx >= mn);
    tiling::LayerNormGradBetaTiling bt;
    GetLayerNormGradBetaNDTilingInfo(shp({B, S, H, H}), mn, 4, false, bt);
    CHECK(bt.bsCurLength == 1 && bt.loopRound == 8);
    EXPECT_OK(LayerNormGradBeta<float, false>(pg, pb, bres, bdy, tmp_buf(mn), bt));
    CHECK(near(pg, {8960, 9416, 9888, 10376, 10880, 11400, 11936, 12488}, 0, 0));
    CHECK(near(pb, {224, 232, 240, 248, 256, 264, 272, 280}, 0, 0));
}

// The documented formulas are LayerNorm's gradient: with the true mean / variance, pd_x = dL/dx, and
// sum(dy * res_for_gamma) = dL/dgamma, sum(dy) = dL/dbeta (central differences in double).
static void finite_difference() {
    std::mt19937 rng(7);
    const size_t rows = 3, h = 16;
    const double eps = 1e-3, step = 1e-5;
    auto x = rnd(rows * h, rng, -2, 2), dy = rnd(rows * h, rng, -1, 1), g = rnd(h, rng, 0.5, 1.5),
         b = rnd(h, rng, -1, 1);
    std::vector<double> m, v, pdx, resg;
    ref_stats(x, rows, h, m, v);
    ref_grad(dy, x, v, m, g, rows, h, eps, pdx, resg);
    std::vector<double> fd(rows * h), fg(h), fb(h), pg(h, 0), pb(h, 0);
    for (size_t i = 0; i < rows * h; ++i) {
        auto xp = x, xm = x;
        xp[i] += step; xm[i] -= step;
        fd[i] = (ln_loss(xp, dy, g, b, rows, h, eps) - ln_loss(xm, dy, g, b, rows, h, eps)) / (2 * step);
    }
    for (size_t j = 0; j < h; ++j) {
        auto gp = g, gm = g, bp = b, bm = b;
        gp[j] += step; gm[j] -= step; bp[j] += step; bm[j] -= step;
        fg[j] = (ln_loss(x, dy, gp, b, rows, h, eps) - ln_loss(x, dy, gm, b, rows, h, eps)) / (2 * step);
        fb[j] = (ln_loss(x, dy, g, bp, rows, h, eps) - ln_loss(x, dy, g, bm, rows, h, eps)) / (2 * step);
        for (size_t r = 0; r < rows; ++r) { pg[j] += dy[r * h + j] * resg[r * h + j]; pb[j] += dy[r * h + j]; }
    }
    CHECK(near_v(pdx, fd, 1e-6, 1e-7));
    CHECK(near_v(pg, fg, 1e-6, 1e-7));
    CHECK(near_v(pb, fb, 1e-6, 1e-7));
    // and the simulator (float) against the finite difference
    g_top = 0;
    auto tdy = alloc<float>(rows * h), tx = alloc<float>(rows * h), tv = alloc<float>(8), tm = alloc<float>(8),
         tg = alloc<float>(h), tp = alloc<float>(rows * h), tr = alloc<float>(rows * h);
    // S must be 32-byte aligned for [B, S] statistics: use B = 1, S = 8 with 3 meaningful rows padded by copies
    std::vector<double> x8(8 * h), dy8(8 * h, 0.0), m8(8), v8(8);
    for (size_t r = 0; r < 8; ++r)
        for (size_t j = 0; j < h; ++j) x8[r * h + j] = x[(r % rows) * h + j];
    for (size_t i = 0; i < rows * h; ++i) dy8[i] = dy[i];
    for (size_t r = 0; r < 8; ++r) { m8[r] = m[r % rows]; v8[r] = v[r % rows]; }
    tdy = alloc<float>(8 * h); tx = alloc<float>(8 * h); tp = alloc<float>(8 * h); tr = alloc<float>(8 * h);
    put(tdy, dy8); put(tx, x8); put(tv, v8); put(tm, m8); put(tg, g);
    tiling::LayerNormGradTiling t;
    GetLayerNormGradNDTilingInfo(shp({1, 8, int64_t(h), int64_t(h)}), kTmpBytes, 4, false, t);
    EXPECT_OK(LayerNormGrad<float>(tp, tr, tdy, tx, tv, tm, tg, tmp_buf(kTmpBytes), float(eps), t));
    std::vector<double> got(rows * h);
    for (size_t i = 0; i < rows * h; ++i) got[i] = at(tp, i);
    CHECK(near_v(got, fd, 1e-4, 1e-5));
}

template <class T, bool reuse>
static void random_case(uint32_t B, uint32_t S, uint32_t H, uint32_t seed, bool gen_struct) {
    g_top = 0;
    std::mt19937 rng(seed);
    const uint32_t rows = B * S, n = rows * H;
    const double eps = 1e-5;
    auto xv = rounded<T>(rnd(n, rng, -3, 3)), dyv = rounded<T>(rnd(n, rng, -1, 1)), gv = rounded<T>(rnd(H, rng, -2, 2));
    std::vector<double> mv, vv;
    ref_stats(xv, rows, H, mv, vv);
    mv = rounded<T>(mv); vv = rounded<T>(vv);
    auto dy = alloc<T>(n), x = alloc<T>(n), var = alloc<T>(rows), mean = alloc<T>(rows), gamma = alloc<T>(H),
         pdx = alloc<T>(n), resg = alloc<T>(n), pg = alloc<T>(H), pb = alloc<T>(H);
    put(dy, dyv); put(x, xv); put(var, vv); put(mean, mv); put(gamma, gv);
    uint32_t mx, mn;
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H, H}), sizeof(T), reuse, mx, mn);
    const uint32_t stack = std::min<uint32_t>(kTmpBytes, (mn + mx) / 2);
    std::vector<double> rp, rg;
    ref_grad(dyv, xv, vv, mv, gv, rows, H, double(float(T(float(eps)))), rp, rg);
    const double rel = std::is_same_v<T, half> ? 2e-3 : 1e-6;
    double scale = 0;
    for (double p : rp) scale = std::max(scale, std::fabs(p));
    if (gen_struct) {
        optiling::LayerNormGradTiling host;
        GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), stack, sizeof(T), reuse, host);
        GenLayerNormGradTiling t = ascsim_hl::norm_from_host(host);
        EXPECT_OK(LayerNormGrad<T, reuse>(pdx, resg, dy, x, var, mean, gamma, tmp_buf(stack), T(float(eps)), t));
    } else {
        tiling::LayerNormGradTiling t;
        GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), stack, sizeof(T), reuse, t);
        CHECK(t.nohCalSize >= 1 && t.nohCalSize <= rows);
        EXPECT_OK(LayerNormGrad<T, reuse>(pdx, resg, dy, x, var, mean, gamma, T(float(eps)), t));   // framework tmp
    }
    CHECK(near(pdx, rp, rel, rel * scale * 0.01 + 1e-7));
    CHECK(near(resg, rg, rel, 1e-7));
    // LayerNormGradBeta on the result
    const auto rgv = rounded<T>(rg);
    std::vector<double> wg(H, 0), wb(H, 0);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t j = 0; j < H; ++j) { wg[j] += dyv[r * H + j] * rgv[r * H + j]; wb[j] += dyv[r * H + j]; }
    GetLayerNormGradBetaMaxMinTmpSize(shp({B, S, H, H}), sizeof(T), reuse, mx, mn);
    CHECK(mn > 0 && mx >= mn);
    tiling::LayerNormGradBetaTiling bt;
    GetLayerNormGradBetaNDTilingInfo(shp({B, S, H, H}), mn, sizeof(T), reuse, bt);
    EXPECT_OK(LayerNormGradBeta<T, reuse>(pg, pb, resg, dy, tmp_buf(mn), bt));
    CHECK(near(pg, wg, rel, 1e-6));
    CHECK(near(pb, wb, rel, 1e-6));
}

static void aliasing_and_checks() {
    g_top = 0;
    const uint32_t B = 2, S = 8, H = 16, rows = B * S, n = rows * H;
    std::mt19937 rng(3);
    auto xv = rnd(n, rng, -1, 1), dyv = rnd(n, rng, -1, 1), gv = rnd(H, rng, -1, 1);
    std::vector<double> mv, vv, rp, rg;
    ref_stats(xv, rows, H, mv, vv);
    mv = rounded<float>(mv); vv = rounded<float>(vv); xv = rounded<float>(xv); dyv = rounded<float>(dyv);
    gv = rounded<float>(gv);
    ref_grad(dyv, xv, vv, mv, gv, rows, H, double(1e-5f), rp, rg);
    auto dy = alloc<float>(n), x = alloc<float>(n), var = alloc<float>(rows), mean = alloc<float>(rows),
         gamma = alloc<float>(H), pdx = alloc<float>(n), resg = alloc<float>(n);
    put(dy, dyv); put(x, xv); put(var, vv); put(mean, mv); put(gamma, gv);
    tiling::LayerNormGradTiling t;
    GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), kTmpBytes, 4, false, t);
    auto tmp = tmp_buf(kTmpBytes);
    // documented: sources and destinations may share memory (outputPdX in inputDy, resForGamma in inputX)
    EXPECT_OK(LayerNormGrad<float>(dy, x, dy, x, var, mean, gamma, tmp, 1e-5f, t));
    CHECK(near(dy, rp, 1e-6, 1e-7));
    CHECK(near(x, rg, 1e-6, 1e-7));
    put(dy, dyv); put(x, xv);
    // strict checks
    EXPECT_FAIL("two outputs", LayerNormGrad<float>(pdx, pdx, dy, x, var, mean, gamma, tmp, 1e-5f, t));
    EXPECT_FAIL("isReuseSource", {
        tiling::LayerNormGradTiling th;
        GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), kTmpBytes, 2, false, th);
        auto hx = alloc<half>(n);
        auto hv = alloc<half>(rows);
        auto hg = alloc<half>(H);
        LayerNormGrad<half, true>(hx, hx, hx, hx, hv, hv, hg, tmp, half(1e-5f), th);
    });
    {
        tiling::LayerNormGradTiling bad = t;
        bad.hLength = 12; bad.originalHLength = 12;
        EXPECT_FAIL("32-byte aligned", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, bad));
        bad = t; bad.sLength = 4; bad.bLength = 4;
        EXPECT_FAIL("axis S", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, bad));
        bad = t; bad.originalHLength = 15;
        EXPECT_FAIL("originHLength", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, bad));
        bad = t; bad.nohCalSize = 0;
        EXPECT_FAIL("nohCalSize", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, bad));
        bad = tiling::LayerNormGradTiling{};
        EXPECT_FAIL("larger than 0", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, bad));
    }
    EXPECT_FAIL("DataFormat::ND", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp, 1e-5f, t,
                                                       LayerNormGradShapeInfo{DataFormat::NZ}));
    // the buffer must hold the rows the tiling planned per pass
    uint32_t mx, mn;
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H, H}), 4, false, mx, mn);
    CHECK(mx == ascsim_norm::lng_bytes(4, false, H, rows) && mn == ascsim_norm::lng_bytes(4, false, H, 1));
    tiling::LayerNormGradTiling tmin;
    GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), mn, 4, false, tmin);
    EXPECT_OK(LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp_buf(mn), 1e-5f, tmin));
    EXPECT_FAIL("too small", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp_buf(mn - 32), 1e-5f, tmin));
    EXPECT_FAIL("too small", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, tmp_buf(mx - 32), 1e-5f, t));
    tiling::LayerNormGradTiling tbelow;
    GetLayerNormGradNDTilingInfo(shp({B, S, H, H}), mn - 4, 4, false, tbelow);
    CHECK(tbelow.nohCalSize == 0);
    {
        LocalTensor<uint8_t> over(reinterpret_cast<uint8_t*>(pdx.addr_), mn, TPosition::VECCALC);
        EXPECT_FAIL("overlaps", LayerNormGrad<float>(pdx, resg, dy, x, var, mean, gamma, over, 1e-5f, tmin));
    }
    // host: reuse shrinks the float model, half reuse is refused
    uint32_t mx2, mn2;
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H, H}), 4, true, mx2, mn2);
    CHECK(mn2 < mn && mx2 < mx);
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H, H}), 2, true, mx2, mn2);
    CHECK(mx2 == 0 && mn2 == 0);
    GetLayerNormGradMaxMinTmpSize(shp({B, S, H}), 4, false, mx2, mn2);
    CHECK(mx2 == mx && mn2 == mn);
    // Beta checks
    auto pg = alloc<float>(H), pb = alloc<float>(H);
    tiling::LayerNormGradBetaTiling bt;
    GetLayerNormGradBetaNDTilingInfo(shp({B, S, H, H}), kTmpBytes, 4, false, bt);
    CHECK(bt.bsCurLength == rows && bt.loopRound == 1 && bt.bshLength == n);
    EXPECT_FAIL("two outputs", LayerNormGradBeta<float>(pg, pg, resg, dy, tmp, bt));
    GetLayerNormGradBetaMaxMinTmpSize(shp({B, S, H, H}), 4, false, mx, mn);
    EXPECT_FAIL("too small", LayerNormGradBeta<float>(pg, pb, resg, dy, tmp_buf(mx - 32), bt));
    EXPECT_OK(LayerNormGradBeta<float>(pg, pb, resg, dy, tmp_buf(mx), bt));
    {
        tiling::LayerNormGradBetaTiling bad = bt;
        bad.hLength = 4; bad.originalHLength = 4;
        EXPECT_FAIL("32-byte aligned", LayerNormGradBeta<float>(pg, pb, resg, dy, tmp, bad));
        bad = bt; bad.bsCurLength = 0;
        EXPECT_FAIL("bsCurLength", LayerNormGradBeta<float>(pg, pb, resg, dy, tmp, bad));
    }
    // optiling round trip and a user TilingData's serialized bytes
    optiling::LayerNormGradBetaTiling hb;
    GetLayerNormGradBetaNDTilingInfo(shp({B, S, H, H}), mn, 4, false, hb);
    GenLayerNormGradBetaTiling gb = ascsim_hl::norm_from_host(hb);
    CHECK(gb.bsCurLength == 1 && gb.hLength == H && gb.bshLength == n && gb.loopRound == rows);
    EXPECT_OK(LayerNormGradBeta<float>(pg, pb, resg, dy, gb));
}

int main() {
    Fixture fx;
    g_fx = &fx;
    doc_examples();
    finite_difference();
    random_case<float, false>(2, 8, 32, 11, true);
    random_case<float, true>(1, 16, 64, 12, false);
    random_case<half, false>(2, 16, 32, 13, true);
    random_case<half, false>(1, 32, 16, 14, false);
    aliasing_and_checks();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

// The normalization APIs (kernel/hl_norm.h) and their host tiling (host/norm_tiling.h) against references written
// from the documentation: the docs' worked examples (LayerNorm, Normalize, RmsNorm, GroupNorm, BatchNorm, DeepNorm,
// WelfordUpdate, WelfordFinalize), random half / float cases against double-precision references (mean, biased
// variance, epsilon inside the square root, gamma / beta), a Welford update-then-finalize pipeline that must give the
// whole data's mean and variance, the host tiling functions filling the structs the kernel APIs then consume (also
// through a user TilingData and its serialized bytes), and the strict checks (temporary buffer, shapes, overlaps).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_norm.h"
#include "ascsim/host/norm_tiling.h"

using namespace AscendC;

#include "check.h"

// a call that must fail with a message containing `text`, or must not fail
#define EXPECT_FAIL(text, ...) CHECK_MSG(has(throws([&] { __VA_ARGS__; }), text), "expected \"%s\"", text)
#define EXPECT_OK(...) CHECK(throws([&] { __VA_ARGS__; }).empty())

struct Fixture {
    alignas(4096) static inline uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    Fixture() { ctx.ub = ub; std::memset(ub, 0, sizeof ub); ascsim::bind_test_core(&ctx); }
};
static Fixture* g_fx;

// bump allocator over the first 128 KB of the UB (the last 64 KB hold the temporary buffer); every buffer starts as
// 0xFF bytes (NaN for half and float), so an element the API must not write stays NaN
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
static LocalTensor<uint8_t> tmp_buf(uint32_t bytes) {
    return LocalTensor<uint8_t>(g_fx->ub + kTmpOff, bytes, TPosition::VECCALC);
}

template <class X> static void put(const LocalTensor<X>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.addr_[i] = X(float(v[i]));
}
template <class X> static double at(const LocalTensor<X>& t, size_t i) { return double(float(t.addr_[i])); }
// values as the tensor holds them (rounded to X): references start from these
template <class X> static std::vector<double> rounded(const std::vector<double>& v) {
    std::vector<double> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) r[i] = double(float(X(float(v[i]))));
    return r;
}
static std::vector<double> iota(size_t n, double start = 0) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = start + double(i);
    return v;
}
static std::vector<double> rnd(size_t n, std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}
// got[off + i * stride] for i < want.size() against want, within rel * |want| + abs
template <class X>
static bool near(const LocalTensor<X>& t, const std::vector<double>& want, double rel, double abs, size_t off = 0,
                 size_t stride = 1) {
    for (size_t i = 0; i < want.size(); ++i) {
        const double g = at(t, off + i * stride);
        if (!(std::fabs(g - want[i]) <= rel * std::fabs(want[i]) + abs)) {
            std::printf("  [%zu] = %.9g, want %.9g\n", off + i * stride, g, want[i]);
            return false;
        }
    }
    return true;
}
template <class X> static bool untouched(const LocalTensor<X>& t, size_t i) { return std::isnan(at(t, i)); }
template <class X> constexpr double rel_of() { return std::is_same_v<X, half> ? 2e-3 : 2e-6; }
template <class X> constexpr double abs_of() { return std::is_same_v<X, half> ? 2e-3 : 1e-6; }

// ---- double-precision references from the documented math ----
// mean and biased variance (divided by the count)
static void ref_stats(const double* x, size_t n, size_t stride, double& mean, double& var) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += x[i * stride];
    mean = s / double(n);
    double q = 0;
    for (size_t i = 0; i < n; ++i) q += (x[i * stride] - mean) * (x[i * stride] - mean);
    var = q / double(n);
}
// LayerNorm over rows of h: y = (x - mean) / sqrt(var + eps) * gamma + beta (epsilon inside the square root)
struct LnRef { std::vector<double> y, mean, var, rstd; };
static LnRef ref_layernorm(const std::vector<double>& x, size_t rows, size_t h, size_t stride,
                           const std::vector<double>* g, const std::vector<double>* b, double eps) {
    LnRef r;
    r.y.assign(rows * stride, 0);
    for (size_t i = 0; i < rows; ++i) {
        double m, v;
        ref_stats(&x[i * stride], h, 1, m, v);
        const double rs = 1.0 / std::sqrt(v + eps);
        for (size_t j = 0; j < h; ++j)
            r.y[i * stride + j] = (x[i * stride + j] - m) * rs * (g ? (*g)[j] : 1.0) + (b ? (*b)[j] : 0.0);
        r.mean.push_back(m); r.var.push_back(v); r.rstd.push_back(rs);
    }
    return r;
}
static std::vector<double> row_of(const std::vector<double>& v, size_t r, size_t h, size_t stride) {
    return std::vector<double>(v.begin() + long(r * stride), v.begin() + long(r * stride + h));
}

// ---- the kernel-side structs the build generates from the optiling classes (same field names) ----
#define GEN_DECL(type, name) type name;
struct alignas(8) GenLayerNormTiling { ASCSIM_LAYERNORM_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenLayerNormSeparateTiling { ASCSIM_LAYERNORM_SEPARATE_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenRmsNormTiling { ASCSIM_RMSNORM_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenGroupNormTiling { ASCSIM_GROUPNORM_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenBatchNormTiling { ASCSIM_BATCHNORM_TILING_FIELDS(GEN_DECL) };
struct alignas(8) GenDeepNormTiling { ASCSIM_DEEPNORM_TILING_FIELDS(GEN_DECL) };
#undef GEN_DECL
template <class Gen, class Host> static Gen gen(const Host& h) { return Gen(AscendC::ascsim_hl::norm_from_host(h)); }

// a user TilingData nesting two of the structs, as the docs' examples do
namespace optiling {
BEGIN_TILING_DATA_DEF(NormTestTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, layernormTilingData);
    TILING_DATA_FIELD_DEF(uint16_t, flag);
    TILING_DATA_FIELD_DEF_STRUCT(GroupNormTiling, groupNormTilingData);
END_TILING_DATA_DEF;
}  // namespace optiling
struct alignas(8) GenNormTestTilingData {
    uint32_t totalLength;
    GenLayerNormTiling layernormTilingData;
    uint16_t flag;
    GenGroupNormTiling groupNormTilingData;
};

// the row of the LayerNorm docs' worked example (x = 0..7 + 8k, gamma = beta = 0..7, eps 1e-4)
static const std::vector<double> kLnDocRow = {0., -0.09107912, 0.69070506, 2.3453526, 4.8728633, 8.273237, 12.546474,
                                              17.692575};
constexpr LayerNormConfig kLnNoBeta = {true, false, false, true};
constexpr LayerNormConfig kLnNoGammaNoBeta = {true, true, false, true};
constexpr NormalizeConfig kNlA4 = {ReducePattern::AR, 4, false, false, false};

// ================= LayerNorm [B, S, H] =================
static void layernorm_bsh_tests() {
    {   // docs' worked example: [1, 8, 8] float, x = 0..63, gamma = beta = 0..7; eps 1e-4 reproduces the printed digits
        g_top = 0;
        uint32_t mx = 0, mn = 0;
        GetLayerNormMaxMinTmpSize(ge::Shape({1, 8, 8, 8}), 4, false, mx, mn);
        CHECK(mn > 0 && mx >= mn);
        optiling::LayerNormTiling ht;
        GetLayerNormNDTilingInfo(ge::Shape({1, 8, 8, 8}), mn, 4, false, ht);
        CHECK(ht.get_bLength() == 1 && ht.get_sLength() == 8 && ht.get_hLength() == 8 && ht.get_originalHLength() == 8);
        CHECK(ht.get_bsCurLength() == 1 && ht.get_loopRound() == 8);   // the minimum holds one row
        CHECK(ht.get_lastDimValueBack() == 0.125f);
        GenLayerNormTiling tl = gen<GenLayerNormTiling>(ht);
        auto x = alloc<float>(64), y = alloc<float>(64), m = alloc<float>(8), v = alloc<float>(8), g = alloc<float>(8),
             b = alloc<float>(8);
        put(x, iota(64)); put(g, iota(8)); put(b, iota(8));
        auto tmp = tmp_buf(mn);
        LayerNorm<float, false>(y, m, v, x, g, b, tmp, 1e-4f, tl);
        const std::vector<double> row = kLnDocRow;
        bool ok = true;
        for (size_t r = 0; r < 8; ++r) ok = ok && near(y, row, 2e-6, 1e-6, r * 8);
        CHECK(ok);
        CHECK(near(m, {3.5, 11.5, 19.5, 27.5, 35.5, 43.5, 51.5, 59.5}, 0, 0));
        CHECK(near(v, std::vector<double>(8, 5.25), 0, 0));
        // the same call with the framework-managed buffer and the max-size tiling (all rows in one pass)
        GetLayerNormNDTilingInfo(ge::Shape({1, 8, 8, 8}), mx, 4, false, ht);
        CHECK(ht.get_bsCurLength() == 8 && ht.get_loopRound() == 1 && ht.get_meanVarTailSize() == 0);
        tl = gen<GenLayerNormTiling>(ht);
        put(y, std::vector<double>(64, -1));
        LayerNorm<float, false>(y, m, v, x, g, b, 1e-4f, tl);
        CHECK(near(y, row, 2e-6, 1e-6, 56));
        // a misplaced epsilon (outside the square root) would not reproduce the docs: the check can fail
        CHECK(std::fabs((1.0 - 3.5) / (std::sqrt(5.25) + 1e-4) + 1.0 - (-0.09107912)) > 1e-6);
    }
    std::mt19937 rng(7);
    auto random_case = [&](auto tag, uint32_t bl, uint32_t sl, uint32_t h, double eps, bool inplace) {
        using T = decltype(tag);
        g_top = 0;
        const uint32_t rows = bl * sl, n = rows * h;
        const std::vector<double> xv = rounded<T>(rnd(n, rng, -4, 6)), gv = rounded<T>(rnd(h, rng, -2, 2)),
                                  bv = rounded<T>(rnd(h, rng, -1, 1));
        uint32_t mx, mn;
        GetLayerNormMaxMinTmpSize(ge::Shape({bl, sl, h, h}), sizeof(T), false, mx, mn);
        optiling::LayerNormTiling ht;
        const uint32_t stack = mn + (mx - mn) / 3;   // a few rows per pass, with a tail
        GetLayerNormNDTilingInfo(ge::Shape({bl, sl, h, h}), stack, sizeof(T), false, ht);
        CHECK(ht.get_bsCurLength() >= 1 && ht.get_bsCurLength() < rows);
        CHECK(ht.get_loopRound() * ht.get_bsCurLength() + ht.get_meanVarTailSize() == rows);
        GenLayerNormTiling tl = gen<GenLayerNormTiling>(ht);
        auto x = alloc<T>(n), y = inplace ? x : alloc<T>(n), m = alloc<T>(rows), v = alloc<T>(rows), g = alloc<T>(h),
             b = alloc<T>(h);
        put(x, xv); put(g, gv); put(b, bv);
        auto tmp = tmp_buf(stack);
        LayerNorm<T, false>(y, m, v, x, g, b, tmp, T(float(eps)), tl);
        const LnRef r = ref_layernorm(xv, rows, h, h, &gv, &bv, double(float(T(float(eps)))));
        CHECK_MSG(near(y, r.y, rel_of<T>(), abs_of<T>()), "LayerNorm %s [%u,%u,%u] inplace %d",
                  ascsim::norm::tname<T>(), bl, sl, h, int(inplace));
        CHECK(near(m, r.mean, rel_of<T>(), abs_of<T>()) && near(v, r.var, rel_of<T>(), abs_of<T>()));
    };
    random_case(float(), 3, 5, 24, 0.5, false);   // a large eps: its placement matters
    random_case(half(), 2, 3, 32, 1e-3, false);
    random_case(float(), 2, 4, 16, 1e-5, true);    // output may share inputX's memory
    {   // float with isReuseSource: fewer temporaries (host and kernel agree)
        uint32_t mx1, mn1, mx2, mn2;
        GetLayerNormMaxMinTmpSize(ge::Shape({2, 2, 64, 64}), 4, true, mx1, mn1);
        GetLayerNormMaxMinTmpSize(ge::Shape({2, 2, 64, 64}), 4, false, mx2, mn2);
        CHECK(mn1 < mn2 && mx1 < mx2);
        g_top = 0;
        optiling::LayerNormTiling ht;
        GetLayerNormNDTilingInfo(ge::Shape({2, 2, 64, 64}), mn1, 4, true, ht);
        GenLayerNormTiling tl = gen<GenLayerNormTiling>(ht);
        auto x = alloc<float>(256), y = alloc<float>(256), m = alloc<float>(4), v = alloc<float>(4);
        auto g = alloc<float>(64), b = alloc<float>(64);
        put(x, iota(256)); put(g, std::vector<double>(64, 1)); put(b, std::vector<double>(64, 0));
        EXPECT_OK(LayerNorm<float, true>(y, m, v, x, g, b, tmp_buf(mn1), 1e-5f, tl));
        EXPECT_FAIL("too small", LayerNorm<float, false>(y, m, v, x, g, b, tmp_buf(mn1), 1e-5f, tl));
    }
    // ---- strict checks ----
    g_top = 0;
    optiling::LayerNormTiling ht;
    uint32_t mx, mn;
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 4, 16, 16}), 2, false, mx, mn);
    GetLayerNormNDTilingInfo(ge::Shape({2, 4, 16, 16}), mx, 2, false, ht);
    GenLayerNormTiling tl = gen<GenLayerNormTiling>(ht);
    auto x = alloc<half>(128), y = alloc<half>(128), m = alloc<half>(16), v = alloc<half>(16), g = alloc<half>(16),
         b = alloc<half>(16);
    put(x, iota(128)); put(g, std::vector<double>(16, 1)); put(b, std::vector<double>(16, 0));
    EXPECT_OK(LayerNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), tl));
    EXPECT_FAIL("sharedTmpBuffer is too small", LayerNorm<half>(y, m, v, x, g, b, tmp_buf(mx - 32), half(1e-3f), tl));
    EXPECT_FAIL("float inputs only", LayerNorm<half, true>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), tl));
    EXPECT_FAIL("outputMean overlaps inputX", LayerNorm<half>(y, x, v, x, g, b, tmp_buf(mx), half(1e-3f), tl));
    const LocalTensor<uint8_t> over_x(reinterpret_cast<uint8_t*>(x.addr_), mx, TPosition::VECCALC);
    EXPECT_FAIL("sharedTmpBuffer overlaps", LayerNorm<half>(y, m, v, x, g, b, over_x, half(1e-3f), tl));
    GenLayerNormTiling bad = tl;
    bad.hLength = 8; bad.originalHLength = 8;   // 16 bytes of half: not aligned
    EXPECT_FAIL("32-byte aligned", LayerNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), bad));
    bad = tl;
    bad.originalHLength = 13;
    EXPECT_FAIL("must equal storageHLength", LayerNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), bad));
    GetLayerNormNDTilingInfo(ge::Shape({2, 4, 16, 16}), mn - 4, 2, false, ht);   // below the minimum
    CHECK(ht.get_bsCurLength() == 0);
    bad = gen<GenLayerNormTiling>(ht);
    EXPECT_FAIL("bsCurLength is 0", LayerNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), bad));
    {   // the framework-managed buffer is the UB after the last InitBuffer
        TPipe pipe;
        TBuf<TPosition::VECCALC> all;
        pipe.InitBuffer(all, ascsim::kUbBytes - 256);
        EXPECT_FAIL("no UB left", LayerNorm<half>(y, m, v, x, g, b, half(1e-3f), tl));
    }
    EXPECT_OK(LayerNorm<half>(y, m, v, x, g, b, half(1e-3f), tl));
    // invalid host arguments leave the sizes at 0
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 4, 16, 16}), 8, false, mx, mn);
    CHECK(mx == 0 && mn == 0);
}

// ================= LayerNorm [A, R] (mean and rstd) and Normalize =================
// one random [A, R] LayerNorm case (R padded to 32 bytes; the padding holds large values)
template <class T, class U, const LayerNormConfig& cfg>
static void ln_ar_case(uint32_t a, uint32_t r, std::mt19937& rng) {
    g_top = 0;
    const uint32_t rp = uint32_t(ascsim_norm::align_elems(r, sizeof(T)));
    std::vector<double> xv(size_t(a) * rp, 0);
    const std::vector<double> gv = rounded<U>(rnd(r, rng, -2, 2)), bv = rounded<U>(rnd(r, rng, -1, 1));
    for (uint32_t i = 0; i < a; ++i)
        for (uint32_t j = 0; j < r; ++j) xv[size_t(i) * rp + j] = double(float(T(float(rnd(1, rng, -3, 5)[0]))));
    uint32_t mx, mn;
    GetLayerNormMaxMinTmpSize(ge::Shape({a, r}), sizeof(T), false, true, false, mx, mn);
    optiling::LayerNormSeparateTiling ht;
    GetLayerNormNDTilingInfo(ge::Shape({a, r}), mn, sizeof(T), false, true, ht);
    GenLayerNormSeparateTiling tl = gen<GenLayerNormSeparateTiling>(ht);
    auto x = alloc<T>(a * rp), y = alloc<T>(a * rp), m = alloc<float>(a), rs = alloc<float>(a), g = alloc<U>(rp),
         b = alloc<U>(rp);
    for (uint32_t i = 0; i < a * rp; ++i) x.addr_[i] = T(float(xv[i]));
    for (uint32_t i = 0; i < a; ++i)   // the padding must not reach the statistics
        for (uint32_t j = r; j < rp; ++j) x.addr_[size_t(i) * rp + j] = T(1000.0f);
    put(g, gv); put(b, bv);
    LayerNormPara para(a, r, rp);
    LayerNorm<U, T, false, cfg>(y, m, rs, x, g, b, 1e-5f, tmp_buf(mn), para, tl);
    const LnRef ref = ref_layernorm(xv, a, r, rp, cfg.isNoGamma ? nullptr : &gv, cfg.isNoBeta ? nullptr : &bv,
                                    double(1e-5f));
    bool ok = true;
    for (uint32_t i = 0; i < a; ++i)
        ok = ok && near(y, row_of(ref.y, i, r, rp), rel_of<T>(), abs_of<T>(), size_t(i) * rp);
    CHECK_MSG(ok, "LayerNorm[A,R] T=%s U=%s a=%u r=%u", ascsim::norm::tname<T>(), ascsim::norm::tname<U>(), a, r);
    CHECK(near(m, ref.mean, 2e-6, 1e-6) && near(rs, ref.rstd, 2e-6, 1e-6));
    if (rp > r) CHECK(untouched(y, r));   // the padded columns are left alone
}

static void layernorm_ar_tests() {
    {   // the [B, S, H] docs example run through the [A, R] API: same y and mean, rstd = 1 / sqrt(5.25 + eps)
        g_top = 0;
        uint32_t mx, mn;
        GetLayerNormMaxMinTmpSize(ge::Shape({8, 8}), 4, false, true, false, mx, mn);
        CHECK(mn > 0 && mx > mn);
        optiling::LayerNormSeparateTiling ht;
        GetLayerNormNDTilingInfo(ge::Shape({8, 8}), mn, 4, false, true, ht);
        CHECK(ht.get_aLength() == 8 && ht.get_rLength() == 8 && ht.get_aCurLength() == 1);
        CHECK(ht.get_rValueBack() == 0.125f);
        GenLayerNormSeparateTiling tl = gen<GenLayerNormSeparateTiling>(ht);
        auto x = alloc<float>(64), y = alloc<float>(64), m = alloc<float>(8), rs = alloc<float>(8), g = alloc<float>(8),
             b = alloc<float>(8);
        put(x, iota(64)); put(g, iota(8)); put(b, iota(8));
        LayerNormPara para = {8, 8, 8};
        LayerNorm<float, float, false, LNCFG_NORM>(y, m, rs, x, g, b, 1e-4f, tmp_buf(mn), para, tl);
        CHECK(near(y, kLnDocRow, 2e-6, 1e-6, 40));
        CHECK(near(m, {3.5, 11.5, 19.5, 27.5, 35.5, 43.5, 51.5, 59.5}, 0, 0));
        CHECK(near(rs, std::vector<double>(8, 1.0 / std::sqrt(5.25 + double(1e-4f))), 1e-7, 0));
        // the two-value para of the tiling docs' kernel: (aLength, rLengthWithPadding)
        LayerNormPara p2(8, 8);
        CHECK(p2.rLength == 8 && p2.rLengthWithPadding == 8);
        put(y, std::vector<double>(64, -7));
        LayerNorm<float, float>(y, m, rs, x, g, b, 1e-4f, p2, tl);   // framework buffer
        CHECK(near(y, kLnDocRow, 2e-6, 1e-6, 0));
    }
    std::mt19937 rng(11);
    ln_ar_case<float, float, LNCFG_NORM>(5, 10, rng);
    ln_ar_case<half, float, LNCFG_NORM>(3, 40, rng);
    ln_ar_case<half, half, kLnNoBeta>(4, 16, rng);
    ln_ar_case<float, float, kLnNoGammaNoBeta>(2, 33, rng);
    {   // strict checks
        g_top = 0;
        uint32_t mx, mn;
        GetLayerNormMaxMinTmpSize(ge::Shape({4, 12}), 4, false, true, false, mx, mn);
        optiling::LayerNormSeparateTiling ht;
        GetLayerNormNDTilingInfo(ge::Shape({4, 12}), mx, 4, false, true, ht);
        GenLayerNormSeparateTiling tl = gen<GenLayerNormSeparateTiling>(ht);
        auto x = alloc<float>(64), y = alloc<float>(64), m = alloc<float>(8), rs = alloc<float>(8);
        auto g = alloc<float>(16), b = alloc<float>(16);
        put(x, iota(64)); put(g, std::vector<double>(16, 1)); put(b, std::vector<double>(16, 0));
        auto call = [&](LayerNormPara p, uint32_t tb, const LocalTensor<float>& out) {
            return throws([&] { LayerNorm<float, float>(out, m, rs, x, g, b, 1e-5f, tmp_buf(tb), p, tl); });
        };
        CHECK(call({4, 12, 16}, mx, y).empty());
        CHECK(call({3, 12, 16}, mx, y).empty());   // a smaller A than the tiling's is fine
        CHECK(has(call({5, 12, 16}, mx, y), "must not exceed the A"));
        CHECK(has(call({4, 12, 24}, mx, y), "R axis cannot be split"));
        CHECK(has(call({4, 12, 12}, mx, y), "32-byte aligned"));
        CHECK(has(call({4, 20, 16}, mx, y), "must not exceed rLengthWithPadding"));
        CHECK(has(call({4, 12, 16}, mn - 32, y), "sharedTmpBuffer is too small"));
        CHECK(has(call({4, 12, 16}, mx, x), "output overlaps inputX"));
        GetLayerNormMaxMinTmpSize(ge::Shape({4, 12}), 4, false, false, false, mx, mn);   // variance output: 950 only
        CHECK(mx == 0 && mn == 0);
        GetLayerNormMaxMinTmpSize(ge::Shape({4, 12}), 4, false, true, true, mx, mn);    // isOnlyOutput: unsupported
        CHECK(mx == 0 && mn == 0);
    }
    {   // Normalize: docs' worked example, [8, 8] float, mean = variance = 0..7, gamma = beta = 1, eps 0.001
        g_top = 0;
        uint32_t mx, mn;
        GetNormalizeMaxMinTmpSize(ge::Shape({8, 8}), 4, 4, false, true, false, mx, mn);
        CHECK(mn > 0 && mx > mn);
        auto x = alloc<float>(64), y = alloc<float>(64), rs = alloc<float>(8), m = alloc<float>(8), v = alloc<float>(8),
             g = alloc<float>(8), b = alloc<float>(8);
        put(x, iota(64)); put(m, iota(8)); put(v, iota(8));
        put(g, std::vector<double>(8, 1)); put(b, std::vector<double>(8, 1));
        NormalizePara para(8, 8, 8);
        Normalize<float, float, false, NLCFG_NORM>(y, rs, m, v, x, g, b, tmp_buf(mn), 0.001f, para);
        const std::vector<double> want = {
            1.0, 32.622772, 64.245544, 95.868324, 127.4911, 159.11388, 190.73665, 222.35942,
            7.996503, 8.996003, 9.995503, 10.995004, 11.994504, 12.994005, 13.9935055, 14.993006,
            10.897021, 11.603951, 12.310882, 13.017812, 13.724742, 14.431672, 15.138602, 15.845532,
            13.122336, 13.699591, 14.276845, 14.854099, 15.431353, 16.008606, 16.585861, 17.163115,
            14.998251, 15.498188, 15.998126, 16.498064, 16.998001, 17.497938, 17.997875, 18.497814,
            16.65091, 17.09808, 17.545248, 17.992416, 18.439585, 18.886755, 19.333923, 19.781092,
            18.144999, 18.553213, 18.961428, 19.369642, 19.777857, 20.186071, 20.594284, 21.002499,
            19.518936, 19.896873, 20.27481, 20.652748, 21.030685, 21.408623, 21.78656, 22.164497};
        CHECK(near(y, want, 2e-6, 1e-6));
        const std::vector<double> rstd = {31.622774, 0.9995004, 0.7069301, 0.5772541, 0.49993753, 0.44716886,
                                          0.40821427, 0.37793747};
        CHECK(near(rs, rstd, 2e-6, 0));
        // without gamma and beta: (x - mean) * rstd
        Normalize<float, float, false, NLCFG_NOOPT>(y, rs, m, v, x, g, b, 0.001f, para);
        CHECK(near(y, {0.0, 31.622772}, 2e-6, 1e-6) && near(y, {7 * 0.9995004}, 2e-6, 0, 8));
        Normalize<float, float, false, NLCFG_NOBETA>(y, rs, m, v, x, g, b, 0.001f, para);
        CHECK(near(y, {0.0, 31.622772}, 2e-6, 1e-6));
        Normalize<float, float, false, NLCFG_NOGAMMA>(y, rs, m, v, x, g, b, 0.001f, para);
        CHECK(near(y, {1.0, 32.622772}, 2e-6, 1e-6));
        // strict checks
        EXPECT_FAIL("too small", Normalize<float, float>(y, rs, m, v, x, g, b, tmp_buf(mn - 32), 0.001f, para));
        EXPECT_FAIL("output overlaps inputX", Normalize<float, float>(x, rs, m, v, x, g, b, tmp_buf(mn), 0.001f, para));
        EXPECT_FAIL("32-byte aligned", Normalize<float, float>(y, rs, m, v, x, g, b, tmp_buf(mn), 0.001f, {8, 8, 4}));
        EXPECT_FAIL("config.aLength", Normalize<float, float, false, kNlA4>(y, rs, m, v, x, g, b, 0.001f, para));
        GetNormalizeMaxMinTmpSize(ge::Shape({8, 8}), 2, 4, false, true, false, mx, mn);   // half gamma, float x
        CHECK(mx == 0 && mn == 0);
    }
    {   // Normalize, half x with float gamma/beta, against the reference
        g_top = 0;
        std::mt19937 r2(5);
        const uint32_t a = 3, r = 20, rp = 32;
        std::vector<double> xv(a * rp, 0), mv(a), vv(a);
        for (uint32_t i = 0; i < a; ++i) {
            for (uint32_t j = 0; j < r; ++j) xv[i * rp + j] = double(float(half(float(rnd(1, r2, -2, 2)[0]))));
            ref_stats(&xv[i * rp], r, 1, mv[i], vv[i]);
            mv[i] = double(float(mv[i])); vv[i] = double(float(vv[i]));
        }
        const std::vector<double> gv = rnd(r, r2, 0.5, 1.5), bv = rnd(r, r2, -1, 1);
        auto x = alloc<half>(a * rp), y = alloc<half>(a * rp);
        auto rs = alloc<float>(8), m = alloc<float>(8), v = alloc<float>(8), g = alloc<float>(rp), b = alloc<float>(rp);
        put(x, xv); put(m, mv); put(v, vv); put(g, gv); put(b, bv);
        uint32_t mx, mn;
        GetNormalizeMaxMinTmpSize(ge::Shape({a, r}), 4, 2, false, true, false, mx, mn);
        Normalize<float, half>(y, rs, m, v, x, g, b, tmp_buf(mn), 1e-5f, NormalizePara(a, r, rp));
        bool ok = true;
        for (uint32_t i = 0; i < a; ++i) {
            std::vector<double> want(r);
            const double rstd = 1.0 / std::sqrt(vv[i] + double(1e-5f));
            for (uint32_t j = 0; j < r; ++j)
                want[j] = (xv[i * rp + j] - mv[i]) * rstd * double(float(gv[j])) + double(float(bv[j]));
            ok = ok && near(y, want, 2e-3, 2e-3, i * rp) && near(rs, {rstd}, 2e-6, 0, i);
        }
        CHECK(ok);
    }
}

// ================= RmsNorm =================
static void rmsnorm_tests() {
    {   // docs' worked example: [1, 1, 16] float, x = gamma = 0..15 (eps not given; 1e-5 reproduces the digits)
        g_top = 0;
        uint32_t mx, mn;
        CHECK(GetRmsNormMaxMinTmpSize(ge::Shape({1, 1, 16}), 4, mx, mn));
        optiling::RmsNormTiling ht;
        CHECK(GetRmsNormTilingInfo(ge::Shape({1, 1, 16}), ge::Shape({1, 1, 16}), mn, 4, ht));
        CHECK(ht.get_hLength() == 16 && ht.get_originalHLength() == 16 && ht.get_reciprocalOfHLength() == 0.0625f);
        GenRmsNormTiling tl = gen<GenRmsNormTiling>(ht);
        auto x = alloc<float>(16), y = alloc<float>(16), g = alloc<float>(16);
        put(x, iota(16)); put(g, iota(16));
        RmsNorm<float>(y, x, g, tmp_buf(mn), 1e-5f, tl);
        const std::vector<double> want = {0., 0.11359233, 0.4543693, 1.022331, 1.8174772, 2.8398082, 4.089324,
                                          5.566024, 7.269909, 9.200979, 11.359233, 13.744672, 16.357296, 19.197104,
                                          22.264095, 25.558275};
        CHECK(near(y, want, 1e-6, 1e-6));
        // the root of the mean square, not of the variance: a LayerNorm-style reference would be far off
        CHECK(std::fabs(1.0 / std::sqrt(21.25) - 0.11359233) > 1e-2);
    }
    std::mt19937 rng(3);
    auto random_case = [&](auto tag, uint32_t bl, uint32_t sl, uint32_t h, uint32_t oh, bool basic) {
        using T = decltype(tag);
        g_top = 0;
        const uint32_t rows = bl * sl, n = rows * h;
        std::vector<double> xv = rounded<T>(rnd(n, rng, -3, 3));
        const std::vector<double> gv = rounded<T>(rnd(h, rng, -2, 2));
        uint32_t mx, mn;
        CHECK(GetRmsNormMaxMinTmpSize(ge::Shape({bl, sl, h}), sizeof(T), mx, mn, basic));
        optiling::RmsNormTiling ht;
        CHECK(GetRmsNormTilingInfo(ge::Shape({bl, sl, h}), ge::Shape({bl, sl, oh}), mn, sizeof(T), ht, basic));
        CHECK(ht.get_loopRound() * ht.get_mainBsLength() + ht.get_tailBsLength() == rows);
        GenRmsNormTiling tl = gen<GenRmsNormTiling>(ht);
        auto x = alloc<T>(n), y = alloc<T>(n), g = alloc<T>(h);
        put(x, xv); put(g, gv);
        if (basic) RmsNorm<T, true>(y, x, g, tmp_buf(mn), T(1e-4f), tl);
        else RmsNorm<T, false>(y, x, g, tmp_buf(mn), T(1e-4f), tl);
        std::vector<double> want(n);
        const double eps = double(float(T(1e-4f)));
        for (uint32_t r = 0; r < rows; ++r) {
            double q = 0;
            for (uint32_t j = 0; j < oh; ++j) q += xv[r * h + j] * xv[r * h + j];   // the padding is not part of it
            const double rs = 1.0 / std::sqrt(q / oh + eps);
            for (uint32_t j = 0; j < h; ++j) want[r * h + j] = xv[r * h + j] * rs * gv[j];
        }
        CHECK_MSG(near(y, want, rel_of<T>(), abs_of<T>()), "RmsNorm %s [%u,%u,%u] oh %u", ascsim::norm::tname<T>(), bl,
                  sl, h, oh);
    };
    random_case(float(), 2, 3, 24, 24, false);
    random_case(half(), 3, 2, 32, 27, false);   // H padded from 27: the padded columns are overwritten too
    random_case(float(), 2, 4, 64, 64, true);   // basic block
    {   // strict checks
        g_top = 0;
        optiling::RmsNormTiling ht;
        uint32_t mx, mn;
        CHECK(GetRmsNormMaxMinTmpSize(ge::Shape({1, 4, 64}), 2, mx, mn));
        CHECK(GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 4, 64}), mx, 2, ht));
        GenRmsNormTiling tl = gen<GenRmsNormTiling>(ht);
        auto x = alloc<half>(256), y = alloc<half>(256), g = alloc<half>(64);
        put(x, iota(256)); put(g, std::vector<double>(64, 1));
        EXPECT_OK(RmsNorm<half>(y, x, g, tmp_buf(mx), half(1e-5f), tl));
        EXPECT_OK(RmsNorm<half>(x, x, g, half(1e-5f), tl));   // dst may share src
        EXPECT_FAIL("too small", RmsNorm<half>(y, x, g, tmp_buf(mx - 32), half(1e-5f), tl));
        const LocalTensor<half> gy(y.addr_ + 64, 64, TPosition::VECCALC);   // gamma inside dst
        EXPECT_FAIL("dstLocal and gammaLocal", RmsNorm<half>(y, x, gy, tmp_buf(mx), half(1e-5f), tl));
        EXPECT_FAIL("isBasicBlock", RmsNorm<half, true>(y, x, g, tmp_buf(mx), half(1e-5f), tl));   // B*S = 4
        CHECK(!GetRmsNormMaxMinTmpSize(ge::Shape({1, 4, 64}), 2, mx, mn, true));
        CHECK(!GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 4, 64}), 1 << 16, 2, ht, true));
        CHECK(!GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 4, 64}), 16, 2, ht));   // below the minimum
        CHECK(!GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 2, 64}), 1 << 16, 2, ht));   // B/S differ
        CHECK(!GetRmsNormTilingInfo(ge::Shape({1, 4, 24}), ge::Shape({1, 4, 24}), 1 << 16, 2, ht));   // H not aligned
        GenRmsNormTiling bad = tl;
        bad.originalHLength = 65;
        EXPECT_FAIL("must be in (0", RmsNorm<half>(y, x, g, tmp_buf(mx), half(1e-5f), bad));
        bad = tl;
        bad.mainBsLength = 0;
        EXPECT_FAIL("mainBsLength is 0", RmsNorm<half>(y, x, g, tmp_buf(mx), half(1e-5f), bad));
    }
}

// ================= GroupNorm =================
static void groupnorm_tests() {
    {   // docs' worked example: float [2, 8, 4, 2], groupNum 4, x = 0..127, gamma = beta = 0..7, eps 1e-5
        g_top = 0;
        uint32_t mx, mn;
        GetGroupNormMaxMinTmpSize(ge::Shape({2, 8, 4, 2}), 4, false, 4, mx, mn);
        CHECK(mn > 0 && mx > mn);
        optiling::GroupNormTiling ht;
        GetGroupNormNDTilingInfo(ge::Shape({2, 8, 4, 2}), mx, 4, false, 4, ht);
        CHECK(ht.get_n() == 2 && ht.get_c() == 8 && ht.get_hw() == 8 && ht.get_g() == 4 && ht.get_d() == 2);
        CHECK(ht.get_bsCurLength() == 8 && ht.get_smallShape() && ht.get_factor() == 1.0f / 16);
        GenGroupNormTiling tl = gen<GenGroupNormTiling>(ht);
        auto x = alloc<float>(128), y = alloc<float>(128), m = alloc<float>(8), v = alloc<float>(8);
        auto g = alloc<float>(8), b = alloc<float>(8);
        put(x, iota(128)); put(g, iota(8)); put(b, iota(8));
        GroupNorm<float>(y, m, v, x, g, b, tmp_buf(mx), 1e-5f, tl);
        const std::vector<double> want = {
            0, 0, 0, 0, 0, 0, 0, 0,
            1.1084652, 1.3253956, 1.542326, 1.7592564, 1.9761869, 2.1931171, 2.4100475, 2.6269782,
            -1.2539563, -0.8200953, -0.38623452, 0.047626257, 0.48148715, 0.91534793, 1.3492088, 1.7830696,
            3.3253956, 3.9761868, 4.626978, 5.277769, 5.9285607, 6.579352, 7.230143, 7.8809347,
            -2.5079126, -1.6401906, -0.77246904, 0.095252514, 0.9629743, 1.8306959, 2.6984177, 3.5661392,
            5.542326, 6.626978, 7.71163, 8.796282, 9.880934, 10.965586, 12.050238, 13.134891,
            -3.7618694, -2.4602861, -1.1587038, 0.14287853, 1.4444613, 2.7460437, 4.0476265, 5.349209,
            7.7592564, 9.277769, 10.796282, 12.314795, 13.833308, 15.351821, 16.870335, 18.388847};
        CHECK(near(y, want, 2e-6, 1e-6, 0) && near(y, want, 2e-6, 1e-6, 64));   // n = 1 is the same
        CHECK(near(m, {7.5, 23.5, 39.5, 55.5, 71.5, 87.5, 103.5, 119.5}, 0, 0));
        CHECK(near(v, std::vector<double>(8, 21.25), 0, 0));   // biased variance, no epsilon in it
        // the same with the minimum buffer (one group per pass) and the framework buffer
        GetGroupNormNDTilingInfo(ge::Shape({2, 8, 4, 2}), mn, 4, false, 4, ht);
        CHECK(ht.get_bsCurLength() == 1 && ht.get_loopRound() == 8 && !ht.get_smallShape());
        tl = gen<GenGroupNormTiling>(ht);
        put(y, std::vector<double>(128, 0));
        GroupNorm<float>(y, m, v, x, g, b, 1e-5f, tl);
        CHECK(near(y, want, 2e-6, 1e-6, 64));
    }
    {   // half, H*W = 15 (dense layout), groupNum 3, against the reference
        g_top = 0;
        std::mt19937 rng(9);
        const uint32_t n = 2, c = 6, hw = 15, gn = 3, d = c / gn, tot = n * c * hw;
        const std::vector<double> xv = rounded<half>(rnd(tot, rng, -2, 4)), gv = rounded<half>(rnd(c, rng, -2, 2)),
                                  bv = rounded<half>(rnd(c, rng, -1, 1));
        uint32_t mx, mn;
        GetGroupNormMaxMinTmpSize(ge::Shape({n, c, 3, 5}), 2, false, gn, mx, mn);
        optiling::GroupNormTiling ht;
        GetGroupNormNDTilingInfo(ge::Shape({n, c, 3, 5}), mn + (mx - mn) / 2, 2, false, gn, ht);
        CHECK(ht.get_hwAlignSize() == 16 && ht.get_dhwAlignSize() == 32);
        GenGroupNormTiling tl = gen<GenGroupNormTiling>(ht);
        auto x = alloc<half>(tot), y = alloc<half>(tot), m = alloc<half>(16), v = alloc<half>(16), g = alloc<half>(16),
             b = alloc<half>(16);
        put(x, xv); put(g, gv); put(b, bv);
        GroupNorm<half>(y, m, v, x, g, b, tmp_buf(mn + (mx - mn) / 2), half(1e-5f), tl);
        std::vector<double> wy(tot), wm, wv;
        for (uint32_t k = 0; k < n * gn; ++k) {
            double mu, var;
            ref_stats(&xv[k * d * hw], d * hw, 1, mu, var);
            for (uint32_t i = 0; i < d * hw; ++i) {
                const uint32_t ch = (k % gn) * d + i / hw;
                const double rs = 1.0 / std::sqrt(var + double(float(half(1e-5f))));
                wy[k * d * hw + i] = (xv[k * d * hw + i] - mu) * rs * gv[ch] + bv[ch];
            }
            wm.push_back(mu); wv.push_back(var);
        }
        CHECK(near(y, wy, 2e-3, 2e-3) && near(m, wm, 1e-3, 1e-3) && near(v, wv, 1e-3, 1e-3));
        // strict checks
        EXPECT_FAIL("float inputs only", GroupNorm<half, true>(y, m, v, x, g, b, tmp_buf(mx), half(1e-5f), tl));
        EXPECT_FAIL("too small", GroupNorm<half>(y, m, v, x, g, b, tmp_buf(mn - 32), half(1e-5f), tl));
        GenGroupNormTiling bad = tl;
        bad.g = 4;
        EXPECT_FAIL("multiple of groupNum", GroupNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-5f), bad));
        EXPECT_FAIL("outputMean overlaps", GroupNorm<half>(y, x, v, x, g, b, tmp_buf(mx), half(1e-5f), tl));
        GetGroupNormNDTilingInfo(ge::Shape({n, c, 3, 5}), 64, 2, false, gn, ht);
        bad = gen<GenGroupNormTiling>(ht);
        EXPECT_FAIL("bsCurLength is 0", GroupNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-5f), bad));
        GetGroupNormMaxMinTmpSize(ge::Shape({n, c, 3, 5}), 2, false, 4, mx, mn);   // C not a multiple of groupNum
        CHECK(mx == 0 && mn == 0);
    }
}

// ================= BatchNorm =================
static void batchnorm_tests() {
    {   // docs' worked example: float [8, 4, 2], x = 0..63, gamma = beta = 0..7 (one per B row); eps 0.01 gives the
        // printed digits
        g_top = 0;
        uint32_t mx, mn;
        CHECK(GetBatchNormMaxMinTmpSize(ge::Shape({8, 4, 2}), ge::Shape({8, 4, 2}), 4, false, mx, mn));
        optiling::BatchNormTiling ht;
        CHECK(GetBatchNormNDTilingInfo(ge::Shape({8, 4, 2}), ge::Shape({8, 4, 2}), mn, 4, false, ht));
        CHECK(ht.get_originalBLength() == 8 && ht.get_meanVarSize() == 8 && ht.get_shCurLength() == 8);
        GenBatchNormTiling tl = gen<GenBatchNormTiling>(ht);
        auto x = alloc<float>(64), y = alloc<float>(64), m = alloc<float>(8), v = alloc<float>(8), g = alloc<float>(8),
             b = alloc<float>(8);
        put(x, iota(64)); put(g, iota(8)); put(b, iota(8));
        BatchNorm<float>(y, m, v, x, g, b, tmp_buf(mn), 0.01f, tl);
        const double rows[8] = {0., -0.091073155, 0.6907122, 2.345356, 4.8728585, 8.27322, 12.546439, 17.692516};
        bool ok = true;
        for (int r = 0; r < 8; ++r) ok = ok && near(y, std::vector<double>(8, rows[r]), 2e-6, 1e-6, size_t(r) * 8);
        CHECK(ok);
        CHECK(near(m, {28, 29, 30, 31, 32, 33, 34, 35}, 0, 0) && near(v, std::vector<double>(8, 336), 0, 0));
        BatchNorm<float>(x, m, v, x, g, b, 0.01f, tl);   // output may share inputX; framework buffer
        CHECK(near(x, std::vector<double>(8, rows[7]), 2e-6, 1e-6, 56));
    }
    {   // half, B padded from 5 to 16 (gamma/beta 32 B aligned), S*H = 48 in column blocks; rows past originB untouched
        g_top = 0;
        std::mt19937 rng(21);
        const uint32_t ob = 5, bp = 16, sh = 48;
        const std::vector<double> xv = rounded<half>(rnd(ob * sh, rng, -3, 3));
        const std::vector<double> gv = rounded<half>(rnd(ob, rng, 0.5, 2)), bv = rounded<half>(rnd(ob, rng, -1, 1));
        uint32_t mx, mn;
        CHECK(GetBatchNormMaxMinTmpSize(ge::Shape({bp, 4, 12}), ge::Shape({ob, 4, 12}), 2, false, mx, mn));
        optiling::BatchNormTiling ht;
        CHECK(GetBatchNormNDTilingInfo(ge::Shape({bp, 4, 12}), ge::Shape({ob, 4, 12}), mn, 2, false, ht));
        CHECK(ht.get_shCurLength() == 16 && ht.get_loopRound() == 3 && ht.get_firstDimValueBack() == 0.2f);
        GenBatchNormTiling tl = gen<GenBatchNormTiling>(ht);
        auto x = alloc<half>(bp * sh), y = alloc<half>(bp * sh), m = alloc<half>(sh), v = alloc<half>(sh);
        auto g = alloc<half>(bp), b = alloc<half>(bp);
        put(x, xv); put(g, gv); put(b, bv);
        BatchNorm<half>(y, m, v, x, g, b, tmp_buf(mn), half(1e-3f), tl);
        std::vector<double> wy(ob * sh), wm(sh), wv(sh);
        for (uint32_t j = 0; j < sh; ++j) {
            ref_stats(&xv[j], ob, sh, wm[j], wv[j]);
            for (uint32_t r = 0; r < ob; ++r)
                wy[r * sh + j] = (xv[r * sh + j] - wm[j]) / std::sqrt(wv[j] + double(float(half(1e-3f)))) * gv[r] +
                                 bv[r];
        }
        CHECK(near(y, wy, 2e-3, 2e-3) && near(m, wm, 1e-3, 1e-3) && near(v, wv, 1e-3, 1e-3));
        CHECK(untouched(y, ob * sh) && untouched(y, bp * sh - 1));
        // strict checks
        EXPECT_FAIL("too small", BatchNorm<half>(y, m, v, x, g, b, tmp_buf(mn - 32), half(1e-3f), tl));
        EXPECT_FAIL("isBasicBlock", BatchNorm<half, false, true>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), tl));
        CHECK(!GetBatchNormNDTilingInfo(ge::Shape({bp, 4, 12}), ge::Shape({ob, 4, 12}), mn, 2, false, ht, true));
        // S*H not aligned; a buffer below the minimum
        CHECK(!GetBatchNormMaxMinTmpSize(ge::Shape({bp, 3, 5}), ge::Shape({ob, 3, 5}), 2, false, mx, mn));
        CHECK(!GetBatchNormNDTilingInfo(ge::Shape({bp, 4, 12}), ge::Shape({ob, 4, 12}), 8, 2, false, ht));
        GenBatchNormTiling bad = tl;
        bad.meanVarSize = 15;
        EXPECT_FAIL("32-byte aligned", BatchNorm<half>(y, m, v, x, g, b, tmp_buf(mx), half(1e-3f), bad));
        EXPECT_OK(BatchNorm<half>(y, m, v, x, x, b, tmp_buf(kTmpBytes), half(1e-3f), tl));   // inputs may share
        EXPECT_FAIL("outputMean overlaps", BatchNorm<half>(y, y, v, x, g, b, tmp_buf(kTmpBytes), half(1e-3f), tl));
    }
}

// ================= DeepNorm =================
static void deepnorm_tests() {
    {   // docs' worked example: float [4, 2, 8], src = gx = 0..63, gamma = beta = 0..7. The printed values are those
        // of alpha = -5.5 and epsilon = 65504 (mean -15.75 = -4.5 * 3.5); rstdLocal shows the variance 106.3125.
        g_top = 0;
        uint32_t mx, mn;
        CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({4, 2, 8}), 4, false, false, mx, mn));
        optiling::DeepNormTiling ht;
        CHECK(GetDeepNormTilingInfo(ge::Shape({4, 2, 8}), ge::Shape({4, 2, 8}), mn, 4, false, false, ht));
        GenDeepNormTiling tl = gen<GenDeepNormTiling>(ht);
        auto x = alloc<float>(64), gx = alloc<float>(64), y = alloc<float>(64);
        auto m = alloc<float>(8), rs = alloc<float>(8), g = alloc<float>(8), b = alloc<float>(8);
        put(x, iota(64)); put(gx, iota(64)); put(g, iota(8)); put(b, iota(8));
        DeepNorm<float>(y, m, rs, x, gx, b, g, tmp_buf(mn), -5.5f, 65504.0f, tl);
        const std::vector<double> row = {0., 1.0439204, 2.0527046, 3.0263522, 3.9648638, 4.868239, 5.7364774, 6.56958};
        bool ok = true;
        for (size_t r = 0; r < 8; ++r) ok = ok && near(y, row, 2e-6, 1e-6, r * 8);
        CHECK(ok);
        CHECK(near(m, {-15.75, -51.75, -87.75, -123.75, -159.75, -195.75, -231.75, -267.75}, 0, 0));
        CHECK(near(rs, std::vector<double>(8, 106.3125), 0, 0));
    }
    {   // half, originH 20 of H 32, against the reference (statistics over originH)
        g_top = 0;
        std::mt19937 rng(4);
        const uint32_t bl = 2, sl = 3, h = 32, oh = 20, rows = bl * sl, n = rows * h;
        const std::vector<double> xv = rounded<half>(rnd(n, rng, -2, 2)), gxv = rounded<half>(rnd(n, rng, -2, 2)),
                                  gv = rounded<half>(rnd(h, rng, -2, 2)), bv = rounded<half>(rnd(h, rng, -1, 1));
        uint32_t mx, mn;
        CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({bl, sl, h}), 2, false, false, mx, mn));
        optiling::DeepNormTiling ht;
        CHECK(GetDeepNormTilingInfo(ge::Shape({bl, sl, h}), ge::Shape({bl, sl, oh}), mx, 2, false, false, ht));
        CHECK(ht.get_originalHLength() == oh && ht.get_lastDimValueBack() == 1.0f / 20);
        GenDeepNormTiling tl = gen<GenDeepNormTiling>(ht);
        auto x = alloc<half>(n), gx = alloc<half>(n), y = alloc<half>(n), m = alloc<half>(16), rs = alloc<half>(16),
             g = alloc<half>(h), b = alloc<half>(h);
        put(x, xv); put(gx, gxv); put(g, gv); put(b, bv);
        const float alpha = 1.75f;
        DeepNorm<half>(y, m, rs, x, gx, b, g, half(alpha), half(1e-4f), tl);
        std::vector<double> wy(n), wm, wv;
        for (uint32_t r = 0; r < rows; ++r) {
            std::vector<double> v(h);
            for (uint32_t j = 0; j < h; ++j) v[j] = alpha * xv[r * h + j] + gxv[r * h + j];
            double mu, var;
            ref_stats(v.data(), oh, 1, mu, var);
            for (uint32_t j = 0; j < h; ++j)
                wy[r * h + j] = (v[j] - mu) / std::sqrt(var + double(float(half(1e-4f)))) * gv[j] + bv[j];
            wm.push_back(mu); wv.push_back(var);
        }
        CHECK(near(y, wy, 2e-3, 3e-3) && near(m, wm, 1e-3, 1e-3) && near(rs, wv, 1e-3, 1e-3));
        // strict checks
        EXPECT_FAIL("isReuseSrc = false", DeepNorm<half>(x, m, rs, x, gx, b, g, half(alpha), half(1e-4f), tl));
        EXPECT_FAIL("float inputs only", DeepNorm<half, true>(y, m, rs, x, gx, b, g, half(alpha), half(1e-4f), tl));
        EXPECT_FAIL("too small", DeepNorm<half>(y, m, rs, x, gx, b, g, tmp_buf(mn - 32), half(alpha), half(1e-4f), tl));
        EXPECT_FAIL("isBasicBlock", DeepNorm<half, false, true>(y, m, rs, x, gx, b, g, half(alpha), half(1e-4f), tl));
        GenDeepNormTiling bad = tl;
        bad.hLength = 2048; bad.originalHLength = 2048;
        EXPECT_FAIL("2040", DeepNorm<half>(y, m, rs, x, gx, b, g, half(alpha), half(1e-4f), bad));
        CHECK(!GetDeepNormMaxMinTmpSize(ge::Shape({1, 8, 2048}), 2, false, false, mx, mn));
        CHECK(!GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 48}), 1 << 16, 2, false, true, ht));
        CHECK(!GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 80}), 1 << 16, 2, false, false, ht));
    }
}

// ================= WelfordUpdate / WelfordFinalize =================
static void welford_tests() {
    {   // WelfordUpdate docs' example: x = 1, mean = M = 0..63, abLength 64, abComputeLength 35, nRec 0.125, in place
        g_top = 0;
        uint32_t mx, mn;
        GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 4, false, true, mx, mn);
        CHECK(mn > 0 && mx >= mn);
        auto x = alloc<float>(64), im = alloc<float>(64), iv = alloc<float>(64);
        auto om = alloc<float>(64), ov = alloc<float>(64);
        put(x, std::vector<double>(64, 1)); put(im, iota(64)); put(iv, iota(64));
        WelfordUpdateParam para = {1, 64, 35, 0.125f};
        WelfordUpdate<float, float, false, WELFORD_UPDATE_ENABLE_INPLACE_CFG>(om, ov, im, iv, x, tmp_buf(mn), para);
        std::vector<double> wm(64), wv(64);
        const double vm[35] = {0.875, 1, 2.875, 6.5, 11.875, 19, 27.875, 38.5, 50.875, 65, 80.875, 98.5, 117.875, 139,
                               161.875, 186.5, 212.875, 241, 270.875, 302.5, 335.875, 371, 407.875, 446.5, 486.875, 529,
                               572.875, 618.5, 665.875, 715, 765.875, 818.5, 872.875, 929, 986.875};
        for (int j = 0; j < 64; ++j) {
            wm[j] = j < 35 ? 0.125 + 0.875 * j : j;
            wv[j] = j < 35 ? vm[j] : j;
        }
        CHECK(near(om, wm, 0, 0) && near(ov, wv, 0, 0));
        // default config: the columns past abComputeLength are not written
        put(om, std::vector<double>(64, -1)); put(ov, std::vector<double>(64, -1));
        WelfordUpdate<float, float>(om, ov, im, iv, x, {1, 64, 35, 0.125f});
        CHECK(near(om, {29.875, -1}, 0, 0, 34) && near(ov, {986.875, -1}, 0, 0, 34));
        // strict checks
        EXPECT_FAIL("rnLength", WelfordUpdate<float, float>(om, ov, im, iv, x, {2, 64, 35, 0.125f}));
        EXPECT_FAIL("multiple of 8", WelfordUpdate<float, float>(om, ov, im, iv, x, {1, 60, 35, 0.125f}));
        EXPECT_FAIL("abComputeLength", WelfordUpdate<float, float>(om, ov, im, iv, x, {1, 64, 0, 0.125f}));
        EXPECT_FAIL("outputMean overlaps", WelfordUpdate<float, float>(im, ov, im, iv, x, {1, 64, 35, 0.125f}));
        EXPECT_FAIL("too small", WelfordUpdate<float, float>(om, ov, im, iv, x, tmp_buf(mn - 32), para));
        auto xh = alloc<half>(64);
        put(xh, std::vector<double>(64, 1));
        EXPECT_FAIL("multiple of 16", WelfordUpdate<half, float>(om, ov, im, iv, xh, {1, 40, 35, 0.125f}));
    }
    {   // WelfordFinalize docs' example (counts): mean = var = 0..31, counts 4, abLength 32; rRec 1/4096 reproduces it
        g_top = 0;
        uint32_t mx, mn;
        GetWelfordFinalizeMaxMinTmpSize(ge::Shape({32}), 4, false, mx, mn);
        CHECK(mn > 0 && mx >= mn);
        auto im = alloc<float>(32), iv = alloc<float>(32), om = alloc<float>(8), ov = alloc<float>(8);
        auto cnt = alloc<int32_t>(32);
        put(im, iota(32)); put(iv, iota(32));
        for (int i = 0; i < 32; ++i) cnt.addr_[i] = 4;
        WelfordFinalizePara para = {1, 32, 0, 0, 0, 0, 1.0f / 32, 1.0f / 4096, 0};
        WelfordFinalize<false>(om, ov, im, iv, cnt, tmp_buf(mn), para);
        CHECK(near(om, {0.484375}, 0, 0) && near(ov, {9.831062}, 2e-7, 0));
        CHECK(untouched(om, 1) && untouched(ov, 7));   // only element 0 is written
        // strict checks
        WelfordFinalizePara bad = {1, 30, 4, 30, 0, 0, 1.0f / 30, 1.0f / 120, 0};
        EXPECT_FAIL("multiple of 8", WelfordFinalize<false>(om, ov, im, iv, bad));
        bad = {1, 32, 4, 24, 0, 8, 1.0f / 32, 1.0f / 128, 0};
        EXPECT_FAIL("tailCount = 0", WelfordFinalize<false>(om, ov, im, iv, bad));
        bad = {1, 32, 4, 24, 3, 4, 1.0f / 32, 1.0f / 128, 0};
        EXPECT_FAIL("must equal abLength", WelfordFinalize<false>(om, ov, im, iv, bad));
        EXPECT_FAIL("outputMean overlaps", WelfordFinalize<false>(im, ov, im, iv, cnt, para));
        EXPECT_FAIL("too small", WelfordFinalize<false>(om, ov, im, iv, cnt, tmp_buf(mn - 32), para));
    }
    // Update-then-finalize over a stream must give the whole data's mean and biased variance: R values per column
    // block of ab, fed in chunks of ab (the last chunk partial: a tail), then combined without counts.
    auto pipeline = [](auto tag, uint32_t ab, uint32_t total) {
        using T = decltype(tag);
        g_top = 0;
        std::mt19937 rng(17);
        const std::vector<double> data = rounded<T>(rnd(total, rng, -3, 5));
        const uint32_t rn = (total + ab - 1) / ab, tail = total % ab;
        auto x = alloc<T>(ab), m0 = alloc<float>(ab), v0 = alloc<float>(ab);
        auto m1 = alloc<float>(ab), v1 = alloc<float>(ab);
        auto om = alloc<float>(8), ov = alloc<float>(8);
        put(m0, std::vector<double>(ab, 0)); put(v0, std::vector<double>(ab, 0));
        for (uint32_t t = 0; t < rn; ++t) {
            const uint32_t len = (t == rn - 1 && tail) ? tail : ab;
            for (uint32_t j = 0; j < ab; ++j) x.addr_[j] = T(float(j < len ? data[t * ab + j] : 0.0));
            // the columns past a partial last chunk keep their state (in-place config): they hold one value less,
            // which is what WelfordFinalize's head and tail counts then describe
            const WelfordUpdateParam up = {1, ab, len, 1.0f / float(t + 1)};
            WelfordUpdate<T, float, false, WELFORD_UPDATE_ENABLE_INPLACE_CFG>(m1, v1, m0, v0, x, up);
            std::memcpy(m0.addr_, m1.addr_, ab * 4); std::memcpy(v0.addr_, v1.addr_, ab * 4);
        }
        WelfordFinalizePara para{};
        para.rnLength = rn; para.abLength = ab; para.abRec = 1.0f / float(ab); para.rRec = 1.0f / float(total);
        para.headCount = rn;
        para.headCountLength = tail ? tail : ab;
        para.tailCount = tail ? rn - 1 : 0;
        para.tailCountLength = tail ? ab - tail : 0;
        WelfordFinalize<false>(om, ov, m0, v0, para);
        double mu, var;
        ref_stats(data.data(), total, 1, mu, var);
        CHECK_MSG(near(om, {mu}, 1e-5, 1e-5) && near(ov, {var}, 1e-5, 1e-5), "Welford pipeline %s ab %u total %u",
                  ascsim::norm::tname<T>(), ab, total);
    };
    pipeline(float(), 16, 16 * 9);
    pipeline(half(), 32, 32 * 5 + 12);   // the last chunk is partial: head and tail counts
    pipeline(float(), 8, 8 * 7 + 3);
}

// ================= tiling structs: conversions and serialization =================
static void tiling_struct_tests() {
    // plain struct -> optiling -> plain round trip keeps every field
    tiling::GroupNormTiling p;
    GetGroupNormNDTilingInfo(ge::Shape({2, 16, 8, 8}), 1 << 15, 2, false, 4, p);
    optiling::GroupNormTiling o;
    GetGroupNormNDTilingInfo(ge::Shape({2, 16, 8, 8}), 1 << 15, 2, false, 4, o);
    const tiling::GroupNormTiling q = ascsim_hl::norm_from_host(o);
    CHECK(std::memcmp(&p, &q, sizeof p) == 0);
    CHECK(p.n == 2 && p.c == 16 && p.hw == 64 && p.g == 4 && p.d == 4 && p.meanVarSize == 8);
    // docs' GroupNorm tiling example: {2, 16, 8, 8}, half, groupNum 4, with the max size: one pass
    uint32_t mx, mn;
    GetGroupNormMaxMinTmpSize(ge::Shape({2, 16, 8, 8}), 2, false, 4, mx, mn);
    GetGroupNormNDTilingInfo(ge::Shape({2, 16, 8, 8}), mx, 2, false, 4, o);
    CHECK(o.get_bsCurLength() == 8 && o.get_loopRound() == 1 && o.get_smallShape());
    // a user TilingData nesting the structs: its serialized bytes read as the generated kernel-side struct
    optiling::NormTestTilingData td;
    td.set_totalLength(123);
    td.set_flag(7);
    uint32_t lmx, lmn;
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 16, 64, 64}), 2, false, lmx, lmn);
    GetLayerNormNDTilingInfo(ge::Shape({2, 16, 64, 64}), lmn, 2, false, td.layernormTilingData);
    GetGroupNormNDTilingInfo(ge::Shape({2, 16, 8, 8}), mx, 2, false, 4, td.groupNormTilingData);
    CHECK(td.GetDataSize() == sizeof(GenNormTestTilingData));
    std::vector<uint8_t> buf(td.GetDataSize());
    td.SaveToBuffer(buf.data(), buf.size());
    GenNormTestTilingData k;
    std::memcpy(&k, buf.data(), sizeof k);
    CHECK(k.totalLength == 123 && k.flag == 7);
    const GenLayerNormTiling& kl = k.layernormTilingData;
    CHECK(kl.bLength == 2 && kl.sLength == 16 && kl.hLength == 64 && kl.lastDimValueBack == 1.0f / 64);
    CHECK(kl.bsCurLength == td.layernormTilingData.get_bsCurLength());
    const GenGroupNormTiling& kg = k.groupNormTilingData;
    CHECK(kg.g == 4 && kg.smallShape && kg.factor == 1.0f / 256);
    // the kernel API consumes that struct
    g_top = 0;
    auto x = alloc<half>(2 * 16 * 64), y = alloc<half>(2 * 16 * 64), m = alloc<half>(32), v = alloc<half>(32),
         g = alloc<half>(64), b = alloc<half>(64);
    put(x, iota(2 * 16 * 64, -500)); put(g, std::vector<double>(64, 2)); put(b, std::vector<double>(64, 0.5));
    LayerNorm<half>(y, m, v, x, g, b, tmp_buf(lmn), half(1e-5f), k.layernormTilingData);
    CHECK(near(m, {-500 + 31.5, -500 + 95.5}, 1e-3, 0) && near(v, {(64.0 * 64 - 1) / 12}, 1e-3, 0));
    // the plain struct converts to the generated one
    tiling::RmsNormTiling rp;
    GetRmsNormTilingInfo(ge::Shape({1, 8, 32}), ge::Shape({1, 8, 30}), 1 << 14, 2, rp);
    const GenRmsNormTiling rg = rp;
    CHECK(rg.originalHLength == 30 && rg.bLength == 1 && rg.sLength == 8 && rg.mainBsLength == 8);
    // min <= max everywhere, and the tiling of the max holds every row
    CHECK(GetDeepNormMaxMinTmpSize(ge::Shape({3, 5, 64}), 4, true, false, mx, mn) && mn < mx);
    tiling::DeepNormTiling dt;
    const ge::Shape ds({3, 5, 64});
    CHECK(GetDeepNormTilingInfo(ds, ds, mx, 4, true, false, dt) && dt.bsCurLength == 15);
    CHECK(GetDeepNormTilingInfo(ds, ds, mx - 4, 4, true, false, dt) && dt.bsCurLength == 14);
}

int main() {
    Fixture fx;
    g_fx = &fx;
    layernorm_bsh_tests();
    layernorm_ar_tests();
    rmsnorm_tests();
    groupnorm_tests();
    batchnorm_tests();
    deepnorm_tests();
    welford_tests();
    tiling_struct_tests();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
